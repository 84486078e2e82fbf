// The arbitrary-precision reference: ideal slerp (and the exact normalised lerp) of a case whose inputs
// are taken as exact real numbers. One narrow interface; every driver (run, conform, curves, threshold,
// replay) asks it and nothing else computes a reference.
//
// Semantics (docs/reference.md):
//   a = q0/|q0|, b = q1/|q1|; where a.b < 0, b <- -b (a.b == 0 exactly: keep b, the case is a tie);
//   W = 2 atan2(|a - b|, |a + b|);  R = (sin((1-t)W) a + sin(tW) b) / sin W,  R = a when W = 0.
//   N = ((1-t) a + t b) / |(1-t) a + t b|   (exact normalised lerp on the same arc).
// Working precision 2p + 32 bits. Validation: a random 1 in 64 cases and every ill-conditioned case
// (W < 2^-10, W > pi/2 - 2^-10, t < 2^-10, t > 1 - 2^-10) are recomputed 32 bits higher; where a
// component differs by more than 2^-(p+16) the precision is doubled until two evaluations agree.
//
// Two modes (--reference): `mpfr` evaluates every case as above. `fast` (the default of every command)
// first evaluates the same formula in double-double with a rigorous running error bound
// (reference/fast_reference.h); where the bound certifies every component of R and N (and of the other
// arc's in the tie band) to fast_tolerance(p) the fast value is the reference, otherwise the MPFR path runs.
// A pseudo-random 1 in 64 of the certified cases is also evaluated by MPFR: a difference larger than the
// fast path's own bound is a bug, counted in ReferenceStats::fast_bound_violations.
#pragma once

#include "quatcheck/types.h"
#include "reference/dd.h"
#include "reference/real.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace qc {

enum class ReferenceMode { fast, mpfr };
enum class FastOutcome;  // fast_reference.h
const char *to_string(ReferenceMode m);
std::optional<ReferenceMode> parse_reference_mode(std::string_view s);
// --reference's default, decided here once: every command's option and every options struct start from it.
inline constexpr ReferenceMode kDefaultReferenceMode = ReferenceMode::fast;

// A quaternion as four unevaluated sums hi + lo of two doubles.
using DDQuat = std::array<dd::DD, 4>;

struct ReferenceStats {
    uint64_t cases = 0;          // reference evaluations asked for
    uint64_t recomputed = 0;     // cases recomputed at a higher precision for validation
    uint64_t disagreements = 0;  // recomputations that disagreed beyond 2^-(p+16)
    uint64_t escalations = 0;    // precision doublings caused by disagreements
    int max_bits = 0;            // highest working precision used
    // ReferenceMode::fast: how each case was decided.
    uint64_t fast_certified = 0;            // the double-double value, certified by its bound, is the reference
    uint64_t fallback_undecided_sign = 0;   // the bound could not decide the sign of a.b (or a.b = 0 exactly)
    uint64_t fallback_bound_too_wide = 0;   // the final bound exceeded fast_tolerance(p)
    uint64_t fallback_ill_conditioned = 0;  // W, t, a norm or an intermediate outside the fast path's range,
                                            // or the tie-band / rounding edges undecided by the bound
    uint64_t validation_samples = 0;        // certified cases also evaluated by MPFR and compared
    uint64_t fast_bound_violations = 0;     // validation samples whose MPFR value lies outside the bound
    double max_error_to_bound = 0;          // largest |fast - MPFR| / bound over the validation samples
    // The worst-case search's screen (search/screen.h), --reference fast: climbing steps decided without a
    // reference, those of them also evaluated with the certified reference to check the screen, and checks
    // whose certified error exceeded the screen's upper bound (a bug: any nonzero count fails the tests).
    uint64_t screened = 0;
    uint64_t screened_dd = 0;         // of them, decided by the double-double estimate (the second screen)
    uint64_t deferred = 0;            // steps not screened out whose error was decided on the double-double
                                      // estimate's interval, certified only where needed:
    uint64_t deferred_certified = 0;  // certified evaluations of such steps (1 in 64 at once as a check, the
                                      // cases reported, and comparisons the intervals could not decide); an
                                      // error outside its interval counts as a screen violation
    uint64_t screen_checks = 0;
    uint64_t screen_violations = 0;

