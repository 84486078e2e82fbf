// Test hooks of the correctly rounded slerp (quatcheck/slerp_cr.h, reference/slerp_cr.cpp): negative controls and
// the second phase's precisions, process-wide. Not for users.
#pragma once

namespace qc::slerp_cr {

enum class Damage {
    none,
    value_shift,       // phases 0 and 1's values moved by 2^-(p+8) relative, bounds unchanged (a bound too small)
    no_rounding_test,  // phases 0 and 1 return their candidate (RN of the double, or of the double-double's hi)
                       // without the rounding test
    bound_halved,      // phases 0 and 1 test against half their bounds
};
void set_damage(Damage d);

// The second phase's first and last precisions (defaults 128 and QC_SLERP_CR_CAP_BITS); 0 restores the default.
void set_phase2_bits(int start_bits, int cap_bits);
// Skips phases 0 and 1 (every component not filtered as exact goes to MPFR): the tests' way to exercise phase 2.
void set_skip_phase1(bool skip);
// Skips phase 0 only (f32 then starts at phase 1, as before phase 0 existed).
void set_skip_phase0(bool skip);

// Phase 0's evaluation (docs/slerp-cr.md, "Phase 0") on floats held exactly in doubles, t in [0, 1]: each R[i]
// within e[i] of the exact component.
void phase0_values(const double q0[4], const double q1[4], double t, double R[4], double e[4]);

// The absolute error bound of the MPFR evaluation at precision P (P >= 128): 2^(kBoundExp - P) per component
// (docs/slerp-cr.md, "Phase 2").
constexpr int kBoundExp = 8;

}  // namespace qc::slerp_cr
