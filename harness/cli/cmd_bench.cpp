// quatcheck bench: time every implementation (Google Benchmark, in process) and measure the harness's own
// throughput and parallel speed-up. Writes into --out, atomically:
//   timing.csv      impl,op,region,mode,ns_per_call,cv,repetitions          (BM_Impl/...)
//   throughput.csv  benchmark,op,precision,region,ns_per_case,cv,repetitions,recomputed_fraction,fallback_fraction
//                   (BM_Reference, BM_MpfrFloor, BM_Metric)
//   parallel.csv    jobs,cases_per_region,cases,wall_s,cpu_s,speedup,identical   (`quatcheck run` in process)
//   bench.json      the raw Google Benchmark JSON of the benchmarks run
//   bench_build.json  CPU model, compiler, flags, library versions (as run.json's "build"), the options
//   machine_state.json  the load average at the start and the end of the run, the thread variables, and (--suite
//                   harness) numpy's BLAS and thread state as scripts/bench_peers.py found it (issue 45)
//   slerp_cr.json   (--suite slerp-cr) the correctly rounded slerp beside seed-c and qc-slerp: ns per call, ratios,
//                   phase-2 rates, the slowest call and the machine's state (cli/bench_slerp_cr.h)
// ns figures are CPU time per call (or per case), the mean over the repetitions; cv = stddev / mean.
#include "bench/suites.h"
#include "cli/bench_slerp_cr.h"
#include "cli/command.h"
#include "cli/validators.h"
#include "pipeline/pipeline.h"
#include "report/run_report.h"
#include "base/build_info.h"
#include "base/subprocess.h"
#include "sweep/sweep.h"
#include "tables/schemas.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>
#include <thread>

