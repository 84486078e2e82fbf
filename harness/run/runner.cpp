#include "metrics/comparison.h"
#include "run/runner.h"
#include "run/parallel.h"

#include "tables/table.h"

#include <fmt/format.h>
#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>

namespace qc {

namespace {
// A hash of an output's bits and its op: equal outputs have equal keys (the caller compares the bits).
template <class T> uint64_t output_key(const Quat<T> &r, Op op) {
    uint64_t h = 0x9E3779B97F4A7C15ull * (uint64_t(op) + 1);
    for (T x : r) {
        uint64_t bits = 0;
        std::memcpy(&bits, &x, sizeof x);
        h = (h ^ bits) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}
}  // namespace

std::vector<ImplOp> select_impls(const std::vector<Impl> &catalogue, const std::vector<std::string> &filters,
                                 const std::vector<Op> &ops) {
    const std::vector<Op> want = ops.empty() ? std::vector<Op>{Op::slerp, Op::nlerp} : ops;
    std::vector<ImplOp> out;
    for (const Impl *i : select_implementations(catalogue, filters))
        for (Op op : want)
            if (op != Op::squad && i->supports(op)) out.push_back({i, op});
    return out;
}

template <class T> std::string case_text(const SlerpCase<T> &c) {
    auto q = [](const Quat<T> &v) {
        return fmt::format("({};{};{};{})", hexfloat(v[0]), hexfloat(v[1]), hexfloat(v[2]), hexfloat(v[3]));
    };
    return fmt::format("q0={} q1={} t={}", q(c.q0), q(c.q1), hexfloat(c.t));
}
template std::string case_text<float>(const SlerpCase<float> &);
template std::string case_text<double>(const SlerpCase<double> &);

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

template <class T> void run_precision(const RunOptions &opt, const RunContext &ctx, const std::vector<ImplOp> &sel,
                                      int jobs, RunResult &result, ReferenceStats &ref_stats) {
    const Precision P = Format<T>::precision;
    std::vector<size_t> idx;  // indices into sel of this precision
    for (size_t k = 0; k < sel.size(); k++)
        if (sel[k].impl->precision == P) idx.push_back(k);
    if (idx.empty()) return;
    const size_t nio = idx.size();
    const std::vector<Region> regions = opt.run_regions();
    const std::vector<CurveBin> edges = curve_bins();
    // Every case's metrics for every implementation, one region at a time: one buffer for all regions (at
    // 200,000 cases and 35 implementations it is over 300 MB, which a fresh allocation per region would have
    // the kernel clear again each time). Each entry the reduction reads is written first.
    std::vector<CaseMetrics> metrics;

    for (Region region : regions) {
        if (result.partial) break;
        const auto [first, last] = opt.case_range();
        const uint64_t n = last - first;  // cases of this shard; case i of the range has index first + i
        if (metrics.size() < n * nio) metrics.resize(n * nio);
        RegionSlice slice;
        slice.precision = P, slice.region = region, slice.begin = first, slice.end = last;
        slice.arc_w.resize(n);
        std::vector<char> tie(n);
        std::atomic<uint64_t> next{0};
        // Containment: the first case of the range (lowest index, whatever the thread order) on which each
        // impl-op failed; chunks past it are not evaluated for it. An interruption stops taking chunks.
        // 32 cases per chunk in process. When an implementation lives in another process (plugins, adapters,
        // --isolate), each chunk is a round trip per implementation: chunks of n / (4 jobs) cases, at least 512
        // and at most 4096 (the protocol's largest batch), so that large runs make few round trips and small
        // ones still give every thread work. The figures do not depend on it (every case is measured on its
        // own); only an interrupted run's kept prefix does.
        const bool remote =
            std::any_of(idx.begin(), idx.end(), [&](size_t k) { return !sel[k].impl->backend->in_process(); });
        const uint64_t chunk = remote ? std::clamp<uint64_t>(n / (4 * uint64_t(jobs)), 512, 4096) : 32;
        std::mutex fail_mutex;
        std::vector<uint64_t> fail_at(nio, n);
        std::vector<EvalOutcome> fail_outcome(nio);
        std::vector<char> chunk_done(size_t((n + chunk - 1) / chunk), 0);
        std::atomic<bool> stopped{false};
        std::vector<ReferenceStats> stats(static_cast<size_t>(jobs));
        auto worker = [&](int w) {
            Comparator cmp(P, opt.reference);
            auto &[reference, metric] = cmp;
            reference.set_nlerp_wanted(
                std::any_of(idx.begin(), idx.end(), [&](size_t k) { return sel[k].op == Op::nlerp; }));
            std::vector<SlerpReference> refs(chunk);
            std::vector<PendingBatch<T>> pending(nio);
            std::vector<char> started(nio);
            std::vector<SlerpCase<T>> cases(chunk);
            std::vector<Quat<T>> outs(chunk * nio);
            std::vector<size_t> valid(nio);
            std::vector<std::pair<uint64_t, size_t>> measured;  // (output_key, k) of the outputs measured on this case
            measured.reserve(nio);
            for (;;) {
                if (ctx.stop.requested()) stopped.store(true);
                if (stopped.load()) break;
                uint64_t begin = next.fetch_add(chunk);
                if (begin >= n) break;
                uint64_t end = std::min(n, begin + chunk);
                for (uint64_t i = begin; i < end; i++)
                    cases[i - begin] = regenerate_case<T>(opt.seed, region, first + i);
                // One batch per implementation: a loop in process, or one round trip to its process. The
                // batches to other processes go first and are collected last, so that those processes work
                // while this thread runs the in-process implementations and the references.
                for (int remote_pass = 1; remote_pass >= 0; remote_pass--)
                    for (size_t k = 0; k < nio; k++) {
                        if (sel[idx[k]].impl->backend->in_process() == bool(remote_pass)) continue;
                        {
                            std::lock_guard<std::mutex> lock(fail_mutex);
                            started[k] = begin <= fail_at[k];
                        }
                        if (started[k])
                            pending[k].start(*sel[idx[k]].impl, sel[idx[k]].op, cases.data(), size_t(end - begin),
                                             &outs[k * chunk]);
                    }
                for (uint64_t i = begin; i < end; i++) {
                    SlerpReference &ref = refs[i - begin];
                    reference.slerp(cases[i - begin], ref, sampled_for_validation(opt.seed, first + i));
                    slice.arc_w[i] = ref.arc_w;
                    tie[i] = ref.tie;
                }
                for (size_t k = 0; k < nio; k++) {
                    valid[k] = 0;
                    if (!started[k]) continue;
                    EvalOutcome o = pending[k].finish();
                    valid[k] = o.done;
                    if (o.status == EvalStatus::interrupted) stopped.store(true);
                    else if (!o.ok()) {
                        std::lock_guard<std::mutex> lock(fail_mutex);
                        if (begin + o.done < fail_at[k]) fail_at[k] = begin + o.done, fail_outcome[k] = o;
                    }
                }
                if (stopped.load()) break;
                for (uint64_t i = begin; i < end; i++) {
                    const SlerpReference &ref = refs[i - begin];
                    // The metrics are a function of (output, reference, op), and implementations often agree to
                    // the bit on a case (one formula in several libraries, correctly rounded results): each
                    // distinct output and op is measured once per case, and the others copy its metrics.
                    measured.clear();
                    for (size_t k = 0; k < nio; k++) {
                        if (i - begin >= valid[k]) continue;
                        const Quat<T> &r = outs[k * chunk + (i - begin)];
                        const Op op = sel[idx[k]].op;
                        const uint64_t key = output_key(r, op);
                        CaseMetrics &m = metrics[i * nio + k];
                        bool shared = false;
                        for (const auto &[kk, other] : measured)
                            if (kk == key && sel[idx[other]].op == op &&
                                std::memcmp(outs[other * chunk + (i - begin)].data(), r.data(), sizeof r) == 0) {
                                m = metrics[i * nio + other], shared = true;
                                break;
                            }
                        if (shared) continue;
                        m = metric.measure(r.data(), ref, op);
                        measured.push_back({key, k});
                    }
                }
                chunk_done[size_t(begin / chunk)] = 1;
                if (ctx.progress) ctx.progress->fetch_add(end - begin, std::memory_order_relaxed);
            }
            stats[size_t(w)] = reference.stats();
        };
        run_workers(jobs, worker, [&] { next.store(n); });
        for (auto &s : stats) ref_stats.add(s);
        // Interrupted: keep the leading completed chunks as a shorter slice, and stop after this region.
        uint64_t n_done = n;
        if (stopped.load()) {
            result.partial = true;
            size_t c = 0;
            while (c < chunk_done.size() && chunk_done[c]) c++;
            n_done = std::min(n, uint64_t(c) * chunk);
            if (n_done == 0) break;
            slice.end = first + n_done;
            slice.arc_w.resize(n_done);
        }

        // Reduce to the slice: per-case angles, and the figures that merge by sum or max.
        for (uint64_t i = 0; i < n_done; i++) slice.ties += tie[i];
        std::vector<std::pair<size_t, size_t>> case_bins(n_done);  // once per case, not per case and row
        for (uint64_t i = 0; i < n_done; i++) case_bins[i] = bins_of(slice.arc_w[i], edges);
        slice.rows.resize(nio);
        std::vector<uint64_t> limit(nio);
        for (size_t k = 0; k < nio; k++) {
            RowSlice &row = slice.rows[k];
            limit[k] = std::min(n_done, fail_at[k]);
            if (fail_at[k] < n_done) {
                row.status = fail_outcome[k].status;
                row.failed_index = first + fail_at[k];
                row.status_detail = fail_outcome[k].detail;
                row.failed_case = case_text(regenerate_case<T>(opt.seed, region, first + fail_at[k]));
            }
            row.angle_err_rad.resize(limit[k]);
            row.bin_max_ulp1.assign(edges.size(), 0.0);
        }
        // Case by case (the metrics buffer in the order it was written), every row's figures in case order.
        for (uint64_t i = 0; i < n_done; i++) {
            const auto [log_bin, threshold_bin] = case_bins[i];
            for (size_t k = 0; k < nio; k++) {
                if (i >= limit[k]) continue;
                RowSlice &row = slice.rows[k];
                const CaseMetrics &m = metrics[i * nio + k];
                if (m.nonfinite) {
                    row.angle_err_rad[i] = std::numeric_limits<double>::infinity();
                    continue;
                }
                row.angle_err_rad[i] = m.angle_err_rad;
                row.branch_disagree += m.branch_disagree;
                row.max_ulp = std::max(row.max_ulp, m.ulp);
                row.max_ulp1 = std::max(row.max_ulp1, m.ulp1);
                row.max_norm_err_ulp1 = std::max(row.max_norm_err_ulp1, m.norm_err_ulp1);
                if (sel[idx[k]].op == Op::nlerp)
                    row.max_angle_err_vs_nlerp_rad = std::max(row.max_angle_err_vs_nlerp_rad, m.angle_err_vs_nlerp_rad);
                for (size_t b : {log_bin, threshold_bin})
                    if (b < edges.size()) row.bin_max_ulp1[b] = std::max(row.bin_max_ulp1[b], m.ulp1);
            }
        }
        result.slices.push_back(std::move(slice));
    }
}

}  // namespace

std::pair<uint64_t, uint64_t> shard_range(const Shard &s, uint64_t n) {
    auto at = [&](int k) { return uint64_t((unsigned __int128)n * unsigned(k) / unsigned(s.count)); };
    return {at(s.index - 1), at(s.index)};
}

Shard parse_shard(const std::string &text) {
    auto bad = [&] {
        return UsageError(fmt::format("--shard: expected K/N with 1 <= K <= N (e.g. 2/4), got '{}'", text));
    };
    size_t slash = text.find('/');
    if (slash == std::string::npos) throw bad();
    auto number = [&](const std::string &s) {
        if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos) throw bad();
        return std::stoi(s);
    };
    Shard shard{number(text.substr(0, slash)), number(text.substr(slash + 1))};
    if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) throw bad();
    return shard;
}

