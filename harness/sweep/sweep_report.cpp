// The sweep's report folder: sweep_summary.csv, sweep_curve.csv, branch_map.csv (--over dot) or
// t_branch_map.csv (--over t), worst_cases.csv (the argmax of every row, replayable with `quatcheck replay`)
// and sweep.json (options, reference counters, measured throughput). Tables: harness/tables/schemas.cpp.
#include "sweep/sweep.h"

#include "reference/stats_json.h"
#include "base/build_info.h"
#include "base/shard.h"
#include "tables/rows.h"
#include "tables/schemas.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

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
    j["edge_rule"] = {{"block", kBlock},
                      {"factor", kEdgeFactor},
                      {"floor_eps", kEdgeFloorEps},
                      {"max_edges_per_row", kMaxEdgesPerRow}};
    json slices = json::array();
    for (const SliceSpec &s : r.slices)
        slices.push_back({{"label", s.label},
                          {"precision", to_string(s.precision)},
                          {"points", s.points},
                          {"exhaustive", s.exhaustive},
                          {"lo", s.lo},
                          {"hi", s.hi}});
    j["slices"] = slices;
    j["cases"] = r.cases;
    j["bisection_cases"] = r.bisection_cases;
    j["reference"] = {
        {"mode", to_string(r.options.reference)},
        {"f32", r.reference_f32},
        {"f64", r.reference_f64},
        {"fast_bound_violations", r.reference_f32.fast_bound_violations + r.reference_f64.fast_bound_violations}};
    json tp = json::object();
    for (Precision p : {Precision::f32, Precision::f64}) {
        SweepThroughput t = sweep_throughput(r, p);
        if (!t.measured) continue;
        const int pi = p == Precision::f32 ? 0 : 1;
        tp[to_string(p)] = {{"points", r.points[pi]},
                            {"impl_evals", r.impl_evals[pi]},
                            {"cpu_s", r.cpu_s[pi]},
                            {"wall_s", r.sweep_wall_s[pi]},
                            {"points_per_s_per_core", t.points_per_s_per_core},
                            {"impl_evals_per_s_per_core", t.impl_evals_per_s_per_core},
                            {"impl_ops", t.impl_ops},
                            {"exhaustive_t_points", t.exhaustive_t_points},
                            {"exhaustive_t_cpu_s_per_point", t.seconds_per_t_point},
                            {"exhaustive_t_slice_wall_s", t.slice_wall_s}};
    }
    j["throughput"] = tp;
    j["wall_time_s"] = r.wall_time_s;
    j["build"] = build_info();
    return j;
}

// ---- sweep_state.json: the mergeable state of a sweep (or of one shard of it) ----

