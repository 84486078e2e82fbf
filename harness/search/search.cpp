#include "metrics/comparison.h"
#include "search/search.h"
#include "isolate/eval.h"
#include "isolate/process_plugin.h"
#include "base/parallel.h"

#include "metrics/metrics.h"
#include "run/runner.h"
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

// The negative control of the generations' identity with steps (Search.GenerationsFollowTheStepsExactly): a
// generation that goes on after a step changed the pool, its later mutants drawn from the pool that no longer
// stands.
std::atomic<bool> g_rewind_damaged{false};

template <class T> T nudge(T x, int64_t ulps) {
    T toward = ulps > 0 ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    T step = std::nextafter(x, toward) - x;  // one ulp in the direction of the move
    T y = T(x + T(double(std::llabs(ulps))) * step);
    return std::isfinite(y) ? y : x;
}

template <class T> T &component(SlerpCase<T> &c, int j) {
    return j < 4 ? c.q0[size_t(j)] : j < 8 ? c.q1[size_t(j - 4)] : c.t;
}

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

template <class T>
SlerpCase<T> mutate(const SlerpCase<T> &parent, const SlerpCase<T> &other, Rng &rng, double progress) {
    SlerpCase<T> c = parent;
    // Early steps move far (resampling around the kept cases), late steps by a few ulps.
    const double u = 2 + 24 * progress + rng.uniform(0, 20);  // relative move 2^-u
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
            double target = rng.below(2) && arc_of(other, ao, vo, Wo, so)
                                ? (W + Wo) / 2
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

namespace {

// The climb: the pool of the worst cases found so far, the mutation of its cases and the acceptance of mutants.
// Everything about measuring a mutant (screens, estimates, certification, interval comparisons) is the
// screen's (screen.h).
//
// One step at a time, each step's mutant is drawn from the pool the previous step left (in process, the default:
// --search-mode steps). An implementation in another process (impl.backend: plugins, adapters, --isolate) costs a
// round trip per call, so its climb goes by generations, and so does an in-process one under --search-mode
// generations: the mutants of the next `block` steps are drawn from the pool as it stands, evaluated in one batch,
// and taken in order, each a single step against the pool. Up to the first step that changes the pool, those are
// exactly the mutants single steps would draw; the rest of the generation is dropped there (out.discarded), and
// the random stream goes back to where that step left it. So the path, the maxima and the cases are those of one
// step at a time, in process or out, for any --jobs. A generation that changed the pool at its k-th step makes the
// next one k long (at least the minimum below), one that did not doubles it (up to the maximum). What generations
// cost and save: docs/worst-case-search.md.
template <class T> class Climb {
public:
    Climb(const Impl &impl, Op op, Region region, uint64_t seed, ReferenceMode mode, const SearchSettings &settings,
          const StopToken &stop)
        : impl_(impl),
          op_(op),
          region_(region),
          stop_(stop),
          screen_(mode, settings.screen),
          rng_(mix_name(mix_name(seed * 0x9E3779B97F4A7C15ull + uint64_t(region), impl.name), to_string(op))),
          remote_(!impl.backend->in_process()),
          generations_(!remote_ && settings.generations),
          max_block_(remote_        ? std::clamp<size_t>(settings.max_block, 1, kProcessMaxCases)
                     : generations_ ? kInProcessMaxGeneration
                                    : 1),
          min_block_(std::min(remote_ ? kMinGeneration : kInProcessMinGeneration, max_block_)),
          block_(min_block_) {}

    // Half the budget: the region's sample (cases 0 .. half - 1, their errors as the runner measured them,
    // certified). Fills the pool with its worst; false when there is nothing to climb from.
    bool seed_pool(uint64_t seed, const std::vector<double> &sampled_err, uint64_t half, SearchOutcome &out);
    // The other half: `steps` climbing steps. False when the implementation failed (out.failure set).
    bool climb(uint64_t steps, SearchOutcome &out);
    // The reported cases, certified, worst first by the exact error; the screen's counters.
    void finish(int keep, SearchOutcome &out);

private:
    static constexpr int kPool = 16;  // cases kept and climbed from
    // Out of process, the smallest generation (the largest is --search-max-block). The floor of the round trips is
    // the pool's changes (one per change); a floor of 4, 8 or 16 measured the same search time on four process
    // plugins (3.8-4.2 s), and 64 dropped twice the steps it kept.
    static constexpr size_t kMinGeneration = 8;
    // In process (--search-mode generations), the smallest and largest generation: its mutants' outputs come from
    // one batch, and each step measures its mutant as one step at a time does. On the default selection (seed 1,
    // 20,000 cases, four runs of each side by side) 1 to 16 cost 5 % more search CPU than steps; at most 1, with
    // nothing dropped, 4 %: the generation's bookkeeping, not the dropped mutants.
    static constexpr size_t kInProcessMinGeneration = 1, kInProcessMaxGeneration = 16;
    struct Draw {
        SlerpCase<T> c;
        bool repeat;   // already in the pool when drawn
        uint64_t key;  // case_key(c)
        Rng after;     // the random stream just after drawing c: where the next step draws from if c is kept
    };
    // The search ranks errors by rank_key (21 bits), so that its path does not depend on the last bits of a
    // metric (--reference fast and mpfr agree to far more digits, and follow the same path).
    static bool by_error(const Kept<T> &a, const Kept<T> &b) { return rank_key(a.err) > rank_key(b.err); }

    bool in_pool(const SlerpCase<T> &c, uint64_t key) const {
        for (const auto &k : pool_)
            if (k.key == key && same_case(k.c, c)) return true;
        return false;
    }
    ScreenBar bar() const { return {pool_.size() >= size_t(kPool), pool_.back().err, finite_max_.lo, best_.lo}; }
    void draw(uint64_t step, uint64_t steps, uint64_t want);
    bool evaluate_generation(SearchOutcome &out);
    bool accept(const Draw &d, const T r[4], const ScreenEstimates *est, SearchOutcome &out);

    const Impl &impl_;
    const Op op_;
    const Region region_;
    const StopToken &stop_;
    Screen<T> screen_;
    Rng rng_;
    const bool remote_;
    const bool generations_;  // in process, by generations (SearchSettings::generations)
    const size_t max_block_, min_block_;
    size_t block_;
    std::vector<Kept<T>> pool_;
    Kept<T> best_{}, finite_max_{};  // the exact maximum; the largest finite error so far (reported)
    std::vector<Draw> draws_;
    std::vector<SlerpCase<T>> batch_;  // the generation's cases not already in the pool
    std::vector<Quat<T>> outs_;        // their outputs: outs_[0, valid_) from one batch
    size_t valid_ = 0;
    std::vector<ScreenEstimates> pre_;  // the screen's estimates of batch_, computed while it is out
    PendingBatch<T> pending_;
};

template <class T>
bool Climb<T>::seed_pool(uint64_t seed, const std::vector<double> &sampled_err, uint64_t half, SearchOutcome &out) {
    std::vector<uint64_t> order(half);
    std::iota(order.begin(), order.end(), 0);
    uint64_t argmax = 0;  // the sampled case of the finite maximum (the first, in case order)
    for (uint64_t i = 0; i < half; i++) {
        if (std::isinf(sampled_err[i])) out.nonfinite++;
        else if (sampled_err[i] > out.max_angle_err_rad) out.max_angle_err_rad = sampled_err[i], argmax = i;
    }
    size_t top = std::min<size_t>(kPool, half);
    std::partial_sort(order.begin(), order.begin() + long(top), order.end(), [&](uint64_t a, uint64_t b) {
        const double ka = rank_key(sampled_err[a]), kb = rank_key(sampled_err[b]);
        return ka != kb ? ka > kb : a < b;
    });
    for (size_t k = 0; k < top; k++) {
        const SlerpCase<T> c = regenerate_case<T>(seed, region_, order[k]);
        pool_.push_back({c, sampled_err[order[k]], case_key(c)});  // (exact: the runner's certified errors)
    }
    if (pool_.empty()) return false;
    best_ = pool_.front();
    // The sample's finite maximum, exact, with its own case (pool_.front() may be a non-finite output's).
    const SlerpCase<T> max_case = regenerate_case<T>(seed, region_, argmax);
    finite_max_ = Kept<T>{max_case, out.max_angle_err_rad, case_key(max_case)};
    return true;
}

// The mutants of one generation, each drawn from the pool as it stands.
template <class T> void Climb<T>::draw(uint64_t step, uint64_t steps, uint64_t want) {
    draws_.clear(), batch_.clear();
    for (uint64_t b = 0; b < want; b++) {
        double progress = double(step + b) / double(steps);
        size_t p = std::min(rng_.below(pool_.size()), rng_.below(pool_.size()));  // biased toward the worst
        size_t o = rng_.below(pool_.size());
        SlerpCase<T> c = mutate(pool_[p].c, pool_[o].c, rng_, progress);
        for (int retry = 0; retry < 8 && !in_region(region_, c); retry++)
            c = mutate(pool_[p].c, pool_[o].c, rng_, progress);
        if (!in_region(region_, c)) c = pool_[p].c;
        // A case already in the pool was measured when it entered: its error, the maximum and the best case
        // already account for it (the mutation fell back to its parent, or a nudge came back to it).
        const uint64_t key = case_key(c);
        const bool repeat = in_pool(c, key);
        draws_.push_back({c, repeat, key, rng_});
        if (!repeat) batch_.push_back(c);
    }
}

// The candidate evaluation: the generation's outputs in one batch, out of process with the screen's estimates
// computed meanwhile; in process one mutant per step (--search-mode steps), the step calls the implementation
// itself (climb). False when the implementation failed.
template <class T> bool Climb<T>::evaluate_generation(SearchOutcome &out) {
    valid_ = 0;
    pre_.clear();
    if (batch_.empty() || (!remote_ && !generations_)) return true;
    outs_.assign(batch_.size(), Quat<T>{});
    EvalOutcome o;
    if (remote_) {
        pending_.start(impl_, op_, batch_.data(), batch_.size(), outs_.data());
        screen_.precompute(batch_, bar(), pre_);
        o = pending_.finish();
    } else {
        o = eval_batch(impl_, op_, batch_.data(), batch_.size(), outs_.data());
    }
    valid_ = o.done;
    if (o.ok()) return true;
    // The first failure ends the search, as it ends a row of the sampling.
    if (o.status == EvalStatus::interrupted) stop_.throw_if_requested();
    const size_t at = std::min(o.done, batch_.size() - 1);
    out.failure = failure_at(o, at, batch_[at]);
    out.reference = screen_.reference_stats();
    return false;
}

// One step: measure the mutant (through the screen) and keep it when it beats the pool's weakest. True when
// the pool changed.
template <class T> bool Climb<T>::accept(const Draw &d, const T r[4], const ScreenEstimates *est, SearchOutcome &out) {
    Kept<T> e{d.c, NAN, d.key};
    std::copy(r, r + 4, e.out.begin());
    if (!screen_.measure(d.c, r, est, bar(), e)) return false;
    if (std::isinf(e.err)) out.nonfinite++;
    else if (screen_.greater(e, finite_max_)) finite_max_ = e;
    if (screen_.greater(e, best_)) best_ = e;  // the exact maximum, reported even if its key ties the pool's
    if (const double key = screen_.key_of(e); pool_.size() >= size_t(kPool) && key <= rank_key(pool_.back().err))
        return false;
    // Into the pool (kept in by_error order, e's key now certain), after every case of the same key: the order
    // a stable sort of the appended case would give.
    pool_.insert(std::upper_bound(pool_.begin(), pool_.end(), e, by_error), e);
    if (pool_.size() > size_t(kPool)) pool_.pop_back();
    return true;
}

template <class T> bool Climb<T>::climb(uint64_t steps, SearchOutcome &out) {
    for (uint64_t step = 0; step < steps;) {
        stop_.throw_if_requested();  // SIGINT/SIGTERM: the run ends as a partial report (harness/pipeline)
        draw(step, steps, std::min<uint64_t>(block_, steps - step));
        if (!evaluate_generation(out)) return false;
        // The steps in order, up to the first that changes the pool: every mutant before it was drawn from the
        // pool that step would have seen, so the path is the one-step-at-a-time path. The mutants after it were
        // drawn from a pool that no longer stands: they are dropped, and the random stream goes back to where
        // that step left it.
        bool changed = false;
        size_t bi = 0, taken = 0;
        for (const Draw &d : draws_) {
            step++, taken++;
            if (d.repeat) {
                out.pool_repeats++;
                continue;
            }
            T r[4] = {0, 0, 0, 0};
            if (bi < valid_) std::copy(outs_[bi].begin(), outs_[bi].end(), r);
            else impl_.call(op_, d.c.q0.data(), d.c.q1.data(), d.c.t, r);
            const ScreenEstimates *est = bi < pre_.size() ? &pre_[bi] : nullptr;
            bi++;
            if (accept(d, r, est, out)) {
                changed = true;
                if (g_rewind_damaged.load(std::memory_order_relaxed)) continue;
                rng_ = d.after;
                break;
            }
        }
        out.discarded += draws_.size() - taken;
        block_ = changed ? std::max(min_block_, taken) : std::min(max_block_, 2 * block_);
    }
    return true;
}

template <class T> void Climb<T>::finish(int keep, SearchOutcome &out) {
    // The cases reported: certified (those decided on an estimate are certified now; the best case and the finite
    // maximum are usually a kept case too).
    for (auto &k : pool_) screen_.certify(k);
    for (Kept<T> *x : {&best_, &finite_max_})
        for (const auto &k : pool_)
            if (!x->exact && same_case(k.c, x->c) && k.out == x->out) *x = k;
    screen_.certify(best_), screen_.certify(finite_max_);
    out.max_angle_err_rad = finite_max_.err;
    if (finite_max_.err > 0) {
        FoundCase f;
        for (int i = 0; i < 4; i++) f.q0[i] = finite_max_.c.q0[size_t(i)], f.q1[i] = finite_max_.c.q1[size_t(i)];
        f.t = finite_max_.c.t;
        f.angle_err_rad = finite_max_.err;
        out.finite_max = f;
    }
    out.reference = screen_.stats();
    // Reported worst first by the exact error (the ranking above only decided the path), the exact maximum
    // included.
    bool kept = false;
    for (const auto &k : pool_) kept = kept || same_case(k.c, best_.c);
    if (!kept) pool_.back() = best_;
    std::stable_sort(pool_.begin(), pool_.end(), [](const auto &a, const auto &b) { return a.err > b.err; });
    for (size_t k = 0; k < pool_.size() && k < size_t(std::max(0, keep)); k++) {
        FoundCase f;
        for (int i = 0; i < 4; i++) f.q0[i] = pool_[k].c.q0[size_t(i)], f.q1[i] = pool_[k].c.q1[size_t(i)];
        f.t = pool_[k].c.t;
        f.angle_err_rad = pool_[k].err;
        out.worst.push_back(f);
    }
}

}  // namespace

template <class T> SearchOutcome search_row(const Impl &impl, Op op, Region region, uint64_t seed, ReferenceMode mode,
                                            const std::vector<double> &sampled_err, int keep,
                                            const SearchSettings &settings, const StopToken &stop) {
    SearchOutcome out;
    const uint64_t n = sampled_err.size(), half = n / 2;
    out.evaluations = n;
    Climb<T> climb(impl, op, region, seed, mode, settings, stop);
    if (!climb.seed_pool(seed, sampled_err, half, out)) return out;
    if (!climb.climb(n - half, out)) return out;
    climb.finish(keep, out);
    return out;
}

namespace {

// A row's per-case errors in case order, from the parts of its precision and region (fewer than its cases
// when a part lacks the row).
std::vector<double> row_errors(const RunResult &result, const Row &row) {
    const std::vector<size_t> &idx = result.plan.rows(row.impl->precision);
    size_t k = 0;
    while (k < idx.size() &&
           !(result.plan.selected[idx[k]].impl == row.impl && result.plan.selected[idx[k]].op == row.op))
        k++;
    std::vector<const RegionPart *> parts;
    for (const auto &s : result.parts)
        if (s.precision == row.impl->precision && s.region == row.region) parts.push_back(&s);
    std::sort(parts.begin(), parts.end(), [](auto *a, auto *b) { return a->begin < b->begin; });
    std::vector<double> errs;
    for (const RegionPart *s : parts) {
        if (k >= s->rows.size()) continue;
        const auto &e = s->rows[k].angle_err_rad;
        errs.insert(errs.end(), e.begin(), e.end());
    }
    return errs;
}

}  // namespace

std::vector<SearchRow> search_worst_cases(RunResult &result, int jobs, const SearchSettings &settings,
                                          const StopToken &stop) {
    const RunOptions &opt = result.plan.options;
    std::vector<SearchOutcome> outcomes(result.rows.size());
    std::vector<char> searched(result.rows.size(), 0);
    std::atomic<size_t> next{0};
    auto worker = [&](int) {
        for (;;) {
            size_t r = next.fetch_add(1);
            if (r >= result.rows.size()) break;
            const Row &row = result.rows[r];
            if (row.status != EvalStatus::ok) continue;
            const std::vector<double> errs = row_errors(result, row);
            if (errs.size() != row.cases) continue;
            outcomes[r] = row.impl->precision == Precision::f32
                              ? search_row<float>(*row.impl, row.op, row.region, opt.seed, opt.reference, errs,
                                                  opt.worst_k, settings, stop)
                              : search_row<double>(*row.impl, row.op, row.region, opt.seed, opt.reference, errs,
                                                   opt.worst_k, settings, stop);
            searched[r] = 1;
        }
    };
    run_workers(jobs, worker, [&] { next.store(result.rows.size()); });
    std::vector<SearchRow> rows(result.rows.size());
    for (size_t r = 0; r < result.rows.size(); r++) {
        if (!searched[r]) continue;
        Row &row = result.rows[r];
        (row.impl->precision == Precision::f32 ? result.reference_f32 : result.reference_f64)
            .add(outcomes[r].reference);
        if (const Failure &f = outcomes[r].failure; f.failed()) {
            row.status = f.outcome.status;
            row.failed_index = row.cases;
            row.status_detail = fmt::format("{} in the worst-case search", f.outcome.detail);
            row.failed_case = f.failed_case;
            continue;
        }
        rows[r].max_angle_err_rad = outcomes[r].max_angle_err_rad;
        rows[r].worst = std::move(outcomes[r].worst);
        rows[r].finite_max = outcomes[r].finite_max;
        rows[r].discarded = outcomes[r].discarded;
    }
    return rows;
}

void set_search_rewind_damaged(bool damaged) { g_rewind_damaged.store(damaged); }

template SearchOutcome search_row<float>(const Impl &, Op, Region, uint64_t, ReferenceMode, const std::vector<double> &,
                                         int, const SearchSettings &, const StopToken &);
template SearchOutcome search_row<double>(const Impl &, Op, Region, uint64_t, ReferenceMode,
                                          const std::vector<double> &, int, const SearchSettings &, const StopToken &);

}  // namespace qc
