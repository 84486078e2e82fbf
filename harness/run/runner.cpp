#include "metrics/comparison.h"
#include "run/runner.h"
#include "plugins/contain.h"
#include "metrics/same_outputs.h"
#include "base/parallel.h"
#include "plugins/select.h"

#include "tables/table.h"

#include <fmt/format.h>
#include <mpfr.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>

namespace qc {

std::vector<CurveBin> curve_bins() {
    std::vector<CurveBin> bins;
    bins.push_back({0.0, 1e-12, "log"});
    for (int k = 0; k < 48; k++) {  // 4 bins per decade, 1e-12 .. 1
        double lo = std::pow(10.0, -12.0 + k / 4.0), hi = std::pow(10.0, -12.0 + (k + 1) / 4.0);
        bins.push_back({lo, hi, "log"});
    }
    bins.push_back({1.0, M_PI / 2 + 1e-12, "log"});
    // 20 bins across the threshold's neighbourhood: a.b from 0.9995 + 2e-4 down to 0.9995 - 2e-4.
    double w_lo = std::acos(kSeedThreshold + 2e-4), w_hi = std::acos(kSeedThreshold - 2e-4);
    for (int k = 0; k < 20; k++)
        bins.push_back({w_lo + (w_hi - w_lo) * k / 20, w_lo + (w_hi - w_lo) * (k + 1) / 20, "threshold"});
    return bins;
}

namespace {

// The log bin of an arc and the threshold bin it also falls in (edges.size() when none).
std::pair<size_t, size_t> bins_of(double arc_w, const std::vector<CurveBin> &edges) {
    size_t log_bin = edges.size(), threshold_bin = edges.size();
    for (size_t b = 0; b < edges.size(); b++) {
        if (arc_w < edges[b].w_lo || arc_w >= edges[b].w_hi) continue;
        if (edges[b].kind == "log" && log_bin == edges.size()) log_bin = b;
        if (edges[b].kind == "threshold" && threshold_bin == edges.size()) threshold_bin = b;
    }
    return {log_bin, threshold_bin};
}

// One region of one precision being sampled: the plan's case range spread over threads by chunks, each case's
// reference computed once and every implementation-op of the precision run and measured on it (the metrics
// into the shared buffer, by case), then reduced into the region's part.
template <class T> class RegionSampler {
public:
    RegionSampler(const RunPlan &plan, const RunContext &ctx, Region region, std::vector<CaseMetrics> &metrics)
        : plan_(plan),
          ctx_(ctx),
          region_(region),
          idx_(plan.rows(Format<T>::precision)),
          nio_(idx_.size()),
          first_(plan.first),
          n_(plan.last - plan.first),
          metrics_(metrics),
          failures_(nio_) {
        // Each impl-op's cases of this range: all, or those below its --cases-for cap.
        for (size_t k = 0; k < nio_; k++) {
            const uint64_t end = plan.case_end[idx_[k]];
            cap_.push_back(end <= first_ ? 0 : std::min(n_, end - first_));
        }
        if (metrics_.size() < n_ * nio_) metrics_.resize(n_ * nio_);
        part_.precision = Format<T>::precision, part_.region = region, part_.begin = first_, part_.end = plan.last;
        part_.arc_w.resize(n_);
        tie_.resize(n_);
        // 32 cases per chunk in process. When an implementation lives in another process (plugins, adapters,
        // --isolate), each chunk is a round trip per implementation: chunks of n / (4 jobs) cases, at least 512
        // and at most 4096 (the protocol's largest batch), so that large runs make few round trips and small
        // ones still give every thread work. The figures do not depend on it (every case is measured on its
        // own); only an interrupted run's kept prefix does.
        const bool remote = std::any_of(idx_.begin(), idx_.end(),
                                        [&](size_t i) { return !plan_.selected[i].impl->backend->in_process(); });
        chunk_ = remote ? std::clamp<uint64_t>(n_ / (4 * uint64_t(plan.jobs)), 512, 4096) : 32;
        chunk_done_.assign(size_t((n_ + chunk_ - 1) / chunk_), 0);
    }

    // Evaluates every case over plan.jobs threads and adds the references' work to ref_stats.
    void evaluate(ReferenceStats &ref_stats) {
        std::vector<ReferenceStats> stats(static_cast<size_t>(plan_.jobs));
        run_workers(
            plan_.jobs, [&](int w) { stats[size_t(w)] = worker(); }, [&] { next_.store(n_); });
        for (auto &s : stats) ref_stats.add(s);
    }
    bool stopped() const { return stopped_.load(); }
    // The cases done: all of them, or after an interruption those of the leading completed chunks.
    uint64_t done() const {
        if (!stopped()) return n_;
        size_t c = 0;
        while (c < chunk_done_.size() && chunk_done_[c]) c++;
        return std::min(n_, uint64_t(c) * chunk_);
    }
    // The part of the first n_done cases: per-case angles, and the figures that merge by sum or max.
    RegionPart reduce(uint64_t n_done, const std::vector<CurveBin> &edges);

private:
    // A worker thread's engines and buffers, one chunk's worth.
    struct Thread {
        Thread(Precision p, ReferenceMode mode, size_t chunk, size_t nio)
            : cmp(p, mode), refs(chunk), pending(nio), started(nio), cases(chunk), outs(chunk * nio), valid(nio) {}
        Comparator cmp;
        std::vector<SlerpReference> refs;
        std::vector<PendingBatch<T>> pending;
        std::vector<char> started;
        std::vector<SlerpCase<T>> cases;
        std::vector<Quat<T>> outs;
        std::vector<size_t> valid;
        SameOutputs<T> same;  // one case's outputs, each distinct one measured once
    };

    const Impl &impl(size_t k) const { return *plan_.selected[idx_[k]].impl; }
    Op op(size_t k) const { return plan_.selected[idx_[k]].op; }
    ReferenceStats worker();
    void start_batches(Thread &th, uint64_t begin, uint64_t end);
    void finish_batches(Thread &th, uint64_t begin);
    void measure(Thread &th, uint64_t begin, uint64_t end);

    const RunPlan &plan_;
    const RunContext &ctx_;
    const Region region_;
    const std::vector<size_t> &idx_;  // the precision's impl-ops: indices into plan_.selected
    const size_t nio_;
    const uint64_t first_, n_;  // case i of the range has index first_ + i
    // Every case's metrics for every implementation, one region at a time: one buffer for all regions (at
    // 200,000 cases and 35 implementations it is over 300 MB, which a fresh allocation per region would have
    // the kernel clear again each time). Each entry the reduction reads is written first.
    std::vector<CaseMetrics> &metrics_;
    uint64_t chunk_ = 32;
    RegionPart part_;
    std::vector<char> tie_;
    std::atomic<uint64_t> next_{0};
    // Containment: each impl-op's first failing case of the range (plugins/contain.h); chunks past it are not
    // evaluated for it. An interruption stops taking chunks.
    std::vector<FirstFailure> failures_;
    std::vector<uint64_t> cap_;  // per impl-op: its cases of the range are [0, cap_)
    std::vector<char> chunk_done_;
    std::atomic<bool> stopped_{false};
};

template <class T> ReferenceStats RegionSampler<T>::worker() {
    Thread th(Format<T>::precision, plan_.options.reference, chunk_, nio_);
    th.cmp.reference.set_fast_check_rate(plan_.fast_check_log2, plan_.options.seed);
    th.cmp.reference.set_nlerp_wanted(
        std::any_of(idx_.begin(), idx_.end(), [&](size_t i) { return plan_.selected[i].op == Op::nlerp; }));
    const std::unique_ptr<bool[]> validate(new bool[chunk_]);
    for (;;) {
        if (ctx_.stop.requested()) stopped_.store(true);
        if (stopped_.load()) break;
        const uint64_t begin = next_.fetch_add(chunk_);
        if (begin >= n_) break;
        const uint64_t end = std::min(n_, begin + chunk_);
        for (uint64_t i = begin; i < end; i++) {
            th.cases[i - begin] = regenerate_case<T>(plan_.options.seed, region_, first_ + i);
            validate[i - begin] = sampled_for_validation(plan_.options.seed, first_ + i);
        }
        start_batches(th, begin, end);
        // The chunk's references at once (the fast path's AVX2 batch), the same values and stats as case by case.
        th.cmp.reference.slerp_batch(th.cases.data(), size_t(end - begin), th.refs.data(), validate.get());
        for (uint64_t i = begin; i < end; i++) {
            part_.arc_w[i] = th.refs[i - begin].arc_w;
            tie_[i] = th.refs[i - begin].tie;
        }
        finish_batches(th, begin);
        if (stopped_.load()) break;
        measure(th, begin, end);
        chunk_done_[size_t(begin / chunk_)] = 1;
        if (ctx_.progress) ctx_.progress->fetch_add(end - begin, std::memory_order_relaxed);
    }
    return th.cmp.reference.stats();
}

// One batch per implementation: a loop in process, or one round trip to its process. The batches to other
// processes go first and are collected last (finish_batches), so that those processes work while this thread
// runs the in-process implementations and the references.
template <class T> void RegionSampler<T>::start_batches(Thread &th, uint64_t begin, uint64_t end) {
    for (int remote_pass = 1; remote_pass >= 0; remote_pass--)
        for (size_t k = 0; k < nio_; k++) {
            if (impl(k).backend->in_process() == bool(remote_pass)) continue;
            th.started[k] = failures_[k].reaches(begin) && begin < cap_[k];
            if (th.started[k])
                th.pending[k].start(impl(k), op(k), th.cases.data(), size_t(std::min(end, cap_[k]) - begin),
                                    &th.outs[k * chunk_]);
        }
}

template <class T> void RegionSampler<T>::finish_batches(Thread &th, uint64_t begin) {
    for (size_t k = 0; k < nio_; k++) {
        th.valid[k] = 0;
        if (!th.started[k]) continue;
        EvalOutcome o = th.pending[k].finish();
        th.valid[k] = o.done;
        if (o.status == EvalStatus::interrupted) stopped_.store(true);
        else failures_[k].record(begin, o);
    }
}

// The metrics are a function of (output, reference, op), and implementations often agree to the bit on a case
// (one formula in several libraries, correctly rounded results): each distinct output and op is measured once
// per case, and the others copy its metrics. The distinct outputs of a case are measured in one batch
// (MetricEngine::measure_batch: the same metrics as one call each, faster together).
template <class T> void RegionSampler<T>::measure(Thread &th, uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; i++) {
        th.same.clear();
        for (size_t k = 0; k < nio_; k++)
            if (i - begin < th.valid[k]) th.same.add(th.outs[k * chunk_ + (i - begin)].data(), op(k), k);
        th.same.measure(th.cmp.metric, th.refs[i - begin],
                        [&](size_t k) -> CaseMetrics & { return metrics_[i * nio_ + k]; });
    }
}

template <class T> RegionPart RegionSampler<T>::reduce(uint64_t n_done, const std::vector<CurveBin> &edges) {
    RegionPart part = std::move(part_);
    part.end = first_ + n_done;
    part.arc_w.resize(n_done);
    for (uint64_t i = 0; i < n_done; i++) part.ties += tie_[i];
    std::vector<std::pair<size_t, size_t>> case_bins(n_done);  // once per case, not per case and row
    for (uint64_t i = 0; i < n_done; i++) case_bins[i] = bins_of(part.arc_w[i], edges);
    part.rows.resize(nio_);
    std::vector<uint64_t> limit(nio_);
    for (size_t k = 0; k < nio_; k++) {
        RowPart &row = part.rows[k];
        limit[k] = std::min(failures_[k].limit(n_done), cap_[k]);
        if (const Failure f = failures_[k].get(); f.failed() && f.index < n_done) {
            row.status = f.outcome.status;
            row.failed_index = first_ + f.index;
            row.status_detail = f.outcome.detail;
            row.failed_case = case_text(regenerate_case<T>(plan_.options.seed, region_, first_ + f.index));
        }
        row.angle_err_rad.resize(limit[k]);
        row.bin_max_ulp1.assign(edges.size(), 0.0);
        row.ties = cap_[k] >= n_done ? part.ties : uint64_t(std::count(tie_.begin(), tie_.begin() + long(cap_[k]), 1));
    }
    // Case by case (the metrics buffer in the order it was written), every row's figures in case order.
    for (uint64_t i = 0; i < n_done; i++) {
        const auto [log_bin, threshold_bin] = case_bins[i];
        for (size_t k = 0; k < nio_; k++) {
            if (i >= limit[k]) continue;
            RowPart &row = part.rows[k];
            const CaseMetrics &m = metrics_[i * nio_ + k];
            if (m.nonfinite) {
                row.angle_err_rad[i] = std::numeric_limits<double>::infinity();
                continue;
            }
            row.angle_err_rad[i] = m.angle_err_rad;
            row.branch_disagree += m.branch_disagree;
            // The maxima and the first case that attains each (a NaN never does, as std::max would skip it).
            if (m.ulp > row.max_ulp) row.max_ulp = m.ulp, row.argmax_ulp = first_ + i;
            if (m.ulp1 > row.max_ulp1) row.max_ulp1 = m.ulp1, row.argmax_ulp1 = first_ + i;
            if (m.norm_err_ulp1 > row.max_norm_err_ulp1)
                row.max_norm_err_ulp1 = m.norm_err_ulp1, row.argmax_norm = first_ + i;
            if (op(k) == Op::nlerp)
                row.max_angle_err_vs_nlerp_rad = std::max(row.max_angle_err_vs_nlerp_rad, m.angle_err_vs_nlerp_rad);
            for (size_t b : {log_bin, threshold_bin})
                if (b < edges.size()) row.bin_max_ulp1[b] = std::max(row.bin_max_ulp1[b], m.ulp1);
        }
    }
    return part;
}

// Every region of one precision, in the plan's order, into result.parts; an interruption keeps the leading
// completed chunks of the region it hit as a shorter part and ends the run there (result.partial).
template <class T>
void sample_precision(const RunPlan &plan, const RunContext &ctx, RunResult &result, ReferenceStats &ref_stats) {
    if (plan.rows(Format<T>::precision).empty()) return;
    const std::vector<CurveBin> edges = curve_bins();
    std::vector<CaseMetrics> metrics;  // shared by the regions (RegionSampler)
    for (Region region : plan.regions) {
        if (result.partial) break;
        RegionSampler<T> sampler(plan, ctx, region, metrics);
        sampler.evaluate(ref_stats);
        const uint64_t n_done = sampler.done();
        if (sampler.stopped()) {
            result.partial = true;
            if (n_done == 0) break;
        }
        result.parts.push_back(sampler.reduce(n_done, edges));
    }
}

// The parts of one precision and region in case order, and each case's curve bins (once for all rows).
struct RegionParts {
    Region region = Region::uniform;
    std::vector<const RegionPart *> parts;
    std::vector<std::vector<std::pair<size_t, size_t>>> bins;  // per part and case
    uint64_t cases = 0, ties = 0;
};

RegionParts region_parts(const RunResult &result, Precision P, Region region, size_t nio,
                         const std::vector<CurveBin> &edges) {
    RegionParts rp;
    rp.region = region;
    for (const auto &s : result.parts)
        if (s.precision == P && s.region == region) rp.parts.push_back(&s);
    std::sort(rp.parts.begin(), rp.parts.end(), [](auto *a, auto *b) { return a->begin < b->begin; });
    for (const RegionPart *s : rp.parts) {
        if (s->rows.size() != nio) throw InputError("aggregate: a region part does not match the selection");
        rp.cases += s->end - s->begin, rp.ties += s->ties;
    }
    for (const RegionPart *s : rp.parts) {
        rp.bins.emplace_back(s->arc_w.size());
        for (size_t i = 0; i < s->arc_w.size(); i++) rp.bins.back()[i] = bins_of(s->arc_w[i], edges);
    }
    return rp;
}

// The worst K cases so far, worst first (largest error, then smallest index): the first K of a sort of every
// case by that total order, kept as the cases stream past (most fail the first comparison with the K-th).
class WorstK {
public:
    explicit WorstK(size_t k) : k_(k) { ranked_.reserve(k + 1); }
    void add(const WorstRef &w) {
        if (ranked_.size() == k_ && (k_ == 0 || !worse(w, ranked_.back()))) return;
        ranked_.insert(std::upper_bound(ranked_.begin(), ranked_.end(), w, worse), w);
        if (ranked_.size() > k_) ranked_.pop_back();
    }
    std::vector<WorstRef> take() { return std::move(ranked_); }

private:
    static bool worse(const WorstRef &a, const WorstRef &b) {
        return a.angle_err_rad != b.angle_err_rad ? a.angle_err_rad > b.angle_err_rad : a.index < b.index;
    }
    size_t k_;
    std::vector<WorstRef> ranked_;
};

// Row k of a region (the selection's impl-op io) from the region's parts; adds the row's cases to the counts
// and maxima of its curve bins. The first failure in a part ends the row.
Row aggregate_row(const RegionParts &rp, size_t k, const ImplOp &io, int worst_k, std::vector<CurveBin> &curve) {
    Row row;
    row.impl = io.impl;
    row.op = io.op;
    row.region = rp.region;
    row.cases = 0;  // counted below: a failed implementation covers fewer cases
    row.ties = 0;   // summed below: the region's ties on the row's cases
    std::vector<double> angles;
    angles.reserve(rp.cases);
    WorstK ranked(size_t(std::max(0, worst_k)));
    for (size_t p = 0; p < rp.parts.size(); p++) {
        const RegionPart *s = rp.parts[p];
        const RowPart &rs = s->rows[k];
        row.ties += rs.ties;
        row.branch_disagree += rs.branch_disagree;
        // Parts in case order, strictly larger only: the first case that attains a maximum, as one part would.
        if (rs.max_ulp > row.max_ulp) row.max_ulp = rs.max_ulp, row.argmax_ulp = rs.argmax_ulp;
        if (rs.max_ulp1 > row.max_ulp1) row.max_ulp1 = rs.max_ulp1, row.argmax_ulp1 = rs.argmax_ulp1;
        if (rs.max_norm_err_ulp1 > row.max_norm_err_ulp1)
            row.max_norm_err_ulp1 = rs.max_norm_err_ulp1, row.argmax_norm = rs.argmax_norm;
        row.max_angle_err_vs_nlerp_rad = std::max(row.max_angle_err_vs_nlerp_rad, rs.max_angle_err_vs_nlerp_rad);
        for (size_t b = 0; b < curve.size(); b++) curve[b].max_ulp1 = std::max(curve[b].max_ulp1, rs.bin_max_ulp1[b]);
        row.cases += rs.angle_err_rad.size();
        for (uint64_t i = 0; i < rs.angle_err_rad.size(); i++) {
            const double angle = rs.angle_err_rad[i];
            const bool nonfinite = std::isinf(angle);
            auto [log_bin, threshold_bin] = rp.bins[p][i];
            for (size_t b : {log_bin, threshold_bin}) {
                if (b >= curve.size()) continue;
                CurveBin &cb = curve[b];
                cb.cases++;
                if (nonfinite) {
                    cb.nonfinite++;
                    continue;
                }
                cb.max_angle_err_rad = std::max(cb.max_angle_err_rad, angle);
            }
            ranked.add({s->begin + i, angle});
            if (nonfinite) {
                row.nonfinite++;
                continue;
            }
            if (angle > row.max_angle_err_rad) row.max_angle_err_rad = angle, row.argmax_angle = s->begin + i;
            angles.push_back(angle);
        }
        if (rs.status != EvalStatus::ok) {  // the first failure ends the row
            row.status = rs.status;
            row.failed_index = rs.failed_index;
            row.status_detail = fmt::format("{} at case {}", rs.status_detail, rs.failed_index);
            row.failed_case = rs.failed_case;
            break;
        }
    }
    row.p99_angle_err_rad = percentile(angles, 0.99);
    row.worst = ranked.take();
    return row;
}

// Each curve bin's median over row k's finite angles, every region's, in one buffer grouped by bin (the bins'
// finite counts are known): the cases aggregate_row counted, up to a failure in each region.
void curve_medians(const std::vector<RegionParts> &regions, size_t k, std::vector<CurveBin> &curve,
                   std::vector<double> &scratch) {
    std::vector<size_t> start(curve.size() + 1, 0);
    for (size_t b = 0; b < curve.size(); b++) start[b + 1] = start[b] + (curve[b].cases - curve[b].nonfinite);
    std::vector<size_t> fill(start.begin(), start.end() - 1);
    scratch.resize(start.back());
    for (const RegionParts &rp : regions)
        for (size_t p = 0; p < rp.parts.size(); p++) {
            const RowPart &rs = rp.parts[p]->rows[k];
            for (uint64_t i = 0; i < rs.angle_err_rad.size(); i++) {
                const double angle = rs.angle_err_rad[i];
                if (std::isinf(angle)) continue;
                const auto [log_bin, threshold_bin] = rp.bins[p][i];
                for (size_t b : {log_bin, threshold_bin})
                    if (b < curve.size()) scratch[fill[b]++] = angle;
            }
            if (rs.status != EvalStatus::ok) break;  // (as in aggregate_row: the first failure ends the row)
        }
    for (size_t b = 0; b < curve.size(); b++)
        curve[b].p50_angle_err_rad = percentile_of(scratch.data() + start[b], scratch.data() + start[b + 1], 0.5);
}

// The rows (region by region) and curves of one precision, the rows of a region and the curves' medians over
// --jobs threads: row k touches only curves[k], so the figures are those of one thread.
void aggregate_precision(RunResult &result, Precision P, const std::vector<CurveBin> &edges) {
    const RunPlan &plan = result.plan;
    const std::vector<size_t> &idx = plan.rows(P);
    if (idx.empty()) return;
    const size_t nio = idx.size();
    const int jobs = resolve_jobs(plan.options.jobs);
    std::vector<std::vector<CurveBin>> curves(nio, edges);
    std::vector<RegionParts> regions;  // kept for the curves' medians
    std::vector<Row> rows(nio);
    for (Region region : plan.regions) {
        RegionParts rp = region_parts(result, P, region, nio, edges);
        if (rp.parts.empty()) continue;  // a region an interrupted run never reached: no rows
        for_each_index(jobs, nio, [&](int, size_t k) {
            rows[k] = aggregate_row(rp, k, plan.selected[idx[k]], plan.options.worst_k, curves[k]);
        });
        for (Row &row : rows) result.rows.push_back(std::move(row));
        regions.push_back(std::move(rp));
    }
    std::vector<std::vector<double>> scratch(static_cast<size_t>(jobs));
    for_each_index(jobs, nio, [&](int w, size_t k) { curve_medians(regions, k, curves[k], scratch[size_t(w)]); });
    for (size_t k = 0; k < nio; k++)
        result.curves.push_back({plan.selected[idx[k]].impl, plan.selected[idx[k]].op, std::move(curves[k])});
}

}  // namespace

