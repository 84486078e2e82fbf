// `quatcheck bench --suite slerp-cr`: the report of the BM_SlerpCr benchmarks (bench/slerp_cr_bench.cpp). Every
// figure comes from the one run's Google Benchmark measurements (CPU ns per call, the mean over the repetitions);
// the ratios are taken between benchmarks of that run only. The issue-40 goals printed beside them: the correctly
// rounded f32 slerp at <= 2x a textbook f32 slerp, f64 at <= 5x on average over the regions, phase 2 on fewer than
// 1 in 10^4 calls.
#include "cli/bench_slerp_cr.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace qc::cli {
namespace {

constexpr const char *kThreadVariables[] = {"OMP_NUM_THREADS",  "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                                            "BLIS_NUM_THREADS", "QC_FORCE_SCALAR",      "QC_DAMAGE_FAST_PATH"};
constexpr double kGoalF32 = 2, kGoalF64 = 5, kGoalPhase2 = 1e-4;

// One region and precision: the three routines' ns per call (0 where not measured).
struct Row {
    std::string region, precision;
    double cr = 0, textbook = 0, qc_slerp = 0;
};

std::vector<Row> rows(const std::vector<std::pair<std::string, bench::BenchKey>> &keys,
                      const std::map<std::string, double> &ns) {
    std::vector<Row> out;
    const auto &families = bench::slerp_cr_families();  // cr, textbook, qc-slerp
    for (const auto &[name, key] : keys) {
        if (key.suite != "slerp_cr") continue;
        auto it = ns.find(name);
        if (it == ns.end()) continue;
        Row *row = nullptr;
        for (Row &r : out)
            if (r.region == key.region && r.precision == key.precision) row = &r;
        if (!row) row = &out.emplace_back(Row{key.region, key.precision});
        const double v = it->second / key.calls_per_iteration;
        if (key.impl == families[0] + "." + key.precision) row->cr = v;
        else if (key.impl == families[1] + "." + key.precision) row->textbook = v;
        else row->qc_slerp = v;
    }
    return out;
}

std::string env_line(const MachineState &m) {
    std::string s;
    for (const auto &[k, v] : m.env) s += fmt::format(" {}={}", k, v.empty() ? "(unset)" : v);
    return s;
}

nlohmann::json machine_json(const MachineState &m) {
    nlohmann::json j;
    j["load_average"] = m.load;
    for (const auto &[k, v] : m.env) j["env"][k] = v.empty() ? nlohmann::json() : nlohmann::json(v);
    return j;
}

// The ratio lines: per precision, the mean over the regions of CR / textbook and CR / qc-slerp.
void print_means(const std::vector<Row> &table, nlohmann::json &j) {
    for (const char *prec : {"f32", "f64"}) {
        double sum_t = 0, sum_q = 0;
        int n_t = 0, n_q = 0;
        for (const Row &r : table)
            if (r.precision == prec && r.cr > 0) {
                if (r.textbook > 0) sum_t += r.cr / r.textbook, n_t++;
                if (r.qc_slerp > 0) sum_q += r.cr / r.qc_slerp, n_q++;
            }
        const double goal = std::string(prec) == "f32" ? kGoalF32 : kGoalF64;
        if (n_t > 0) {
            const double m = sum_t / n_t;
            std::printf(
                "ratio CR %s / textbook %s (qc-slerp-cr.%s / seed-c.%s), mean over %d regions: %.2fx (goal <= "
                "%gx: %s)\n",
                prec, prec, prec, prec, n_t, m, goal, m <= goal ? "met" : "NOT MET");
            j["mean"][prec]["cr_over_textbook"] = m;
        }
        if (n_q > 0) {
            const double m = sum_q / n_q;
            std::printf("ratio CR %s / qc-slerp %s, mean over %d regions: %.2fx\n", prec, prec, n_q, m);
            j["mean"][prec]["cr_over_qc_slerp"] = m;
        }
        if (n_t > 0 || n_q > 0) j["mean"][prec]["regions"] = std::max(n_t, n_q);
    }
}

void print_table(const std::vector<Row> &table, nlohmann::json &j) {
    std::printf("  %-13s %-4s %12s %10s %10s %12s %12s\n", "region", "", "qc-slerp-cr", "seed-c", "qc-slerp",
                "CR/textbook", "CR/qc-slerp");
    for (const Row &r : table) {
        const auto ratio = [&](double d) { return r.cr > 0 && d > 0 ? fmt::format("{:.2f}x", r.cr / d) : "-"; };
        std::printf("  %-13s %-4s %12.1f %10.1f %10.1f %12s %12s\n", r.region.c_str(), r.precision.c_str(), r.cr,
                    r.textbook, r.qc_slerp, ratio(r.textbook).c_str(), ratio(r.qc_slerp).c_str());
        nlohmann::json row = {{"region", r.region},
                              {"precision", r.precision},
                              {"cr_ns", r.cr},
                              {"textbook_ns", r.textbook},
                              {"qc_slerp_ns", r.qc_slerp}};
        if (r.cr > 0 && r.textbook > 0) row["cr_over_textbook"] = r.cr / r.textbook;
        if (r.cr > 0 && r.qc_slerp > 0) row["cr_over_qc_slerp"] = r.cr / r.qc_slerp;
        j["regions"].push_back(row);
    }
}

void print_phase2(const bench::SlerpCrCases &cases, nlohmann::json &j) {
    for (const char *prec : {"f32", "f64"}) {
        unsigned long long calls = 0, p2 = 0, capped = 0, bits = 0;
        std::string per_region;
        for (const auto &p : cases.phases) {
            if (p.precision != prec) continue;
            calls += p.stats.calls, p2 += p.stats.phase2_calls, capped += p.stats.capped;
            bits = std::max(bits, p.stats.max_bits);
            per_region += fmt::format("{}{} {}", per_region.empty() ? "" : ", ", p.region, p.stats.phase2_calls);
            j["phase2"].push_back({{"precision", prec},
                                   {"region", p.region},
                                   {"calls", p.stats.calls},
                                   {"phase2_calls", p.stats.phase2_calls},
                                   {"capped", p.stats.capped},
                                   {"max_bits", p.stats.max_bits}});
        }
        if (calls == 0) continue;
        const double rate = double(p2) / double(calls);
        std::printf(
            "phase 2 %s: %llu of %llu calls (rate %.2e; per region: %s), capped components %llu, largest "
            "precision %llu bits (goal < 1e-4: %s)\n",
            prec, p2, calls, rate, per_region.c_str(), capped, bits, rate < kGoalPhase2 ? "met" : "NOT MET");
    }
}

std::string hex4(const double v[4]) { return fmt::format("{{{:a}, {:a}, {:a}, {:a}}}", v[0], v[1], v[2], v[3]); }

void print_slowest(const bench::SlerpCrCases &cases, nlohmann::json &j) {
    for (const auto &s : cases.slowest) {
        if (s.region.empty()) continue;
        const char *status = s.status == QC_SLERP_CR_OK ? "ok" : s.status == QC_SLERP_CR_CAPPED ? "capped" : "nan";
        const std::string phases = s.stats.phase2 > 0
                                       ? fmt::format("phase 2 on {} component{}, up to {} bits", s.stats.phase2,
                                                     s.stats.phase2 == 1 ? "" : "s", s.stats.max_bits)
                                       : "phase 1 only";
        std::printf(
            "slowest call %s: %.0f ns (%.0f ns in the pass over every case), region %s, case %zu: q0 = %s, "
            "q1 = %s, t = %s; %s, status %s\n",
            s.precision.c_str(), s.ns, s.first_ns, s.region.c_str(), s.index, hex4(s.q0).c_str(), hex4(s.q1).c_str(),
            fmt::format("{:a}", s.t).c_str(), phases.c_str(), status);
        j["slowest"].push_back({{"precision", s.precision},
                                {"region", s.region},
                                {"index", s.index},
                                {"ns", s.ns},
                                {"first_ns", s.first_ns},
                                {"q0", hex4(s.q0)},
                                {"q1", hex4(s.q1)},
                                {"t", fmt::format("{:a}", s.t)},
                                {"phase2_components", s.stats.phase2},
                                {"max_bits", s.stats.max_bits},
                                {"status", status}});
    }
}

}  // namespace

MachineState machine_state() {
    MachineState m;
    double l[3];
    if (getloadavg(l, 3) == 3) m.load = {l[0], l[1], l[2]};
    for (const char *k : kThreadVariables) {
        const char *v = std::getenv(k);
        m.env.push_back({k, v ? v : ""});
    }
    return m;
}

std::string report_slerp_cr(const std::vector<std::pair<std::string, bench::BenchKey>> &keys,
                            const std::map<std::string, double> &ns, const bench::BenchOptions &o,
                            const bench::SlerpCrCases &cases, const MachineState &before, const MachineState &after) {
    nlohmann::json j;
    j["cases_per_region"] = bench::kBatch, j["seed"] = o.seed, j["repetitions"] = o.repetitions;
    j["min_time_s"] = o.min_time_s, j["hardware_threads"] = std::thread::hardware_concurrency();
    j["machine_before"] = machine_json(before), j["machine_after"] = machine_json(after);
    std::printf(
        "slerp-cr speed (docs/slerp-cr.md \"Speed\"): CPU ns per call, throughput over %zu cases per region "
        "(seed %llu), %d repetitions of %g s, all in this one run\n",
        bench::kBatch, (unsigned long long)o.seed, o.repetitions, o.min_time_s);
    std::printf("machine: %u hardware threads; load average %.2f %.2f %.2f before, %.2f %.2f %.2f after;%s\n",
                std::thread::hardware_concurrency(), before.load[0], before.load[1], before.load[2], after.load[0],
                after.load[1], after.load[2], env_line(before).c_str());
    const std::vector<Row> table = rows(keys, ns);
    print_table(table, j);
    print_means(table, j);
    print_phase2(cases, j);
    print_slowest(cases, j);
    return j.dump(2) + "\n";
}

}  // namespace qc::cli
