#include "search/search.h"
#include "isolate/eval.h"
#include "isolate/process_plugin.h"
#include "run/parallel.h"

#include "metrics/metrics.h"
#include "run/runner.h"
#include "run/shard.h"
#include "reference/fast_reference.h"
#include "search/screen.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <atomic>
#include <thread>
#include <cmath>
#include <cstdlib>
#include <string>
#include <limits>
#include <numeric>
#include <type_traits>

namespace qc {

namespace {

constexpr int kPool = 16;  // cases kept and climbed from

// An error rounded to 21 significant bits (about 6 decimal digits; inf, NaN and 0 unchanged): the search's
// ordering key. Rounding the bit pattern is exact and cheap (it is called once per candidate).
double rank_key(double e) {
    if (!(e > 0) || !std::isfinite(e)) return e;
    const uint64_t bits = std::bit_cast<uint64_t>(e);
    return std::bit_cast<double>((bits + (uint64_t(1) << 31)) & ~((uint64_t(1) << 32) - 1));
}

// A case the search keeps track of, and its angle error: exact (certified), or known to lie in [lo, hi] from
// the double-double estimate (screen.h), with err the estimate; its output is kept to certify it later.
template <class T> struct Kept {
    SlerpCase<T> c;
    double err;
    uint64_t key;  // case_key(c)
    double lo = err, hi = err;
    bool exact = true;
    Quat<T> out{};
};

template <class T> T nudge(T x, int64_t ulps) {
    T toward = ulps > 0 ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    T step = std::nextafter(x, toward) - x;  // one ulp in the direction of the move
    T y = T(x + T(double(std::llabs(ulps))) * step);
    return std::isfinite(y) ? y : x;
}

template <class T> T &component(SlerpCase<T> &c, int j) { return j < 4 ? c.q0[size_t(j)] : j < 8 ? c.q1[size_t(j - 4)] : c.t; }

// The arc of a case in double: the short-arc end b (sign s), W, and the unit direction v of the arc at a.
template <class T> bool arc_of(const SlerpCase<T> &c, double a[4], double v[4], double &W, double &s) {
    double b[4], na = 0, nb = 0, d = 0;
    for (int i = 0; i < 4; i++) a[i] = c.q0[size_t(i)], b[i] = c.q1[size_t(i)], na += a[i] * a[i], nb += b[i] * b[i];
    na = std::sqrt(na), nb = std::sqrt(nb);
    if (!(na > 0) || !(nb > 0)) return false;
    for (int i = 0; i < 4; i++) a[i] /= na, b[i] /= nb, d += a[i] * b[i];
    s = d < 0 ? -1 : 1;
    double dm = 0, dp = 0, nv = 0;
    for (int i = 0; i < 4; i++) {
        b[i] *= s;
        dm += (a[i] - b[i]) * (a[i] - b[i]), dp += (a[i] + b[i]) * (a[i] + b[i]);
        v[i] = b[i] - std::fabs(d) * a[i];
        nv += v[i] * v[i];
    }
    W = 2 * std::atan2(std::sqrt(dm), std::sqrt(dp));
    nv = std::sqrt(nv);
    if (!(nv > 0)) return false;
    for (int i = 0; i < 4; i++) v[i] /= nv;
    return true;
}

template <class T> SlerpCase<T> mutate(const SlerpCase<T> &parent, const SlerpCase<T> &other, Rng &rng, double progress) {
    SlerpCase<T> c = parent;
    // Early steps move far (resampling around the kept cases), late steps by a few ulps.
    const double u = 2 + 24 * progress + rng.uniform(0, 20);   // relative move 2^-u
    const int max_ulp_bits = std::max(0, int(24 * (1 - progress)));
    switch (rng.below(6)) {
    case 0:
    case 1: {  // ulp perturbations of one or two components (q0, q1 or t)
        int count = 1 + int(rng.below(2));
        for (int k = 0; k < count; k++) {
            int j = int(rng.below(9));
            int64_t ulps = 1 + int64_t(rng.below(uint64_t(1) << rng.below(uint64_t(max_ulp_bits) + 1)));
            component(c, j) = nudge(component(c, j), rng.below(2) ? ulps : -ulps);
        }
        // t is a parameter in [0, 1], not a free float: an implementation is never judged outside it.
        c.t = std::clamp(c.t, T(0), T(1));
        break;
    }
    case 2: {  // a small rotation of q1
        double a[4], v[4], W, s;
        if (!arc_of(c, a, v, W, s)) break;
        double sigma = std::max(W, 1e-300) * std::ldexp(1.0, -int(u)), q[4], n = 0;
        for (int i = 0; i < 4; i++) q[i] = double(c.q1[size_t(i)]) + sigma * rng.normal(), n += q[i] * q[i];
        n = std::sqrt(n);
        for (int i = 0; i < 4; i++) c.q1[size_t(i)] = T(q[i] / n);
        break;
    }
    case 3: {  // the arc angle: scaled by 1 +- 2^-u, or bisected with another kept case's arc
        double a[4], v[4], W, s, ao[4], vo[4], Wo, so;
        if (!arc_of(c, a, v, W, s)) break;
        double target = rng.below(2) && arc_of(other, ao, vo, Wo, so) ? (W + Wo) / 2
                                                                       : W * (1 + (rng.below(2) ? 1 : -1) * std::ldexp(1.0, -int(u)));
        target = std::clamp(target, 0.0, M_PI / 2);
        for (int i = 0; i < 4; i++) c.q1[size_t(i)] = T(s * (std::cos(target) * a[i] + std::sin(target) * v[i]));
        break;
    }
    default: {  // t: bisected with another kept case's t, or moved by 2^-u of its distance to the nearer end
        double t = c.t;
        if (rng.below(2)) t = (t + double(other.t)) / 2;
        else t += (rng.below(2) ? 1 : -1) * std::ldexp(std::max(std::min(t, 1 - t), 0x1p-60), -int(u) / 2);
        c.t = T(std::clamp(t, 0.0, 1.0));
        break;
    }
    }
    // Keep the ends as near the unit sphere as the region's own cases (unit doubles rounded to the format):
    // a mutant far off the sphere would measure how an implementation treats non-unit input instead.
    for (Quat<T> *q : {&c.q0, &c.q1}) {
        double n = 0, d[4];
        for (int i = 0; i < 4; i++) d[i] = double((*q)[size_t(i)]), n += d[i] * d[i];
        n = std::sqrt(n);
        if (!(n > 0) || !std::isfinite(n)) return parent;
        for (int i = 0; i < 4; i++) (*q)[size_t(i)] = T(d[i] / n);
    }
    return c;
}

template <class T> bool same_case(const SlerpCase<T> &a, const SlerpCase<T> &b) {
    return a.q0 == b.q0 && a.q1 == b.q1 && a.t == b.t;
}

// A hash of a case's values such that same_case(a, b) implies equal keys (-0 is hashed as +0; a case holding
// a NaN equals no case, and gets a key of its own choosing). The pool test compares keys first: one integer
// compare per kept case instead of up to nine float compares (it ran on every climbing step).
template <class T> uint64_t case_key(const SlerpCase<T> &c) {
    uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&h](T x) {
        using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
        const Bits b = x == T(0) ? Bits(0) : std::bit_cast<Bits>(x);
        h = (h ^ uint64_t(b)) * 0x100000001b3ull;
        h ^= h >> 29;
    };
    for (T x : c.q0) mix(x);
    for (T x : c.q1) mix(x);
    mix(c.t);
    return h;
}

uint64_t mix_name(uint64_t h, const std::string &s) {
    for (unsigned char ch : s) h = (h ^ ch) * 0x100000001b3ull;
    return h;
}

}  // namespace

