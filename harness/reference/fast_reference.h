// The fast reference: the ideal slerp of reference.h evaluated in double-double, every step carrying a
// rigorous bound on its absolute error (dd::DB), in the manner of CORE-MATH's and CRlibm's fast paths
// (Ziv's strategy: a cheap evaluation with a proven error bound, multiprecision only where the bound cannot
// decide). See fast_reference.cpp for the error analysis of each step.
#pragma once

#include "reference/reference.h"

#include <cstddef>

namespace qc {

enum class FastOutcome {
    certified,        // out holds the reference; every component within out.fast_bound <= fast_tolerance()
    undecided_sign,   // the sign of q0.q1 (or its exact zero) was not decided by the error-free sum
    bound_too_wide,   // the final bound exceeds fast_tolerance()
    ill_conditioned,  // an input or intermediate outside the fast path's range, or a rounding (a.b or W to
                      // double, the tie band's edge) the bound cannot decide
};

// The fast path accepts a value whose every component is certified to 2^-(p+40), 2^24 times tighter than
// the MPFR path's agreement tolerance 2^-(p+16) (ReferenceEngine::tolerance()), so that the metrics'
// printed digits do not depend on which path decided a case.
double fast_tolerance(Precision p);

// Where its bound cannot prove the rounding of W to double, the fast path still accepts W's nearest double
// (arc_w only bins cases and sizes tolerances) when W's absolute bound is at most this; arc_w then lies
// within 2 kFastArcBound of the MPFR path's (the validation compares them so).
constexpr double kFastArcBound = 0x1p-90;

// Evaluates the reference of (q0, q1, t) given exactly as doubles. On `certified` every field of out but the
// MPFR ones (R_mp...) is set; otherwise out's contents are unspecified.
// want_nlerp = false leaves N and N_other NaN (not computed, not certified).
FastOutcome fast_slerp_reference(const double q0[4], const double q1[4], double t, Precision p, SlerpReference &out,
                                 bool want_nlerp = true);

// The ideal slerp's four components R[i] with their own absolute error bounds R[i].err (not their maximum), for
// the correctly rounded slerp's first phase (reference/slerp_cr.cpp). The same evaluation as
// fast_slerp_reference, without N and the other arc, on a narrower domain: false (the caller goes to MPFR)
// wherever fast_slerp_reference would flush tiny components or refuse; 0 < t < 2^-300 is evaluated at t = 0 with
// 4t added to every bound, as there. On true every bound includes kEpsFloor. tie receives whether q0.q1 = 0
// exactly.
bool fast_slerp_components(const double q0[4], const double q1[4], double t, dd::DB R[4], bool &tie);

// The same for n cases (q0[i], q1[i], t[i]): out[i] and outcomes[i] are exactly what fast_slerp_reference
// gives for case i (every field, bit for bit, and the outcome). Where the CPU has AVX2 and FMA and the scalar path is
// not forced (set_force_scalar), the cases go through a vectorised copy of the common branch
// (fast_reference_lanes.h): eight at a time where the CPU also has AVX-512 F and DQ (fast_reference_avx512.cpp),
// four at a time otherwise and for the rest (fast_reference_avx2.cpp); a case that leaves it is evaluated by
// fast_slerp_reference.
void fast_slerp_reference_batch(const double (*q0)[4], const double (*q1)[4], const double *t, size_t n, Precision p,
                                SlerpReference *out, FastOutcome *outcomes, bool want_nlerp = true);
// Whether fast_slerp_reference_batch runs vectorised code in this process (CPU support, and not forced scalar), and
// the widest kernel it runs: 8 (AVX-512), 4 (AVX2) or 0 (scalar).
bool fast_batch_vectorised();
int fast_batch_lanes();
// Process-wide, 8 unless set: the widest kernel fast_slerp_reference_batch may run (4: the AVX2 kernel even where
// the CPU has AVX-512; for the tests' identity of both widths and the bench's side-by-side ratio).
void set_fast_batch_lanes_limit(int lanes);
// Process-wide, false unless set; the CLI sets it from the environment variable QC_FORCE_SCALAR=1.
void set_force_scalar(bool scalar);
bool force_scalar();

// The ideal slerp of (q0, q1, t) (the ends normalised, the short arc) in plain double-double, without a
// bound: the worst-case search's second screen (search/screen.h). Error about 2^-100 per component, not
// proved but checked by sampling there. Where |a.b| is below about 2^-100 the arc's side is a guess, and the
// estimate is that of either arc (both within the tie band). false where t is outside [0, 1] or an end is
// off the unit scale.
// abs_dot, when given, receives |a.b| rounded to double (the tie band's test: there the metrics measure
// against the nearer arc, so the estimate's error is an upper bound of the metric's, not an estimate of it).
// other_arc: the estimate along the other arc (b negated after the choice), for the tie band.
bool estimate_slerp_dd(const double q0[4], const double q1[4], double t, DDQuat &R, double *abs_dot = nullptr,
                       bool other_arc = false);

// Negative controls for the tests (a deliberately damaged fast path must be caught by the validation).
enum class FastDamage {
    none,
    sine_coefficient,  // the r^5/5! coefficient of the sine series perturbed by 2^-30 (relative)
    bound_too_small,   // every certified bound divided by 2^20
    batch_lane,        // the batch's lane 1 in every kernel block: R[0] times 1 + 2^-20 (the scalar path unchanged)
};
// Process-wide, none unless set; the CLI sets it from the environment variable QC_DAMAGE_FAST_PATH
// (sine_coefficient | bound_too_small | batch_lane) so that an end-to-end test can damage the CLI's fast path.
void set_fast_damage(FastDamage d);
FastDamage fast_damage();

}  // namespace qc
