// The worst-case search's screen: a double-precision estimate of a mutant's angle error, used under
// --reference fast to skip the certified reference for mutants that cannot change anything the search keeps
// or reports (the third, cheapest level of the fast path's cascade: double estimate -> certified
// double-double -> MPFR).
//
// The search (search.cpp) only needs to know, for most mutants, that the error is below the pool's
// smallest kept error. The screen evaluates the ideal slerp in plain double (the formula of reference.h:
// atan2 form on the short arc) and the rotation angle between the output and it, and returns an upper bound
//   err_up = err_e (1 + 2^-40) + kScreenAbs
// on the true angle error. kScreenAbs (2^-36) is about 2^13 times the double evaluation's actual error
// (a few units of 2^-53 on each component of a unit quaternion, times at most 6 in the angle), and the
// screen declines the cases where double cannot be trusted to that level (a.b within 2^-30 of zero, where
// the short arc's side or the tie band is in doubt; ends off the unit scale; t outside [0, 1]; a zero or
// non-finite output). The bound is not proved: it is validated. Every 64th screened-out mutant is also
// evaluated with the certified reference and its true error compared with err_up; a true error above it is
// counted in run.json (reference.search_screen.violations) and fails the test suite, like the fast path's
// own bound violations. A mutant the screen cannot skip is evaluated exactly as without the screen, so
// the search takes the same path and reports the same certified figures with and without it.
//
// A second screen takes the mutants the first cannot decide, where the pool's errors are too small for the
// double estimate's margin (every good f64 row: errors of about 2^-53 against a margin of 2^-36). It
// evaluates the same formula in plain double-double (estimate_slerp_dd, reference/fast_reference.h: the
// certified path's tables and series without its running bound, about 2^-100 per component) and measures
// the angle with the fast metric engine (double-double chords, final atan2 in double), and claims
//   err_up = err_e (1 + 2^-40) + kScreenDdAbs,
// kScreenDdAbs = 2^-88: 2^16 times the estimate's measured distance from the certified reference (2^-104),
// 2^5 times the distance the certified f64 reference itself may keep from the exact one (its tolerance
// 2^-93; typically 2^-98). Again validated, not proved: its skips are sampled and counted with the first
// screen's (run.json search_screen; screened_dd counts them).
#pragma once

#include <cmath>

namespace qc {

constexpr double kScreenAbs = 0x1p-36;
constexpr double kScreenRel = 0x1p-40;
constexpr double kScreenDdAbs = 0x1p-88;

// The ideal slerp of (q0, q1, t) in double, the ends normalised; false where the screen declines.
bool screen_slerp(const double q0[4], const double q1[4], double t, double R[4]);

// The rotation angle between the output r and the estimate R (4 atan2(|r^ - s R|, |r^ + s R|), as
// docs/metrics.md), in double, plus the margin above: an upper bound on the true angle error, or NaN where
// r is zero or not finite.
double screen_angle_upper(const double r[4], const double R[4]);

// The second screen's upper bound from the angle between the output and estimate_slerp_dd's value (NaN stays
// NaN: no skip).
double screen_dd_upper(double angle);

// The interval [lo, hi] the second screen claims for the true angle error from the same angle: hi as
// screen_dd_upper (at most pi), lo = angle (1 - 2^-40) - kScreenDdAbs (at least 0). The search decides on it where it can
// (search.cpp), and certifies every error it reports.
void screen_dd_interval(double angle, double &lo, double &hi);

// Negative control for the tests: QC_DAMAGE_FAST_PATH=screen makes the screen claim a quarter of its
// estimate (an upper bound that is too small), at both levels, which the validation must catch.
bool screen_damaged();

}  // namespace qc
