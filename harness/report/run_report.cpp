#include "report/run_report.h"
#include "reference/fast_reference.h"
#include "reference/stats_json.h"
#include "leaderboard/leaderboard.h"

#include <boost/version.hpp>
#include <fmt/format.h>
#include <gmp.h>
#include <mpfr.h>

#include <chrono>
#include <fstream>
#include <ctime>

namespace qc {

std::string num(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    return fmt::format("{:.9g}", x);
}

std::string summary_csv(const RunResult &r) {
    std::string s =
        "impl,op,region,cases,nonfinite,branch_disagree,max_angle_err_rad,p99_angle_err_rad,max_ulp,max_ulp1,"
        "max_norm_err_ulp1,ties,max_angle_err_vs_exact_nlerp_rad,status,status_detail,failed_case,max_angle_err_sampling_rad,"
        "max_angle_err_search_rad\n";
    auto field = [](std::string text) {  // free text in a CSV cell: no separators
        for (auto &c : text)
            if (c == ',' || c == '\n' || c == '"') c = ';';
        return text;
    };
    for (const auto &row : r.rows) {
        s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", row.impl->name, to_string(row.op),
                         to_string(row.region), row.cases, row.nonfinite, row.branch_disagree,
                         num(row.max_angle_err_rad), num(row.p99_angle_err_rad), num(row.max_ulp), num(row.max_ulp1),
                         num(row.max_norm_err_ulp1), row.ties,
                         row.op == Op::nlerp ? num(row.max_angle_err_vs_nlerp_rad) : std::string(),
                         to_string(row.status), field(row.status_detail), field(row.failed_case),
                         num(row.max_angle_err_rad),  // plain sampling: the same figure as max_angle_err_rad
                         std::isnan(row.max_angle_err_search_rad) ? std::string() : num(row.max_angle_err_search_rad));
    }
    return s;
}

namespace {

template <class T>
void worst_rows(const RunResult &r, const RowResult &row, std::string &s) {
    ReferenceEngine reference(Format<T>::precision);
    MetricEngine metric(Format<T>::precision);
    SlerpReference ref;
    // Sampled worst cases (regenerated from their index), then the search's (stored as numbers).
    std::vector<std::pair<SlerpCase<T>, const char *>> cases;
    for (const WorstRef &w : row.worst) cases.push_back({regenerate_case<T>(r.options.seed, row.region, w.index), "sampling"});
    for (const FoundCase &f : row.search_worst) {
        SlerpCase<T> c;
        for (int i = 0; i < 4; i++) c.q0[size_t(i)] = T(f.q0[i]), c.q1[size_t(i)] = T(f.q1[i]);
        c.t = T(f.t);
        cases.push_back({c, "search"});
    }
    for (const auto &[c, source] : cases) {
        T out[4] = {0, 0, 0, 0};
        row.impl->call(row.op, c.q0.data(), c.q1.data(), c.t, out);
        reference.slerp(c, ref, true);
        CaseMetrics m = metric.measure(out, ref, row.op);
        // The reference column holds s R: the target the output was measured against (the arc it took in a
        // tie-band case, and the sign nearest the output).
        const RealQuat &target = m.branch_disagree ? ref.R_other_mp : ref.R_mp;
        double dot = 0;
        for (int i = 0; i < 4; i++) dot += double(out[i]) * to_double(target[i]);
        std::string refs;
        for (int i = 0; i < 4; i++) {
            Real v = target[i];
            if (dot < 0) v = -v;
            refs += "," + to_decimal(v, 40);
        }
        s += fmt::format("{},{},{}", row.impl->name, to_string(row.op), to_string(row.region));
        for (T x : c.q0) s += "," + hexfloat(x);
        for (T x : c.q1) s += "," + hexfloat(x);
        s += "," + hexfloat(c.t);
        for (T x : out) s += "," + hexfloat(x);
        s += refs;
        if (m.nonfinite) s += fmt::format(",nan,nan,nan,{}\n", source);
        else s += fmt::format(",{},{},{},{}\n", num(m.angle_err_rad), num(m.ulp), num(m.ulp1), source);
    }
}

}  // namespace

std::string worst_cases_csv(const RunResult &r) {
    std::string s =
        "impl,op,region,q0_w,q0_x,q0_y,q0_z,q1_w,q1_x,q1_y,q1_z,t,out_w,out_x,out_y,out_z,ref_w,ref_x,ref_y,ref_z,"
        "angle_err_rad,ulp,ulp1,source\n";
    for (const auto &row : r.rows) {
        if (row.impl->precision == Precision::f32) worst_rows<float>(r, row, s);
        else worst_rows<double>(r, row, s);
    }
    return s;
}