uint64_t planned_cases(const RunOptions &options, const std::vector<ImplOp> &selected) {
    bool f32 = false, f64 = false;
    for (const auto &io : selected) (io.impl->precision == Precision::f32 ? f32 : f64) = true;
    auto [first, last] = options.case_range();
    uint64_t regions = options.run_regions().size();
    return (last - first) * regions * (uint64_t(f32) + uint64_t(f64));
}

void aggregate(RunResult &result) {
    const RunOptions &opt = result.options;
    const std::vector<ImplOp> &sel = result.selected;
    const std::vector<CurveBin> edges = curve_bins();
    const std::vector<Region> regions = opt.run_regions();
    result.rows.clear();
    result.curves.clear();
    for (Precision P : {Precision::f32, Precision::f64}) {
        std::vector<size_t> idx;
        for (size_t k = 0; k < sel.size(); k++)
            if (sel[k].impl->precision == P) idx.push_back(k);
        if (idx.empty()) continue;
        const size_t nio = idx.size();
        std::vector<std::vector<CurveBin>> curves(nio, edges);
        // Per region: its slices in case order, and each case's bins (once for all rows); kept for the curves'
        // medians below.
        std::vector<std::vector<const RegionSlice *>> region_parts;
        std::vector<double> scratch;
        std::vector<std::vector<std::vector<std::pair<size_t, size_t>>>> region_bins;
        for (Region region : regions) {
            std::vector<const RegionSlice *> parts;
            for (const auto &s : result.slices)
                if (s.precision == P && s.region == region) parts.push_back(&s);
            std::sort(parts.begin(), parts.end(), [](auto *a, auto *b) { return a->begin < b->begin; });
            if (parts.empty()) continue;  // a region an interrupted run never reached: no rows
            uint64_t cases = 0, ties = 0;
            for (const RegionSlice *s : parts) {
                if (s->rows.size() != nio) throw InputError("aggregate: a slice does not match the selection");
                cases += s->end - s->begin, ties += s->ties;
            }
            region_parts.push_back(parts);
            auto &part_bins = region_bins.emplace_back();  // per part and case, once for all rows
            for (const RegionSlice *s : parts) {
                part_bins.emplace_back(s->arc_w.size());
                for (size_t i = 0; i < s->arc_w.size(); i++) part_bins.back()[i] = bins_of(s->arc_w[i], edges);
            }
            for (size_t k = 0; k < nio; k++) {
                RowResult row;
                row.impl = sel[idx[k]].impl;
                row.op = sel[idx[k]].op;
                row.region = region;
                row.cases = 0;  // counted below: a failed implementation covers fewer cases
                row.ties = ties;
                std::vector<double> angles;
                angles.reserve(cases);
                // The worst K cases so far, worst first (largest error, then smallest index): the first K of
                // a sort of every case by that total order, kept as the cases stream past (most fail the
                // first comparison with the K-th).
                const size_t K = size_t(std::max(0, opt.worst_k));
                auto worse = [](const WorstRef &a, const WorstRef &b) {
                    return a.angle_err_rad != b.angle_err_rad ? a.angle_err_rad > b.angle_err_rad : a.index < b.index;
                };
                std::vector<WorstRef> ranked;
                ranked.reserve(K + 1);
                auto rank = [&](const WorstRef &w) {
                    if (ranked.size() == K && (K == 0 || !worse(w, ranked.back()))) return;
                    ranked.insert(std::upper_bound(ranked.begin(), ranked.end(), w, worse), w);
                    if (ranked.size() > K) ranked.pop_back();
                };
                for (size_t p = 0; p < parts.size(); p++) {
                    const RegionSlice *s = parts[p];
                    const RowSlice &rs = s->rows[k];
                    row.branch_disagree += rs.branch_disagree;
                    row.max_ulp = std::max(row.max_ulp, rs.max_ulp);
                    row.max_ulp1 = std::max(row.max_ulp1, rs.max_ulp1);
                    row.max_norm_err_ulp1 = std::max(row.max_norm_err_ulp1, rs.max_norm_err_ulp1);
                    row.max_angle_err_vs_nlerp_rad =
                        std::max(row.max_angle_err_vs_nlerp_rad, rs.max_angle_err_vs_nlerp_rad);
                    for (size_t b = 0; b < edges.size(); b++)
                        curves[k][b].max_ulp1 = std::max(curves[k][b].max_ulp1, rs.bin_max_ulp1[b]);
                    row.cases += rs.angle_err_rad.size();
                    for (uint64_t i = 0; i < rs.angle_err_rad.size(); i++) {
                        const double angle = rs.angle_err_rad[i];
                        const bool nonfinite = std::isinf(angle);
                        auto [log_bin, threshold_bin] = part_bins[p][i];
                        for (size_t b : {log_bin, threshold_bin}) {
                            if (b >= edges.size()) continue;
                            CurveBin &cb = curves[k][b];
                            cb.cases++;
                            if (nonfinite) {
                                cb.nonfinite++;
                                continue;
                            }
                            cb.max_angle_err_rad = std::max(cb.max_angle_err_rad, angle);
                        }
                        rank({s->begin + i, angle});
                        if (nonfinite) {
                            row.nonfinite++;
                            continue;
                        }
                        row.max_angle_err_rad = std::max(row.max_angle_err_rad, angle);
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
                row.worst = std::move(ranked);
                result.rows.push_back(std::move(row));
            }
        }
        for (size_t k = 0; k < nio; k++) {
            // Each bin's median over the row's finite angles, every region's, in one buffer grouped by bin (the
            // bins' finite counts are known): the cases the loop above counted, up to a failure in each region.
            std::vector<size_t> start(edges.size() + 1, 0);
            for (size_t b = 0; b < edges.size(); b++)
                start[b + 1] = start[b] + (curves[k][b].cases - curves[k][b].nonfinite);
            std::vector<size_t> fill(start.begin(), start.end() - 1);
            scratch.resize(start.back());
            for (size_t r = 0; r < region_parts.size(); r++)
                for (size_t p = 0; p < region_parts[r].size(); p++) {
                    const RowSlice &rs = region_parts[r][p]->rows[k];
                    for (uint64_t i = 0; i < rs.angle_err_rad.size(); i++) {
                        const double angle = rs.angle_err_rad[i];
                        if (std::isinf(angle)) continue;
                        const auto [log_bin, threshold_bin] = region_bins[r][p][i];
                        for (size_t b : {log_bin, threshold_bin})
                            if (b < edges.size()) scratch[fill[b]++] = angle;
                    }
                    if (rs.status != EvalStatus::ok) break;  // (as above: the first failure ends the row)
                }
            for (size_t b = 0; b < edges.size(); b++)
                curves[k][b].p50_angle_err_rad =
                    percentile_of(scratch.data() + start[b], scratch.data() + start[b + 1], 0.5);
            result.curves.push_back({sel[idx[k]].impl, sel[idx[k]].op, std::move(curves[k])});
        }
    }
    // Rows in selection order (catalogue order, then op), then region.
    auto pos = [&](const Impl *i, Op op) {
        for (size_t k = 0; k < sel.size(); k++)
            if (sel[k].impl == i && sel[k].op == op) return k;
        return sel.size();
    };
    std::stable_sort(result.rows.begin(), result.rows.end(),
                     [&](const RowResult &a, const RowResult &b) { return pos(a.impl, a.op) < pos(b.impl, b.op); });
    std::stable_sort(result.curves.begin(), result.curves.end(),
                     [&](const CurveResult &a, const CurveResult &b) { return pos(a.impl, a.op) < pos(b.impl, b.op); });
}

RunResult sample(const RunOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult result;
    result.options = options;
    result.selected = select_impls(catalogue, options.impl_filters, options.ops);
    int jobs = resolve_jobs(options.jobs);
    result.jobs = jobs;
    run_precision<float>(options, ctx, result.selected, jobs, result, result.reference_f32);
    run_precision<double>(options, ctx, result.selected, jobs, result, result.reference_f64);
    aggregate(result);
    result.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace qc
