#include "metrics/comparison.h"
#include "report/run_report.h"
#include "reference/fast_reference.h"
#include "reference/stats_json.h"
#include "base/build_info.h"
#include "isolate/eval.h"
#include "leaderboard/leaderboard.h"
#include "isolate/plugin_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <ctime>
#include <limits>
#include <set>

namespace qc {

namespace {

// Free text in a CSV cell without separators: the summary's detail columns are never quoted.
std::string field(std::string text) {
    for (auto &c : text)
        if (c == ',' || c == '\n' || c == '"') c = ';';
    return text;
}

}  // namespace

// An implementation's origin as run.json records it: what loads it again from any working directory (a
// plugin's absolute path; a process plugin's command with its relative file words made absolute, conform.h's
// rule), so that every command built from run.json (compare, findings, the report's cards) runs as printed.
std::string portable_origin(const std::string &origin) {
    if (origin.empty() || origin == "builtin") return origin;
    const bool library = origin.size() > 3 && origin.compare(origin.size() - 3, 3, ".so") == 0;
    std::error_code ec;
    const std::string cwd = std::filesystem::current_path(ec).string();
    if (ec) return origin;
    const auto words = portable_plugin_words(library ? PluginSpec::library(origin) : PluginSpec::command(origin), cwd);
    return words.size() == 2 ? words[1] : origin;
}

std::vector<SummaryRow> summary_rows(const RunOutput &r, const std::vector<RowFailure> *failures) {
    std::vector<SummaryRow> rows;
    for (size_t k = 0; k < r.rows.size(); k++) {
        const Row &row = r.rows[k];
        SummaryRow s;
        s.impl = row.impl->name;
        s.op = to_string(row.op);
        s.region = to_string(row.region);
        s.cases = row.cases, s.nonfinite = row.nonfinite, s.branch_disagree = row.branch_disagree, s.ties = row.ties;
        s.max_angle_err_rad = as_written(row.max_angle_err_rad);
        s.p99_angle_err_rad = as_written(row.p99_angle_err_rad);
        s.max_ulp = as_written(row.max_ulp);
        s.max_ulp1 = as_written(row.max_ulp1);
        s.max_norm_err_ulp1 = as_written(row.max_norm_err_ulp1);
        if (row.op == Op::nlerp) s.max_angle_err_vs_exact_nlerp_rad = as_written(row.max_angle_err_vs_nlerp_rad);
        s.status = to_string(row.status);
        s.status_detail = field(row.status_detail);
        s.failed_case = field(row.failed_case);
        if (const SearchRow &found = r.search_of(k); !std::isnan(found.max_angle_err_rad))
            s.max_angle_err_search_rad = as_written(found.max_angle_err_rad);
        if (failures && k < failures->size() && row.status == EvalStatus::ok &&
            (*failures)[k].status != EvalStatus::ok) {
            const RowFailure &f = (*failures)[k];
            s.status = to_string(f.status);
            s.status_detail = field(f.detail);
            s.failed_case = field(f.failed_case);
        }
        rows.push_back(std::move(s));
    }
    return rows;
}

namespace {

// The MPFR engines of one precision for the worst cases of every row, and the reference of each distinct case
// evaluated once: rows of one region share their sampled cases (regenerated from the same indices), and a
// reference depends on the case alone (ReferenceEngine::slerp with validation is a pure function of it), so a
// case met again reuses it. A third of the worst cases of the default run are repeats.
// MPFR whatever the run's --reference: the reference column is written from the MPFR values (R_mp).
struct WorstCaseEngines {
    explicit WorstCaseEngines(Precision p) : cmp(p, ReferenceMode::mpfr) {}
    Comparator cmp;
    std::map<std::array<uint64_t, 9>, std::unique_ptr<SlerpReference>> refs;