namespace qc::cli {
namespace {

struct BenchArgs : SharedArgs {
    std::vector<std::string> impls, regions, suites;
    double min_time_s = 0.05;
    int repetitions = 3;
    long long parallel_cases = 20000;
    std::string filter;
};

// Forwards every report to the JSON reporter (kept in memory) and, on a terminal, to the console; keeps
// the mean and cv of each benchmark.
class Collector : public benchmark::BenchmarkReporter {
public:
    struct Figures {
        double mean_cpu_ns = 0, mean_real_ns = 0, cv = 0, cv_real = 0;
        int64_t repetitions = 0;
        std::string error;
        std::map<std::string, double> counters;
    };
    explicit Collector(const StopToken &stop) : stop_(stop) {
        json_.SetOutputStream(&json_text_);
        json_.SetErrorStream(&json_text_);
        console_.SetOutputStream(&std::cerr);
        console_.SetErrorStream(&std::cerr);
    }
    bool ReportContext(const Context &c) override {
        if (show_) console_.ReportContext(c);
        return json_.ReportContext(c);
    }
    void ReportRuns(const std::vector<Run> &runs) override {
        stop_.throw_if_requested();  // SIGINT/SIGTERM: bench stops after the benchmark that was running
        if (show_) console_.ReportRuns(runs);
        json_.ReportRuns(runs);
        for (const Run &r : runs) {
            Figures &f = figures[r.run_name.function_name];
            if (r.error_occurred) f.error = r.error_message;
            if (r.run_type != Run::RT_Aggregate) continue;
            f.repetitions = r.repetitions;
            if (r.aggregate_name == "mean") {
                f.mean_cpu_ns = r.GetAdjustedCPUTime();
                f.mean_real_ns = r.GetAdjustedRealTime();
                for (const auto &[k, v] : r.counters) f.counters[k] = v.value;
            }
            if (r.aggregate_name == "cv") {
                f.cv = r.cpu_accumulated_time / double(r.iterations ? r.iterations : 1);
                f.cv_real = r.real_accumulated_time / double(r.iterations ? r.iterations : 1);
            }
        }
    }
    void Finalize() override {
        if (show_) console_.Finalize();
        json_.Finalize();
    }
    std::string json() const { return json_text_.str(); }
    std::map<std::string, Figures> figures;

private:
    bool show_ = isatty(STDERR_FILENO);
    StopToken stop_;
    benchmark::ConsoleReporter console_;
    benchmark::JSONReporter json_;
    std::ostringstream json_text_;
};

double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// The default run (every implementation but broken and bench, every op and region) at 1 and 2 jobs, each
// twice in the order 1, 2, 1, 2; the faster of each pair counts. The CSVs must be identical.
std::string parallel_csv(const std::vector<Impl> &catalogue, uint64_t seed, uint64_t cases) {
    CsvWriter w(tables::parallel);
    struct Best {
        double wall = 1e300, cpu = 0;
        std::string csv;
        uint64_t cases = 0;
    };
    std::map<int, Best> best;
    for (int round = 0; round < 2; round++)
        for (int jobs : {1, 2}) {
            RunOptions opt;
            opt.cases = cases, opt.seed = seed, opt.jobs = jobs;
            double c0 = cpu_seconds();
            const RunPlan plan = plan_run(opt, catalogue);
            RunOutput r = run(plan);
            double cpu = cpu_seconds() - c0;
            Best &b = best[jobs];
            if (r.wall_time_s < b.wall) b.wall = r.wall_time_s, b.cpu = cpu;
            b.csv = summary_csv(summary_rows(r)) + error_curve_csv(r);
            b.cases = plan.planned_cases();
        }
    for (int jobs : {1, 2})
        w.row({uint64_t(jobs), cases, best[jobs].cases, best[jobs].wall, best[jobs].cpu, best[1].wall / best[jobs].wall,
               std::string(best[jobs].csv == best[1].csv ? "yes" : "no")});
    return w.text();
}

// ---- peers (docs/timing.md "Peers"): scripts/bench_peers.py times, on the f64 cases of BM_FastReference/slerp/f64
// (every region in turn), an uncertified numpy f64 slerp and the reference's formula in mpmath at 40 digits.

constexpr int kMpmathCases = 200;           // mpmath's sample: the first 200 of the cases (every region in turn)
constexpr size_t kPeerOutputMax = 1 << 16;  // bytes of the script's stdout read at most

struct Peer {
    std::string suite;  // throughput.csv's benchmark column
    double ns = 0, cv = 0;
    uint64_t repetitions = 0;
};

// Runs /usr/bin/python3 bench_peers.py on the cases; its stdout (one JSON object) is returned, its stderr passes
// through. Empty with `why` set where the script or python3 is missing (the peers are then skipped).
std::string run_peer_script(const std::vector<double> &cases, const BenchArgs &a, std::string &why,
                            const StopToken &stop) {
    const std::string python = "/usr/bin/python3";
    const std::string script = find_script("bench_peers.py");
    if (script.empty())
        return why = "scripts/bench_peers.py not found beside the build, in share/quatcheck/scripts or ./scripts", "";
    if (::access(python.c_str(), X_OK) != 0) return why = python + " not found (install python3)", "";
    char path[] = "/tmp/quatcheck-peers-XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd < 0) throw InputError(fmt::format("bench: peers: mkstemp: {}", std::strerror(errno)));
    const size_t bytes = cases.size() * sizeof(double);
    const bool written = ::write(fd, cases.data(), bytes) == ssize_t(bytes);
    ::close(fd);
    if (!written) {
        ::unlink(path);
        throw InputError(fmt::format("bench: peers: cannot write the cases to {}", path));
    }
    const std::string n = std::to_string(kMpmathCases), min_time = fmt::format("{}", a.min_time_s),
                      reps = std::to_string(a.repetitions);
    ToolRun run;
    run.argv = {python, script, path, n, min_time, reps};
    run.out = ToolRun::Out::capture;
    run.capture_max = kPeerOutputMax;
    ToolResult r;
    try {
        r = run_tool(run);
    } catch (...) {
        ::unlink(path);
        throw;
    }
    ::unlink(path);
    stop.throw_if_requested();  // SIGINT/SIGTERM reached the script too: bench stops as after a benchmark
    if (!r.ok()) throw InputError(fmt::format("bench: peers: {} {} {}", python, script, r.describe()));
    if (r.out_truncated)
        throw InputError(fmt::format("bench: peers: {} wrote more than {} bytes", script, kPeerOutputMax));
    return r.out;
}

// The peers' rows; a peer the script skipped (its module missing) is named on stderr with the reason. numpy_state:
// the script's "numpy_state" (numpy's BLAS and threads), {"skip": why} where the script did not run.
std::vector<Peer> measure_peers(const bench::BenchOptions &o, const BenchArgs &a, const StopToken &stop,
                                nlohmann::json &numpy_state) {
    std::string why;
    const std::string text = run_peer_script(bench::peer_cases_f64(o), a, why, stop);
    std::vector<Peer> peers;
    if (text.empty()) {
        std::fprintf(stderr, "quatcheck bench: SKIP peers (numpy, mpmath): %s\n", why.c_str());
        numpy_state = {{"skip", why}};
        return peers;
    }
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object()) throw InputError("bench: peers: bench_peers.py did not print a JSON object");
    const auto state = j.find("numpy_state");
    numpy_state = state != j.end() && state->is_object()
                      ? *state
                      : nlohmann::json{{"skip", "bench_peers.py gave no numpy_state"}};
    for (const auto &[key, suite] :
         {std::pair{"numpy_f64", "numpy_f64_uncertified"}, std::pair{"mpmath_40", "mpmath_40_digits"}}) {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_object())
            throw InputError(fmt::format("bench: peers: no '{}' in bench_peers.py's output", key));
        if (it->contains("skip")) {
            const auto &r = (*it)["skip"];
            std::fprintf(stderr, "quatcheck bench: SKIP %s: %s\n", key,
                         r.is_string() ? r.get<std::string>().c_str() : "(no reason)");
            continue;
        }
        const auto num = [&](const char *f) {
            const auto v = it->find(f);
            if (v == it->end() || !v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0)
                throw InputError(fmt::format("bench: peers: {}.{}: not a finite nonnegative number", key, f));
            return v->get<double>();
        };
        Peer p{suite, num("ns_per_case"), num("cv"), uint64_t(num("repetitions"))};
        if (!(p.ns > 0)) throw InputError(fmt::format("bench: peers: {}.ns_per_case: must be positive", key));
        peers.push_back(p);
    }
    return peers;
}