void aggregate(RunResult &result) {
    const std::vector<ImplOp> &sel = result.plan.selected;
    const std::vector<CurveBin> edges = curve_bins();
    result.rows.clear();
    result.curves.clear();
    for (Precision P : {Precision::f32, Precision::f64}) aggregate_precision(result, P, edges);
    // Rows in selection order (catalogue order, then op), then region.
    auto pos = [&](const Impl *i, Op op) {
        for (size_t k = 0; k < sel.size(); k++)
            if (sel[k].impl == i && sel[k].op == op) return k;
        return sel.size();
    };
    std::stable_sort(result.rows.begin(), result.rows.end(),
                     [&](const Row &a, const Row &b) { return pos(a.impl, a.op) < pos(b.impl, b.op); });
    std::stable_sort(result.curves.begin(), result.curves.end(),
                     [&](const CurveResult &a, const CurveResult &b) { return pos(a.impl, a.op) < pos(b.impl, b.op); });
}

RunResult sample(const RunPlan &plan, const RunContext &ctx) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult result;
    result.plan = plan;
    result.jobs = plan.jobs;
    sample_precision<float>(plan, ctx, result, result.reference_f32);
    sample_precision<double>(plan, ctx, result, result.reference_f64);
    result.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

uint64_t RunPlan::planned_cases() const {
    const uint64_t precisions = uint64_t(!rows(Precision::f32).empty()) + uint64_t(!rows(Precision::f64).empty());
    return (last - first) * regions.size() * precisions;
}

RunPlan plan_run(const RunOptions &options, std::vector<ImplOp> selected) {
    RunPlan plan;
    plan.options = options;
    plan.selected = std::move(selected);
    plan.regions = options.regions.empty() ? all_regions() : options.regions;
    std::tie(plan.first, plan.last) = shard_range(options.shard, options.cases);
    plan.jobs = resolve_jobs(options.jobs);
    // From the whole run's count (not the shard's), so that every shard checks the same cases.
    plan.fast_check_log2 = fast_check_rate_log2(options.cases * plan.regions.size(), options.paranoid);
    for (size_t k = 0; k < plan.selected.size(); k++) {
        plan.rows_[plan.selected[k].impl->precision == Precision::f32 ? 0 : 1].push_back(k);
        uint64_t end = options.cases;
        for (const auto &[filter, n] : options.cases_for)
            if (filter_matches(filter, *plan.selected[k].impl)) end = std::min(end, n);
        plan.case_end.push_back(end);
    }
    return plan;
}

RunPlan plan_run(const RunOptions &options, const std::vector<Impl> &catalogue) {
    return plan_run(options, select_impls(catalogue, options.impl_filters, options.ops));
}

}  // namespace qc
