// Test hooks of the correctly rounded slerp (quatcheck/slerp_cr.h, reference/slerp_cr.cpp): negative controls and
// the second phase's precisions, process-wide. Not for users.
#pragma once

namespace qc::slerp_cr {

enum class Damage {
    none,
    value_shift,  // phase 1's value moved by 2^-(p+8) relative with its bound unchanged (a bound too small)
};
void set_damage(Damage d);

// The second phase's first and last precisions (defaults 128 and QC_SLERP_CR_CAP_BITS); 0 restores the default.
void set_phase2_bits(int start_bits, int cap_bits);
// Skips phase 1 (every component not filtered as exact goes to MPFR): the tests' way to exercise phase 2.
void set_skip_phase1(bool skip);

// The absolute error bound of the MPFR evaluation at precision P (P >= 128): 2^(kBoundExp - P) per component
// (docs/slerp-cr.md, "Phase 2").
constexpr int kBoundExp = 8;

}  // namespace qc::slerp_cr