// The ratios of the peers' table (docs/timing.md "Peers"), printed from this run's figures on stdout.
void print_peer_ratios(const std::map<std::string, double> &f64_all) {
    const auto get = [&](const char *k) {
        auto it = f64_all.find(k);
        return it == f64_all.end() ? 0.0 : it->second;
    };
    const double fast = get("fast_reference"), numpy = get("numpy_f64_uncertified"), mpmath = get("mpmath_40_digits"),
                 floor = get("floor"), mpfr = get("reference");
    if (!(fast > 0)) return;
    std::printf("f64, every region in turn, CPU ns per case (one run)\n");
    std::printf("  %-44s %10.1f\n", "certified reference (--reference fast)", fast);
    const double scalar = get("fast_reference_scalar");  // the same with the scalar path forced (QC_FORCE_SCALAR=1)
    if (scalar > 0)
        std::printf("  %-44s %10.1f  %7.2fx the certified reference (batch / scalar = %.2f)\n",
                    "certified reference, scalar path (forced)", scalar, scalar / fast, fast / scalar);
    // validation at 1 in 1,024, the widest kernel and the four-lane one side by side
    const double rate = get("fast_reference_rate1024"), four = get("fast_reference_four_lanes");
    if (rate > 0)
        std::printf("  %-44s %10.1f  %7.2fx the certified reference\n", "certified reference, validation 1 in 1,024",
                    rate, rate / fast);
    if (rate > 0 && four > 0)
        std::printf("  %-44s %10.1f  four lanes / widest kernel = %.2fx\n", "  the same, four-lane AVX2 kernel", four,
                    four / rate);
    if (mpfr > 0)
        std::printf("  %-44s %10.1f  %7.2fx the certified reference\n", "MPFR reference (--reference mpfr)", mpfr,
                    mpfr / fast);
    if (floor > 0) std::printf("  %-44s %10.1f  %7.2fx\n", "raw MPFR floor (no validation)", floor, floor / fast);
    if (numpy > 0)
        std::printf("  %-44s %10.1f  certified / numpy = %.2fx%s\n", "numpy f64 slerp, vectorised (UNCERTIFIED)", numpy,
                    fast / numpy,
                    rate > 0 ? fmt::format(" (validation 1 in 1,024: {:.2f}x)", rate / numpy).c_str() : "");
    if (mpmath > 0)
        std::printf("  %-44s %10.1f  %7.1fx\n", "mpmath slerp, 40 digits (200 cases)", mpmath, mpmath / fast);
}

