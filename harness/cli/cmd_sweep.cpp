// quatcheck sweep: exhaustive slices along the dot product or t, and the branch map (harness/sweep/sweep.h,
// docs/sweep.md). Prints its plan and a time estimate first, a progress line while it runs, and the measured
// throughput at the end.
#include "cli/command.h"
#include "cli/validators.h"
#include "isolate/eval.h"
#include "report/report_dir.h"
#include "base/parallel.h"
#include "base/progress.h"
#include "sweep/sweep.h"
#include "tables/table.h"

#include <fmt/format.h>

#include <climits>
#include <cmath>
#include <memory>

namespace qc::cli {
namespace {

struct SweepArgs : SharedArgs {
    SweepArgs() { out = "reports/sweep"; }
    std::string over = "dot";
    std::vector<std::string> impls, ops;
    std::vector<double> ts, pair_dots;
    std::string window;
    long long points = 0;
    std::string shard;
    bool isolate = false, estimate_only = false;
    int ci_shards = 16;
};

std::string duration(double s) {
    if (s < 120) return fmt::format("{:.1f} s", s);
    if (s < 7200) return fmt::format("{:.1f} min", s / 60);
    if (s < 172800) return fmt::format("{:.1f} h", s / 3600);
    return fmt::format("{:.1f} days", s / 86400);
}

// The sweep's options from the command line, with the combinations that make no sense refused as usage errors.
SweepOptions sweep_options(const SweepArgs &a) {
    SweepOptions opt;
    opt.over = a.over == "t" ? SweepOver::t : SweepOver::dot;
    opt.impl_filters = a.impls;
    opt.ops = parse_ops(a.ops);
    for (Op op : opt.ops)
        if (op == Op::squad) throw UsageError("--op: sweep measures slerp or nlerp, not squad");
    if (!a.ts.empty()) {
        if (opt.over != SweepOver::dot) throw UsageError("--t: only with --over dot (the fixed t of each slice)");
        refuse_repeated(a.ts, "--t", [](double t) { return fmt::format("{}", t); });
        opt.ts = a.ts;
    }
    if (!a.pair_dots.empty()) {
        if (opt.over != SweepOver::t) throw UsageError("--pair-dot: only with --over t (the key pairs)");
        opt.pair_dots = a.pair_dots;
    }
    if (!a.window.empty()) {  // checked by window_spec
        const size_t colon = a.window.find(':');
        opt.lo = *strict_number(std::string_view(a.window).substr(0, colon));
        opt.hi = *strict_number(std::string_view(a.window).substr(colon + 1));
    }
    opt.points = uint64_t(a.points);
    // A scan is held in memory (8 bytes a point and the sort), refused up front where even that does not fit
    // (the list, its float copy and the sort).
    if (a.points > 0)
        require_memory(fmt::format("--points {}: the sweep's scan", a.points), 16.0 * double(a.points) + (256 << 20),
                       "--points");
    if (!a.shard.empty()) opt.shard = parse_shard(a.shard);
    opt.jobs = a.jobs;
    opt.seed = a.seed;
    opt.reference = reference_mode(a.reference);
    return opt;
}

// The plan and its estimate on stderr, before anything runs: each precision's cost per point measured on 2048
// points of its first slice.
void print_sweep_plan(const SweepOptions &opt, const std::vector<ImplOp> &sel, const std::vector<SliceSpec> &slices,
                      int jobs, const StopToken &stop) {
    double est_cpu = 0;
    double per_point[2] = {-1, -1};
    for (const SliceSpec &s : slices) {
        double &pp = per_point[s.precision == Precision::f32 ? 0 : 1];
        if (pp < 0) pp = seconds_per_point(opt, sel, s, stop);
        est_cpu += pp * double(s.points);
    }
    std::fprintf(stderr, "quatcheck sweep --over %s: %zu slices, %zu impl-ops\n", to_string(opt.over), slices.size(),
                 sel.size());
    for (const SliceSpec &s : slices)
        std::fprintf(stderr, "  %s %s: %s, %llu points in [%s, %s]\n", to_string(s.precision), s.label.c_str(),
                     s.exhaustive ? "exhaustive" : "scan", (unsigned long long)s.points, hexfloat(s.lo).c_str(),
                     hexfloat(s.hi).c_str());
    std::fprintf(stderr, "quatcheck sweep: estimate %llu points, %s on %d threads\n",
                 (unsigned long long)planned_sweep_cases(slices), duration(est_cpu / jobs).c_str(), jobs);
}

// The closing lines on stderr: what was measured, and the throughput per precision with what an exhaustive f32
// t slice of this selection would cost.
void print_sweep_summary(const SweepResult &r, const SweepArgs &a) {
    size_t edges = 0;
    for (const SweepRow &row : r.rows) edges += row.edges.size();
    std::fprintf(stderr,
                 "quatcheck sweep: %llu points, %zu rows, %zu edges (%llu bisection cases), %.1f s, report in %s\n",
                 (unsigned long long)r.cases, r.rows.size(), edges, (unsigned long long)r.bisection_cases,
                 r.wall_time_s, a.out.c_str());
    for (Precision p : {Precision::f32, Precision::f64}) {
        SweepThroughput t = sweep_throughput(r, p);
        if (!t.measured) continue;
        std::fprintf(stderr,
                     "quatcheck sweep: throughput %s: %.3g points/s/core (%.3g implementation evaluations/s/core, %d "
                     "impl-ops)\n",
                     to_string(p), t.points_per_s_per_core, t.impl_evals_per_s_per_core, t.impl_ops);
        if (p == Precision::f32)
            std::fprintf(
                stderr,
                "quatcheck sweep: an exhaustive f32 t slice (%llu values, %.3g CPU us per point measured on 2048 "
                "of them) of this selection: %s on %d cores, %s on a CI matrix of %d shards of %d cores\n",
                (unsigned long long)t.exhaustive_t_points, t.seconds_per_t_point * 1e6,
                duration(t.slice_wall_s).c_str(), r.jobs, duration(t.slice_wall_s / a.ci_shards).c_str(), a.ci_shards,
                r.jobs);
    }
}

int sweep_command(const SweepArgs &a) {
    SweepOptions opt = sweep_options(a);
    std::atomic<uint64_t> done{0};
    const RunContext ctx = command_context(a.timeout_s, &done);

    std::vector<Impl> catalogue = load_catalogue(a.plugins, ctx);
    if (a.isolate) isolate_builtins(catalogue, ctx);
    std::vector<ImplOp> sel = select_sweep_impls(catalogue, opt);
    if (sel.empty()) throw UsageError("sweep: the selection has no implementation supporting the requested ops");
    std::vector<SliceSpec> slices = plan_slices(opt, sel, ctx.stop);
    const int jobs = resolve_jobs(opt.jobs);
    print_sweep_plan(opt, sel, slices, jobs, ctx.stop);
    if (a.estimate_only) return 0;

    ReportDir dir(a.out, ctx.stop);  // fails early when the folder is not writable
    ProgressLine progress("quatcheck sweep", planned_sweep_cases(slices), done);
    SweepResult r = run_sweep(opt, catalogue, ctx);
    progress.stop();
    for (const auto &[name, content] : sweep_report_files(r)) dir.write(name, content);
    dir.commit();
    print_sweep_summary(r, a);
    return 0;
}

void setup(CLI::App *sub, int &status) {
    auto a = std::make_shared<SweepArgs>();
    sub->add_option("--over", a->over, "The swept dimension: dot (the ends' dot product) or t")
        ->check(known_name([](const std::string &v) { return v == "dot" || v == "t"; }, "dimension", "dot or t"))
        ->capture_default_str();
    sub->add_option(
        "--impl", a->impls,
        "Implementation name, family or glob (repeatable; default: all but broken-*; a glob never selects noop)");
    add_op_option(sub, a->ops, "slerp or nlerp (repeatable; default: slerp)");
    sub->add_option("--t", a->ts, "--over dot: the fixed t of a slice (repeatable; default 0.25 0.5 0.75)")
        ->check(number_where([](double t) { return t >= 0 && t <= 1; }, "a t in [0, 1]"));
    sub->add_option("--pair-dot", a->pair_dots,
                    "--over t: a key pair q0 = (1,0,0,0), q1 = (d, sqrt(1-d^2), 0, 0) (repeatable; default: the region "
                    "centres and two uniform pairs)")
        ->check(number_where([](double d) { return d >= -1 && d <= 1; }, "a dot product in [-1, 1]"));
    sub->add_option("--window", a->window,
                    "Sweep only [LO, HI] of the swept value (default: [-1, 1] for dot, [0, 1] for t)")
        ->type_name("LO:HI")
        ->check(window_spec());
    // A scan is held in memory (8 bytes a point and the sort): 2^27 points is about 2 GB at its peak.
    sub->add_option("--points", a->points,
                    "Points per slice when the window holds more values than this (a scan); 0 = every value in f32, a "
                    "4194304-point scan in f64")
        ->check(whole_where([](long long n) { return n == 0 || (n >= 16 && n <= (1ll << 27)); },
                            "0 (exhaustive in f32) or a count in [16, 2^27]"))
        ->capture_default_str();
    sub->add_option("--shard", a->shard, "Sweep only part K of N of every slice's points")
        ->type_name("K/N")
        ->check(shard_spec());
    sub->add_option("--ci-shards", a->ci_shards, "Shard count of the CI matrix the printed extrapolation assumes")
        ->check(whole_in(1, INT_MAX, "a positive count"))
        ->capture_default_str();
    add_shared_options(sub, *a,
                       {"Seed of the uniform key pairs (--over t) and of the reference's validation sample", kJobsHelp,
                        kOutHelp, "Seconds an isolated implementation may take per batch of cases", true, true});
    sub->add_flag("--estimate", a->estimate_only, "Print the plan and the time estimate, then stop");
    sub->add_flag("--isolate", a->isolate,
                  "Evaluate built-in implementations in worker processes too (plugins always are)");
    sub->callback([a, &status] { status = sweep_command(*a); });
}

}  // namespace

QC_COMMAND("sweep", "Exhaustive slices along the dot product or t: per-slice maxima, error curves and the branch map",
           setup);

}  // namespace qc::cli
