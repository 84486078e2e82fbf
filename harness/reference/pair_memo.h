// The MPFR reference's memo of one key pair (issue 45). ReferenceEngine::evaluate's first part depends on the
// pair (q0, q1) and the working precision only: the exact sign of q0.q1, the normalised ends a and b (b on the
// short arc), a.b rounded, and the arc W = 2 atan2(|a - b|, |a + b|) with sin W. Each thread keeps the last
// pair's (its precision in the key): an evaluation of the same pair at the same precision takes them from the
// memo and computes only what depends on t. The values are those the evaluation computes (the same MPFR
// operations, correctly rounded, on the same operands), so every result is bit for bit the same; a sweep along t
// (one pair, every t) then pays the pair's atan2 once per thread instead of once per validation sample.
#pragma once

namespace qc {

// Process-wide, on unless set (the sweep's shortcuts, sweep.h: QC_SWEEP_PLAIN=1 turns it off).
void set_mpfr_pair_memo(bool on);
bool mpfr_pair_memo();

}  // namespace qc
