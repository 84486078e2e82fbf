// quatcheck sweep: exhaustive (or scanned) slices along the dot product or t, and the branch map. The method
// is described in sweep.h and docs/sweep.md. CORE-MATH and LLVM libc check one-argument functions on every
// binary32 input; this applies the idea to one-dimensional slices of slerp's nine inputs.
#include "metrics/comparison.h"
#include "sweep/sweep.h"
#include "sweep/accumulate.h"
#include "sweep/points.h"
#include "reference/pair_memo.h"

#include "isolate/eval.h"
#include "plugins/contain.h"
#include "metrics/metrics.h"
#include "regions/regions.h"
#include "base/parallel.h"
#include "tables/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <type_traits>

#include <time.h>

namespace qc {

const char *to_string(SweepOver o) { return o == SweepOver::dot ? "dot" : "t"; }

namespace {

using namespace sweep_detail;

std::atomic<bool> g_shortcuts{true};  // set_sweep_shortcuts (the CLI: QC_SWEEP_PLAIN=1 turns them off)

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

struct RowRef {
    const Impl *impl;
    Op op;
};

// What the threads sweeping one slice share: the options, the slice and its points, the rows, and each row's
// first failure (containment: a row stops being evaluated at its first failure, plugins/contain.h).
template <class T> struct Slice {
    Slice(const SweepOptions &o, const SliceSpec &s, const std::vector<RowRef> &r, const Points<T> &p, bool nlerp)
        : opt(o), spec(s), rows(r), points(p), want_nlerp(nlerp), failures(r.size()) {}
    const SweepOptions &opt;
    const SliceSpec &spec;
    const std::vector<RowRef> &rows;
    const Points<T> &points;
    const bool want_nlerp;  // the references compute the normalised lerp too
    std::vector<FirstFailure> failures;
};

// One thread's sweep of a slice: its reference and metric engines, its buffers, and the statistics of the blocks
// it evaluated (acc()).
template <class T> class SliceRunner {
public:
    explicit SliceRunner(Slice<T> &slice)
        : slice_(slice),
          opt_(slice.opt),
          spec_(slice.spec),
          rows_(slice.rows),
          points_(slice.points),
          cmp_(slice.spec.precision, slice.opt.reference),
          acc_(slice.rows.size()) {
        cmp_.reference.set_nlerp_wanted(slice.want_nlerp);
    }

    const std::vector<RowAcc> &acc() const { return acc_; }
    ReferenceEngine &reference() { return cmp_.reference; }
    MetricEngine &metric() { return cmp_.metric; }

    // Evaluates points [b, e) into acc(), with up to kPersist points of context each side (the pairs (k - 1, k)
    // for k in [b, e) are this block's; the context only feeds the persistence test).
    void block(uint64_t b, uint64_t e) {
        const uint64_t b0 = b - std::min<uint64_t>(b, kPersist), e1 = std::min(points_.size(), e + kPersist);
        evaluate_rows(b0, e1 - b0);
        accumulate(b, e, b0, e1 - b0);
        find_candidates(b, e, b0, e1 - b0);
    }

    // Sizes the buffers for blocks of up to n points (and their context) now: a sweep's thread allocates them once
    // for its first block; the calibration does it before its untimed warm-up, so that its timed block is a
    // steady-state block, as every later block of a sweep is (fresh pages of a first allocation cost about 3x).
    void reserve(uint64_t n) {
        const size_t m = size_t(n + 2 * kPersist), nr = rows_.size(), ld = row_stride(m);
        grow(cases_, m), grow(outs_, ld * nr), grow(delta_, ld * nr * 4), grow(err_, ld * nr);
        grow(jumps_, ld * nr), grow(sorted_, m);
    }

    // The persistence test of an edge between adjacent floats lo < hi: row r's displacements at the kPersist
    // floats up to lo and from hi (one batch).
    bool persistent_edge(T lo, T hi, size_t r, double threshold, uint64_t &evaluated) {
        std::vector<SlerpCase<T>> cs;
        std::vector<T> xs;
        T x = lo;
        for (uint64_t m = 0; m < kPersist && x >= T(spec_.lo); m++, x = std::nextafter(x, T(-2)))
            xs.insert(xs.begin(), x);
        const size_t nb = xs.size();
        x = hi;
        for (uint64_t m = 0; m < kPersist && x <= T(spec_.hi); m++, x = std::nextafter(x, T(2))) xs.push_back(x);
        for (T v : xs) cs.push_back(make_case<T>(opt_, spec_, v));
        std::vector<Quat<T>> outs(cs.size());
        if (!eval_until_failure(*rows_[r].impl, rows_[r].op, cs.data(), cs.size(), outs.data(), cs.size()).ok())
            return false;
        evaluated += cs.size();
        std::vector<double> ds(cs.size() * 4);
        SlerpReference &ref = scratch_;
        for (size_t i = 0; i < cs.size(); i++) {
            cmp_.reference.slerp(cs[i], ref, false);
            displacement(outs[i].data(), rows_[r].op == Op::nlerp ? ref.N : ref.R, &ds[i * 4]);
        }
        std::vector<const double *> below, above;
        for (size_t i = 0; i < cs.size(); i++) (i < nb ? below : above).push_back(&ds[i * 4]);
        return persistent_step(below, above) > threshold / 2;
    }

    // One point evaluated alone (bisection): displacement and angle error of row r. False if it failed.
    bool point(T x, size_t r, double delta[4], double &err) {
        SlerpCase<T> c = make_case<T>(opt_, spec_, x);
        Quat<T> out;
        if (!eval_until_failure(*rows_[r].impl, rows_[r].op, &c, 1, &out, 1).ok()) return false;
        SlerpReference &ref = scratch_;
        cmp_.reference.slerp(c, ref, false);
        CaseMetrics m = cmp_.metric.measure(out.data(), ref, rows_[r].op);
        displacement(out.data(), rows_[r].op == Op::nlerp ? ref.N : ref.R, delta);
        err = m.nonfinite ? INFINITY : m.angle_err_rad;
        return true;
    }

private:
    // The block's n points from b0 through every row not yet failed, each stopping at its first failure
    // (valid_[r]: the points evaluated).
    void evaluate_rows(uint64_t b0, uint64_t n) {
        const size_t nr = rows_.size();
        grow(cases_, size_t(n));
        grow(outs_, row_stride(n) * nr);
        valid_.assign(nr, 0);
        for (uint64_t i = 0; i < n; i++) cases_[size_t(i)] = make_case<T>(opt_, spec_, points_.at(b0 + i));
        for (size_t r = 0; r < nr; r++) {
            if (slice_.failures[r].failed()) continue;
            const EvalOutcome o = eval_until_failure(*rows_[r].impl, rows_[r].op, cases_.data(), size_t(n),
                                                     &outs_[r * row_stride(n)], kEvalBatch);
            slice_.failures[r].record(b0, o);
            valid_[r] = o.done;
        }
    }

    // The distance between two rows' first points in the per-row buffers (outs_, delta_, err_, jumps_) of a block of n
    // points: n rounded up to an odd multiple of 8. With a stride of n itself, a block of 2048 points (the calibration's)
    // put every row's values of one point 16 KiB or 64 KiB apart, in one L1 cache set (4 KiB aliasing), and accumulate
    // missed on nearly every row of every point; an odd multiple of 8 elements spreads the rows over the sets. Layout
    // only: the values are the same.
    static size_t row_stride(uint64_t n) { return (size_t(n + 7) / 8 | 1) * 8; }
    // Row r's displacement and angle error at point i of the block's n: each row's points are contiguous (delta_,
    // err_), so that find_candidates walks them in order.
    double *delta_at(size_t r, uint64_t i, uint64_t n) { return &delta_[(r * row_stride(n) + size_t(i)) * 4]; }
    double &err_at(size_t r, uint64_t i, uint64_t n) { return err_[r * row_stride(n) + size_t(i)]; }
    // Row r's jump between points i - 1 and i (i >= 1), computed by accumulate while both displacements are in cache.
    double &jump_at(size_t r, uint64_t i, uint64_t n) { return jumps_[r * row_stride(n) + size_t(i)]; }

    // Point i's metrics and displacement of every row that evaluated it (metrics_[r], delta_): both are functions of
    // (output, reference, op), so each distinct output is measured once, every distinct output of the point in one
    // MetricEngine::measure_batch call (the same figures as one measure() each), and the other rows copy them.
    void measure_point(uint64_t i, uint64_t n, const SlerpReference &ref) {
        const size_t nr = rows_.size();
        auto delta = [&](size_t r) { return delta_at(r, i, n); };
        auto out = [&](size_t r) { return outs_[r * row_stride(n) + size_t(i)].data(); };
        distinct_.clear();
        for (size_t r = 0; r < nr; r++)
            if (i < valid_[r]) distinct_.add(out(r), rows_[r].op, r);
        grow(distinct_metrics_, distinct_.count());
        cmp_.metric.measure_batch(distinct_.outs(), distinct_.ops(), distinct_.count(), ref, distinct_metrics_.data());
        for (size_t j = 0; j < distinct_.count(); j++) {
            const size_t r = distinct_.slot(j);
            metrics_[r] = distinct_metrics_[j];
            displacement(out(r), rows_[r].op == Op::nlerp ? ref.N : ref.R, delta(r));
        }
        for (const auto &[r, e] : distinct_.copies()) {
            metrics_[r] = metrics_[e];
            std::memcpy(delta(r), delta(e), 4 * sizeof(double));
        }
    }

    // The references and metrics of the block's points, and the statistics of those in [b, e).
    void accumulate(uint64_t b, uint64_t e, uint64_t b0, uint64_t n) {
        const size_t nr = rows_.size();
        grow(delta_, row_stride(n) * nr * 4);
        grow(err_, row_stride(n) * nr);
        grow(jumps_, row_stride(n) * nr);
        const double span = spec_.hi - spec_.lo;
        metrics_.resize(nr);
        // Context points belong to the neighbouring blocks' statistics, the overlap point to the previous shard's.
        const uint64_t counted_lo = std::max(b, points_.overlap), counted_hi = e;
        for (uint64_t i = 0; i < n; i++) {
            const uint64_t k = b0 + i;  // shard point index
            // The references of kRefBatch points at once (the fast path's AVX2 batch): the same values and stats
            // as point by point.
            if (i % kRefBatch == 0) {
                const size_t m = size_t(std::min<uint64_t>(kRefBatch, n - i));
                for (size_t j = 0; j < m; j++) validate_[j] = sampled_for_validation(opt_.seed, points_.begin + k + j);
                cmp_.reference.slerp_batch(&cases_[size_t(i)], m, refs_.data(), validate_.get());
            }
            const SlerpReference &ref = refs_[size_t(i % kRefBatch)];
            const double x = double(points_.at(k));
            int cb = span > 0 ? int((x - spec_.lo) / span * kCurveBins) : 0;
            cb = std::clamp(cb, 0, kCurveBins - 1);
            measure_point(i, n, ref);
            for (size_t r = 0; r < nr; r++) {
                if (i >= valid_[r]) continue;
                const CaseMetrics &m = metrics_[r];
                const double err = m.nonfinite ? INFINITY : m.angle_err_rad;
                err_at(r, i, n) = err;
                if (i > 0) jump_at(r, i, n) = jump_between(delta_at(r, i - 1, n), delta_at(r, i, n));
                if (k < counted_lo || k >= counted_hi) continue;
                acc_[r].count(k, m, err, cb);
            }
        }
        // The histograms, row by row (one row's histogram at a time stays in cache; the counts are the same).
        for (size_t r = 0; r < nr; r++)
            for (uint64_t k = counted_lo; k < std::min(counted_hi, b0 + valid_[r]); k++)
                acc_[r].count_hist(err_at(r, k - b0, n));
    }

    // Jumps between consecutive points, against the block's median jump, and persistent: row r's candidates.
    void find_candidates(uint64_t b, uint64_t e, uint64_t b0, uint64_t n) {
        const double floor = kEdgeFloorEps * precision_eps(Format<T>::precision);
        const size_t nr = rows_.size();
        for (size_t r = 0; r < nr; r++) {
            const uint64_t valid = std::min<uint64_t>(n, valid_[r]);
            auto d = [&](uint64_t i) { return delta_at(r, i, n); };
            // pair (i - 1, i) of the evaluated range, i = first .. last - 1
            const uint64_t first = std::max<uint64_t>(b - b0, 1), last = std::min(valid, e - b0);
            if (first >= last) continue;
            const size_t count = size_t(last - first);
            grow(sorted_, count);
            const double *jumps = &jump_at(r, first, n);
            const double threshold = edge_threshold(jumps, count, floor);
            bool above = false;
            for (size_t j = 0; j < count; j++) above = above || jumps[j] > threshold;
            for (size_t j = 0; above && j < count; j++) {
                if (!(jumps[j] > threshold)) continue;
                const uint64_t i = first + j;
                std::vector<const double *> below, above;
                for (uint64_t m = i - std::min<uint64_t>(i, kPersist); m < i; m++) below.push_back(d(m));
                for (uint64_t m = i; m < std::min(valid, i + kPersist); m++) above.push_back(d(m));
                if (!(persistent_step(below, above) > threshold / 2)) continue;
                Candidate c;
                c.k = b0 + i;
                c.jump = jumps[j];
                c.threshold = threshold;
                std::memcpy(c.delta_below, d(i - 1), sizeof c.delta_below);
                std::memcpy(c.delta_above, d(i), sizeof c.delta_above);
                c.err_below = err_at(r, i - 1, n);
                c.err_above = err_at(r, i, n);
                acc_[r].candidates.push_back(c);
            }
        }
    }

    // max(kEdgeFactor * median, floor) of jumps[0 .. count) (the median: nearest rank, as percentile()).
    // Where at least the median's rank of the jumps are at most floor / kEdgeFactor, so is the median, and the
    // threshold is floor whatever its exact value (kEdgeFactor * median <= floor, both scalings exact): the
    // selection is skipped, and its value is the same. A NaN jump (none expected) takes the full path.
    double edge_threshold(const double *jumps, size_t count, double floor) {
        if (g_shortcuts.load(std::memory_order_relaxed)) {
            const size_t rank = std::max<size_t>(size_t(std::ceil(0.5 * double(count))), 1);  // 1-based
            const double small = floor / kEdgeFactor;
            size_t at_most = 0;
            bool nan = false;
            for (size_t j = 0; j < count; j++) at_most += jumps[j] <= small, nan = nan || std::isnan(jumps[j]);
            if (!nan && at_most >= rank) return floor;
        }
        std::copy(jumps, jumps + count, sorted_.begin());
        const double median = percentile_of(sorted_.data(), sorted_.data() + count, 0.5);
        return std::max(kEdgeFactor * median, floor);
    }

    // v holds at least n elements (a buffer only grows: a block of the sweep's usual size allocates nothing).
    template <class V> static void grow(V &v, size_t n) {
        if (v.size() < n) v.resize(n);
    }

    static constexpr size_t kEvalBatch = 1024;  // cases per call (a round trip out of process)
    static constexpr uint64_t kRefBatch = 64;
    Slice<T> &slice_;
    const SweepOptions &opt_;
    const SliceSpec &spec_;
    const std::vector<RowRef> &rows_;
    const Points<T> &points_;
    Comparator cmp_;
    std::vector<RowAcc> acc_;
    std::vector<SlerpCase<T>> cases_;
    std::vector<Quat<T>> outs_;
    std::vector<size_t> valid_;
    std::vector<double> delta_, err_;   // per row, then per point of the block (delta_at, err_at)
    std::vector<double> jumps_;         // per row, then per point (jump_at)
    std::vector<double> sorted_;        // a copy of one row's jumps for the median
    std::vector<CaseMetrics> metrics_;  // one point's, per row
    DistinctOutputs<T> distinct_;
    std::vector<CaseMetrics> distinct_metrics_;  // measure_batch's results, one per distinct output
    std::vector<SlerpReference> refs_ = std::vector<SlerpReference>(kRefBatch);
    std::unique_ptr<bool[]> validate_ = std::make_unique<bool[]>(kRefBatch);
    // A reference reused by the bisection's single points (a SlerpReference holds 16 MPFR numbers: building one
    // per point was a tenth of a sweep's instructions).
    SlerpReference scratch_;
};

// The slice's points over `jobs` threads, block by block: every row's statistics, and the references' work in
// ref_stats.
template <class T>
std::vector<RowAcc> sweep_blocks(Slice<T> &slice, const RunContext &ctx, int jobs, ReferenceStats &ref_stats) {
    const uint64_t n = slice.points.size(), blocks = (n + kBlock - 1) / kBlock;
    std::atomic<uint64_t> next{0};
    std::mutex acc_mutex;
    std::vector<RowAcc> total(slice.rows.size());
    auto worker = [&](int) {
        SliceRunner<T> runner(slice);  // own engines and buffers
        for (uint64_t blk; (blk = next.fetch_add(1)) < blocks;) {
            ctx.stop.throw_if_requested();  // SIGINT/SIGTERM: sweep ends with 128 + sig, --out untouched
            const uint64_t b = blk * kBlock, e = std::min(n, b + kBlock);
            runner.block(b, e);
            if (ctx.progress) ctx.progress->fetch_add(e - b, std::memory_order_relaxed);
        }
        std::lock_guard<std::mutex> lock(acc_mutex);
        for (size_t r = 0; r < slice.rows.size(); r++) total[r].add(runner.acc()[r]);
        ref_stats.add(runner.reference().stats());
    };
    run_workers(jobs, worker, [&] { next.store(blocks); });
    return total;
}

// Row r's figures from its statistics, and its status when it failed.
template <class T> SweepRow row_figures(const Slice<T> &slice, size_t r, const RowAcc &a, size_t slice_index) {
    SweepRow row;
    row.impl = slice.rows[r].impl;
    row.op = slice.rows[r].op;
    row.slice = slice_index;
    row.cases = a.cases;
    row.nonfinite = a.nonfinite;
    row.candidates = a.candidates.size();
    row.max_angle_err_rad = std::max(0.0, a.max_angle);
    row.max_ulp1 = a.max_ulp1;
    row.curve_max = a.curve_max;
    row.curve_cases = a.curve_cases;
    if (const Failure f = slice.failures[r].get(); f.failed())
        row.status = f.outcome.status, row.status_detail = f.outcome.detail;
    // p99 from the histogram (nearest rank).
    for (int b = 0; b < kHistBins; b++)
        if (a.hist[size_t(b)]) row.hist.push_back({b, a.hist[size_t(b)]});
    row.p99_angle_err_rad = sweep_p99(row);
    return row;
}

// Row r's worst point evaluated again, with its validated reference (row.worst_*).
template <class T>
void add_worst_point(SliceRunner<T> &runner, const Slice<T> &slice, size_t r, const RowAcc &a, SweepRow &row) {
    const T x = slice.points.at(a.argmax);
    SlerpCase<T> c = make_case<T>(slice.opt, slice.spec, x);
    Quat<T> out;
    if (!eval_until_failure(*slice.rows[r].impl, slice.rows[r].op, &c, 1, &out, 1).ok()) return;
    SlerpReference ref;
    runner.reference().slerp(c, ref, true);
    CaseMetrics m = runner.metric().measure(out.data(), ref, slice.rows[r].op);
    row.have_argmax = true;
    row.argmax_value = double(x);
    for (int i = 0; i < 4; i++) {
        row.worst_q0[i] = double(c.q0[i]), row.worst_q1[i] = double(c.q1[i]), row.worst_out[i] = double(out[i]);
        row.worst_ref[i] = to_double((slice.rows[r].op == Op::nlerp ? ref.N : ref.R)[i]);
    }
    row.worst_t = double(c.t);
    row.worst_ulp = m.nonfinite ? INFINITY : m.ulp;
    row.worst_ulp1 = m.nonfinite ? INFINITY : m.ulp1;
}

// Bisection of row r's largest candidates to adjacent floats: its persistent edges (row.edges).
template <class T> void bisect_edges(SliceRunner<T> &runner, const Slice<T> &slice, size_t r, RowAcc &a,
                                     const StopToken &stop, SweepRow &row, uint64_t &bisection_cases) {
    std::sort(a.candidates.begin(), a.candidates.end(),
              [](const Candidate &x, const Candidate &y) { return x.jump != y.jump ? x.jump > y.jump : x.k < y.k; });
    size_t tried = 0;
    for (const Candidate &c : a.candidates) {
        if (row.edges.size() >= kMaxEdgesPerRow || tried++ >= kMaxBisectedPerRow) break;
        stop.throw_if_requested();
        T lo = slice.points.at(c.k - 1), hi = slice.points.at(c.k);
        double dlo[4], dhi[4], elo = c.err_below, ehi = c.err_above;
        std::memcpy(dlo, c.delta_below, sizeof dlo);
        std::memcpy(dhi, c.delta_above, sizeof dhi);
        bool ok = true;
        while (ord(hi) - ord(lo) > 1) {
            T mid = from_ord<T>(ord(lo) + (ord(hi) - ord(lo)) / 2);
            double dm[4], em;
            if (!runner.point(mid, r, dm, em)) {
                ok = false;
                break;
            }
            bisection_cases++;
            if (jump_between(dlo, dm) >= jump_between(dm, dhi)) hi = mid, std::memcpy(dhi, dm, sizeof dm), ehi = em;
            else lo = mid, std::memcpy(dlo, dm, sizeof dm), elo = em;
        }
        const double jump = jump_between(dlo, dhi);
        if (!ok || !(jump > c.threshold)) continue;
        if (!runner.persistent_edge(lo, hi, r, c.threshold, bisection_cases)) continue;
        bool dup = false;
        for (const Edge &e : row.edges) dup = dup || (e.below == double(lo) && e.above == double(hi));
        if (!dup) row.edges.push_back({double(lo), double(hi), jump, elo, ehi});
    }
    std::sort(row.edges.begin(), row.edges.end(), [](const Edge &x, const Edge &y) { return x.below < y.below; });
}

template <class T> void run_slice(const SweepOptions &opt, const RunContext &ctx, size_t slice_index,
                                  const SliceSpec &spec, const std::vector<ImplOp> &sel, int jobs, SweepResult &result,
                                  ReferenceStats &ref_stats) {
    std::vector<RowRef> rows;
    for (const ImplOp &io : sel)
        if (io.impl->precision == spec.precision) rows.push_back({io.impl, io.op});
    if (rows.empty()) return;
    const bool want_nlerp = std::any_of(rows.begin(), rows.end(), [](const RowRef &r) { return r.op == Op::nlerp; });
    const Points<T> pts = make_points<T>(opt, spec, ctx.stop);
    Slice<T> slice(opt, spec, rows, pts, want_nlerp);
    const uint64_t n = pts.size();
    const double cpu0 = cpu_seconds();
    const auto wall0 = std::chrono::steady_clock::now();
    std::vector<RowAcc> total = sweep_blocks(slice, ctx, jobs, ref_stats);
    const int pi = spec.precision == Precision::f32 ? 0 : 1;
    result.cpu_s[pi] += cpu_seconds() - cpu0;
    result.sweep_wall_s[pi] += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    result.points[pi] += n;
    result.impl_evals[pi] += n * rows.size();
    result.cases += n;
    SliceRunner<T> runner(slice);  // the bisection's engines
    for (size_t r = 0; r < rows.size(); r++) {
        SweepRow row = row_figures(slice, r, total[r], slice_index);
        if (total[r].cases) add_worst_point(runner, slice, r, total[r], row);
        bisect_edges(runner, slice, r, total[r], ctx.stop, row, result.bisection_cases);
        result.rows.push_back(std::move(row));
    }
    ref_stats.add(runner.reference().stats());
}

template <class T> void add_slices(const SweepOptions &opt, std::vector<SliceSpec> &out) {
    const Precision P = Format<T>::precision;
    auto [lo, hi] = format_window<T>(opt.over, opt.lo, opt.hi);
    if (!(lo <= hi)) throw UsageError(fmt::format("--window: empty in {} ({} .. {})", Format<T>::name, opt.lo, opt.hi));
    const uint64_t count = ord(hi) - ord(lo) + 1;
    SliceSpec base;
    base.precision = P;
    base.lo = double(lo), base.hi = double(hi);
    base.exhaustive =
        std::is_same_v<T, float> ? (opt.points == 0 || count <= opt.points) : (opt.points != 0 && count <= opt.points);
    if (opt.over == SweepOver::dot) {
        for (double t : opt.ts) {
            SliceSpec s = base;
            s.fixed_t = double(T(t));
            s.label = "t=" + hexfloat(s.fixed_t);
            out.push_back(s);
        }
    } else {
        std::vector<std::pair<std::string, double>> dots;
        for (double d : opt.pair_dots) dots.push_back({fmt::format("dot:{}", d), d});
        if (opt.pair_dots.empty())
            dots = {{"0+", 1 - 0x1p-20},
                    {"threshold", kSeedThreshold},
                    {"dot:0.7", 0.7},
                    {"half-pi", 0x1p-20},
                    {"pi-", -(1 - 0x1p-20)}};
        for (auto &[name, d] : dots) {
            SliceSpec s = base;
            const T dt = T(d);
            double q1[4] = {double(dt), double(T(std::sqrt((1 - double(dt)) * (1 + double(dt))))), 0, 0};
            std::copy(q1, q1 + 4, s.q1);
            s.label = "pair=" + name;
            out.push_back(s);
        }
        if (opt.pair_dots.empty()) {
            Rng rng(opt.seed ^ 0x5357454550ull);
            for (int k = 0; k < 2; k++) {
                SliceSpec s = base;
                double a[4], b[4];
                random_unit(rng, a);
                random_unit(rng, b);
                for (int i = 0; i < 4; i++) s.q0[i] = double(T(a[i])), s.q1[i] = double(T(b[i]));
                s.label = fmt::format("pair=uniform{}", k + 1);
                out.push_back(s);
            }
        }
    }
}

}  // namespace

void set_sweep_shortcuts(bool on) {
    g_shortcuts.store(on);
    set_reference_pair_memo(on);
}

double sweep_p99(const SweepRow &row) {
    uint64_t rank = uint64_t(std::ceil(0.99 * double(row.cases))), seen = 0;
    if (rank == 0) return 0;
    for (const auto &[b, count] : row.hist) {
        seen += count;
        if (seen >= rank) return std::min(hist_upper(b), row.max_angle_err_rad);
    }
    return row.max_angle_err_rad;
}

SweepThroughput sweep_throughput(const SweepResult &r, Precision p) {
    SweepThroughput t;
    const int pi = p == Precision::f32 ? 0 : 1;
    t.exhaustive_t_points = representable_count(p, 0.0, 1.0);
    for (const ImplOp &io : r.selected) t.impl_ops += io.impl->precision == p;
    if (r.points[pi] == 0 || r.cpu_s[pi] <= 0) return t;
    t.measured = true;
    t.points_per_s_per_core = double(r.points[pi]) / r.cpu_s[pi];
    t.impl_evals_per_s_per_core = double(r.impl_evals[pi]) / r.cpu_s[pi];
    // An exhaustive t slice of this selection: its cost per point measured on 2048 points spread over it,
    // times every t, spread over the run's cores.
    t.seconds_per_t_point = r.exhaustive_t_cost_s[pi];
    t.slice_wall_s = r.exhaustive_t_cost_s[pi] * double(t.exhaustive_t_points) / double(r.jobs);
    return t;
}

uint64_t representable_count(Precision p, double lo, double hi) {
    if (p == Precision::f32) return ord(float(hi)) - ord(float(lo)) + 1;
    return ord(hi) - ord(lo) + 1;
}

std::vector<SliceSpec> plan_slices(const SweepOptions &opt, const std::vector<ImplOp> &selected,
                                   const StopToken &stop) {
    std::vector<SliceSpec> out;
    bool f32 = false, f64 = false;
    for (const ImplOp &io : selected) (io.impl->precision == Precision::f32 ? f32 : f64) = true;
    if (f32) add_slices<float>(opt, out);
    if (f64) add_slices<double>(opt, out);
    for (SliceSpec &s : out) {
        if (s.precision == Precision::f32) s.points = make_points<float>(opt, s, stop).size();
        else s.points = make_points<double>(opt, s, stop).size();
    }
    return out;
}

namespace {
template <class T> double calibrate(const SweepOptions &opt, const std::vector<ImplOp> &sel, const SliceSpec &spec,
                                    const StopToken &stop) {
    std::vector<RowRef> rows;
    for (const ImplOp &io : sel)
        if (io.impl->precision == spec.precision) rows.push_back({io.impl, io.op});
    // 2048 points spread evenly over the slice (an exhaustive f32 t slice is 92 % t < 2^-10, where the
    // reference costs more than at the slice's start or in a uniform scan).
    const Points<T> full = make_points<T>(opt, spec, stop);
    stop.throw_if_requested();
    if (rows.empty() || full.size() == 0) return 0;
    Points<T> pts;
    const uint64_t count = std::min<uint64_t>(2048, full.size());
    for (uint64_t k = 0; k < count; k++) pts.values.push_back(full.at(k * full.size() / count));
    pts.end = count;
    Slice<T> slice(opt, spec, rows, pts, true);  // (the reference engine's default: nlerp too)
    SliceRunner<T> runner(slice);
    const uint64_t n = pts.size();
    runner.reserve(n);                           // the buffers of a block of n points, as a sweep's thread has them
    runner.block(0, std::min<uint64_t>(n, 64));  // warm-up
    const double c0 = cpu_seconds();
    runner.block(0, n);
    return (cpu_seconds() - c0) / double(n);
}
}  // namespace

double seconds_per_point(const SweepOptions &opt, const std::vector<ImplOp> &sel, const SliceSpec &spec,
                         const StopToken &stop) {
    return spec.precision == Precision::f32 ? calibrate<float>(opt, sel, spec, stop)
                                            : calibrate<double>(opt, sel, spec, stop);
}

uint64_t planned_sweep_cases(const std::vector<SliceSpec> &slices) {
    uint64_t n = 0;
    for (const SliceSpec &s : slices) n += s.points;
    return n;
}

std::vector<ImplOp> select_sweep_impls(const std::vector<Impl> &catalogue, const SweepOptions &opt) {
    // The selection rule of every command (plugins/select.h: a glob never takes the bench group); slerp by default.
    return select_impls(catalogue, opt.impl_filters, opt.ops.empty() ? std::vector<Op>{Op::slerp} : opt.ops);
}

SweepResult run_sweep(const SweepOptions &opt, const std::vector<Impl> &catalogue, const RunContext &ctx) {
    auto start = std::chrono::steady_clock::now();
    SweepResult r;
    r.options = opt;
    r.selected = select_sweep_impls(catalogue, opt);
    if (r.selected.empty()) throw UsageError("sweep: the selection has no implementation supporting the requested ops");
    r.slices = plan_slices(opt, r.selected, ctx.stop);
    r.jobs = resolve_jobs(opt.jobs);
    for (size_t s = 0; s < r.slices.size(); s++) {
        ctx.stop.throw_if_requested();
        if (r.slices[s].precision == Precision::f32)
            run_slice<float>(opt, ctx, s, r.slices[s], r.selected, r.jobs, r, r.reference_f32);
        else run_slice<double>(opt, ctx, s, r.slices[s], r.selected, r.jobs, r, r.reference_f64);
    }
    // The cost of an exhaustive f32 t slice of this selection (pair a.b = 0.7), for the printed extrapolation.
    SweepOptions tslice;
    tslice.over = SweepOver::t;
    tslice.pair_dots = {0.7};
    tslice.reference = opt.reference;
    for (SliceSpec &s : plan_slices(tslice, r.selected, ctx.stop)) {
        if (s.precision != Precision::f32) continue;
        s.exhaustive = true;
        s.lo = 0, s.hi = 1;
        r.exhaustive_t_cost_s[0] = seconds_per_point(tslice, r.selected, s, ctx.stop);
    }
    r.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace qc
