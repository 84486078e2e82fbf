// The arbitrary-precision reference: ideal slerp (and the exact normalised lerp) of a case whose inputs
// are taken as exact real numbers. One narrow interface; every driver (run, conform, curves, threshold,
// replay) asks it and nothing else computes a reference.
//
// Semantics (README "The reference"):
//   a = q0/|q0|, b = q1/|q1|; where a.b < 0, b <- -b (a.b == 0 exactly: keep b, the case is a tie);
//   W = 2 atan2(|a - b|, |a + b|);  R = (sin((1-t)W) a + sin(tW) b) / sin W,  R = a when W = 0.
//   N = ((1-t) a + t b) / |(1-t) a + t b|   (exact normalised lerp on the same arc).
// Working precision 2p + 32 bits. Validation: a random 1 in 64 cases and every ill-conditioned case
// (W < 2^-10, W > pi/2 - 2^-10, t < 2^-10, t > 1 - 2^-10) are recomputed 32 bits higher; where a
// component differs by more than 2^-(p+16) the precision is doubled until two evaluations agree.
#pragma once

#include "quatcheck/types.h"
#include "reference/real.h"

#include <cstdint>

namespace qc {

struct ReferenceStats {
    uint64_t cases = 0;          // reference evaluations asked for
    uint64_t recomputed = 0;     // cases recomputed at a higher precision for validation
    uint64_t disagreements = 0;  // recomputations that disagreed beyond 2^-(p+16)
    uint64_t escalations = 0;    // precision doublings caused by disagreements
    int max_bits = 0;            // highest working precision used

    void add(const ReferenceStats &o);
};

struct SlerpReference {
    RealQuat R;        // ideal slerp on the short arc (unit norm)
    RealQuat N;        // exact normalised lerp on the same arc (unit norm)
    RealQuat R_other;  // ideal slerp along the other arc (b negated); set only when in_tie_band
    RealQuat N_other;  // exact normalised lerp along the other arc; set only when in_tie_band
    double arc_w = 0;  // W, the angle between a and b on the 3-sphere, in [0, pi/2] (rotation angle 2W)
    double dot = 0;    // a.b before the flip, rounded to double
    bool tie = false;          // q0.q1 == 0 exactly
    bool in_tie_band = false;  // |a.b| <= 4 eps: a dot product in the implementation's format may round
                               // to either sign, so either arc is a legitimate choice
    bool ill_conditioned = false;
    int bits = 0;  // precision of the accepted evaluation
};

class ReferenceEngine {
public:
    // start_bits = 0 selects the working precision 2p + 32 for the given format. A smaller value is a
    // test hook to exercise escalation.
    explicit ReferenceEngine(Precision precision, int start_bits = 0);

    // Computes the reference of c into out. validate forces the recomputation at higher precision
    // (ill-conditioned cases are always validated).
    void slerp(const SlerpCase<float> &c, SlerpReference &out, bool validate);
    void slerp(const SlerpCase<double> &c, SlerpReference &out, bool validate);
    // The same on inputs given as doubles (exact for both formats).
    void slerp_exact(const double q0[4], const double q1[4], double t, SlerpReference &out, bool validate);

    const ReferenceStats &stats() const { return stats_; }
    int working_bits() const { return start_bits_; }
    Precision precision() const { return precision_; }
    // Agreement tolerance 2^-(p+16) (relative to the unit norm of the result).
    double tolerance() const;

private:
    void evaluate(const double q0[4], const double q1[4], double t, int bits, SlerpReference &out);
    bool agree(const SlerpReference &x, const SlerpReference &y);

    Precision precision_;
    int start_bits_;
    ReferenceStats stats_;
    SlerpReference check_;
    // Scratch variables, kept between calls to avoid allocation.
    Real n0_, n1_, tmp_, diff_, sum_, W_, sW_, s0_, s1_, v_[4], a_[4], b_[4], omt_, tt_, dot_;
    Real prod_[4], exact_dot_;
};

// Hash used to pick the 1-in-64 validation sample deterministically from (seed, case index).
bool sampled_for_validation(uint64_t seed, uint64_t index);

}  // namespace qc