    void add(const ReferenceStats &o);
    uint64_t fallbacks() const { return fallback_undecided_sign + fallback_bound_too_wide + fallback_ill_conditioned; }
};

struct SlerpReference {
    // Double-double values, always set (rounded from MPFR when the MPFR path decided the case; the
    // rounding error, <= 2^-105 relative, is far below every printed figure).
    DDQuat R;        // ideal slerp on the short arc (unit norm)
    DDQuat N;        // exact normalised lerp on the same arc (unit norm)
    DDQuat R_other;  // ideal slerp along the other arc (b negated); set only when in_tie_band
    DDQuat N_other;  // exact normalised lerp along the other arc; set only when in_tie_band (NaN where
                     // the other arc's lerp vanishes: b = -a at t = 1/2)
    // The same in arbitrary precision: set only when mpfr_evaluated (ReferenceMode::mpfr always).
    RealQuat R_mp, N_mp, R_other_mp, N_other_mp;
    bool mpfr_evaluated = false;
    double fast_bound = 0;         // fast path: the certified bound on every component (0 when MPFR decided)
    double arc_w = 0;              // W, the angle between a and b on the 3-sphere, in [0, pi/2] (rotation angle 2W)
    double dot = 0;                // a.b before the flip, rounded to double
    bool tie = false;              // q0.q1 == 0 exactly
    bool in_tie_band = false;      // |a.b| <= 4 eps: a dot product in the implementation's format may round
                                   // to either sign, so either arc is a legitimate choice
    bool ill_conditioned = false;  // ill_conditioned_case(arc_w, t)
    int bits = 0;                  // precision of the accepted evaluation
};

// The tie band: |a.b| at most this (4 eps of the format), where a dot product in the implementation's format may round
// to either sign, so that either arc is a legitimate choice (SlerpReference::in_tie_band; the metrics then measure
// against the nearer arc).
inline double tie_band(Precision p) { return 4.0 * precision_eps(p); }

// The cases near the ends of the W and t ranges (W < 2^-10, W > pi/2 - 2^-10, t < 2^-10, t > 1 - 2^-10): every
// reference path flags them (SlerpReference::ill_conditioned), and the MPFR path recomputes them for validation.
inline bool ill_conditioned_case(double arc_w, double t) {
    const double edge = 0x1p-10;
    return arc_w < edge || arc_w > M_PI / 2 - edge || t < edge || t > 1 - edge;
}

class ReferenceEngine {
public:
    // The mode has no default: every caller says fast or mpfr (a driver pairs it with its metric engine through
    // metrics/comparison.h). start_bits = 0 selects the working precision 2p + 32 for the given format. A
    // smaller value is a test hook to exercise escalation.
    ReferenceEngine(Precision precision, ReferenceMode mode, int start_bits = 0);

    // Computes the reference of c into out. validate forces the recomputation at higher precision
    // (ill-conditioned cases are always validated).
    void slerp(const SlerpCase<float> &c, SlerpReference &out, bool validate);
    void slerp(const SlerpCase<double> &c, SlerpReference &out, bool validate);
    // The same on inputs given as doubles (exact for both formats).
    void slerp_exact(const double q0[4], const double q1[4], double t, SlerpReference &out, bool validate);
    // n cases at once: out[i] and the stats exactly as n calls slerp(cases[i], out[i], validate[i]) in order
    // give them. ReferenceMode::fast evaluates the block with fast_slerp_reference_batch (AVX2 where the CPU
    // has it), then settles each case in order (validation sample, MPFR fallback) as slerp does.
    void slerp_batch(const SlerpCase<float> *cases, size_t n, SlerpReference *out, const bool *validate);
    void slerp_batch(const SlerpCase<double> *cases, size_t n, SlerpReference *out, const bool *validate);