template <class T>
SearchOutcome search_row(const Impl &impl, Op op, Region region, uint64_t seed, ReferenceMode mode, const std::vector<double> &sampled_err,
                         int keep, const StopToken &stop, bool use_screen) {
    SearchOutcome out;
    const uint64_t n = sampled_err.size(), half = n / 2, climb = n - half;
    out.evaluations = n;
    // The search ranks errors by rank_key (21 bits), so that its path does not depend on the
    // last bits of a metric (--reference fast and mpfr agree to far more digits, and follow the same path).
    auto by_error = [](const auto &a, const auto &b) { return rank_key(a.err) > rank_key(b.err); };

    // Half the budget: the region's sample.
    std::vector<uint64_t> order(half);
    std::iota(order.begin(), order.end(), 0);
    for (uint64_t i = 0; i < half; i++) {
        if (std::isinf(sampled_err[i])) out.nonfinite++;
        else out.max_angle_err_rad = std::max(out.max_angle_err_rad, sampled_err[i]);
    }
    size_t top = std::min<size_t>(kPool, half);
    std::partial_sort(order.begin(), order.begin() + long(top), order.end(), [&](uint64_t a, uint64_t b) {
        const double ka = rank_key(sampled_err[a]), kb = rank_key(sampled_err[b]);
        return ka != kb ? ka > kb : a < b;
    });
    std::vector<Kept<T>> pool;
    for (size_t k = 0; k < top; k++) {
        const SlerpCase<T> c = regenerate_case<T>(seed, region, order[k]);
        pool.push_back({c, sampled_err[order[k]], case_key(c)});  // (exact: the runner's certified errors)
    }
    if (pool.empty()) return out;
    Kept<T> best = pool.front();
    // The largest finite error so far (reported as the search's maximum): the sample's, exact.
    Kept<T> finite_max{pool.front().c, out.max_angle_err_rad, 0};

    // The other half: climb. Candidates are ranked by the angle error against the slerp reference R alone
    // (for nlerp rows too), so neither the exact normalised lerp N nor the other metrics are evaluated.
    ReferenceEngine reference(Format<T>::precision, mode);
    MetricEngine metric(Format<T>::precision, mode);
    reference.set_nlerp_wanted(false);
    SlerpReference ref;
    const bool screen = use_screen && mode == ReferenceMode::fast;
    const double resolution = angle_resolution(Format<T>::precision);
    uint64_t screened = 0, screened_dd = 0;  // (screened: every skip and check; screened_dd: skips by the second screen)
    DDQuat R_dd;
    uint64_t deferred = 0, deferred_certified = 0;  // steps decided on the estimate's interval; of those, certified
    // Certifies k's error (the certified reference and metric on its kept output), counted in
    // deferred_certified; an error outside the interval the estimate claimed is a screen violation.
    auto certify = [&](Kept<T> &k) {
        if (k.exact) return;
        reference.slerp(k.c, ref, false);
        const CaseMetrics m = metric.measure_angle(k.out.data(), ref);
        const double err = m.nonfinite ? std::numeric_limits<double>::infinity() : m.angle_err_rad;
        deferred_certified++;
        if (!(err >= k.lo && err <= k.hi)) out.reference.screen_violations++;
        k.err = k.lo = k.hi = err, k.exact = true;
    };
    // a.err > b.err, decided on the intervals where they do not overlap, else on certified errors.
    auto greater = [&](Kept<T> &a, Kept<T> &b) {
        if (a.lo > b.hi) return true;
        if (a.hi <= b.lo) return false;
        certify(a), certify(b);
        return a.err > b.err;
    };
    // rank_key(a.err), certified where the interval spans two keys (rank_key is monotone: one key at both ends
    // is the key of every value between).
    auto key_of = [&](Kept<T> &a) {
        if (rank_key(a.lo) != rank_key(a.hi)) certify(a);
        return rank_key(a.err);
    };
    auto in_pool = [&pool](const SlerpCase<T> &c, uint64_t key) {
        for (const auto &k : pool)
            if (k.key == key && same_case(k.c, c)) return true;
        return false;
    };
    Rng rng(mix_name(mix_name(seed * 0x9E3779B97F4A7C15ull + uint64_t(region), impl.name), to_string(op)));
    // An implementation in another process (impl.backend: plugins, adapters, --isolate) costs a round trip
    // per call, and a round trip costs 15-500 us (more when the harness's own threads hold every core), so its
    // climb goes by generations: the mutants of the next `block` steps are drawn from the pool as it stands,
    // evaluated in one eval_batch, and then taken in order as single steps would be (each against the pool the
    // earlier ones left). A generation that changed the pool halves the next one (down to kMinGeneration), one
    // that did not doubles it (up to kMaxGeneration). In process, every step is its own generation: each mutant
    // is drawn from the pool the previous step left. The two paths differ only in which pool a mutant is drawn
    // from; both are deterministic per seed, whatever --jobs is. Measured on the default selection (3 seeds x
    // 345 rows, 4000 cases per region, every row searched both ways; no generation there exceeds 1024):
    // generations find maxima 0.6 % smaller on average (geometric mean) and cut the C adapter's round trips
    // 7-fold (3314 -> 465). Generations beyond 1024 come only where the pool has stopped changing.
    // QC_SEARCH_MAX_BLOCK=1 climbs one case per call out of process too (the in-process path, for comparison).
    const bool remote = !impl.backend->in_process();
    const char *max_block = std::getenv("QC_SEARCH_MAX_BLOCK");  // (read per row: tests set it)
    const bool one_per_call = max_block && std::string(max_block) == "1";
    constexpr size_t kMinGeneration = 64, kMaxGeneration = kProcessMaxCases;  // (the protocol's largest batch)
    const bool generations = remote && !one_per_call;
    size_t block = generations ? kMinGeneration : 1;
    struct Draw {
        SlerpCase<T> c;
        bool repeat;  // already in the pool when drawn
        uint64_t key;  // case_key(c)
    };
    std::vector<Draw> draws;
    std::vector<SlerpCase<T>> batch;
    std::vector<Quat<T>> outs;
    // The screens' estimates of a generation's cases (pure functions of the case), computed while its batch
    // is with the implementation's process, and used below instead of computing them there: the same values,
    // so the same path. Which ones: those the pool as the generation starts says the steps will want.
    struct Estimates {
        bool screen_done = false, screen_ok = false, dd_done = false, dd_ok = false;
        double R[4] = {0, 0, 0, 0};
        DDQuat R_dd;
        double abs_dot = 0;
    };
    std::vector<Estimates> pre;
    PendingBatch<T> pending;
    // When the screens apply (below), for the generation's estimates and the steps alike: only where the pool
    // is full and its errors stand well above the double-double estimate's margin; the double screen where
    // they stand well above its own margin ("coarse"); the double-double estimate where the pool is not
    // coarse, and on f64 rows always.
    auto screens_on = [&] { return screen && pool.size() >= size_t(kPool) && pool.back().err > 16 * kScreenDdAbs; };
    auto coarse_now = [&] { return pool.back().err > 16 * kScreenAbs; };
    auto wants_dd = [](bool coarse) { return !coarse || std::is_same_v<T, double>; };
    auto as_doubles = [](const SlerpCase<T> &c, double q0[4], double q1[4]) {
        for (int i = 0; i < 4; i++) q0[i] = double(c.q0[size_t(i)]), q1[i] = double(c.q1[size_t(i)]);
    };
    for (uint64_t step = 0; step < climb;) {
        stop.throw_if_requested();  // SIGINT/SIGTERM: the run ends as a partial report (harness/run/runner.cpp)
        draws.clear(), batch.clear();
        const uint64_t want = std::min<uint64_t>(block, climb - step);
        for (uint64_t b = 0; b < want; b++) {
            double progress = double(step + b) / double(climb);
            size_t p = std::min(rng.below(pool.size()), rng.below(pool.size()));  // biased toward the worst
            size_t o = rng.below(pool.size());
            SlerpCase<T> c = mutate(pool[p].c, pool[o].c, rng, progress);
            for (int retry = 0; retry < 8 && !in_region(region, c); retry++) c = mutate(pool[p].c, pool[o].c, rng, progress);
            if (!in_region(region, c)) c = pool[p].c;
            // A case already in the pool was measured when it entered: its error, the maximum and the best
            // case already account for it (the mutation fell back to its parent, or a nudge came back to it).
            const uint64_t key = case_key(c);
            bool repeat = in_pool(c, key);
            draws.push_back({c, repeat, key});
            if (!repeat) batch.push_back(c);
        }
        size_t valid = 0;  // outs[0, valid) came from the batch; a failed batch's rest goes one case at a time
        pre.clear();
        if (remote && !batch.empty()) {
            outs.assign(batch.size(), Quat<T>{});
            pre.assign(batch.size(), Estimates{});
            pending.start(impl, op, batch.data(), batch.size(), outs.data());
            if (screens_on()) {  // (the pool's smallest kept error only grows: the screens stay on for the generation)
                const bool coarse = coarse_now();
                for (size_t j = 0; j < batch.size(); j++) {
                    Estimates &e = pre[j];
                    double q0[4], q1[4];
                    as_doubles(batch[j], q0, q1);
                    if (coarse) e.screen_done = true, e.screen_ok = screen_slerp(q0, q1, double(batch[j].t), e.R);
                    if (wants_dd(coarse))
                        e.dd_done = true, e.dd_ok = estimate_slerp_dd(q0, q1, double(batch[j].t), e.R_dd, &e.abs_dot);
                }
            }
            const EvalOutcome o = pending.finish();
            valid = o.done;
            if (!o.ok()) {  // the first failure ends the search, as it ends a row of the sampling
                if (o.status == EvalStatus::interrupted) stop.throw_if_requested();
                out.failure = o;
                out.failed_case = case_text(batch[std::min(o.done, batch.size() - 1)]);
                out.reference = reference.stats();
                return out;
            }
        }
        bool changed = false;
        size_t bi = 0;
        for (const Draw &d : draws) {
            step++;
            if (d.repeat) {
                out.pool_repeats++;
                continue;
            }
            const SlerpCase<T> &c = d.c;
            T r[4] = {0, 0, 0, 0};
            if (bi < valid) std::copy(outs[bi].begin(), outs[bi].end(), r);
            else impl.call(op, c.q0.data(), c.q1.data(), c.t, r);
            Estimates *est = bi < pre.size() ? &pre[bi] : nullptr;
            bi++;
            if (changed && in_pool(c, d.key)) {  // (a generation's mutant the same as one it has just kept)
                out.pool_repeats++;
                continue;
            }
            // The screen (screen.h, --reference fast only): a mutant whose error's key is certainly at most
            // the pool's smallest kept key (the test below would not keep it) and whose error is at most the
            // finite maximum so far (the pool may hold non-finite outputs, which the maximum does not count)
            // changes nothing the search keeps or reports, so its certified reference is skipped; every 64th
            // such mutant is checked instead. (The best case is compared too: it starts as the sample's first
            // case of the largest key, whose exact error can be below the sample's maximum.) The double estimate
            // is tried where the pool's errors stand well above its margin; the double-double estimate below
            // that (good f64 rows), and on f64 rows where the double one did not decide (on f32 rows it rarely
            // decides what the double one could not: measured, 271 of 81,000 attempts).
            bool check_screen = false;
            double screen_up = 0, estimate = NAN;  // estimate: the double-double estimate's angle, when computed
            Kept<T> e{c, NAN, d.key};
            bool estimated = false;  // e decided on the estimate's interval (and maybe certified as a check)
            std::copy(r, r + 4, e.out.begin());
            double rd[4];
            for (int i = 0; i < 4; i++) rd[i] = double(r[i]);
            if (screens_on()) {
                // (NaN compares false: no skip)
                auto skips = [&](double up) {
                    return rank_key(up) <= rank_key(pool.back().err) && up <= finite_max.lo && up <= best.lo;
                };
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
                    if (!est || !est->dd_done) return estimate_slerp_dd(q0, q1, double(c.t), R_dd, &abs_dot);
                    R_dd = est->R_dd, abs_dot = est->abs_dot;
                    return est->dd_ok;
                };
                bool skip = false, by_dd = false;
                const bool coarse = coarse_now();
                if (coarse && screen_of()) skip = skips(screen_up = screen_angle_upper(rd, R));
                if (!skip && wants_dd(coarse) && dd_of()) {
                    estimate = metric.rotation_angle(rd, R_dd);
                    skip = by_dd = skips(screen_up = screen_dd_upper(estimate));
                }
                if (skip) {
                    if (++screened % 64 != 0) {
                        screened_dd += by_dd;
                        continue;
                    }
                    check_screen = true;
                }
                // Not skipped: decide on the double-double estimate's interval where it suffices (below); its
                // certified reference is then needed only if the case is kept to the end or its interval
                // cannot decide a comparison. Every 64th such decision is certified at once, as a check.
                if (!check_screen && std::isnan(estimate) && dd_of())
                    estimate = metric.rotation_angle(rd, R_dd);
                if (!check_screen && std::isfinite(estimate)) {
                    e.err = estimate, e.exact = false, estimated = true;
                    screen_dd_interval(estimate, e.lo, e.hi);
                    // In the tie band (|a.b| <= 4 eps of the format, decided by the double-double a.b unless
                    // within 2^-70 of the edge, where the reference's rounding of a.b to double decides) the
                    // metric measures against the nearer of the two arcs: the smaller estimate's interval. At
                    // the edge the metric is one of the two: the upper end of the short arc's, the lower end of
                    // the smaller.
                    const double band = 4 * precision_eps(Format<T>::precision);
                    if (abs_dot <= band + 0x1p-70) {
                        double lo2 = 0, hi2 = e.hi, other = NAN;
                        if (estimate_slerp_dd(q0, q1, double(c.t), R_dd, nullptr, true)) {
                            other = metric.rotation_angle(rd, R_dd);
                            screen_dd_interval(other, lo2, hi2);
                        }
                        if (!(other >= 0)) e.lo = 0;  // (no estimate of the other arc: only the upper end holds)
                        else if (abs_dot < band - 0x1p-70) e.err = std::min(e.err, other), e.lo = std::min(e.lo, lo2), e.hi = std::min(e.hi, hi2);
                        else e.lo = std::min(e.lo, lo2);
                    }
                    if (e.lo < resolution) e.lo = 0;  // the metric reports angles below its resolution as 0
                    if (e.hi < resolution) e.err = e.hi = 0;
                    if (++deferred % 64 == 0) certify(e);
                }
            }
            if (!estimated) {
                reference.slerp(c, ref, false);
                CaseMetrics m = metric.measure_angle(r, ref);
                if (check_screen) {
                    out.reference.screen_checks++;
                    if (m.nonfinite || !(m.angle_err_rad <= screen_up)) out.reference.screen_violations++;
                }
                e.err = e.lo = e.hi = m.nonfinite ? std::numeric_limits<double>::infinity() : m.angle_err_rad;
            }
            if (std::isinf(e.err)) out.nonfinite++;
            else if (greater(e, finite_max)) finite_max = e;
            if (greater(e, best)) best = e;  // the exact maximum, reported even if its key ties the pool's
            if (const double key = key_of(e); pool.size() >= size_t(kPool) && key <= rank_key(pool.back().err)) continue;
            // Into the pool (kept in by_error order, e's key now certain), after every case of the same key: the
            // order a stable sort of the appended case would give.
            pool.insert(std::upper_bound(pool.begin(), pool.end(), e, by_error), e);
            if (pool.size() > size_t(kPool)) pool.pop_back();
            changed = true;
        }
        if (generations) block = changed ? std::max(kMinGeneration, block / 2) : std::min(kMaxGeneration, 2 * block);
    }
    // The cases reported: certified (those decided on an estimate are certified now; the best case and the
    // finite maximum are usually a kept case too).
    for (auto &k : pool) certify(k);
    for (Kept<T> *x : {&best, &finite_max})
        for (const auto &k : pool)
            if (!x->exact && same_case(k.c, x->c) && k.out == x->out) *x = k;
    certify(best), certify(finite_max);
    out.max_angle_err_rad = finite_max.err;
    {
        const uint64_t checks = out.reference.screen_checks, violations = out.reference.screen_violations;
        out.reference = reference.stats();
        out.reference.screened = screened - checks, out.reference.screen_checks = checks;
        out.reference.screened_dd = screened_dd;
        out.reference.deferred = deferred, out.reference.deferred_certified = deferred_certified;
        out.reference.screen_violations = violations;
    }
    // Reported worst first by the exact error (the ranking above only decided the path), the exact maximum
    // included.
    bool kept = false;
    for (const auto &k : pool) kept = kept || same_case(k.c, best.c);
    if (!kept) pool.back() = best;
    std::stable_sort(pool.begin(), pool.end(), [](const auto &a, const auto &b) { return a.err > b.err; });
    for (size_t k = 0; k < pool.size() && k < size_t(std::max(0, keep)); k++) {
        FoundCase f;
        for (int i = 0; i < 4; i++) f.q0[i] = pool[k].c.q0[size_t(i)], f.q1[i] = pool[k].c.q1[size_t(i)];
        f.t = pool[k].c.t;
        f.angle_err_rad = pool[k].err;
        out.worst.push_back(f);
    }
    return out;
}

