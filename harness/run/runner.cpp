#include "run/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

namespace qc {

bool glob_match(const std::string &pattern, const std::string &text) {
    // '*' matches any run of characters, '?' one character.
    size_t p = 0, t = 0, star = std::string::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) { ++p, ++t; continue; }
        if (p < pattern.size() && pattern[p] == '*') { star = p++, mark = t; continue; }
        if (star != std::string::npos) { p = star + 1, t = ++mark; continue; }
        return false;
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

std::vector<ImplOp> select_impls(const std::vector<Impl> &catalogue, const std::vector<std::string> &filters,
                                 const std::vector<Op> &ops) {
    std::vector<Op> want = ops.empty() ? std::vector<Op>{Op::slerp, Op::nlerp} : ops;
    std::vector<const Impl *> chosen;
    if (filters.empty()) {
        for (const auto &i : catalogue)
            if (i.group != "broken") chosen.push_back(&i);
    } else {
        for (const auto &f : filters) {
            bool any = false;
            for (const auto &i : catalogue) {
                if (f == i.name || f == i.family || glob_match(f, i.name)) {
                    any = true;
                    if (std::find(chosen.begin(), chosen.end(), &i) == chosen.end()) chosen.push_back(&i);
                }
            }
            if (!any) throw UsageError(fmt::format("--impl: no implementation matches '{}' (see quatcheck list)", f));
        }
        std::stable_sort(chosen.begin(), chosen.end(), [&](const Impl *a, const Impl *b) { return a < b; });
    }
    std::vector<ImplOp> out;
    for (const Impl *i : chosen)
        for (Op op : want)
            if (op != Op::squad && i->supports(op)) out.push_back({i, op});
    return out;
}

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

double percentile(std::vector<double> &v, double q) {
    if (v.empty()) return 0;
    size_t k = size_t(std::ceil(q * double(v.size())));
    k = k == 0 ? 0 : k - 1;
    std::nth_element(v.begin(), v.begin() + long(k), v.end());
    return v[k];
}

struct CaseInfo {
    double arc_w = 0;
    bool tie = false;
};

template <class T>
void run_precision(const RunOptions &opt, const std::vector<ImplOp> &sel, int jobs, RunResult &result,
                   ReferenceStats &ref_stats) {
    const Precision P = Format<T>::precision;
    std::vector<size_t> idx;  // indices into sel of this precision
    for (size_t k = 0; k < sel.size(); k++)
        if (sel[k].impl->precision == P) idx.push_back(k);
    if (idx.empty()) return;
    const size_t nio = idx.size();
    std::vector<Region> regions = opt.regions.empty() ? all_regions() : opt.regions;

    // Error-curve accumulators per impl-op of this precision.
    const std::vector<CurveBin> edges = curve_bins();
    std::vector<std::vector<CurveBin>> curves(nio, edges);
    std::vector<std::vector<std::vector<double>>> curve_angles(nio, std::vector<std::vector<double>>(edges.size()));

    for (Region region : regions) {
        const uint64_t n = opt.cases;
        std::vector<CaseMetrics> metrics(n * nio);
        std::vector<CaseInfo> info(n);
        std::atomic<uint64_t> next{0};
        std::vector<ReferenceStats> stats(static_cast<size_t>(jobs));
        std::vector<std::exception_ptr> errors(static_cast<size_t>(jobs));
        auto worker = [&](int w) {
            try {
                ReferenceEngine reference(P);
                MetricEngine metric(P);
                SlerpReference ref;
                const uint64_t chunk = 32;
                for (;;) {
                    uint64_t begin = next.fetch_add(chunk);
                    if (begin >= n) break;
                    uint64_t end = std::min(n, begin + chunk);
                    for (uint64_t i = begin; i < end; i++) {
                        SlerpCase<T> c = regenerate_case<T>(opt.seed, region, i);
                        reference.slerp(c, ref, sampled_for_validation(opt.seed, i));
                        info[i] = {ref.arc_w, ref.tie};
                        for (size_t k = 0; k < nio; k++) {
                            const ImplOp &io = sel[idx[k]];
                            T out[4] = {0, 0, 0, 0};
                            io.impl->call(io.op, c.q0.data(), c.q1.data(), c.t, out);
                            metrics[i * nio + k] = metric.measure(out, ref, io.op);
                        }
                    }
                }
                stats[size_t(w)] = reference.stats();
            } catch (...) {
                errors[size_t(w)] = std::current_exception();
                next.store(n);
            }
        };
        std::vector<std::thread> threads;
        for (int w = 1; w < jobs; w++) threads.emplace_back(worker, w);
        worker(0);
        for (auto &t : threads) t.join();
        for (auto &e : errors)
            if (e) std::rethrow_exception(e);
        for (auto &s : stats) ref_stats.add(s);

        // Aggregate serially, in case order.
        uint64_t ties = 0;
        for (const auto &ci : info) ties += ci.tie;
        std::vector<size_t> bin_of(n);
        for (uint64_t i = 0; i < n; i++) {
            size_t b = 0;
            for (; b < edges.size(); b++)
                if (edges[b].kind == "log" && info[i].arc_w >= edges[b].w_lo && info[i].arc_w < edges[b].w_hi) break;
            bin_of[i] = b;
        }
        for (size_t k = 0; k < nio; k++) {
            RowResult row;
            row.impl = sel[idx[k]].impl;
            row.op = sel[idx[k]].op;
            row.region = region;
            row.cases = n;
            row.ties = ties;
            std::vector<double> angles;
            angles.reserve(n);
            std::vector<WorstRef> ranked;
            for (uint64_t i = 0; i < n; i++) {
                const CaseMetrics &m = metrics[i * nio + k];
                auto add_curve = [&](size_t b) {
                    if (b >= edges.size()) return;
                    CurveBin &cb = curves[k][b];
                    cb.cases++;
                    if (m.nonfinite) { cb.nonfinite++; return; }
                    cb.max_angle_err_rad = std::max(cb.max_angle_err_rad, m.angle_err_rad);
                    cb.max_ulp1 = std::max(cb.max_ulp1, m.ulp1);
                    curve_angles[k][b].push_back(m.angle_err_rad);
                };
                add_curve(bin_of[i]);
                for (size_t b = 0; b < edges.size(); b++)
                    if (edges[b].kind == "threshold" && info[i].arc_w >= edges[b].w_lo && info[i].arc_w < edges[b].w_hi)
                        add_curve(b);
                if (m.nonfinite) {
                    row.nonfinite++;
                    ranked.push_back({i, std::numeric_limits<double>::infinity()});
                    continue;
                }
                row.branch_disagree += m.branch_disagree;
                row.max_angle_err_rad = std::max(row.max_angle_err_rad, m.angle_err_rad);
                row.max_ulp = std::max(row.max_ulp, m.ulp);
                row.max_ulp1 = std::max(row.max_ulp1, m.ulp1);
                row.max_norm_err_ulp1 = std::max(row.max_norm_err_ulp1, m.norm_err_ulp1);
                if (row.op == Op::nlerp)
                    row.max_angle_err_vs_nlerp_rad = std::max(row.max_angle_err_vs_nlerp_rad, m.angle_err_vs_nlerp_rad);
                angles.push_back(m.angle_err_rad);
                ranked.push_back({i, m.angle_err_rad});
            }
            row.p99_angle_err_rad = percentile(angles, 0.99);
            size_t K = std::min(ranked.size(), size_t(std::max(0, opt.worst_k)));
            std::partial_sort(ranked.begin(), ranked.begin() + long(K), ranked.end(),
                              [](const WorstRef &a, const WorstRef &b) {
                                  return a.angle_err_rad != b.angle_err_rad ? a.angle_err_rad > b.angle_err_rad
                                                                            : a.index < b.index;
                              });
            ranked.resize(K);
            row.worst = std::move(ranked);
            result.rows.push_back(std::move(row));
        }
    }
    for (size_t k = 0; k < nio; k++) {
        for (size_t b = 0; b < edges.size(); b++) curves[k][b].p50_angle_err_rad = percentile(curve_angles[k][b], 0.5);
        result.curves.push_back({sel[idx[k]].impl, sel[idx[k]].op, std::move(curves[k])});
    }
}

}  // namespace

RunResult run(const RunOptions &options, const std::vector<Impl> &catalogue) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult result;
    result.options = options;
    result.selected = select_impls(catalogue, options.impl_filters, options.ops);
    int jobs = options.jobs > 0 ? options.jobs : int(std::max(1u, std::thread::hardware_concurrency()));
    result.jobs = jobs;
    run_precision<float>(options, result.selected, jobs, result, result.reference_f32);
    run_precision<double>(options, result.selected, jobs, result, result.reference_f64);
    // Rows in catalogue order, then op, then region (the order select_impls gave).
    auto pos = [&](const Impl *i, Op op) {
        for (size_t k = 0; k < result.selected.size(); k++)
            if (result.selected[k].impl == i && result.selected[k].op == op) return k;
        return result.selected.size();
    };
    std::stable_sort(result.rows.begin(), result.rows.end(), [&](const RowResult &a, const RowResult &b) {
        return pos(a.impl, a.op) < pos(b.impl, b.op);
    });
    std::stable_sort(result.curves.begin(), result.curves.end(), [&](const CurveResult &a, const CurveResult &b) {
        return pos(a.impl, a.op) < pos(b.impl, b.op);
    });
    result.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace qc