// One line of text read from elsewhere (an environment variable, a library's path), for the terminal: control
// characters as '?', at most 160 bytes and "..." (validators.h).
std::string printable(const std::string &s) { return shown(s, 160); }

// numpy's state beside its figure (issue 45, per the machine notes: a BLAS's threads and kernel move numpy's time):
// its version, the BLAS libraries it loaded, threadpoolctl's view and the thread variables, from bench_peers.py.
std::string numpy_state_line(const nlohmann::json &state) {
    // A member as text: a string as it is, anything else as JSON, a missing one as "?".
    const auto text = [](const nlohmann::json &j, const char *key) {
        const auto it = j.is_object() ? j.find(key) : j.end();
        return it == j.end() ? std::string("?") : printable(it->is_string() ? it->get<std::string>() : it->dump());
    };
    if (!state.is_object()) return "numpy's state: not recorded";
    if (state.contains("skip")) return "numpy's state: " + text(state, "skip");
    std::string s = "numpy " + text(state, "version") + "; BLAS loaded:";
    const auto libs = state.find("blas_loaded");
    if (libs == state.end() || !libs->is_array() || libs->empty()) s += " none found";
    else
        for (const auto &l : *libs) s += " " + printable(l.is_string() ? l.get<std::string>() : l.dump());
    const auto pools = state.find("threadpoolctl");
    if (pools != state.end() && pools->is_array()) {
        s += "; threadpoolctl:";
        for (const auto &p : *pools)
            s +=
                fmt::format(" {} {} ({} threads)", text(p, "internal_api"), text(p, "version"), text(p, "num_threads"));
    } else {
        s += "; threadpoolctl: " + text(state, "threadpoolctl");
    }
    s += ";";
    if (const auto env = state.find("env"); env != state.end() && env->is_object())
        for (const auto &[k, v] : env->items())
            s += " " + printable(k) + "=" + (v.is_string() ? printable(v.get<std::string>()) : std::string("(unset)"));
    return s;
}

// Whether a figure's goal lies within two of its spreads (cv, the standard deviation over the repetitions relative to
// the mean) of the figure: another run on the same machine could then give the other verdict (docs/timing.md "Goals").
bool goal_within_noise(double figure, double goal, double cv) {
    return cv > 0 && std::fabs(figure - goal) <= 2 * cv * figure;
}