void search_worst_cases(RunResult &result, int jobs, const StopToken &stop) {
    std::vector<SearchOutcome> outcomes(result.rows.size());
    std::vector<char> searched(result.rows.size(), 0);
    std::atomic<size_t> next{0};
    auto worker = [&](int) {
        for (;;) {
            size_t r = next.fetch_add(1);
            if (r >= result.rows.size()) break;
            const RowResult &row = result.rows[r];
            if (row.status != EvalStatus::ok) continue;
            // The row's per-case errors in case order, from the slices of its precision and region.
            size_t k = 0;
            for (const auto &io : result.selected) {
                if (io.impl == row.impl && io.op == row.op) break;
                if (io.impl->precision == row.impl->precision) k++;
            }
            std::vector<const RegionSlice *> parts;
            for (const auto &s : result.slices)
                if (s.precision == row.impl->precision && s.region == row.region) parts.push_back(&s);
            std::sort(parts.begin(), parts.end(), [](auto *a, auto *b) { return a->begin < b->begin; });
            std::vector<double> errs;
            for (const RegionSlice *s : parts) {
                if (k >= s->rows.size()) continue;
                const auto &e = s->rows[k].angle_err_rad;
                errs.insert(errs.end(), e.begin(), e.end());
            }
            if (errs.size() != row.cases) continue;
            outcomes[r] = row.impl->precision == Precision::f32
                              ? search_row<float>(*row.impl, row.op, row.region, result.options.seed, result.options.reference, errs, result.options.worst_k, stop)
                              : search_row<double>(*row.impl, row.op, row.region, result.options.seed, result.options.reference, errs, result.options.worst_k, stop);
            searched[r] = 1;
        }
    };
    run_workers(jobs, worker, [&] { next.store(result.rows.size()); });
    for (size_t r = 0; r < result.rows.size(); r++) {
        if (!searched[r]) continue;
        RowResult &row = result.rows[r];
        if (const EvalOutcome &f = outcomes[r].failure; !f.ok()) {
            row.status = f.status;
            row.failed_index = row.cases;
            row.status_detail = fmt::format("{} in the worst-case search", f.detail);
            row.failed_case = outcomes[r].failed_case;
            (row.impl->precision == Precision::f32 ? result.reference_f32 : result.reference_f64).add(outcomes[r].reference);
            continue;
        }
        row.max_angle_err_search_rad = outcomes[r].max_angle_err_rad;
        row.search_worst = std::move(outcomes[r].worst);
        (row.impl->precision == Precision::f32 ? result.reference_f32 : result.reference_f64).add(outcomes[r].reference);
    }
}

RunResult run(const RunOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult result = sample(options, catalogue, ctx);
    if (options.shard.whole() && !result.partial) {
        try {
            search_worst_cases(result, result.jobs, ctx.stop);
        } catch (const Interrupted &) {
            result.partial = true;  // a signal during the search: a partial report without its results
        }
    }
    result.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

RunResult merge_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue, int jobs,
                       const RunContext &ctx) {
    RunResult result = read_shards(dirs, catalogue);
    aggregate(result);
    auto t0 = std::chrono::steady_clock::now();
    search_worst_cases(result, std::max(1, jobs), ctx.stop);
    result.wall_time_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result.merged_shards = int(dirs.size());
    return result;
}

template SearchOutcome search_row<float>(const Impl &, Op, Region, uint64_t, ReferenceMode, const std::vector<double> &, int,
                                         const StopToken &, bool);
template SearchOutcome search_row<double>(const Impl &, Op, Region, uint64_t, ReferenceMode, const std::vector<double> &, int,
                                          const StopToken &, bool);

}  // namespace qc
