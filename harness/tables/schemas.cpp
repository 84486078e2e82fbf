#include "tables/schemas.h"

namespace qc::tables {

namespace {

using T = ColumnType;

// Column constructors: required unless marked optional; `empty` lets a cell be empty.
Column col(const char *name, T type, const char *unit = "") { return Column{name, type, unit, true, false, {}, ""}; }
Column optional(Column c) {
    c.required = false;
    return c;
}
Column empty(Column c) {
    c.may_be_empty = true;
    return c;
}
Column formatted(Column c, const char *spec) {
    c.format = spec;
    return c;
}
Column choice(const char *name, std::vector<std::string> choices) {
    Column c = col(name, T::choice);
    c.choices = std::move(choices);
    return c;
}

// The four components of a quaternion column group: PREFIX_w .. PREFIX_z.
void quat(std::vector<Column> &cols, const std::string &prefix, T type) {
    for (const char *k : {"_w", "_x", "_y", "_z"}) cols.push_back(col((prefix + k).c_str(), type));
}

// conformance.csv and squad_conformance.csv: the same columns, each with its writer's verdicts. failed_call and
// calls (issue 38) came last and are optional: files written before them read as before (no call explained),
// and a reader that does not know them ignores them (columns are found by name).
Schema conformance_schema(const char *file, const char *about, const std::vector<std::string> &verdicts) {
    return {file,
            about,
            {col("impl", T::key), col("op", T::key), col("property", T::key), choice("verdict", verdicts),
             optional(col("cases", T::count)), optional(col("tolerance", T::text)),
             optional(empty(col("worst", T::real, "per property"))), optional(col("counterexample", T::text)),
             optional(col("reproduce", T::text)), optional(empty(col("failed_call", T::text))),
             optional(empty(col("calls", T::text)))},
            {},
            false};
}

Schema make_worst_cases() {
    std::vector<Column> c = {col("impl", T::key), col("op", T::key), col("region", T::key)};
    quat(c, "q0", T::hexfloat);
    quat(c, "q1", T::hexfloat);
    c.push_back(col("t", T::hexfloat));
    quat(c, "out", T::hexfloat);
    quat(c, "ref", T::decimal);
    c.push_back(col("angle_err_rad", T::real, "rad"));
    c.push_back(col("ulp", T::real, "ulp"));
    c.push_back(col("ulp1", T::real, "ulp1"));
    c.push_back(optional(choice("source", {"sampling", "search", "sweep"})));
    // Issue 38: every maximum of summary.csv has its case here. A file without these columns (an older
    // quatcheck's) is still read: its cases attain nothing that is recorded.
    c.push_back(optional(col("norm_err_ulp1", T::real, "ulp1")));
    c.push_back(optional(empty(col("attains", T::text))));
    return {"worst_cases.csv",
            "one of the worst cases of a summary row (the K worst by angle, and the case behind each other maximum), "
            "with its reference",
            c,
            {},
            true};
}

}  // namespace

const std::vector<std::string> conform_verdicts = {"pass", "fail", "known", "skip"};
const std::vector<std::string> squad_verdicts = {"pass", "fail", "known", "untested"};
const std::vector<std::string> informative_properties = {"correctly-rounded"};
bool is_informative_property(const std::string &name) {
    for (const std::string &n : informative_properties)
        if (n == name) return true;
    return false;
}

const Schema summary{
    "summary.csv",
    "per implementation x op x region: sampled maxima (lower bounds on the true maxima)",
    {col("impl", T::key), col("op", T::key), col("region", T::key), col("cases", T::count), col("nonfinite", T::count),
     optional(col("branch_disagree", T::count)), col("max_angle_err_rad", T::nonneg, "rad"),
     optional(col("p99_angle_err_rad", T::real, "rad")), optional(col("max_ulp", T::real, "ulp")),
     col("max_ulp1", T::nonneg, "ulp1"), optional(col("max_norm_err_ulp1", T::real, "ulp1")),
     optional(col("ties", T::count)), optional(empty(col("max_angle_err_vs_exact_nlerp_rad", T::real, "rad"))),
     optional(col("status", T::text)), optional(col("status_detail", T::text)), optional(col("failed_case", T::text)),
     optional(col("max_angle_err_sampling_rad", T::real, "rad")),
     optional(empty(col("max_angle_err_search_rad", T::nonneg, "rad")))},
    {"impl", "op", "region"},
    true};

const Schema worst_cases = make_worst_cases();

const Schema error_curve{
    "error_curve.csv",
    "per implementation x op x bin of the arc W",
    {col("impl", T::key), col("op", T::key), col("w_lo", T::real, "rad"), col("w_hi", T::real, "rad"),
     col("cases", T::count), col("max_angle_err_rad", T::real, "rad"), col("p50_angle_err_rad", T::real, "rad"),
     col("max_ulp1", T::real, "ulp1"), col("nonfinite", T::count), choice("bins", {"log", "threshold"})},
    {},
    false};

const Schema conformance =
    conformance_schema("conformance.csv", "per implementation x op x property: the verdict", conform_verdicts);

const Schema squad_summary{
    "squad_summary.csv",
    "per squad implementation x track region",
    {col("impl", T::key), col("op", T::key), col("region", T::key), optional(col("tracks", T::count)),
     col("cases", T::count), col("nonfinite", T::count), col("max_angle_err_own_rad", T::nonneg, "rad"),
     optional(col("p99_angle_err_own_rad", T::real, "rad")), optional(col("max_angle_err_refcp_rad", T::real, "rad")),
     optional(col("p99_angle_err_refcp_rad", T::real, "rad")), optional(col("max_c1_jump_impl", T::real, "rad")),
     optional(col("max_c1_jump_ref", T::real, "rad")), optional(col("c1_keys", T::count)),
     optional(col("c1_failures", T::count))},
    {"impl", "op", "region"},
    true};

const Schema squad_worst_cases{
    "squad_worst_cases.csv",
    "one of the worst squad cases of a squad_summary row",
    {col("impl", T::key), col("op", T::key), col("region", T::key), col("track", T::count), col("segment", T::count),
     col("t", T::hexfloat), col("angle_err_own_rad", T::real, "rad"), col("angle_err_refcp_rad", T::real, "rad"),
     col("out_w", T::hexfloat), col("out_x", T::hexfloat), col("out_y", T::hexfloat), col("out_z", T::hexfloat),
     col("keys", T::text), col("reproduce", T::text)},
    {},
    false};

const Schema squad_conformance =
    conformance_schema("squad_conformance.csv", "per squad implementation x c1 property: the verdict", squad_verdicts);

const Schema timing{
    "timing.csv",
    "per implementation x op x region x mode: CPU time per call",
    {col("impl", T::key), col("op", T::key), col("region", T::key), choice("mode", {"latency", "throughput"}),
     formatted(col("ns_per_call", T::nonneg, "ns"), "{:.4g}"), optional(formatted(col("cv", T::real), "{:.4f}")),
     optional(col("repetitions", T::count))},
    {},
    false};

const Schema throughput{
    "throughput.csv",
    "per harness benchmark x op x precision x region: CPU time per case",
    {col("benchmark", T::key), col("op", T::key), col("precision", T::key), col("region", T::key),
     formatted(col("ns_per_case", T::nonneg, "ns"), "{:.5g}"), formatted(col("cv", T::real), "{:.4f}"),
     col("repetitions", T::count), empty(formatted(col("recomputed_fraction", T::real), "{:.6f}")),
     empty(formatted(col("fallback_fraction", T::real), "{:.6f}"))},
    {},
    false};

const Schema parallel{
    "parallel.csv",
    "per job count: the default run's wall and CPU time",
    {col("jobs", T::count), col("cases_per_region", T::count), col("cases", T::count),
     formatted(col("wall_s", T::nonneg, "s"), "{:.3f}"), formatted(col("cpu_s", T::nonneg, "s"), "{:.3f}"),
     formatted(col("speedup", T::nonneg), "{:.3f}"), choice("identical", {"yes", "no"})},
    {"jobs"},
    false};

const Schema threshold{"threshold.csv",
                       "per precision x nlerp-fallback family (or --impl implementation) x threshold tau",
                       {col("precision", T::key), col("family", T::key), col("one_minus_tau", T::hexfloat),
                        col("max_angle_err_rad", T::real, "rad"), col("p99_angle_err_rad", T::real, "rad"),
                        col("max_ulp1", T::real, "ulp1"), col("max_norm_err_ulp1", T::real, "ulp1"),
                        col("jump_rad", T::real, "rad"), col("ns_arc", T::real, "ns"),
                        col("ns_fallback", T::real, "ns"), col("tau", T::decimal), col("arc_floor_rad", T::real, "rad"),
                        col("ideal_step_rad", T::real, "rad"), col("cases", T::count), col("nonfinite", T::count)},
                       {},
                       false};

const Schema threshold_summary{
    "threshold_summary.csv",
    "per precision x family: the recommended threshold tau* (empty when none qualifies)",
    {col("precision", T::key), col("family", T::key), empty(col("recommended_one_minus_tau", T::hexfloat)),
     empty(col("recommended_tau", T::decimal)), empty(col("max_angle_err_at_recommended_rad", T::real, "rad")),
     empty(col("arc_floor_at_recommended_rad", T::real, "rad")), col("max_angle_err_at_0_9995_rad", T::real, "rad"),
     col("arc_floor_at_0_9995_rad", T::real, "rad"), col("floor_factor", T::real), choice("tau_effect", {"yes", "no"})},
    {"precision", "family"},
    false};

const Schema velocity_curve{"velocity_curve.csv",
                            "per implementation x op x arc (or squad track) x t: angular-velocity error",
                            {col("impl", T::key), col("op", T::key), col("arc_deg", T::real, "deg"), col("t", T::real),
                             col("phi_rad", T::real, "rad"), col("phi_ideal_rad", T::real, "rad"),
                             col("timing_err", T::real), col("speed_rel_err", T::real), col("track", T::text)},
                            {},
                            false};

const Schema sweep_summary{
    "sweep_summary.csv",
    "per slice (one swept dimension, the others pinned) x implementation x op: exhaustive or scanned maxima",
    {choice("over", {"dot", "t"}), col("slice", T::key), col("precision", T::key), col("impl", T::key),
     col("op", T::key), col("window_lo", T::hexfloat), col("window_hi", T::hexfloat),
     choice("points", {"exhaustive", "scan"}), col("cases", T::count), col("nonfinite", T::count),
     col("max_angle_err_rad", T::nonneg, "rad"), col("p99_angle_err_rad", T::nonneg, "rad"),
     col("max_ulp1", T::nonneg, "ulp1"), empty(col("argmax", T::hexfloat)), col("edges", T::count),
     col("candidates", T::count), col("status", T::text)},
    {"slice", "impl", "op"},
    true};

const Schema sweep_curve{"sweep_curve.csv",
                         "per slice x implementation x op x bin of the swept value: max angle error",
                         {col("slice", T::key), col("impl", T::key), col("op", T::key), col("x_lo", T::real),
                          col("x_hi", T::real), col("cases", T::count), col("max_angle_err_rad", T::nonneg, "rad")},
                         {},
                         false};

const Schema branch_map{
    "branch_map.csv",
    "per edge: the adjacent floats of the dot product between which an implementation's output jumps",
    {col("impl", T::key), col("op", T::key), col("precision", T::key), col("t", T::hexfloat),
     col("dot_below", T::hexfloat), col("dot_above", T::hexfloat), col("jump_rad", T::nonneg, "rad"),
     col("err_below_rad", T::nonneg, "rad"), col("err_above_rad", T::nonneg, "rad")},
    {"impl", "op", "t", "dot_below"},
    false};

const Schema t_branch_map{
    "t_branch_map.csv",
    "per edge: the adjacent floats of t between which an implementation's output jumps, for one key pair",
    {col("impl", T::key), col("op", T::key), col("precision", T::key), col("pair", T::key), col("t_below", T::hexfloat),
     col("t_above", T::hexfloat), col("jump_rad", T::nonneg, "rad"), col("err_below_rad", T::nonneg, "rad"),
     col("err_above_rad", T::nonneg, "rad")},
    {"impl", "op", "pair", "t_below"},
    false};

Schema leaderboard(const std::vector<std::string> &regions) {
    std::vector<Column> c = {col("rank", T::count),
                             col("impl", T::key),
                             col("op", T::key),
                             col("group", T::text),
                             col("library_version", T::text),
                             col("cases", T::count),
                             col("nonfinite", T::count),
                             col("status", T::text),
                             col("worst_region", T::key),
                             col("worst_max_angle_err_rad", T::nonneg, "rad"),
                             empty(col("worst_max_ulp1", T::nonneg, "ulp1"))};
    for (const auto &g : regions) {
        c.push_back(empty(col((g + "_max_angle_err_rad").c_str(), T::nonneg, "rad")));
        c.push_back(empty(col((g + "_max_ulp1").c_str(), T::nonneg, "ulp1")));
    }
    for (Column x :
         {col("conformance", T::text), empty(col("conformance_fail", T::count)),
          empty(col("ns_per_call_throughput", T::nonneg, "ns")), empty(col("ns_per_call_latency", T::nonneg, "ns"))})
        c.push_back(x);
    return {"leaderboard.csv", "per implementation x op, most accurate first", c, {"impl", "op"}, false};
}

const Schema history{
    "history.csv",
    "per library version x implementation x op x region: the run's figures and the properties conform failed",
    {col("library", T::key), col("version", T::key), empty(col("integrity", T::text)), col("impl", T::key),
     col("family", T::key), col("op", T::key), col("precision", T::key), col("region", T::key),
     col("max_angle_err_rad", T::real, "rad"), empty(col("max_ulp1", T::real, "ulp")), col("nonfinite", T::count),
     col("status", T::key), empty(col("failed_properties", T::text))},
    {"library", "version", "impl", "op", "region"},
    false};

const Schema transitions{
    "transitions.csv",
    "per change between consecutive versions: a figure past compare's rules or a conformance property flipping",
    {col("library", T::key), col("family", T::key), col("op", T::key), col("precision", T::key),
     col("region_or_property", T::key), col("metric", T::key), col("from_version", T::key), col("to_version", T::key),
     col("before", T::text), col("after", T::text), choice("change", {"fixed", "regressed"})},
    {"library", "family", "op", "precision", "region_or_property", "metric", "from_version", "to_version"},
    false};

std::vector<const Schema *> all() {
    return {&summary,           &worst_cases,       &error_curve,    &conformance,   &squad_summary,
            &squad_worst_cases, &squad_conformance, &timing,         &throughput,    &parallel,
            &threshold,         &threshold_summary, &velocity_curve, &sweep_summary, &sweep_curve,
            &branch_map,        &t_branch_map,      &history,        &transitions};
}

nlohmann::json to_json() {
    static const char *type_names[] = {"key", "text", "choice", "count", "real", "nonneg", "hexfloat", "decimal"};
    nlohmann::json j = nlohmann::json::object();
    std::vector<Schema> schemas;
    for (const Schema *s : all()) schemas.push_back(*s);
    schemas.push_back(leaderboard({"{region}"}));
    for (const Schema &s : schemas) {
        nlohmann::json cols = nlohmann::json::array();
        for (const Column &c : s.columns) {
            nlohmann::json e = {{"name", c.name},
                                {"type", type_names[int(c.type)]},
                                {"unit", c.unit},
                                {"required", c.required},
                                {"may_be_empty", c.may_be_empty}};
            if (!c.choices.empty()) e["choices"] = c.choices;
            cols.push_back(e);
        }
        j[s.file] = {{"about", s.about}, {"key", s.key}, {"columns", cols}};
        if (s.file == conformance.file) j[s.file]["informative_properties"] = informative_properties;
    }
    return j;
}

}  // namespace qc::tables
