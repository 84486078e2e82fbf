/* quatcheck plugin ABI, version 1.
 *
 * This header is all a plugin author needs. A plugin is a shared library that exports
 *
 *     const qc_impl_v1 *qc_plugin_v1(size_t *count);
 *
 * returning an array of *count descriptors that stays valid while the library is loaded.
 * Built-in implementations fill in the very same struct.
 *
 * Conventions
 *   - Quaternions are arrays of four numbers in (w, x, y, z) order, scalar part first.
 *   - Inputs are the caller's values, not necessarily of exact unit norm.
 *   - Every function pointer may be NULL: the operation is not supported in that precision.
 *     A family with any f32 pointer set is listed as FAMILY.f32, with any f64 pointer as FAMILY.f64.
 *   - Functions must be callable from several threads at once.
 *   - family: a non-empty printable ASCII name without spaces or dots, unique across loaded plugins.
 */
#ifndef QUATCHECK_PLUGIN_H
#define QUATCHECK_PLUGIN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QC_PLUGIN_ABI_VERSION 1

typedef struct qc_impl_v1 {
    const char *family;

    /* slerp(q0, q1, t): rotation at fraction t along the (shorter) arc from q0 to q1. */
    void (*slerp_f32)(const float q0[4], const float q1[4], float t, float out[4]);
    /* nlerp(q0, q1, t): normalised linear interpolation. */
    void (*nlerp_f32)(const float q0[4], const float q1[4], float t, float out[4]);
    /* squad(q_i, q_i+1, s_i, s_i+1, t): spherical quadrangle interpolation of one segment. */
    void (*squad_f32)(const float q0[4], const float q1[4], const float s0[4], const float s1[4],
                      float t, float out[4]);
    /* squad_setup(q_i-1, q_i, q_i+1): the control point s_i of key q_i. */
    void (*squad_setup_f32)(const float prev[4], const float cur[4], const float next[4], float s[4]);

    void (*slerp_f64)(const double q0[4], const double q1[4], double t, double out[4]);
    void (*nlerp_f64)(const double q0[4], const double q1[4], double t, double out[4]);
    void (*squad_f64)(const double q0[4], const double q1[4], const double s0[4],
                      const double s1[4], double t, double out[4]);
    void (*squad_setup_f64)(const double prev[4], const double cur[4], const double next[4],
                            double s[4]);
} qc_impl_v1;

/* The entry point a plugin exports. */
typedef const qc_impl_v1 *(*qc_plugin_v1_fn)(size_t *count);

#ifdef __cplusplus
}
#endif

#endif