namespace {

constexpr const char *kStateFormat = "quatcheck-sweep-state-2";

nlohmann::json hexes(const double *v, size_t n) {
    nlohmann::json a = nlohmann::json::array();
    for (size_t i = 0; i < n; i++) a.push_back(hexfloat(v[i]));
    return a;
}

// The implementation-ops of the sweep, in selection order: the rows every shard must hold for each slice.
nlohmann::json selected_json(const std::vector<ImplOp> &selected) {
    nlohmann::json a = nlohmann::json::array();
    for (const ImplOp &io : selected) a.push_back({{"impl", io.impl->name}, {"op", to_string(io.op)}});
    return a;
}

// The options that must agree between the shards of one sweep (selection and build included).
nlohmann::json identity(const SweepResult &r) {
    const SweepOptions &o = r.options;
    nlohmann::json id = {{"over", to_string(o.over)},
                         {"lo", hexfloat(o.lo)},
                         {"hi", hexfloat(o.hi)},
                         {"points", o.points},
                         {"ts", hexes(o.ts.data(), o.ts.size())},
                         {"pair_dots", hexes(o.pair_dots.data(), o.pair_dots.size())},
                         {"seed", o.seed},
                         {"impl_filters", o.impl_filters},
                         {"shard_count", o.shard.count},
                         {"selected", selected_json(r.selected)},
                         {"build", build_identity()}};
    put_reference_mode(id, o.reference);
    return id;
}

std::string state_checksum(const nlohmann::json &state) {
    const std::string text = state.dump();
    return fnv1a64_hex(text.data(), text.size());
}

std::string state_json(const SweepResult &r) {
    using nlohmann::json;
    json j;
    j["format"] = kStateFormat;
    j["identity"] = identity(r);
    j["shard_index"] = r.options.shard.index;
    j["jobs"] = r.jobs;
    j["cases"] = r.cases;
    j["bisection_cases"] = r.bisection_cases;
    j["reference_f32"] = r.reference_f32;
    j["reference_f64"] = r.reference_f64;
    j["throughput"] = {{"points", {r.points[0], r.points[1]}},
                       {"impl_evals", {r.impl_evals[0], r.impl_evals[1]}},
                       {"cpu_s", hexes(r.cpu_s, 2)},
                       {"wall_s", hexes(r.sweep_wall_s, 2)}};
    json slices = json::array();
    for (const SliceSpec &s : r.slices)
        slices.push_back({{"label", s.label},
                          {"precision", to_string(s.precision)},
                          {"fixed_t", hexfloat(s.fixed_t)},
                          {"q0", hexes(s.q0, 4)},
                          {"q1", hexes(s.q1, 4)},
                          {"exhaustive", s.exhaustive},
                          {"points", s.points},
                          {"lo", hexfloat(s.lo)},
                          {"hi", hexfloat(s.hi)}});
    j["slices"] = slices;
    json rows = json::array();
    for (const SweepRow &row : r.rows) {
        json e = json::array();
        for (const Edge &x : row.edges) {
            const double v[5] = {x.below, x.above, x.jump_rad, x.err_below_rad, x.err_above_rad};
            e.push_back(hexes(v, 5));
        }
        json w = nullptr;
        if (row.have_argmax)
            w = {{"value", hexfloat(row.argmax_value)}, {"q0", hexes(row.worst_q0, 4)},
                 {"q1", hexes(row.worst_q1, 4)},        {"t", hexfloat(row.worst_t)},
                 {"out", hexes(row.worst_out, 4)},      {"ref", hexes(row.worst_ref, 4)},
                 {"ulp", hexfloat(row.worst_ulp)},      {"ulp1", hexfloat(row.worst_ulp1)}};
        rows.push_back({{"impl", row.impl->name},
                        {"op", to_string(row.op)},
                        {"slice", row.slice},
                        {"cases", row.cases},
                        {"nonfinite", row.nonfinite},
                        {"candidates", row.candidates},
                        {"max_angle_err_rad", hexfloat(row.max_angle_err_rad)},
                        {"max_ulp1", hexfloat(row.max_ulp1)},
                        {"hist", row.hist},
                        {"curve_max", hexes(row.curve_max.data(), row.curve_max.size())},
                        {"curve_cases", row.curve_cases},
                        {"argmax", w},
                        {"edges", e},
                        {"status", int(row.status)},
                        {"status_detail", row.status_detail}});
    }
    j["rows"] = rows;
    // The checksum of everything else (its compact dump), so that merge refuses a state edited or damaged
    // after it was written.
    j["checksum_fnv1a64"] = state_checksum(j);
    return j.dump(1) + "\n";
}

double hex_of(const nlohmann::json &j, const std::string &path) {
    return parse_hexfloat(j.get<std::string>(), path, 0, "sweep_state.json", true);
}

void hexes_into(const nlohmann::json &a, double *out, size_t n, const std::string &path) {
    if (!a.is_array() || a.size() != n) throw InputError(fmt::format("merge: {}: expected {} hexfloats", path, n));
    for (size_t i = 0; i < n; i++) out[i] = hex_of(a[i], path);
}

}  // namespace

bool is_sweep_folder(const std::string &dir) {
    return std::filesystem::exists(std::filesystem::path(dir) / "sweep_state.json");
}

