/* quatcheck/slerp_cr.h: the correctly rounded slerp (docs/slerp-cr.md), C and C++.
 *
 *   void qc_slerp_cr_f32(const float  q0[4], const float  q1[4], float  t, float  out[4]);
 *   void qc_slerp_cr_f64(const double q0[4], const double q1[4], double t, double out[4]);
 *
 * out[i] is the round-to-nearest-even, in the argument's format, of component i of the ideal slerp of
 * docs/reference.md taken on the exact inputs: a = q0/|q0|, b = q1/|q1|, b <- -b where a.b < 0 (a.b = 0
 * exactly keeps b), W = the angle between a and b, R = (sin((1-t)W) a + sin(tW) b) / sin W (R = a at W = 0).
 * Components in any order shared by q0, q1 and out (w, x, y, z as the plugin ABI). out may alias q0 or q1.
 *
 * Edge behaviour (docs/slerp-cr.md, "Definition"):
 *   - a NaN or infinite component of q0 or q1, or t NaN or infinite: out = four quiet NaNs;
 *   - q0 or q1 zero (all four components +-0): out = four NaNs (a zero quaternion has no direction);
 *   - t outside [0, 1]: refused, out = four NaNs (no extrapolation);
 *   - a component of R that is exactly zero is returned as +0; a nonzero one that rounds to zero keeps its
 *     sign (-0 for a negative value), as round-to-nearest does.
 * The result is proved correctly rounded except where the second phase reaches its precision cap
 * (QC_SLERP_CR_CAP_BITS): such a call returns the rounding of its cap-precision value, counts itself in
 * qc_slerp_cr_stats.capped and, through the _status variants, returns QC_SLERP_CR_CAPPED.
 *
 * Link: quatcheck::slerp_cr (CMake: find_package(quatcheck) and target_link_libraries(app PRIVATE
 * quatcheck::slerp_cr); or -lquatcheck_slerp_cr), the shared library libquatcheck_slerp_cr.so, which needs only
 * MPFR and GMP at run time. For f32 a phase 0 in plain double comes first; the first phase is the harness's
 * certified double-double reference, compiled into it; the second, MPFR. The header is C99 and C++ (any standard
 * from C++11); it includes nothing. In the harness's own build the same code is part of qc_core. Thread-safe; the
 * counters are process-wide atomics.
 */
#ifndef QUATCHECK_SLERP_CR_H
#define QUATCHECK_SLERP_CR_H

#ifdef __cplusplus
extern "C" {
#endif

/* The second phase's precision cap in bits (docs/slerp-cr.md, "Phase 2"). */
#define QC_SLERP_CR_CAP_BITS 4096

/* Status of one call (the _status variants). */
#define QC_SLERP_CR_OK 0     /* every component proved correctly rounded (or an exact case) */
#define QC_SLERP_CR_NAN 1    /* refused input: out is NaN (see above) */
#define QC_SLERP_CR_CAPPED 2 /* a component reached the cap: rounded from its cap-precision value, unproved */

void qc_slerp_cr_f32(const float q0[4], const float q1[4], float t, float out[4]);
void qc_slerp_cr_f64(const double q0[4], const double q1[4], double t, double out[4]);
int qc_slerp_cr_f32_status(const float q0[4], const float q1[4], float t, float out[4]);
int qc_slerp_cr_f64_status(const double q0[4], const double q1[4], double t, double out[4]);

/* Process-wide counters since start or the last reset (components unless said otherwise). */
struct qc_slerp_cr_stats {
    unsigned long long calls;        /* calls that computed (refused inputs not counted) */
    unsigned long long exact;        /* components decided as exact cases before any rounding test */
    unsigned long long phase1;       /* components decided by the first phase's rounding test */
    unsigned long long phase2;       /* components decided by MPFR (mpfr_can_round) */
    unsigned long long phase2_calls; /* calls with at least one component in phase 2 */
    unsigned long long capped;       /* components that reached QC_SLERP_CR_CAP_BITS undecided */
    unsigned long long max_bits;     /* the largest precision phase 2 used */
    unsigned long long phase0;       /* components decided by phase 0 (f32 only: plain double, proved bound) */
};
void qc_slerp_cr_get_stats(struct qc_slerp_cr_stats *out);
void qc_slerp_cr_reset_stats(void);

#ifdef __cplusplus
}

namespace quatcheck {
inline void slerp_cr(const float q0[4], const float q1[4], float t, float out[4]) { qc_slerp_cr_f32(q0, q1, t, out); }
inline void slerp_cr(const double q0[4], const double q1[4], double t, double out[4]) {
    qc_slerp_cr_f64(q0, q1, t, out);
}
}  // namespace quatcheck
#endif

#endif /* QUATCHECK_SLERP_CR_H */
