// The arbitrary-precision squad reference (docs/squad.md). For a track of keys q_0 .. q_{n-1} given as
// exact numbers:
//   1. every key is normalised, and the track is made hemisphere-consistent: walking from q_0, key q_{i+1}
//      is negated when q_i.q_{i+1} < 0 (exact sign; a dot of exactly 0 keeps the key);
//   2. control points s_i = q_i exp(-(log(q_i^-1 q_{i+1}) + log(q_i^-1 q_{i-1})) / 4); the end keys are
//      their own missing neighbour (q_{-1} = q_0, q_n = q_{n-1});
//   3. segment i at t in [0, 1]: squad = slerp(slerp(q_i, q_{i+1}, t), slerp(s_i, s_{i+1}, t), 2t(1-t)),
//      every slerp in Shoemake's form a (a^-1 b)^t WITHOUT a short-arc flip.
// With these control points the curve is C^1 at every key in exact arithmetic; the reference measures its
// own angular-velocity jump (second-order one-sided differences with step 2^-floor(bits/3)), which must be
// at rounding level.
// Validation as the slerp reference: working precision 2p + 32 bits; a sampled track and every
// ill-conditioned track (consecutive keys with arc < 2^-10 or |dot| < 2^-10) are recomputed at twice the
// precision, and where a point or control point differs by more than 2^-(p+16) the precision doubles again
// until two evaluations agree. Counters in ReferenceStats.
#pragma once

#include "quatcheck/types.h"
#include "reference/quat_real.h"
#include "reference/reference.h"

#include <array>
#include <vector>

namespace qc {

struct SquadQuery {
    size_t segment = 0;  // 0 .. keys - 2
    double t = 0;
};

struct SquadTrackReference {
    std::vector<RealQuat> keys;      // unit, hemisphere-consistent
    std::vector<bool> key_negated;   // true where the hemisphere walk negated the stored key
    std::vector<RealQuat> controls;  // s_i
    std::vector<RealQuat> points;    // the curve at each query
    std::vector<double> c1_jump;     // per key: |omega(t_i-) - omega(t_i+)| / mean |omega|; NaN at end keys
    std::vector<double> key_speed;   // per key: mean |omega| (rad of rotation per unit t); NaN at end keys
    double c1_step = 0;              // difference step h used for c1_jump
    bool ill_conditioned = false;
    int bits = 0;
};

using KeyTrack = std::vector<std::array<double, 4>>;

class SquadReferenceEngine {
public:
    explicit SquadReferenceEngine(Precision precision, int start_bits = 0);

    // Throws InputError for fewer than 2 keys, a non-finite or zero key, or a query outside the track.
    void evaluate(const KeyTrack &keys, const std::vector<SquadQuery> &queries, SquadTrackReference &out,
                  bool validate);

    const ReferenceStats &stats() const { return stats_; }
    double tolerance() const;  // 2^-(p+16)
    Precision precision() const { return precision_; }

private:
    void compute(const KeyTrack &keys, const std::vector<SquadQuery> &queries, int bits, SquadTrackReference &out);
    bool agree(const SquadTrackReference &x, const SquadTrackReference &y) const;

    Precision precision_;
    int start_bits_;
    ReferenceStats stats_;
};

// Curve point of segment i at t in the given (already prepared) track: exposed for tests.
void squad_point(RealQuatOps &ops, const SquadTrackReference &track, size_t segment, const Real &t, RealQuat &out);

}  // namespace qc
