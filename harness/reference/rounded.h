// The correctly rounded value of the ideal slerp, as the `correctly-rounded` conformance property judges it
// (docs/conformance.md, docs/slerp-cr.md): every component of the ideal slerp of docs/reference.md on the exact
// inputs, rounded to nearest-even in the format. Evaluated independently of the correctly rounded routine
// (quatcheck/slerp_cr.h, whose phases use the atan2 / sine-weights formula): Shoemake's a (a^-1 b)^t through
// the quaternion log and exp of reference/quat_real.h, in MPFR.
#pragma once

#include "quatcheck/types.h"
#include "reference/real.h"

namespace qc {

// out[i] = RN_p(R_i), with R the ideal slerp of (q0, q1, t) on the exact inputs (given as doubles, exact for both
// formats), t in [0, 1], keys nonzero and finite. A component that is exactly zero by one of the classes of
// docs/slerp-cr.md ("Exact cases": zero in both keys, zero in the end a t of 0 or 1 returns, and at t = 1/2 a
// component symmetric in the two keys, a_i = -b_i) is +0.
//
// Each component is evaluated at 256 bits, then 1024, then 2048 where the enclosure R_i +- 2^(24 - P) does not
// round to one value of the format (the monotone test of docs/slerp-cr.md). 2^(24 - P) is the bound this
// evaluation is held to: the log/exp chain's first-order error is a few dozen roundings of 2^-P relative to the
// unit norm, and 2^24 covers it with a margin of at least 2^16; tests/rounded_reference_test.cpp checks it
// against the 4096-bit evaluation. Returns false (out unspecified) when 2048 bits do not decide a component:
// an exact zero outside those classes, or a value within 2^-2000 of a rounding boundary.
bool correctly_rounded_slerp(Precision p, const double q0[4], const double q1[4], double t, double out[4]);

// How far `got` (four values of the format) is from the correctly rounded slerp, in steps of the format: the largest
// format_steps_apart over the components (+inf for a NaN or inf component), with `want` receiving the rounding.
// false when correctly_rounded_slerp does not decide it (steps and want then unspecified). The correctly-rounded
// property, its explanation and quatcheck::testing's CorrectlyRounded() all judge through this.
bool steps_from_rounded_slerp(Precision p, const double q0[4], const double q1[4], double t, const double got[4],
                              double want[4], double &steps);

// The evaluation itself: the ideal slerp of (q0, q1, t) at `bits` (>= 128) into r (given that precision here), within
// 2^(24 - bits) of the exact value per component (the bound above).
void ideal_slerp_mp(int bits, const double q0[4], const double q1[4], double t, RealQuat &r);

// How far apart two values of the format are, in representable steps (0 when equal, +0 and -0 being equal;
// +inf when either is NaN or inf); exact up to 2^53 steps.
double format_steps_apart(Precision p, double a, double b);

}  // namespace qc
