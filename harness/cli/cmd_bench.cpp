// quatcheck bench: time every implementation (Google Benchmark, in process) and measure the harness's own
// throughput and parallel speed-up. Writes into --out, atomically:
//   timing.csv      impl,op,region,mode,ns_per_call,cv,repetitions          (BM_Impl/...)
//   throughput.csv  benchmark,op,precision,region,ns_per_case,cv,repetitions,recomputed_fraction,fallback_fraction
//                   (BM_Reference, BM_MpfrFloor, BM_Metric)
//   parallel.csv    jobs,cases_per_region,cases,wall_s,cpu_s,speedup,identical   (`quatcheck run` in process)
//   bench.json      the raw Google Benchmark JSON of the benchmarks run
//   bench_build.json  CPU model, compiler, flags, library versions (as run.json's "build"), the options
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

// The peers' rows; a peer the script skipped (its module missing) is named on stderr with the reason.
std::vector<Peer> measure_peers(const bench::BenchOptions &o, const BenchArgs &a, const StopToken &stop) {
    std::string why;
    const std::string text = run_peer_script(bench::peer_cases_f64(o), a, why, stop);
    std::vector<Peer> peers;
    if (text.empty()) {
        std::fprintf(stderr, "quatcheck bench: SKIP peers (numpy, mpmath): %s\n", why.c_str());
        return peers;
    }
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object()) throw InputError("bench: peers: bench_peers.py did not print a JSON object");
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
        std::printf("  %-44s %10.1f  %7.2fx the certified reference (AVX2 batch / scalar = %.2f)\n",
                    "certified reference, scalar path (forced)", scalar, scalar / fast, fast / scalar);
    if (mpfr > 0)
        std::printf("  %-44s %10.1f  %7.2fx the certified reference\n", "MPFR reference (--reference mpfr)", mpfr,
                    mpfr / fast);
    if (floor > 0) std::printf("  %-44s %10.1f  %7.2fx\n", "raw MPFR floor (no validation)", floor, floor / fast);
    if (numpy > 0)
        std::printf("  %-44s %10.1f  certified / numpy = %.2fx\n", "numpy f64 slerp, vectorised (UNCERTIFIED)", numpy,
                    fast / numpy);
    if (mpmath > 0)
        std::printf("  %-44s %10.1f  %7.1fx\n", "mpmath slerp, 40 digits (200 cases)", mpmath, mpmath / fast);
}

// The performance goals (docs/timing.md "Goals"), each figure from this run's benchmarks: figures maps
// "suite/op/precision/region" to ns per case (or per point). A figure whose benchmarks did not run (--filter) is
// left out. Printed on stdout.
void print_goals(const std::map<std::string, double> &figures) {
    const auto get = [&](const std::string &k) {
        auto it = figures.find(k);
        return it == figures.end() ? 0.0 : it->second;
    };
    struct Goal {
        std::string figure, measured, goal;
        bool met;
    };
    std::vector<Goal> goals;
    if (double fast = get("fast_reference/slerp/f64/all"), numpy = get("numpy_f64_uncertified/slerp/f64/all");
        fast > 0 && numpy > 0)
        goals.push_back({"certified reference / numpy uncertified slerp, ns per case",
                         fmt::format("{:.0f} / {:.0f} = {:.2f}x", fast, numpy, fast / numpy), "<= 1.0x",
                         fast <= numpy});
    // The metric as the runner and the sweep pay it: a case's outputs in one batch (BM_MetricFastBatch) where that
    // benchmark ran, else one call each (BM_MetricFast); the slowest op and precision.
    double metric = 0;
    for (const char *op : {"slerp", "nlerp"})
        for (const char *prec : {"f32", "f64"}) {
            const double batch = get(fmt::format("metric_fast_batch/{}/{}/all", op, prec));
            metric = std::max(metric, batch > 0 ? batch : get(fmt::format("metric_fast/{}/{}/all", op, prec)));
        }
    if (metric > 0)
        goals.push_back({"certified metric, ns per output as the runner measures it (slowest op and precision)",
                         fmt::format("{:.0f}", metric), "<= 30", metric <= 30});
    if (double now = get("runner_fast/slerp+nlerp/both/all"), before = get("runner_fast_before/slerp+nlerp/both/all");
        now > 0 && before > 0)
        goals.push_back({"whole runner (default selection, search included) vs the same on the scalar path",
                         fmt::format("{:.1f} / {:.1f} us = {:.2f}x", before / 1e3, now / 1e3, before / now), ">= 3x",
                         before >= 3 * now});
    if (double point = get("sweep_t_point/slerp/f32/all"); point > 0) {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const double minutes = point * 1e-9 * double(representable_count(Precision::f32, 0.0, 1.0)) / cores / 60;
        goals.push_back({fmt::format("exhaustive f32 t slice, default selection, {} cores", cores),
                         fmt::format("{:.1f} min", minutes), "<= 45 min", minutes <= 45});
    }
    if (goals.empty()) return;
    std::printf("performance goals (docs/timing.md \"Goals\"), measured in this run\n");
    for (const Goal &g : goals)
        std::printf("  %-84s %-26s goal %-9s %s\n", g.figure.c_str(), g.measured.c_str(), g.goal.c_str(),
                    g.met ? "met" : "NOT MET");
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
        // Process plugins: the time the adapter measured around its own library calls (manual time).
        const double ns = (key.self_timed ? f.mean_real_ns : f.mean_cpu_ns) / key.calls_per_iteration;
        if (key.suite == "impl") {
            timing.row({key.impl, key.op, key.region, key.mode, ns, key.self_timed ? f.cv_real : f.cv,
                        uint64_t(f.repetitions)});
        } else {
            auto counter = [&](const char *name) {
                auto c = f.counters.find(name);
                return c == f.counters.end() ? Cell() : Cell(c->second);
            };
            throughput.row({key.suite, key.op, key.precision, key.region, ns, f.cv, uint64_t(f.repetitions),
                            counter("recomputed_fraction"), counter("fallback_fraction")});
        }
    }
    return measured;
}

// The harness suite's comparisons: the peers measured beside it (rows of throughput.csv), the f64 slerp ratios
// to them, and the performance goals of docs/timing.md.
void compare_harness(const std::vector<std::pair<std::string, bench::BenchKey>> &keys, Collector &collector,
                     const bench::BenchOptions &o, const BenchArgs &a, const StopToken &stop, CsvWriter &throughput) {
    std::map<std::string, double> f64_all, figures;
    for (const auto &[name, key] : keys)
        if (auto it = collector.figures.find(name); it != collector.figures.end() && key.suite != "impl")
            figures[fmt::format("{}/{}/{}/{}", key.suite, key.op, key.precision, key.region)] =
                (key.self_timed ? it->second.mean_real_ns : it->second.mean_cpu_ns) / key.calls_per_iteration;
    for (const auto &[name, key] : keys)
        if (collector.figures.count(name) && key.precision == "f64" && key.region == "all" && key.op == "slerp")
            f64_all[key.suite] = collector.figures[name].mean_cpu_ns / key.calls_per_iteration;
    for (const Peer &p : measure_peers(o, a, stop)) {
        throughput.row({p.suite, std::string("slerp"), std::string("f64"), std::string("all"), p.ns, p.cv,
                        p.repetitions, Cell(), Cell()});
        f64_all[p.suite] = p.ns;
        figures[p.suite + "/slerp/f64/all"] = p.ns;
    }
    print_peer_ratios(f64_all);
    print_goals(figures);
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
    if (harness) compare_harness(keys, collector, o, a, ctx.stop, throughput);
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