namespace {

using nlohmann::json;

// A shard's sweep_state.json, its checksum verified (and removed) before any of it is trusted.
json read_sweep_state(const std::string &path) {
    std::optional<std::string> text = read_text_file(path);
    if (!text)
        throw InputError(fmt::format("merge: {}: missing (not the report of quatcheck sweep --shard K/N?)", path));
    json j = json::parse(*text);
    if (!j.is_object() || j.value("format", json()) != kStateFormat)
        throw InputError(fmt::format("merge: {}: not a sweep state of this version", path));
    if (!j.contains("checksum_fnv1a64") || !j["checksum_fnv1a64"].is_string())
        throw InputError(fmt::format("merge: {}: no checksum (written by an older quatcheck: rerun the shard)", path));
    const std::string sum = j["checksum_fnv1a64"];
    j.erase("checksum_fnv1a64");
    if (state_checksum(j) != sum)
        throw InputError(
            fmt::format("merge: {}: checksum mismatch (the file was changed or damaged after it was written)", path));
    return j;
}

// The sweep's options, slices and selection from the first shard's state (its identity and slices).
void sweep_from_state(const json &j, const std::string &path, const std::vector<Impl> &catalogue, SweepResult &r) {
    const json &id = j.at("identity");
    SweepOptions &o = r.options;
    o.over = id.at("over") == "dot" ? SweepOver::dot : SweepOver::t;
    o.lo = hex_of(id.at("lo"), path), o.hi = hex_of(id.at("hi"), path);
    o.points = id.at("points");
    o.ts.clear();
    for (const json &t : id.at("ts")) o.ts.push_back(hex_of(t, path));
    for (const json &d : id.at("pair_dots")) o.pair_dots.push_back(hex_of(d, path));
    o.seed = id.at("seed");
    o.reference = get_reference_mode(id, path);
    o.impl_filters = id.at("impl_filters").get<std::vector<std::string>>();
    r.jobs = j.at("jobs");
    for (const json &s : j.at("slices")) {
        SliceSpec spec;
        spec.label = s.at("label");
        spec.precision = s.at("precision") == "f32" ? Precision::f32 : Precision::f64;
        spec.fixed_t = hex_of(s.at("fixed_t"), path);
        hexes_into(s.at("q0"), spec.q0, 4, path);
        hexes_into(s.at("q1"), spec.q1, 4, path);
        spec.exhaustive = s.at("exhaustive");
        spec.lo = hex_of(s.at("lo"), path), spec.hi = hex_of(s.at("hi"), path);
        r.slices.push_back(spec);
    }
    // The selection, resolved in the catalogue: the rows every shard must hold.
    for (const json &e : id.at("selected")) {
        const std::string name = e.at("impl"), op = e.at("op");
        const Impl *impl = nullptr;
        for (const Impl &i : catalogue)
            if (i.name == name) impl = &i;
        if (!impl)
            throw InputError(
                fmt::format("merge: {}: unknown implementation '{}' (load its plugin with --plugin?)", path, name));
        auto parsed = parse_op(op);
        if (!parsed) throw InputError(fmt::format("merge: {}: unknown op '{}'", path, op));
        r.selected.push_back({impl, *parsed});
    }
}

using RowKey = std::tuple<size_t, std::string, std::string>;  // slice, impl, op

// Checks that shard `index` holds the sweep's slices and one row per slice and selected implementation-op of
// the slice's precision, each over the shard's points of that slice (fewer only when the implementation
// failed); adds the shard's points to the slices'.
void check_shard_rows(const json &j, int index, const std::string &path, SweepResult &r) {
    const json &slices = j.at("slices");
    if (slices.size() != r.slices.size()) throw InputError(fmt::format("merge: {}: different slices", path));
    std::vector<uint64_t> shard_points;  // each slice's points in this shard that its rows count
    for (size_t s = 0; s < slices.size(); s++) {
        if (slices[s].at("label") != r.slices[s].label)
            throw InputError(fmt::format("merge: {}: different slices", path));
        const uint64_t n = slices[s].at("points");
        const uint64_t own = index > 1 && n > 0 ? n - 1 : n;  // a later shard's first point is the overlap
        shard_points.push_back(own);
        r.slices[s].points += own;
    }
    std::set<RowKey> expected, held;
    for (size_t s = 0; s < r.slices.size(); s++)
        for (const ImplOp &io : r.selected)
            if (io.impl->precision == r.slices[s].precision) expected.insert({s, io.impl->name, to_string(io.op)});
    for (const json &x : j.at("rows")) {
        const size_t slice = x.at("slice");
        const RowKey key = std::make_tuple(slice, x.at("impl").get<std::string>(), x.at("op").get<std::string>());
        const std::string &impl = std::get<1>(key), &op = std::get<2>(key);
        if (!expected.count(key))
            throw InputError(
                fmt::format("merge: {}: a row of {} {} in slice {} that the sweep's selection does not have", path,
                            impl, op, slice));
        if (!held.insert(key).second)
            throw InputError(fmt::format("merge: {}: the row of {} {} in slice {} twice", path, impl, op, slice));
        const int status = x.at("status");
        if (status < 0 || status > int(EvalStatus::interrupted))
            throw InputError(fmt::format("merge: {}: row of {} {}: status {} is not a status", path, impl, op, status));
        const uint64_t cases = x.at("cases");
        if (status == 0 ? cases != shard_points[slice] : cases > shard_points[slice])
            throw InputError(fmt::format("merge: {}: the row of {} {} in slice {} covers {} of the shard's {} points",
                                         path, impl, op, slice, cases, shard_points[slice]));
    }
    for (const auto &[slice, impl, op] : expected)
        if (!held.count({slice, impl, op}))
            throw InputError(fmt::format("merge: {}: no row of {} {} in slice {} (the sweep's selection has it)", path,
                                         impl, op, slice));
}

// Adds a shard's totals: cases, reference counters, throughput.
void add_totals(const json &j, const std::string &path, SweepResult &r) {
    r.cases += j.at("cases").get<uint64_t>();
    r.bisection_cases += j.at("bisection_cases").get<uint64_t>();
    r.reference_f32.add(j.at("reference_f32").get<ReferenceStats>());
    r.reference_f64.add(j.at("reference_f64").get<ReferenceStats>());
    const json &tp = j.at("throughput");
    for (int p = 0; p < 2; p++) {
        r.points[p] += tp.at("points")[size_t(p)].get<uint64_t>();
        r.impl_evals[p] += tp.at("impl_evals")[size_t(p)].get<uint64_t>();
        r.cpu_s[p] += hex_of(tp.at("cpu_s")[size_t(p)], path);
        r.sweep_wall_s[p] = std::max(r.sweep_wall_s[p], hex_of(tp.at("wall_s")[size_t(p)], path));
    }
}

// Merges a shard's row x into row: counts and histograms add, maxima and curves take the max, the argmax
// goes with the larger maximum, edges are collected (merge_rows_done sorts them).
void merge_row(const json &x, const std::string &path, SweepRow &row) {
    row.cases += x.at("cases").get<uint64_t>();
    row.nonfinite += x.at("nonfinite").get<uint64_t>();
    row.candidates += x.at("candidates").get<uint64_t>();
    row.max_ulp1 = std::max(row.max_ulp1, hex_of(x.at("max_ulp1"), path));
    std::map<int, uint64_t> h(row.hist.begin(), row.hist.end());
    for (const json &b : x.at("hist")) h[b.at(0).get<int>()] += b.at(1).get<uint64_t>();
    row.hist.assign(h.begin(), h.end());
    const json &cm = x.at("curve_max"), &cc = x.at("curve_cases");
    if (cm.size() != size_t(kCurveBins) || cc.size() != size_t(kCurveBins))
        throw InputError(fmt::format("merge: {}: curve of {} bins", path, cm.size()));
    for (int b = 0; b < kCurveBins; b++) {
        row.curve_max[size_t(b)] = std::max(row.curve_max[size_t(b)], hex_of(cm[size_t(b)], path));
        row.curve_cases[size_t(b)] += cc[size_t(b)].get<uint64_t>();
    }
    const double mx = hex_of(x.at("max_angle_err_rad"), path);
    const json &w = x.at("argmax");
    // The larger maximum wins; between equal ones, the smaller swept value (as the unsharded sweep).
    const bool better = mx > row.max_angle_err_rad || (mx == row.max_angle_err_rad && !w.is_null() && row.have_argmax &&
                                                       hex_of(w.at("value"), path) < row.argmax_value);
    if (better) {
        row.max_angle_err_rad = mx;
        row.have_argmax = !w.is_null();
        if (row.have_argmax) {
            row.argmax_value = hex_of(w.at("value"), path);
            hexes_into(w.at("q0"), row.worst_q0, 4, path);
            hexes_into(w.at("q1"), row.worst_q1, 4, path);
            row.worst_t = hex_of(w.at("t"), path);
            hexes_into(w.at("out"), row.worst_out, 4, path);
            hexes_into(w.at("ref"), row.worst_ref, 4, path);
            row.worst_ulp = hex_of(w.at("ulp"), path);
            row.worst_ulp1 = hex_of(w.at("ulp1"), path);
        }
    }
    for (const json &e : x.at("edges")) {
        double v[5];
        hexes_into(e, v, 5, path);
        row.edges.push_back({v[0], v[1], v[2], v[3], v[4]});
    }
    const int status = x.at("status");
    if (status != 0 && row.status == EvalStatus::ok)
        row.status = EvalStatus(status), row.status_detail = x.at("status_detail");
}

// The merged rows' derived figures: the p99 from the merged histogram, the edges sorted, deduplicated and
// the largest kMaxEdgesPerRow kept.
void finish_rows(SweepResult &r) {
    for (SweepRow &row : r.rows) {
        row.max_angle_err_rad = std::max(0.0, row.max_angle_err_rad);
        row.p99_angle_err_rad = sweep_p99(row);
        std::sort(row.edges.begin(), row.edges.end(), [](const Edge &a, const Edge &b) {
            return a.below != b.below ? a.below < b.below : a.jump_rad > b.jump_rad;
        });
        row.edges.erase(
            std::unique(row.edges.begin(), row.edges.end(),
                        [](const Edge &a, const Edge &b) { return a.below == b.below && a.above == b.above; }),
            row.edges.end());
        if (row.edges.size() > kMaxEdgesPerRow) {
            std::sort(row.edges.begin(), row.edges.end(),
                      [](const Edge &a, const Edge &b) { return a.jump_rad > b.jump_rad; });
            row.edges.resize(kMaxEdgesPerRow);
            std::sort(row.edges.begin(), row.edges.end(),
                      [](const Edge &a, const Edge &b) { return a.below < b.below; });
        }
    }
}

}  // namespace

