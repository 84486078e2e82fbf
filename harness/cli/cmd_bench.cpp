// quatcheck bench: time every implementation (Google Benchmark, in process) and measure the harness's own
// throughput and parallel speed-up. Writes into --out, atomically:
//   timing.csv      impl,op,region,mode,ns_per_call,cv,repetitions          (BM_Impl/...)
//   throughput.csv  benchmark,op,precision,region,ns_per_case,cv,repetitions,recomputed_fraction,fallback_fraction
//                   (BM_Reference, BM_MpfrFloor, BM_Metric)
//   parallel.csv    jobs,cases_per_region,cases,wall_s,cpu_s,speedup,identical   (`quatcheck run` in process)
//   bench.json      the raw Google Benchmark JSON of the benchmarks run
//   bench_build.json  CPU model, compiler, flags, library versions (as run.json's "build"), the options
// ns figures are CPU time per call (or per case), the mean over the repetitions; cv = stddev / mean.
#include "bench/suites.h"
#include "cli/command.h"
#include "pipeline/pipeline.h"
#include "report/run_report.h"
#include "run/build_info.h"
#include "tables/schemas.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <sstream>
#include <thread>

namespace qc::cli {
namespace {

struct BenchArgs {
    std::vector<std::string> impls, regions, suites, plugins;
    double min_time_s = 0.05;
    int repetitions = 3;
    unsigned long long seed = 1;
    long long parallel_cases = 20000;
    std::string filter, out = "reports/latest";
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
    struct Best { double wall = 1e300, cpu = 0; std::string csv; uint64_t cases = 0; };
    std::map<int, Best> best;
    for (int round = 0; round < 2; round++)
        for (int jobs : {1, 2}) {
            RunOptions opt;
            opt.cases = cases, opt.seed = seed, opt.jobs = jobs;
            double c0 = cpu_seconds();
            RunResult r = run(opt, catalogue);
            double cpu = cpu_seconds() - c0;
            Best &b = best[jobs];
            if (r.wall_time_s < b.wall) b.wall = r.wall_time_s, b.cpu = cpu;
            b.csv = summary_csv(summary_rows(r)) + error_curve_csv(r);
            b.cases = planned_cases(opt, r.selected);
        }
    for (int jobs : {1, 2})
        w.row({uint64_t(jobs), cases, best[jobs].cases, best[jobs].wall, best[jobs].cpu, best[1].wall / best[jobs].wall,
               std::string(best[jobs].csv == best[1].csv ? "yes" : "no")});
    return w.text();
}

int bench_command(const BenchArgs &a) {
    if (!(a.min_time_s > 0 && a.min_time_s <= 60))
        throw UsageError(fmt::format("--min-time: must be in (0, 60] seconds, got {}", a.min_time_s));
    if (a.repetitions < 2 || a.repetitions > 100)
        throw UsageError(fmt::format("--repetitions: must be in [2, 100] (cv needs two), got {}", a.repetitions));
    if (a.parallel_cases <= 0) throw UsageError(fmt::format("--parallel-cases: must be positive, got {}", a.parallel_cases));
    bool impls = a.suites.empty(), harness = a.suites.empty(), parallel = a.suites.empty();
    for (const auto &s : a.suites) {
        if (s == "impls") impls = true;
        else if (s == "harness") harness = true;
        else if (s == "parallel") parallel = true;
        else throw UsageError(fmt::format("--suite: unknown suite '{}' (expected impls, harness or parallel)", s));
    }
    bench::BenchOptions o;
    o.impl_filters = a.impls;
    for (const auto &r : a.regions) {
        auto g = parse_region(r);
        if (!g) throw UsageError(fmt::format("--region: unknown region '{}' (expected uniform, near-0, near-half-pi, near-pi or threshold)", r));
        o.regions.push_back(*g);
    }
    refuse_repeated(o.regions, "--region", [](Region g) { return std::string(to_string(g)); });
    o.seed = a.seed, o.min_time_s = a.min_time_s, o.repetitions = a.repetitions;
    const RunContext ctx = command_context();
    std::vector<Impl> catalogue = load_catalogue(a.plugins, ctx);
    if (parallel) {
        RunOptions opt;  // the default run of parallel_csv
        opt.cases = uint64_t(a.parallel_cases);
        const std::vector<ImplOp> selected = select_impls(catalogue, opt.impl_filters, opt.ops);
        // One run at a time: each result is dropped once its CSV is kept.
        require_memory(fmt::format("--parallel-cases {}: the parallel suite's run of {} implementation-ops", a.parallel_cases,
                                   selected.size()),
                       run_memory_estimate(opt, selected), "--parallel-cases");
    }
    ReportDir dir(a.out, ctx.stop);

    std::vector<std::pair<std::string, bench::BenchKey>> keys;
    benchmark::ClearRegisteredBenchmarks();
    if (impls) bench::register_impl_benchmarks(catalogue, o, keys);
    if (harness) bench::register_harness_benchmarks(o, keys);
    Collector collector(ctx.stop);
    if (!keys.empty()) {
        int argc = 1;
        char name[] = "quatcheck";
        char *argv[] = {name, nullptr};
        benchmark::Initialize(&argc, argv);
        benchmark::RunSpecifiedBenchmarks(&collector, a.filter.empty() ? std::string(".") : a.filter);
    }
    CsvWriter timing(tables::timing), throughput(tables::throughput);
    size_t measured = 0;
    for (const auto &[name, key] : keys) {
        auto it = collector.figures.find(name);
        if (it == collector.figures.end()) continue;  // filtered out
        const auto &f = it->second;
        if (!f.error.empty()) throw InputError(fmt::format("bench: {}: {}", name, f.error));
        measured++;
        // Process plugins: the time the adapter measured around its own library calls (manual time).
        const double ns = (key.self_timed ? f.mean_real_ns : f.mean_cpu_ns) / key.calls_per_iteration;
        if (key.suite == "impl") {
            timing.row({key.impl, key.op, key.region, key.mode, ns, key.self_timed ? f.cv_real : f.cv, uint64_t(f.repetitions)});
        } else {
            auto counter = [&](const char *name) {
                auto c = f.counters.find(name);
                return c == f.counters.end() ? Cell() : Cell(c->second);
            };
            throughput.row({key.suite, key.op, key.precision, key.region, ns, f.cv, uint64_t(f.repetitions),
                            counter("recomputed_fraction"), counter("fallback_fraction")});
        }
    }
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
    std::fprintf(stderr, "quatcheck bench: %zu benchmarks%s, report in %s\n", measured, parallel ? " and the parallel speed-up" : "",
                 a.out.c_str());
    return 0;
}

void setup(CLI::App *sub, int &status) {
    auto a = std::make_shared<BenchArgs>();
    sub->add_option("--impl", a->impls, "Implementation name, family or glob to time (repeatable; default: all but broken-*)");
    sub->add_option("--region", a->regions, "Regions to time (repeatable; default: all)");
    sub->add_option("--suite", a->suites, "impls, harness or parallel (repeatable; default: all three)");
    sub->add_option("--min-time", a->min_time_s, "Seconds per repetition of each benchmark")->capture_default_str();
    sub->add_option("--repetitions", a->repetitions, "Repetitions of each benchmark (mean and cv over them)")->capture_default_str();
    sub->add_option("--filter", a->filter, "Only benchmarks whose name matches this regular expression (Google Benchmark's filter)");
    sub->add_option("--parallel-cases", a->parallel_cases, "Cases per region of the runs timed at 1 and 2 jobs")->capture_default_str();
    sub->add_option("--seed", a->seed, "Seed of the prepared cases")->capture_default_str();
    sub->add_option("--out", a->out, "Report folder")->capture_default_str();
    add_plugin_option(sub, a->plugins);
    sub->callback([a, &status] { status = bench_command(*a); });
}

}  // namespace

QC_COMMAND("bench", "Time every implementation per op, region and mode; measure the harness's throughput and speed-up", setup);

}  // namespace qc::cli