// The performance goals of issue 45 (docs/timing.md "Goals"), each figure from this run's benchmarks: figures maps
// "suite/op/precision/region" to ns per case (or per point), cvs the same keys to their spread over the repetitions. A
// figure whose benchmarks did not run (--filter) is printed as not measured; a goal within two spreads of its figure
// is said to be so beside the verdict. Printed on stdout, with numpy's state under its figure and the load at the
// start.
void print_goals(const std::map<std::string, double> &figures, const std::map<std::string, double> &cvs,
                 const nlohmann::json &numpy_state, const MachineState &before) {
    const auto get = [&](const std::string &k) {
        auto it = figures.find(k);
        return it == figures.end() ? 0.0 : it->second;
    };
    const auto cv_of = [&](const std::string &k) {
        auto it = cvs.find(k);
        return it == cvs.end() ? 0.0 : it->second;
    };
    struct Goal {
        std::string figure, measured, goal, verdict;
    };
    std::vector<Goal> goals;
    // noisy: the goal is within two spreads of the figure (goal_within_noise)
    const auto add = [&](std::string figure, bool measured, std::string value, std::string goal, bool met,
                         bool noisy = false) {
        std::string verdict = !measured ? "-" : goal == "-" ? "(no goal)" : met ? "met" : "NOT MET";
        if (measured && goal != "-" && noisy) verdict += ", within noise";
        goals.push_back({std::move(figure), measured ? std::move(value) : "not measured in this run", std::move(goal),
                         std::move(verdict)});
    };
    const auto spread = [](double cv) { return cv > 0 ? fmt::format(" (cv {:.1f} %)", 100 * cv) : std::string(); };
    // The certified reference with its validation at 1 in 1,024 (issue 45's item 2: the default rate's floor, which
    // runs from 1.5 million cases per precision use), and at the 1 in 64 of smaller runs and --paranoid beside it.
    const double fast = get("fast_reference_rate1024/slerp/f64/all"),
                 numpy = get("numpy_f64_uncertified/slerp/f64/all"), fast64 = get("fast_reference/slerp/f64/all");
    // (the ratio's spread from its two figures', taken as independent)
    const double ratio_cv =
        std::hypot(cv_of("fast_reference_rate1024/slerp/f64/all"), cv_of("numpy_f64_uncertified/slerp/f64/all"));
    add("certified reference (validation 1 in 1,024) / numpy uncertified slerp, ns per case", fast > 0 && numpy > 0,
        fmt::format("{:.0f} / {:.0f} = {:.2f}x{}", fast, numpy, fast / numpy, spread(ratio_cv)), "<= 1.0x",
        fast <= numpy, goal_within_noise(fast / numpy, 1.0, ratio_cv));
    add("  the same with validation 1 in 64 (runs up to 96,000 cases per precision, --paranoid)",
        fast64 > 0 && numpy > 0, fmt::format("{:.0f} / {:.0f} = {:.2f}x", fast64, numpy, fast64 / numpy), "-", false);
    // The metric as the runner and the sweep pay it: a case's outputs in one batch (BM_MetricFastBatch) where that
    // benchmark ran, else one call each (BM_MetricFast); the slowest op and precision.
    double metric = 0, metric_cv = 0;
    for (const char *op : {"slerp", "nlerp"})
        for (const char *prec : {"f32", "f64"}) {
            std::string k = fmt::format("metric_fast_batch/{}/{}/all", op, prec);
            if (!(get(k) > 0)) k = fmt::format("metric_fast/{}/{}/all", op, prec);
            if (get(k) > metric) metric = get(k), metric_cv = cv_of(k);
        }
    add("certified metric, ns per output as the runner measures it (slowest op and precision)", metric > 0,
        fmt::format("{:.1f}{}", metric, spread(metric_cv)), "<= 30", metric <= 30,
        goal_within_noise(metric, 30, metric_cv));
    // No goal of its own: issue 45's >= 3x is the whole run against the 30fdd8c build (scripts/speedup-30fdd8c).
    const double now = get("runner_fast/slerp+nlerp/both/all"),
                 before_ns = get("runner_fast_before/slerp+nlerp/both/all");
    add("whole runner (default selection, search by steps) vs its scalar paths", now > 0 && before_ns > 0,
        fmt::format("{:.1f} / {:.1f} us = {:.2f}x", before_ns / 1e3, now / 1e3, before_ns / now), "-", false);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const double point = get("sweep_t_point/slerp/f32/all"), point_cv = cv_of("sweep_t_point/slerp/f32/all");
    const double minutes = point * 1e-9 * double(representable_count(Precision::f32, 0.0, 1.0)) / cores / 60;
    add(fmt::format("exhaustive f32 t slice, default selection, {} cores", cores), point > 0,
        fmt::format("{:.1f} min{}", minutes, spread(point_cv)), "<= 30 min", minutes <= 30,
        goal_within_noise(minutes, 30, point_cv));
    if (std::all_of(goals.begin(), goals.end(), [](const Goal &g) { return g.verdict == "-"; })) return;
    std::printf(
        "performance goals of issue 45 (docs/timing.md \"Goals\"), measured in this run; load average %.2f "
        "%.2f %.2f at its start\n",
        before.load[0], before.load[1], before.load[2]);
    for (size_t i = 0; i < goals.size(); i++) {
        const Goal &g = goals[i];
        std::printf("  %-84s %-36s goal %-9s %s\n", g.figure.c_str(), g.measured.c_str(), g.goal.c_str(),
                    g.verdict.c_str());
        if (i == 0) std::printf("    %s\n", numpy_state_line(numpy_state).c_str());  // beside numpy's figure
    }
    std::printf("  (the whole default run against the 30fdd8c build, goal >= 3x: scripts/speedup-30fdd8c)\n");
}

