/* quatcheck plugin ABI, versions 1 and 2.
 *
 * This header is all a plugin author needs. A plugin is a shared library that exports
 *
 *     const qc_impl_v1 *qc_plugin_v1(size_t *count);
 *
 * returning an array of *count descriptors that stays valid while the library is loaded.
 * Built-in implementations fill in the very same struct.
 *
 * Version 2 (optional) adds parameterised routines: a plugin that also exports
 *
 *     const qc_impl_v2 *qc_plugin_v2(size_t *count);
 *
 * is read through that entry point instead (qc_plugin_v1 may be exported too, for older quatchecks, and is
 * then ignored). A qc_impl_v2 is a qc_impl_v1 (its first member, `base`) followed by the routines below.
 * Plugins that export only qc_plugin_v1 load exactly as before.
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
    void (*squad_f32)(const float q0[4], const float q1[4], const float s0[4], const float s1[4], float t,
                      float out[4]);
    /* squad_setup(q_i-1, q_i, q_i+1): the control point s_i of key q_i. */
    void (*squad_setup_f32)(const float prev[4], const float cur[4], const float next[4], float s[4]);

    void (*slerp_f64)(const double q0[4], const double q1[4], double t, double out[4]);
    void (*nlerp_f64)(const double q0[4], const double q1[4], double t, double out[4]);
    void (*squad_f64)(const double q0[4], const double q1[4], const double s0[4], const double s1[4], double t,
                      double out[4]);
    void (*squad_setup_f64)(const double prev[4], const double cur[4], const double next[4], double s[4]);
} qc_impl_v1;

/* The entry point a plugin exports. */
typedef const qc_impl_v1 *(*qc_plugin_v1_fn)(size_t *count);

#define QC_PLUGIN_ABI_VERSION_2 2

typedef struct qc_impl_v2 {
    qc_impl_v1 base; /* family and the v1 routines, with the same rules */

    /* slerp_tau(q0, q1, t, tau, out): the family's slerp with its fallback threshold as a parameter,
     * for `quatcheck threshold --impl FAMILY` (docs/threshold.md). tau is a threshold on the ends' dot
     * product d = q0.q1 (after the routine's own sign flip, if any): the routine takes its fallback
     * (e.g. a normalised lerp) when d > tau and its arc otherwise -- so tau = 2 must force the arc and
     * tau = -1 the fallback; the study measures each branch alone that way. A routine whose own test is
     * on another quantity (1 - d, sin^2) converts tau to it. NULL: not offered in that precision;
     * slerp_tau_f32 requires slerp_f32 (the routine at its shipped threshold), and likewise for f64. */
    void (*slerp_tau_f32)(const float q0[4], const float q1[4], float t, float tau, float out[4]);
    void (*slerp_tau_f64)(const double q0[4], const double q1[4], double t, double tau, double out[4]);
} qc_impl_v2;

/* The version-2 entry point. */
typedef const qc_impl_v2 *(*qc_plugin_v2_fn)(size_t *count);

#ifdef __cplusplus
}
#endif

#endif