    template <class T> const SlerpReference &slerp(const SlerpCase<T> &c) {
        std::array<uint64_t, 9> key;
        for (size_t i = 0; i < 4; i++)
            key[i] = std::bit_cast<uint64_t>(double(c.q0[i])), key[4 + i] = std::bit_cast<uint64_t>(double(c.q1[i]));
        key[8] = std::bit_cast<uint64_t>(double(c.t));
        auto [it, fresh] = refs.try_emplace(key);
        if (fresh) {
            it->second = std::make_unique<SlerpReference>();
            cmp.reference.slerp(c, *it->second, true);
        }
        return *it->second;
    }
};

// The cases worst_cases.csv holds for one row, each with its source and the summary figures it attains (issue
// 38): the worst K by angle (regenerated from their index), the case behind each other maximum of the sampling
// when it is not among them, then the search's worst cases and the case of its maximum.
template <class T> struct RowCases {
    std::vector<SlerpCase<T>> cases;
    std::vector<const char *> sources;
    std::vector<std::string> attains;  // space-separated summary.csv columns
};

template <class T> RowCases<T> row_cases(const RunOutput &r, size_t k) {
    const Row &row = r.rows[k];
    RowCases<T> l;
    std::vector<uint64_t> sampled;  // the case index of each sampled entry
    auto add_sampled = [&](uint64_t index) {
        l.cases.push_back(regenerate_case<T>(r.plan.options.seed, row.region, index));
        l.sources.push_back("sampling"), l.attains.emplace_back(), sampled.push_back(index);
    };
    for (const WorstRef &w : row.worst) add_sampled(w.index);
    for (auto [index, column] : {std::pair<uint64_t, const char *>{row.argmax_angle, "max_angle_err_rad"},
                                 {row.argmax_ulp, "max_ulp"},
                                 {row.argmax_ulp1, "max_ulp1"},
                                 {row.argmax_norm, "max_norm_err_ulp1"}}) {
        if (index == kNoCase) continue;
        auto at = std::find(sampled.begin(), sampled.end(), index);
        if (at == sampled.end()) add_sampled(index), at = sampled.end() - 1;
        std::string &a = l.attains[size_t(at - sampled.begin())];
        a += (a.empty() ? "" : " ") + std::string(column);
    }
    const SearchRow &search = r.search_of(k);
    auto add_found = [&](const FoundCase &f, const char *column) {
        SlerpCase<T> c;
        for (int i = 0; i < 4; i++) c.q0[size_t(i)] = T(f.q0[i]), c.q1[size_t(i)] = T(f.q1[i]);
        c.t = T(f.t);
        l.cases.push_back(c), l.sources.push_back("search"), l.attains.emplace_back(column);
    };
    auto same = [](const FoundCase &a, const FoundCase &b) {
        return std::equal(a.q0, a.q0 + 4, b.q0) && std::equal(a.q1, a.q1 + 4, b.q1) && a.t == b.t;
    };
    bool search_marked = false;
    for (const FoundCase &f : search.worst) {  // worst first
        const bool is_max = search.finite_max && !search_marked && same(f, *search.finite_max);
        add_found(f, is_max ? "max_angle_err_search_rad" : "");
        search_marked = search_marked || is_max;
    }
    if (search.finite_max && !search_marked) add_found(*search.finite_max, "max_angle_err_search_rad");
    return l;
}

// Appends the worst cases of one row (row_cases) to `rows`, re-run in one batch; a failure of the
// implementation on one of them goes to `failure`.
template <class T> void add_worst_cases(const RunOutput &r, size_t k, std::vector<WorstCaseRow> &rows,
                                        RowFailure &failure, WorstCaseEngines &engines) {
    const Row &row = r.rows[k];
    MetricEngine &metric = engines.cmp.metric;
    const RowCases<T> listed = row_cases<T>(r, k);
    const std::vector<SlerpCase<T>> &cases = listed.cases;
    const std::vector<const char *> &sources = listed.sources;
    const std::vector<std::string> &attains = listed.attains;
    std::vector<Quat<T>> outs(cases.size());
    size_t valid = 0;
    if (!cases.empty()) {
        const EvalOutcome o = eval_batch(*row.impl, row.op, cases.data(), cases.size(), outs.data());
        valid = o.done;
        // (interrupted: not the implementation's doing; the report being written is abandoned or partial)
        if (!o.ok() && o.status != EvalStatus::interrupted) {
            const size_t at = std::min(o.done, cases.size() - 1);
            failure.status = o.status;
            failure.detail = fmt::format("{} when its worst case {} was re-evaluated", o.detail, at + 1);
            failure.failed_case = case_text(cases[at]);
        }
    }
    for (size_t k = 0; k < cases.size(); k++) {
        const SlerpCase<T> &c = cases[k];
        T out[4];
        for (int i = 0; i < 4; i++) out[i] = k < valid ? outs[k][size_t(i)] : std::numeric_limits<T>::quiet_NaN();
        const SlerpReference &ref = engines.slerp(c);
        CaseMetrics m = metric.measure(out, ref, row.op);
        // The reference column holds s R: the target the output was measured against (the arc it took in a
        // tie-band case, and the sign nearest the output).
        const RealQuat &target = m.branch_disagree ? ref.R_other_mp : ref.R_mp;
        double dot = 0;
        for (int i = 0; i < 4; i++) dot += double(out[i]) * to_double(target[i]);
        WorstCaseRow w;
        w.impl = row.impl->name, w.op = to_string(row.op), w.region = to_string(row.region);
        for (int i = 0; i < 4; i++) {
            w.q0[i] = hexfloat(c.q0[size_t(i)]);
            w.q1[i] = hexfloat(c.q1[size_t(i)]);
            w.out[i] = hexfloat(out[i]);
            Real v = target[i];
            if (dot < 0) v = -v;
            w.ref[i] = to_decimal(v, 40);
        }
        w.t = hexfloat(c.t);
        const double nan = std::nan("");
        w.angle_err_rad = m.nonfinite ? nan : m.angle_err_rad;
        w.ulp = m.nonfinite ? nan : m.ulp;
        w.ulp1 = m.nonfinite ? nan : m.ulp1;
        w.source = sources[k];
        w.norm_err_ulp1 = m.nonfinite ? nan : m.norm_err_ulp1;
        w.attains = attains[k];
        rows.push_back(std::move(w));
    }
}

}  // namespace

std::vector<WorstCaseRow> worst_case_rows(const RunOutput &r, std::vector<RowFailure> *failures) {
    std::vector<WorstCaseRow> rows;
    std::vector<RowFailure> failed(r.rows.size());
    WorstCaseEngines f32(Precision::f32), f64(Precision::f64);
    for (size_t k = 0; k < r.rows.size(); k++) {
        const Row &row = r.rows[k];
        if (row.impl->precision == Precision::f32) add_worst_cases<float>(r, k, rows, failed[k], f32);
        else add_worst_cases<double>(r, k, rows, failed[k], f64);
    }
    if (failures) *failures = std::move(failed);
    return rows;
}

std::string error_curve_csv(const RunResult &r) {
    CsvWriter w(tables::error_curve);
    for (const auto &c : r.curves)
        for (const auto &b : c.bins)
            w.row({c.impl->name, std::string(to_string(c.op)), b.w_lo, b.w_hi, b.cases, b.max_angle_err_rad,
                   b.p50_angle_err_rad, b.max_ulp1, b.nonfinite, b.kind});
    return w.text();
}

namespace {

// What a process plugin's round trips cost (the family's, all ops and precisions), with the batches whose claimed
// library time exceeds their round trip: refused (out-of-bounds rows), and left out of adapter_s, which would
// otherwise read as a plain 0 (issue 44 item 17).
nlohmann::json process_cost_json(const BackendCounters &c) {
    nlohmann::json e;
    if (c.round_trips > 0)
        e = {{"adapters_started", c.adapters_started},
             {"start_s", c.start_s},
             {"round_trips", c.round_trips},
             {"round_trip_s", c.round_trip_s},
             {"wait_s", c.wait_s},
             {"adapter_s", c.self_s},
             {"adapter_cpu_s", c.adapter_cpu_s},
             {"wait_overhead_s", c.wait_overhead_s},
             {"adapter_overhead_s", c.adapter_overhead_s}};
    if (c.time_violations > 0)
        e["protocol_violations"] = {{"violation", "library time beyond the round trip"},
                                    {"batches", c.time_violations},
                                    {"largest_claimed_ns", c.time_violation_max_ns}};
    return e;
}

// The "implementations" array, one entry per selected implementation and op. Process plugins: what their round
// trips cost the whole command, summed into all with each family's backend counted once
// (docs/plugin-protocol.md#sizes-and-cost).
nlohmann::json implementations_json(const RunOutput &r, BackendCounters &all) {
    using nlohmann::json;
    json impls = json::array();
    std::set<const EvalBackend *> counted;
    for (const auto &io : r.plan.selected) {
        json e;
        e["impl"] = io.impl->name;
        e["op"] = to_string(io.op);
        e["group"] = io.impl->group;
        e["origin"] = portable_origin(io.impl->origin);
        if (!io.impl->version.empty()) e["library_version"] = io.impl->version;
        if (io.impl->backend) {
            BackendCounters c = io.impl->backend->counters();
            if (c.round_trips > 0 || c.time_violations > 0) e["process"] = process_cost_json(c);
            if (c.round_trips > 0 && counted.insert(io.impl->backend.get()).second) {
                all.round_trips += c.round_trips;
                all.wait_overhead_s += c.wait_overhead_s;
                all.adapter_overhead_s += c.adapter_overhead_s;
            }
        }
        impls.push_back(e);
    }
    return impls;
}

// The "reference" block: the mode, each precision's evaluation statistics, and how the figures were validated.
nlohmann::json reference_json(const RunOutput &r) {
    using nlohmann::json;
    auto stats = [](const ReferenceStats &s, Precision p) {
        json e;
        e["working_bits"] = 2 * precision_bits(p) + 32;
        e["agreement_tolerance"] = std::ldexp(1.0, -(precision_bits(p) + 16));
        e.update(json(s));
        e["fast_tolerance"] = fast_tolerance(p);
        return e;
    };
    return {
        {"mode", to_string(r.plan.options.reference)},
        {"f32", stats(r.reference_f32, Precision::f32)},
        {"f64", stats(r.reference_f64, Precision::f64)},
        {"fast_bound_violations", r.reference_f32.fast_bound_violations + r.reference_f64.fast_bound_violations},
        // The fast path's validation sample (fast_check_rate_log2): its rate, and per precision its count
        // (f32/f64.validation_samples).
        {"fast_check",
         {{"rate", fmt::format("1 in {}", uint64_t(1) << r.plan.fast_check_log2)},
          {"rate_log2", r.plan.fast_check_log2},
          {"paranoid", r.plan.options.paranoid},
          {"checked", r.reference_f32.validation_samples + r.reference_f64.validation_samples}}},
        {"validation",
         r.plan.options.reference == ReferenceMode::fast
             ? fmt::format(
                   "fast: double-double with a rigorous running error bound, certified to fast_tolerance; MPFR where "
                   "the bound cannot decide; 1 certified case in {} (fast_check.rate: the smallest rate at most 1 in "
                   "1024 expecting 1500 checks per precision, 1 in 64 with --paranoid), chosen by a hash of its "
                   "inputs, also evaluated by MPFR at 128 bits and compared with the bound (fast_bound_violations). "
                   "MPFR cases: 1 in 64 plus every ill-conditioned case recomputed 32 bits higher, doubled until two "
                   "evaluations agree",
                   uint64_t(1) << r.plan.fast_check_log2)
             : "1 case in 64 at random plus every ill-conditioned case recomputed 32 bits above the working "
               "precision; doubled until two evaluations agree"}};
}

}  // namespace

nlohmann::json run_json(const RunOutput &r) {
    using nlohmann::json;
    json j;
    j["command"] = "run";
    j["partial"] = r.partial;
    j["seed"] = r.plan.options.seed;
    j["cases_per_region"] = r.plan.options.cases;
    if (!r.plan.options.cases_for.empty()) {  // --cases-for: the caps as given (each row's count is in summary.csv)
        json caps = json::array();
        for (const auto &[filter, n] : r.plan.options.cases_for) caps.push_back({{"filter", filter}, {"cases", n}});
        j["cases_for"] = caps;
    }
    j["jobs"] = r.jobs;
    if (!r.plan.options.shard.whole())
        j["shard"] = fmt::format("{}/{}", r.plan.options.shard.index, r.plan.options.shard.count);
    if (r.merged_shards > 0) j["merged_shards"] = r.merged_shards;  // wall_time_s is then the shards' sum
    j["worst_k"] = r.plan.options.worst_k;
    json regions = json::array();
    for (Region g : r.plan.regions) regions.push_back(to_string(g));
    j["regions"] = regions;
    j["build"] = build_info();
    BackendCounters all;
    j["implementations"] = implementations_json(r, all);
    if (all.round_trips > 0 && r.merged_shards == 0) {
        // The share of the run's thread time (jobs x wall time) that round trips took beyond the libraries'
        // own time: the harness's threads waiting or encoding (wait_overhead_s) plus the adapters' processes
        // decoding, encoding and moving bytes (adapter_overhead_s, CPU time that competes for the same cores).
        const double core_s = double(r.jobs) * r.wall_time_s, over = all.wait_overhead_s + all.adapter_overhead_s;
        j["process_round_trips"] = {{"round_trips", all.round_trips},
                                    {"wait_overhead_s", all.wait_overhead_s},
                                    {"adapter_overhead_s", all.adapter_overhead_s},
                                    {"thread_time_s", core_s},
                                    {"share", core_s > 0 ? over / core_s : 0.0}};
    }
    j["reference"] = reference_json(r);
    if (!r.search.empty()) {  // the worst-case search ran (docs/worst-case-search.md)
        uint64_t discarded = 0;
        for (const SearchRow &s : r.search) discarded += s.discarded;
        j["search"] = {{"mode", r.search_settings.generations ? "generations" : "steps"},
                       {"max_block", r.search_settings.max_block},
                       {"discarded", discarded},
                       {"wall_time_s", r.search_wall_s},
                       {"cpu_time_s", r.search_cpu_s}};
    }
    j["wall_time_s"] = r.wall_time_s;
    std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    j["finished_at"] = buf;
    return j;
}

std::map<std::string, ImplInfo> implementations(const RunResult &r) {
    std::map<std::string, ImplInfo> out;
    for (const auto &io : r.plan.selected) out[io.impl->name] = {io.impl->group, io.impl->version, io.impl->origin};
    return out;
}

namespace {
void stage_board(ReportDir &dir, const Leaderboard &board) {
    dir.write("leaderboard.csv", leaderboard_csv(board));
    dir.write("leaderboard.md", leaderboard_md(board));
}
}  // namespace

void stage_leaderboard(ReportDir &dir, ReportTables known) {
    stage_board(dir, build_leaderboard(read_report_tables(files_in(dir.dir()), dir.dir(), std::move(known))));
}

void write_leaderboard(const std::filesystem::path &dir, const StopToken &stop) {
    const Leaderboard board =
        build_leaderboard(read_report_tables(dir));  // before the lock: a bad input creates nothing
    ReportDir out(dir, stop);
    stage_board(out, board);
    out.commit();
}

void write_run_report(const RunOutput &r, ReportDir &dir, bool leaderboard) {
    std::vector<RowFailure> failures;  // the worst cases first: a failure there is the row's status
    const std::string worst = worst_cases_csv(worst_case_rows(r, &failures));
    std::vector<SummaryRow> summary = summary_rows(r, &failures);
    dir.write("summary.csv", summary_csv(summary));
    dir.write("worst_cases.csv", worst);
    dir.write("error_curve.csv", error_curve_csv(r));
    dir.write("run.json", run_json(r).dump(2) + "\n");
    // One line per process-plugin family that claimed an impossible library time (its backend, once).
    std::set<const EvalBackend *> told;
    for (const auto &io : r.plan.selected)
        if (io.impl->backend && told.insert(io.impl->backend.get()).second)
            if (BackendCounters c = io.impl->backend->counters(); c.time_violations > 0)
                std::fprintf(stderr,
                             "quatcheck: %s: protocol violation: its adapter claimed a library time beyond the round "
                             "trip (up to %llu ns) in %llu batches; those rows are out-of-bounds and run.json's "
                             "adapter_s leaves them out\n",
                             io.impl->family.c_str(), (unsigned long long)c.time_violation_max_ns,
                             (unsigned long long)c.time_violations);
    if (!leaderboard) return;
    ReportTables known;
    known.summary = std::move(summary);
    known.implementations = implementations(r);
    known.partial = r.partial;
    stage_leaderboard(dir, std::move(known));
}

}  // namespace qc