// The parallel suite's run (the default run of parallel_csv, one at a time: each result is dropped once its
// CSV is kept), refused up front where it would not fit in memory.
void require_parallel_memory(const BenchArgs &a, const std::vector<Impl> &catalogue) {
    RunOptions opt;
    opt.cases = uint64_t(a.parallel_cases);
    const RunPlan plan = plan_run(opt, catalogue);
    require_memory(fmt::format("--parallel-cases {}: the parallel suite's run of {} implementation-ops",
                               a.parallel_cases, plan.selected.size()),
                   run_memory_estimate(plan), "--parallel-cases");
}

// A benchmark's figure per call (or per case) and its spread: CPU time, or for a self-timed one (process plugins, the
// sweep point) the time measured around the work itself (manual time).
struct PerCall {
    double ns, cv;
};
PerCall per_call(const Collector::Figures &f, const bench::BenchKey &key) {
    if (key.self_timed) return {f.mean_real_ns / key.calls_per_iteration, f.cv_real};
    return {f.mean_cpu_ns / key.calls_per_iteration, f.cv};
}

// The measured benchmarks as rows of timing.csv (the implementations) and throughput.csv (the harness).
// Returns how many were measured (the others were filtered out).
size_t benchmark_rows(const std::vector<std::pair<std::string, bench::BenchKey>> &keys, const Collector &collector,
                      CsvWriter &timing, CsvWriter &throughput) {
    size_t measured = 0;
    for (const auto &[name, key] : keys) {
        auto it = collector.figures.find(name);
        if (it == collector.figures.end()) continue;  // filtered out
        const auto &f = it->second;
        if (!f.error.empty()) throw InputError(fmt::format("bench: {}: {}", name, f.error));
        measured++;
        if (key.suite == "slerp_cr") continue;  // slerp_cr.json (report_slerp_cr), not a table
        const auto [ns, cv] = per_call(f, key);
        if (key.suite == "impl") {
            timing.row({key.impl, key.op, key.region, key.mode, ns, cv, uint64_t(f.repetitions)});
        } else {
            auto counter = [&](const char *name) {
                auto c = f.counters.find(name);
                return c == f.counters.end() ? Cell() : Cell(c->second);
            };
            throughput.row({key.suite, key.op, key.precision, key.region, ns, cv, uint64_t(f.repetitions),
                            counter("recomputed_fraction"), counter("fallback_fraction")});
        }
    }
    return measured;
}