    const ReferenceStats &stats() const { return stats_; }
    int working_bits() const { return start_bits_; }
    Precision precision() const { return precision_; }
    ReferenceMode mode() const { return mode_; }
    // Whether N (and N_other) are wanted: a driver measuring only the slerp op turns them off (they are then
    // NaN), which saves a quarter of a fast evaluation. Default on.
    void set_nlerp_wanted(bool wanted) { want_nlerp_ = wanted; }
    // Agreement tolerance 2^-(p+16) (relative to the unit norm of the result).
    double tolerance() const;
    // The fast path's validation sample at a stated rate (issue 45): with log2_rate >= 0, a certified case is
    // checked against MPFR (check_fast) when the hash of its inputs and the seed has log2_rate low zero bits,
    // 1 case in 2^log2_rate, whatever its index, thread or shard; the validate flags then decide only the
    // recomputation of the MPFR cases (unchanged, so the reference values and every figure are those of any
    // other rate). The default, -1, checks the certified cases whose validate flag is set, as before.
    void set_fast_check_rate(int log2_rate, uint64_t seed) { fast_check_log2_ = log2_rate, fast_check_seed_ = seed; }

private:
    template <class T>
    void slerp_batch_of(const SlerpCase<T> *cases, size_t n, SlerpReference *out, const bool *validate);
    // Counts the case and refuses non-finite inputs (InputError).
    void admit(const double q0[4], const double q1[4], double t);
    // The fast path's outcome o for the case in out: certified (validated when asked), else the MPFR path.
    void settle(const double q0[4], const double q1[4], double t, SlerpReference &out, bool validate, FastOutcome o);
    void evaluate(const double q0[4], const double q1[4], double t, int bits, SlerpReference &out);
    bool agree(const SlerpReference &x, const SlerpReference &y);
    void slerp_mpfr(const double q0[4], const double q1[4], double t, SlerpReference &out, bool validate);
    void check_fast(const double q0[4], const double q1[4], double t, const SlerpReference &fast);

    Precision precision_;
    ReferenceMode mode_;
    bool want_nlerp_ = true;
    int fast_check_log2_ = -1;  // set_fast_check_rate
    uint64_t fast_check_seed_ = 0;
    int start_bits_;
    ReferenceStats stats_;
    SlerpReference check_, mpfr_check_;
    // Scratch variables, kept between calls to avoid allocation.
    Real n0_, n1_, tmp_, diff_, sum_, W_, sW_, s0_, s1_, v_[4], a_[4], b_[4], omt_, tt_, dot_;
    Real prod_[4], exact_dot_;
    // slerp_batch's scratch
    std::vector<std::array<double, 4>> batch_q0_, batch_q1_;
    std::vector<double> batch_t_;
    std::vector<FastOutcome> batch_outcome_;
};

// x rounded to the nearest unevaluated sum hi + lo of two doubles (|error| <= 2^-106 |x| barring underflow).
dd::DD round_to_dd(const Real &x);

// Precision of the MPFR evaluations that validate the fast path.
constexpr int kFastCheckBits = 128;

// Hash used to pick the 1-in-64 validation sample deterministically from (seed, case index).
bool sampled_for_validation(uint64_t seed, uint64_t index);
// Whether a case is in a 1-in-2^log2_rate sample chosen from its inputs' bits and a seed (set_fast_check_rate).
bool sampled_by_inputs(uint64_t seed, const double q0[4], const double q1[4], double t, int log2_rate);
// The rate of `quatcheck run`'s fast-path validation (issue 45): the smallest, at most 1 in 1024, at which
// cases_per_precision cases give an expected kFastChecksWanted checks or more, so that at least 1,000 are
// checked with a probability above 1 - 10^-36 (Chernoff: exp(-1500 (1/3)^2 / 2)); docs/reference.md; paranoid: 1 in 64.
constexpr double kFastChecksWanted = 1500;
int fast_check_rate_log2(uint64_t cases_per_precision, bool paranoid);

}  // namespace qc
