// The reference's memos of one key pair (issue 45): a sweep along t evaluates one pair (q0, q1) at every t, and
// part of every evaluation depends on the pair only. Each thread keeps the last pair's part of
//   - an MPFR evaluation (reference.cpp, ReferenceEngine::evaluate; its working precision in the key): the exact
//     sign of q0.q1, the normalised ends a and b (b on the short arc), a.b rounded, and the arc
//     W = 2 atan2(|a - b|, |a + b|) with sin W;
//   - the batch's lane kernels (fast_reference_lanes.h; the format's tie band and the tables in the key), where a
//     kernel's lanes share one pair: the lanes' range tests, the exact dot product's sign, a and b, a.b, the tie band, W
//     and its sine and cosine.
// An evaluation of the same pair takes them from the memo and computes only what depends on t. The values are
// those the evaluation computes (the same operations on the same operands, each correctly rounded), so every
// result is bit for bit the same (tests/fast_reference_batch_test.cpp, tests/sweep_identity.test.sh).
#pragma once

namespace qc {

// Process-wide, on unless set (the sweep's shortcuts, sweep.h: QC_SWEEP_PLAIN=1 turns both memos off).
void set_reference_pair_memo(bool on);
bool reference_pair_memo();

}  // namespace qc