// The harness suite's comparisons: the peers measured beside it (rows of throughput.csv), the f64 slerp ratios
// to them, and the performance goals of docs/timing.md. Returns numpy's state (measure_peers).
nlohmann::json compare_harness(const std::vector<std::pair<std::string, bench::BenchKey>> &keys, Collector &collector,
                               const bench::BenchOptions &o, const BenchArgs &a, const MachineState &before,
                               const StopToken &stop, CsvWriter &throughput) {
    std::map<std::string, double> f64_all, figures, cvs;
    for (const auto &[name, key] : keys)
        if (auto it = collector.figures.find(name); it != collector.figures.end() && key.suite != "impl") {
            const std::string k = fmt::format("{}/{}/{}/{}", key.suite, key.op, key.precision, key.region);
            const PerCall c = per_call(it->second, key);
            figures[k] = c.ns, cvs[k] = c.cv;
        }
    for (const auto &[name, key] : keys)
        if (collector.figures.count(name) && key.precision == "f64" && key.region == "all" && key.op == "slerp")
            f64_all[key.suite] = collector.figures[name].mean_cpu_ns / key.calls_per_iteration;
    nlohmann::json numpy_state;
    for (const Peer &p : measure_peers(o, a, stop, numpy_state)) {
        throughput.row({p.suite, std::string("slerp"), std::string("f64"), std::string("all"), p.ns, p.cv,
                        p.repetitions, Cell(), Cell()});
        f64_all[p.suite] = p.ns;
        figures[p.suite + "/slerp/f64/all"] = p.ns, cvs[p.suite + "/slerp/f64/all"] = p.cv;
    }
    print_peer_ratios(f64_all);
    print_goals(figures, cvs, numpy_state, before);
    return numpy_state;
}

// machine_state.json: the load average at the start and the end of the run, the thread variables, and numpy's
// state where the harness suite ran (null otherwise).
std::string machine_state_json(const MachineState &start, const MachineState &end, const nlohmann::json &numpy) {
    nlohmann::json j;
    j["hardware_threads"] = std::thread::hardware_concurrency();
    j["load_average_start"] = start.load, j["load_average_end"] = end.load;
    for (const auto &[k, v] : start.env) j["env"][k] = v.empty() ? nlohmann::json() : nlohmann::json(v);
    j["numpy"] = numpy;
    return j.dump(2) + "\n";
}

// --suite slerp-cr: the figures of this run's BM_SlerpCr benchmarks, the counters and the slowest call
// measured after them on the same cases, printed and written to slerp_cr.json.
void slerp_cr_report(const std::vector<std::pair<std::string, bench::BenchKey>> &keys, const Collector &collector,
                     const bench::BenchOptions &o, const MachineState &before, ReportDir &dir) {
    std::map<std::string, double> ns;
    for (const auto &[name, key] : keys)
        if (auto it = collector.figures.find(name); it != collector.figures.end() && key.suite == "slerp_cr")
            ns[name] = it->second.mean_cpu_ns;
    const bench::SlerpCrCases cases = bench::measure_slerp_cr_cases(o);
    dir.write("slerp_cr.json", report_slerp_cr(keys, ns, o, cases, before, machine_state()));
}

