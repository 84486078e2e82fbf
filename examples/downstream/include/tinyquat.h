/* tinyquat: a tiny quaternion library, the downstream example of quatcheck (README.md beside this file).
 * Quaternions are (w, x, y, z), scalar first. */
#ifndef TINYQUAT_H
#define TINYQUAT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Above this |q0.q1| the keys are nearly equal: sin(theta) is close to 0 and the slerp weights lose their
 * precision, so tq_slerp falls back to a normalised linear interpolation. */
#define TQ_LERP_THRESHOLD 0.9995

/* Spherical linear interpolation from q0 (t = 0) to q1 (t = 1) along the shorter arc. */
void tq_slerp(const double q0[4], const double q1[4], double t, double out[4]);
void tq_slerpf(const float q0[4], const float q1[4], float t, float out[4]);

#ifdef __cplusplus
}
#endif
#endif
