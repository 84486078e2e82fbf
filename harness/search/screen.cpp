// The search's screen (screen.h): the ideal slerp and the rotation angle in plain double.
#include "search/screen.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

namespace qc {

namespace {

bool unit_scale(double n) { return n >= 0x1p-300 && n <= 0x1p300; }

// A screen's claimed upper bound on the true error from its estimate e: e (1 + 2^-40) + abs (a quarter of e
// when damaged, the negative control: set_screen_damaged).
double claimed_upper(double e, double abs) {
    if (screen_damaged()) e *= 0.25;
    return e * (1 + kScreenRel) + abs;
}

}  // namespace

namespace {
std::atomic<bool> g_screen_damaged{false};
}  // namespace

void set_screen_damaged(bool damaged) { g_screen_damaged.store(damaged); }

bool screen_damaged() { return g_screen_damaged.load(std::memory_order_relaxed); }

bool screen_slerp(const double q0[4], const double q1[4], double t, double R[4]) {
    if (!(t >= 0 && t <= 1)) return false;
    double a[4], b[4], n0 = 0, n1 = 0;
    for (int i = 0; i < 4; i++) n0 += q0[i] * q0[i], n1 += q1[i] * q1[i];
    n0 = std::sqrt(n0), n1 = std::sqrt(n1);
    if (!unit_scale(n0) || !unit_scale(n1)) return false;
    double dot = 0;
    for (int i = 0; i < 4; i++) a[i] = q0[i] / n0, b[i] = q1[i] / n1, dot += a[i] * b[i];
    if (!(std::fabs(dot) > 0x1p-30)) return false;  // the short arc's side (and the tie band) in doubt
    const double s = dot < 0 ? -1 : 1;
    double dm = 0, dp = 0;
    for (int i = 0; i < 4; i++) {
        b[i] *= s;
        dm += (a[i] - b[i]) * (a[i] - b[i]), dp += (a[i] + b[i]) * (a[i] + b[i]);
    }
    const double sm = std::sqrt(dm), sp = std::sqrt(dp);
    const double W = 2 * std::atan2(sm, sp);
    double s0 = 1 - t, s1 = t;  // the limit at W = 0, and the ends exactly
    if (W > 0x1p-200 && t > 0 && t < 1) {
        // s1 = sin(tW)/sin W, s0 = sin((1-t)W)/sin W = cos(tW) - cos W s1: one sincos instead of three sines. For
        // unit a and b, |a - b| = 2 sin(W/2) and |a + b| = 2 cos(W/2), so sin W = |a - b| |a + b| / 2 and
        // cos W = (|a + b|^2 - |a - b|^2) / 4, each within a few units of 2^-53 (sin W relatively, as the atan2
        // form's W), without a second sincos.
        const double sw = sm * sp / 2, cw = (dp - dm) / 4;
        double st, ct;
        ::sincos(t * W, &st, &ct);
        s1 = st / sw, s0 = ct - cw * s1;
    }
    for (int i = 0; i < 4; i++) R[i] = s0 * a[i] + s1 * b[i];
    return true;
}

double screen_angle_upper(const double r[4], const double R[4]) {
    double n = 0;
    for (int i = 0; i < 4; i++) {
        if (!std::isfinite(r[i])) return NAN;
        n += r[i] * r[i];
    }
    n = std::sqrt(n);
    if (!unit_scale(n)) return NAN;
    double um = 0, up = 0;
    for (int i = 0; i < 4; i++) {
        const double u = r[i] / n;
        um += (u - R[i]) * (u - R[i]), up += (u + R[i]) * (u + R[i]);
    }
    if (um > up) std::swap(um, up);
    // 4 atan2(y, x), y <= x; below y/x = 2^-20, 4 y/x (atan q <= q: still an upper bound) without the call; above,
    // the fast metric engine's atan2 (within 1.16u up to 2^-2, far inside the claim's 2^-40 relative slack).
    const double y = std::sqrt(um), x = std::sqrt(up), q = y / x;
    return claimed_upper(q < 0x1p-20 ? 4 * q : 4 * atan2_chords_fast(y, x), kScreenAbs);
}

double rank_key(double e) {
    // Rounding the bit pattern is exact and cheap (it is called once per candidate); inf, NaN and 0 unchanged.
    if (!(e > 0) || !std::isfinite(e)) return e;
    const uint64_t bits = std::bit_cast<uint64_t>(e);
    return std::bit_cast<double>((bits + (uint64_t(1) << 31)) & ~((uint64_t(1) << 32) - 1));
}

double screen_dd_upper(double angle) { return claimed_upper(angle, kScreenDdAbs); }

void screen_dd_interval(double angle, double &lo, double &hi) {
    hi = std::min(screen_dd_upper(angle), M_PI);  // (no rotation error exceeds pi: the metric's largest value)
    lo = std::min(hi, std::max(0.0, angle * (1 - kScreenRel) - kScreenDdAbs));
}

namespace {

template <class T> void as_doubles(const SlerpCase<T> &c, double q0[4], double q1[4]) {
    for (int i = 0; i < 4; i++) q0[i] = double(c.q0[size_t(i)]), q1[i] = double(c.q1[size_t(i)]);
}

}  // namespace

template <class T> Screen<T>::Screen(ReferenceMode mode, bool enabled)
    : cmp_(Format<T>::precision, mode), enabled_(enabled && mode == ReferenceMode::fast) {
    // The climb ranks by the angle error against the slerp reference R alone (for nlerp rows too).
    cmp_.reference.set_nlerp_wanted(false);
}

template <class T> void Screen<T>::precompute(const std::vector<SlerpCase<T>> &batch, const ScreenBar &bar,
                                              std::vector<ScreenEstimates> &pre) {
    pre.assign(batch.size(), ScreenEstimates{});
    if (!on(bar)) return;  // (the pool's smallest kept error only grows: the screens stay on for the generation)
    const bool is_coarse = coarse(bar);
    for (size_t j = 0; j < batch.size(); j++) {
        ScreenEstimates &e = pre[j];
        double q0[4], q1[4];
        as_doubles(batch[j], q0, q1);
        if (is_coarse) e.screen_done = true, e.screen_ok = screen_slerp(q0, q1, double(batch[j].t), e.R);
        if (wants_dd(is_coarse))
            e.dd_done = true, e.dd_ok = estimate_slerp_dd(q0, q1, double(batch[j].t), e.R_dd, &e.abs_dot);
    }
}

// A mutant whose error's key is certainly at most the pool's smallest kept key (the climb would not keep it)
// and whose error is at most the finite maximum so far (the pool may hold non-finite outputs, which the maximum
// does not count) changes nothing the search keeps or reports, so its certified reference is skipped; every
// 64th such mutant is checked instead. (The best case is compared too: it starts as the sample's first case of
// the largest key, whose exact error can be below the sample's maximum.) The double estimate is tried where
// the pool's errors stand well above its margin; the double-double estimate below that (good f64 rows), and on
// f64 rows where the double one did not decide (on f32 rows it rarely decides what the double one could not:
// docs/worst-case-search.md). A mutant not skipped is decided on the double-double estimate's interval where it suffices;
// its certified reference is then needed only if it is kept to the end or its interval cannot decide a
// comparison. Every 64th such decision is certified at once, as a check.
template <class T> bool Screen<T>::measure(const SlerpCase<T> &c, const T r[4], const ScreenEstimates *est,
                                           const ScreenBar &bar, Kept<T> &e) {
    bool check_screen = false, estimated = false;
    double screen_up = 0, estimate = NAN;  // estimate: the double-double estimate's angle, when computed
    double rd[4];
    for (int i = 0; i < 4; i++) rd[i] = double(r[i]);
    if (on(bar)) {
        auto skips = [&](double up) { return Screen::skips(up, bar); };  // (NaN compares false: no skip)
        double q0[4], q1[4], R[4];
        as_doubles(c, q0, q1);
        // The two estimates, from the generation's precomputed ones where it has them.
        auto screen_of = [&] {
            if (!est || !est->screen_done) return screen_slerp(q0, q1, double(c.t), R);
            std::copy(est->R, est->R + 4, R);
            return est->screen_ok;
        };
        double abs_dot = 0;
        auto dd_of = [&] {
            if (!est || !est->dd_done) return estimate_slerp_dd(q0, q1, double(c.t), R_dd_, &abs_dot);
            R_dd_ = est->R_dd, abs_dot = est->abs_dot;
            return est->dd_ok;
        };
        bool skip = false, by_dd = false;
        const bool is_coarse = coarse(bar);
        if (is_coarse && screen_of()) skip = skips(screen_up = screen_angle_upper(rd, R));
        if (!skip && wants_dd(is_coarse) && dd_of()) {
            estimate = cmp_.metric.rotation_angle(rd, R_dd_);
            skip = by_dd = skips(screen_up = screen_dd_upper(estimate));
        }
        if (skip) {
            if (++screened_ % 64 != 0) {
                screened_dd_ += by_dd;
                return false;
            }
            check_screen = true;
        }
        if (!check_screen && std::isnan(estimate) && dd_of()) estimate = cmp_.metric.rotation_angle(rd, R_dd_);
        if (!check_screen && std::isfinite(estimate)) {
            interval(c, q0, q1, rd, estimate, abs_dot, e);
            estimated = true;
        }
    }
    if (!estimated) {
        cmp_.reference.slerp(c, ref_, false);
        const CaseMetrics m = cmp_.metric.measure_angle(r, ref_);
        if (check_screen) {
            checks_++;
            if (m.nonfinite || !(m.angle_err_rad <= screen_up)) violations_++;
        }
        e.err = e.lo = e.hi = m.nonfinite ? std::numeric_limits<double>::infinity() : m.angle_err_rad;
    }
    return true;
}

template <class T> void Screen<T>::interval(const SlerpCase<T> &c, const double q0[4], const double q1[4],
                                            const double rd[4], double estimate, double abs_dot, Kept<T> &e) {
    e.err = estimate, e.exact = false;
    screen_dd_interval(estimate, e.lo, e.hi);
    // In the tie band (|a.b| <= 4 eps of the format, decided by the double-double a.b unless within 2^-70 of the
    // edge, where the reference's rounding of a.b to double decides) the metric measures against the nearer of
    // the two arcs: the smaller estimate's interval. At the edge the metric is one of the two: the upper end of
    // the short arc's, the lower end of the smaller.
    const double band = tie_band(Format<T>::precision);
    if (abs_dot <= band + 0x1p-70) {
        double lo2 = 0, hi2 = e.hi, other = NAN;
        if (estimate_slerp_dd(q0, q1, double(c.t), R_dd_, nullptr, true)) {
            other = cmp_.metric.rotation_angle(rd, R_dd_);
            screen_dd_interval(other, lo2, hi2);
        }
        if (!(other >= 0)) e.lo = 0;  // (no estimate of the other arc: only the upper end holds)
        else if (abs_dot < band - 0x1p-70)
            e.err = std::min(e.err, other), e.lo = std::min(e.lo, lo2), e.hi = std::min(e.hi, hi2);
        else e.lo = std::min(e.lo, lo2);
    }
    const double resolution = angle_resolution(Format<T>::precision);
    if (e.lo < resolution) e.lo = 0;  // the metric reports angles below its resolution as 0
    if (e.hi < resolution) e.err = e.hi = 0;
    if (++deferred_ % 64 == 0) certify(e);
}

template <class T> void Screen<T>::certify(Kept<T> &k) {
    if (k.exact) return;
    cmp_.reference.slerp(k.c, ref_, false);
    const CaseMetrics m = cmp_.metric.measure_angle(k.out.data(), ref_);
    const double err = m.nonfinite ? std::numeric_limits<double>::infinity() : m.angle_err_rad;
    deferred_certified_++;
    if (!(err >= k.lo && err <= k.hi)) violations_++;
    k.err = k.lo = k.hi = err, k.exact = true;
}

template <class T> bool Screen<T>::greater(Kept<T> &a, Kept<T> &b) {
    if (a.lo > b.hi) return true;
    if (a.hi <= b.lo) return false;
    certify(a), certify(b);
    return a.err > b.err;
}

template <class T> double Screen<T>::key_of(Kept<T> &a) {
    // (rank_key is monotone: one key at both ends of the interval is the key of every value between)
    if (rank_key(a.lo) != rank_key(a.hi)) certify(a);
    return rank_key(a.err);
}

template <class T> ReferenceStats Screen<T>::stats() const {
    ReferenceStats s = cmp_.reference.stats();
    s.screened = screened_ - checks_, s.screen_checks = checks_;
    s.screened_dd = screened_dd_;
    s.deferred = deferred_, s.deferred_certified = deferred_certified_;
    s.screen_violations = violations_;
    return s;
}

template class Screen<float>;
template class Screen<double>;

}  // namespace qc