int bench_command(const BenchArgs &a) {
    bool impls = a.suites.empty(), harness = a.suites.empty(), parallel = a.suites.empty(), slerp_cr = false;
    for (const auto &s : a.suites)
        (s == "impls" ? impls : s == "harness" ? harness : s == "parallel" ? parallel : slerp_cr) = true;
    const MachineState before = machine_state();
    bench::BenchOptions o;
    o.impl_filters = a.impls;
    o.regions = parse_regions(a.regions);
    o.seed = a.seed, o.min_time_s = a.min_time_s, o.repetitions = a.repetitions;
    const RunContext ctx = command_context();
    std::vector<Impl> catalogue = load_catalogue(a.plugins, ctx);
    if (parallel) require_parallel_memory(a, catalogue);
    ReportDir dir(a.out, ctx.stop);

    std::vector<std::pair<std::string, bench::BenchKey>> keys;
    benchmark::ClearRegisteredBenchmarks();
    if (impls) bench::register_impl_benchmarks(catalogue, o, keys);
    if (harness) bench::register_harness_benchmarks(o, keys);
    if (slerp_cr) bench::register_slerp_cr_benchmarks(catalogue, o, keys);
    Collector collector(ctx.stop);
    if (!keys.empty()) {
        int argc = 1;
        char name[] = "quatcheck";
        char *argv[] = {name, nullptr};
        benchmark::Initialize(&argc, argv);
        benchmark::RunSpecifiedBenchmarks(&collector, a.filter.empty() ? std::string(".") : a.filter);
    }
    CsvWriter timing(tables::timing), throughput(tables::throughput);
    const size_t measured = benchmark_rows(keys, collector, timing, throughput);
    nlohmann::json numpy_state;
    if (harness) numpy_state = compare_harness(keys, collector, o, a, before, ctx.stop, throughput);
    if (slerp_cr) slerp_cr_report(keys, collector, o, before, dir);
    if (impls) dir.write("timing.csv", timing.text());
    if (harness) dir.write("throughput.csv", throughput.text());
    if (parallel) dir.write("parallel.csv", parallel_csv(catalogue, a.seed, uint64_t(a.parallel_cases)));
    if (!keys.empty()) dir.write("bench.json", collector.json());
    nlohmann::json info;
    info["build"] = build_info();
    info["min_time_s"] = a.min_time_s, info["repetitions"] = a.repetitions, info["seed"] = a.seed;
    info["batch"] = bench::kBatch, info["parallel_cases_per_region"] = a.parallel_cases;
    info["hardware_threads"] = std::thread::hardware_concurrency();
    dir.write("bench_build.json", info.dump(2) + "\n");
    const MachineState after = machine_state();
    dir.write("machine_state.json", machine_state_json(before, after, numpy_state));
    if (harness)
        std::printf("machine: load average %.2f %.2f %.2f at the start of this run, %.2f %.2f %.2f at its end\n",
                    before.load[0], before.load[1], before.load[2], after.load[0], after.load[1], after.load[2]);
    dir.commit();
    std::fprintf(stderr, "quatcheck bench: %zu benchmarks%s, report in %s\n", measured,
                 parallel ? " and the parallel speed-up" : "", a.out.c_str());
    return 0;
}

void setup(CLI::App *sub, int &status) {
    auto a = std::make_shared<BenchArgs>();
    sub->add_option("--impl", a->impls,
                    "Implementation name, family or glob to time (repeatable; default: all but broken-*)");
    add_region_option(sub, a->regions, "Regions to time (repeatable; default: all)");
    sub->add_option("--suite", a->suites,
                    "impls, harness, parallel or slerp-cr (repeatable; default: the first three; slerp-cr: the "
                    "correctly rounded slerp beside seed-c and qc-slerp, docs/slerp-cr.md)")
        ->check(known_name(
            [](const std::string &v) { return v == "impls" || v == "harness" || v == "parallel" || v == "slerp-cr"; },
            "suite", "impls, harness, parallel or slerp-cr"));
    sub->add_option("--min-time", a->min_time_s, "Seconds per repetition of each benchmark")
        ->check(number_where([](double s) { return s > 0 && s <= 60; }, "seconds in (0, 60]"))
        ->capture_default_str();
    sub->add_option("--repetitions", a->repetitions, "Repetitions of each benchmark (mean and cv over them)")
        ->check(whole_in(2, 100, "2 to 100 repetitions (cv needs two)"))
        ->capture_default_str();
    sub->add_option("--filter", a->filter,
                    "Only benchmarks whose name matches this regular expression (Google Benchmark's filter)");
    add_count_option(sub, "--parallel-cases", a->parallel_cases, "Cases per region of the runs timed at 1 and 2 jobs");
    add_shared_options(sub, *a, {.seed = "Seed of the prepared cases", .out = kOutHelp});
    sub->callback([a, &status] { status = bench_command(*a); });
}

}  // namespace

QC_COMMAND("bench", "Time every implementation per op, region and mode; measure the harness's throughput and speed-up",
           setup);

}  // namespace qc::cli
