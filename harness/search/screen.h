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
//
// The screen object (Screen<T>, below) owns everything of this on the search's side: when the screens apply,
// the estimates (also those computed ahead for a generation out of process), the intervals the search compares
// on, their certification, and the counters run.json reports. The climb (search.cpp) only draws mutants, hands
// each with its output to Screen::measure, and keeps what it returns. Measurements behind the constants and
// the choices here: docs/worst-case-search.md.
#pragma once

#include "metrics/comparison.h"
#include "quatcheck/types.h"
#include "reference/fast_reference.h"
#include "reference/reference.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace qc {

constexpr double kScreenAbs = 0x1p-36;
constexpr double kScreenRel = 0x1p-40;
constexpr double kScreenDdAbs = 0x1p-88;

// The search's ordering key: an error rounded to 21 significant bits (search.cpp).
double rank_key(double e);

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

// Negative control for the tests: a damaged screen claims a quarter of its estimate (an upper bound that is
// too small), at both levels, which the validation must catch. Process-wide, off unless set; the CLI sets it
// from QC_DAMAGE_FAST_PATH=screen.
void set_screen_damaged(bool damaged);
bool screen_damaged();

// A case the search keeps track of, and its angle error: exact (certified), or known to lie in [lo, hi] from
// the double-double estimate, with err the estimate; its output is kept to certify it later.
template <class T> struct Kept {
    SlerpCase<T> c;
    double err;
    uint64_t key;  // the climb's hash of c
    double lo = err, hi = err;
    bool exact = true;
    Quat<T> out{};
};

// What the screen compares a mutant with: the pool's state and the two reported cases' lower ends.
struct ScreenBar {
    bool pool_full = false;
    double smallest = 0;       // the pool's smallest kept error
    double finite_max_lo = 0;  // the largest finite error so far (its interval's lower end)
    double best_lo = 0;        // the best case's
};

// The screens' estimates of one case (pure functions of the case), computed ahead while a generation's batch
// is with the implementation's process (Screen::precompute) and then used instead of computing them again.
struct ScreenEstimates {
    bool screen_done = false, screen_ok = false, dd_done = false, dd_ok = false;
    double R[4] = {0, 0, 0, 0};
    DDQuat R_dd;
    double abs_dot = 0;
};

template <class T> class Screen {
public:
    // enabled: the screens may apply (--reference fast, and the test switch of search_row); the comparison is
    // built in `mode` either way, and certifies every error the search reports.
    Screen(ReferenceMode mode, bool enabled);

    // Whether the screens apply now: a full pool whose errors stand well above the double-double estimate's
    // margin.
    bool on(const ScreenBar &bar) const { return enabled_ && bar.pool_full && bar.smallest > 16 * kScreenDdAbs; }

    // The estimates of a generation's cases, those the steps will want given the pool as it starts.
    void precompute(const std::vector<SlerpCase<T>> &batch, const ScreenBar &bar, std::vector<ScreenEstimates> &pre);

    // Measures mutant c with output r. False: the screen shows it changes nothing the search keeps or reports
    // (its certified reference skipped). True: e (c, its key and output set by the caller) holds its error,
    // certified or as the estimate's interval [lo, hi].
    bool measure(const SlerpCase<T> &c, const T r[4], const ScreenEstimates *est, const ScreenBar &bar, Kept<T> &e);

    // k's error certified (reference and metric on its kept output); an error outside the interval the estimate
    // claimed is a screen violation.
    void certify(Kept<T> &k);
    // a.err > b.err, decided on the intervals where they do not overlap, else on certified errors.
    bool greater(Kept<T> &a, Kept<T> &b);
    // rank_key(a.err) (search.cpp), a certified where its interval spans two keys.
    double key_of(Kept<T> &a);

    // The reference's counters (what the climb cost), with the screen's.
    ReferenceStats stats() const;
    // The reference's alone (a failed search reports these).
    const ReferenceStats &reference_stats() const { return cmp_.reference.stats(); }

private:
    bool coarse(const ScreenBar &bar) const { return bar.smallest > 16 * kScreenAbs; }
    static bool wants_dd(bool coarse) { return !coarse || std::is_same_v<T, double>; }
    // Decides e on the double-double estimate's interval (the tie band included).
    void interval(const SlerpCase<T> &c, const double q0[4], const double q1[4], const double rd[4], double estimate,
                  double abs_dot, Kept<T> &e);

    // Whether the screen's upper bound up shows a mutant changes nothing kept or reported (NaN: no).
    static bool skips(double up, const ScreenBar &bar) {
        return rank_key(up) <= rank_key(bar.smallest) && up <= bar.finite_max_lo && up <= bar.best_lo;
    }

    Comparator cmp_;
    bool enabled_;
    SlerpReference ref_;
    DDQuat R_dd_;
    uint64_t screened_ = 0, screened_dd_ = 0;         // every skip and check; skips by the second screen
    uint64_t deferred_ = 0, deferred_certified_ = 0;  // steps decided on the estimate's interval; of those, certified
    uint64_t checks_ = 0, violations_ = 0;
};

}  // namespace qc