SweepResult merge_sweep_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue) {
    if (dirs.empty()) throw UsageError("merge: name the report folders of every shard");
    SweepResult r;
    ShardSet shards("sweep", dirs.front());
    std::map<RowKey, size_t> row_of;
    for (const std::string &dir : dirs) {
        const std::string path = (std::filesystem::path(dir) / "sweep_state.json").string();
        try {
            const json j = read_sweep_state(path);
            const json &id = j.at("identity");
            const int index = j.at("shard_index");
            const bool first = shards.empty();
            shards.add(path, index, id.at("shard_count"), id);
            if (first) sweep_from_state(j, path, catalogue, r);
            check_shard_rows(j, index, path, r);
            add_totals(j, path, r);
            for (const json &x : j.at("rows")) {
                const std::string impl = x.at("impl"), op = x.at("op");
                const size_t slice = x.at("slice");
                auto [it, fresh] = row_of.emplace(std::make_tuple(slice, impl, op), r.rows.size());
                if (fresh) {  // (check_shard_rows: a row of the selection, so its implementation and op are known)
                    SweepRow row;
                    for (const ImplOp &io : r.selected)
                        if (io.impl->name == impl && to_string(io.op) == op) row.impl = io.impl, row.op = io.op;
                    row.slice = slice;
                    row.curve_max.assign(kCurveBins, 0.0);
                    row.curve_cases.assign(kCurveBins, 0);
                    row.max_angle_err_rad = -1;
                    r.rows.push_back(row);
                }
                merge_row(x, path, r.rows[it->second]);
            }
        } catch (const json::exception &e) {
            throw InputError(fmt::format("merge: {}: malformed sweep state: {}", path, e.what()));
        }
    }
    shards.require_complete();
    r.options.shard = Shard{};
    finish_rows(r);
    return r;
}

std::vector<std::pair<std::string, std::string>> sweep_report_files(const SweepResult &r) {
    return {{"sweep_state.json", state_json(r)},
            {"sweep_summary.csv", summary_csv(r)},
            {"sweep_curve.csv", curve_csv(r)},
            {r.options.over == SweepOver::dot ? "branch_map.csv" : "t_branch_map.csv", edges_csv(r)},
            {"worst_cases.csv", worst_csv(r)},
            {"sweep.json", sweep_json(r).dump(2) + "\n"}};
}

}  // namespace qc
