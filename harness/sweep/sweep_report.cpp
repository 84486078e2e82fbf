// The sweep's report folder: sweep_summary.csv, sweep_curve.csv, branch_map.csv (--over dot) or
// t_branch_map.csv (--over t), worst_cases.csv (the argmax of every row, replayable with `quatcheck replay`)
// and sweep.json (options, reference counters, measured throughput). Tables: harness/tables/schemas.cpp.
#include "sweep/sweep.h"

#include "reference/stats_json.h"
#include "report/report_dir.h"
#include "run/build_info.h"
#include "tables/rows.h"
#include "tables/schemas.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace qc {

namespace {

std::string summary_csv(const SweepResult &r) {
    CsvWriter w(tables::sweep_summary);
    for (const SweepRow &row : r.rows) {
        const SliceSpec &s = r.slices[row.slice];
        w.row({std::string(to_string(r.options.over)), s.label, std::string(to_string(s.precision)), row.impl->name,
               std::string(to_string(row.op)), s.lo, s.hi, std::string(s.exhaustive ? "exhaustive" : "scan"), row.cases,
               row.nonfinite, row.max_angle_err_rad, row.p99_angle_err_rad, row.max_ulp1,
               row.have_argmax ? Cell(row.argmax_value) : Cell(), uint64_t(row.edges.size()), row.candidates,
               row.status == EvalStatus::ok ? std::string("ok")
                                             : fmt::format("{}: {}", to_string(row.status), row.status_detail)});
    }
    return w.text();
}

std::string curve_csv(const SweepResult &r) {
    CsvWriter w(tables::sweep_curve);
    for (const SweepRow &row : r.rows) {
        const SliceSpec &s = r.slices[row.slice];
        for (int b = 0; b < kCurveBins; b++) {
            if (row.curve_cases[size_t(b)] == 0) continue;
            double lo = s.lo + (s.hi - s.lo) * b / kCurveBins, hi = s.lo + (s.hi - s.lo) * (b + 1) / kCurveBins;
            w.row({s.label, row.impl->name, std::string(to_string(row.op)), lo, hi, row.curve_cases[size_t(b)],
                   row.curve_max[size_t(b)]});
        }
    }
    return w.text();
}

std::string edges_csv(const SweepResult &r) {
    const bool dot = r.options.over == SweepOver::dot;
    CsvWriter w(dot ? tables::branch_map : tables::t_branch_map);
    for (const SweepRow &row : r.rows) {
        const SliceSpec &s = r.slices[row.slice];
        for (const Edge &e : row.edges) {
            Cell where = dot ? Cell(s.fixed_t) : Cell(s.label.substr(5));  // "pair=NAME" -> NAME
            w.row({row.impl->name, std::string(to_string(row.op)), std::string(to_string(s.precision)), where, e.below,
                   e.above, e.jump_rad, e.err_below_rad, e.err_above_rad});
        }
    }
    return w.text();
}

std::string worst_csv(const SweepResult &r) {
    std::vector<WorstCaseRow> rows;
    for (const SweepRow &row : r.rows) {
        if (!row.have_argmax) continue;
        WorstCaseRow w;
        w.impl = row.impl->name, w.op = to_string(row.op), w.region = r.slices[row.slice].label;
        double dot = 0;
        for (int i = 0; i < 4; i++) dot += row.worst_out[i] * row.worst_ref[i];
        for (int i = 0; i < 4; i++) {
            w.q0[i] = hexfloat(row.worst_q0[i]);
            w.q1[i] = hexfloat(row.worst_q1[i]);
            w.out[i] = hexfloat(row.worst_out[i]);
            w.ref[i] = fmt::format("{:.17g}", dot < 0 ? -row.worst_ref[i] : row.worst_ref[i]);
        }
        w.t = hexfloat(row.worst_t);
        const bool finite = std::isfinite(row.max_angle_err_rad);
        w.angle_err_rad = finite ? row.max_angle_err_rad : std::nan("");
        w.ulp = finite ? row.worst_ulp : std::nan("");
        w.ulp1 = finite ? row.worst_ulp1 : std::nan("");
        w.source = "sweep";
        rows.push_back(std::move(w));
    }
    return worst_cases_csv(rows);
}

}  // namespace

nlohmann::json sweep_json(const SweepResult &r) {
    using nlohmann::json;
    json j;
    j["over"] = to_string(r.options.over);
    j["window"] = {r.options.lo, r.options.hi};
    j["points_option"] = r.options.points;
    j["shard"] = {{"index", r.options.shard.index}, {"count", r.options.shard.count}};
    j["jobs"] = r.jobs;
    j["seed"] = r.options.seed;
    j["edge_rule"] = {{"block", kBlock}, {"factor", kEdgeFactor}, {"floor_eps", kEdgeFloorEps},
                      {"max_edges_per_row", kMaxEdgesPerRow}};
    json slices = json::array();
    for (const SliceSpec &s : r.slices)
        slices.push_back({{"label", s.label}, {"precision", to_string(s.precision)}, {"points", s.points},
                          {"exhaustive", s.exhaustive}, {"lo", s.lo}, {"hi", s.hi}});
    j["slices"] = slices;
    j["cases"] = r.cases;
    j["bisection_cases"] = r.bisection_cases;
    j["reference"] = {{"mode", to_string(r.options.reference)}, {"f32", r.reference_f32}, {"f64", r.reference_f64},
                      {"fast_bound_violations", r.reference_f32.fast_bound_violations + r.reference_f64.fast_bound_violations}};
    json tp = json::object();
    for (Precision p : {Precision::f32, Precision::f64}) {
        SweepThroughput t = sweep_throughput(r, p);
        if (!t.measured) continue;
        const int pi = p == Precision::f32 ? 0 : 1;
        tp[to_string(p)] = {{"points", r.points[pi]}, {"impl_evals", r.impl_evals[pi]}, {"cpu_s", r.cpu_s[pi]},
                            {"wall_s", r.sweep_wall_s[pi]}, {"points_per_s_per_core", t.points_per_s_per_core},
                            {"impl_evals_per_s_per_core", t.impl_evals_per_s_per_core}, {"impl_ops", t.impl_ops},
                            {"exhaustive_t_points", t.exhaustive_t_points}, {"exhaustive_t_slice_wall_s", t.slice_wall_s}};
    }
    j["throughput"] = tp;
    j["wall_time_s"] = r.wall_time_s;
    j["build"] = build_info();
    return j;
}

void write_sweep_report(const SweepResult &r, ReportDir &dir) {
    dir.write("sweep_summary.csv", summary_csv(r));
    dir.write("sweep_curve.csv", curve_csv(r));
    dir.write(r.options.over == SweepOver::dot ? "branch_map.csv" : "t_branch_map.csv", edges_csv(r));
    dir.write("worst_cases.csv", worst_csv(r));
    dir.write("sweep.json", sweep_json(r).dump(2) + "\n");
}

}  // namespace qc