std::string error_curve_csv(const RunResult &r) {
    std::string s = "impl,op,w_lo,w_hi,cases,max_angle_err_rad,p50_angle_err_rad,max_ulp1,nonfinite,bins\n";
    for (const auto &c : r.curves)
        for (const auto &b : c.bins)
            s += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", c.impl->name, to_string(c.op), num(b.w_lo), num(b.w_hi),
                             b.cases, num(b.max_angle_err_rad), num(b.p50_angle_err_rad), num(b.max_ulp1), b.nonfinite,
                             b.kind);
    return s;
}

// The processor the tool runs on (/proc/cpuinfo "model name"), for timing figures.
static std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
            std::string v = line.substr(line.find(':') + 1);
            return v.substr(std::min(v.size(), v.find_first_not_of(' ')));
        }
    return "unknown";
}

nlohmann::json build_info() {
    nlohmann::json j;
    j["quatcheck_version"] = "0.1.0";
    j["compiler"] = __VERSION__;
    j["cpu_model"] = cpu_model();
    j["cxx_flags"] = QC_CXX_FLAGS;
    j["build_type"] = QC_BUILD_TYPE;
    j["mpfr_version"] = mpfr_get_version();
    j["gmp_version"] = gmp_version;
    j["boost_version"] = BOOST_LIB_VERSION;
    return j;
}

nlohmann::json run_json(const RunResult &r, const std::vector<Impl> &catalogue) {
    using nlohmann::json;
    json j;
    j["command"] = "run";
    j["partial"] = r.partial;
    j["seed"] = r.options.seed;
    j["cases_per_region"] = r.options.cases;
    j["jobs"] = r.jobs;
    if (!r.options.shard.whole()) j["shard"] = fmt::format("{}/{}", r.options.shard.index, r.options.shard.count);
    if (r.merged_shards > 0) j["merged_shards"] = r.merged_shards;  // wall_time_s is then the shards' sum
    j["worst_k"] = r.options.worst_k;
    json regions = json::array();
    for (Region g : r.options.regions.empty() ? all_regions() : r.options.regions) regions.push_back(to_string(g));
    j["regions"] = regions;
    j["build"] = build_info();
    json impls = json::array();
    for (const auto &io : r.selected) {
        json e;
        e["impl"] = io.impl->name;
        e["op"] = to_string(io.op);
        e["group"] = io.impl->group;
        e["origin"] = io.impl->origin;
        if (!io.impl->version.empty()) e["library_version"] = io.impl->version;
        impls.push_back(e);
    }
    j["implementations"] = impls;
    auto stats = [](const ReferenceStats &s, Precision p) {
        json e;
        e["working_bits"] = 2 * precision_bits(p) + 32;
        e["agreement_tolerance"] = std::ldexp(1.0, -(precision_bits(p) + 16));
        e.update(json(s));
        e["fast_tolerance"] = fast_tolerance(p);
        return e;
    };
    j["reference"] = {
        {"mode", to_string(r.options.reference)},
        {"f32", stats(r.reference_f32, Precision::f32)},
        {"f64", stats(r.reference_f64, Precision::f64)},
        {"fast_bound_violations", r.reference_f32.fast_bound_violations + r.reference_f64.fast_bound_violations},
        {"validation",
         r.options.reference == ReferenceMode::fast
             ? "fast: double-double with a rigorous running error bound, certified to fast_tolerance; MPFR where the "
               "bound cannot decide; 1 certified case in 64 at random also evaluated by MPFR at 192 bits and compared "
               "with the bound (fast_bound_violations). MPFR cases: 1 in 64 plus every ill-conditioned case "
               "recomputed 32 bits higher, doubled until two evaluations agree"
             : "1 case in 64 at random plus every ill-conditioned case recomputed 32 bits above the working "
               "precision; doubled until two evaluations agree"}};
    j["wall_time_s"] = r.wall_time_s;
    std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    j["finished_at"] = buf;
    (void)catalogue;
    return j;
}

void write_run_report(const RunResult &r, const std::vector<Impl> &catalogue, ReportDir &dir) {
    dir.write("summary.csv", summary_csv(r));
    dir.write("worst_cases.csv", worst_cases_csv(r));
    dir.write("error_curve.csv", error_curve_csv(r));
    dir.write("run.json", run_json(r, catalogue).dump(2) + "\n");
    stage_leaderboard(dir, summary_csv(r), run_json(r, catalogue).dump(2) + "\n");  // harness/leaderboard/
}

}  // namespace qc
