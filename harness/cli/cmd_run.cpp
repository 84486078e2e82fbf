// quatcheck run: sample every region, measure every selected implementation, write the report.
#include "cli/command.h"
#include "report/run_report.h"

#include <fmt/format.h>

namespace qc::cli {
namespace {

struct RunArgs {
    std::vector<std::string> impls, ops, regions, plugins;
    long long cases = 4000;
    unsigned long long seed = 1;
    int jobs = 0, worst_k = 5;
    std::string out = "reports/latest";
};

int run_command(const RunArgs &a) {
    if (a.cases <= 0) throw UsageError(fmt::format("--cases: must be a positive count, got {}", a.cases));
    if (a.jobs < 0) throw UsageError(fmt::format("--jobs: must be 0 (all cores) or positive, got {}", a.jobs));
    if (a.worst_k < 0) throw UsageError(fmt::format("--worst-k: must be >= 0, got {}", a.worst_k));
    RunOptions opt;
    opt.impl_filters = a.impls;
    opt.ops = parse_ops(a.ops);
    for (const auto &r : a.regions) {
        auto g = parse_region(r);
        if (!g) throw UsageError(fmt::format("--region: unknown region '{}' (expected uniform, near-0, near-half-pi, near-pi or threshold)", r));
        opt.regions.push_back(*g);
    }
    opt.cases = uint64_t(a.cases);
    opt.seed = a.seed;
    opt.jobs = a.jobs;
    opt.worst_k = a.worst_k;
    std::vector<Impl> catalogue = load_catalogue(a.plugins);
    ReportDir dir(a.out);  // fails early when the folder is not writable
    RunResult result = run(opt, catalogue);
    if (result.selected.empty()) throw UsageError("run: the selection has no implementation supporting the requested ops");
    write_run_report(result, catalogue, dir);
    dir.commit();
    std::fprintf(stderr, "quatcheck run: %zu rows, %llu cases per region, %.1f s, report in %s\n", result.rows.size(),
                 (unsigned long long)opt.cases, result.wall_time_s, a.out.c_str());
    return 0;
}

void setup(CLI::App *sub, int &status) {
    auto a = std::make_shared<RunArgs>();
    sub->add_option("--impl", a->impls, "Implementation name, family or glob (repeatable; default: all but broken-*)");
    sub->add_option("--op", a->ops, "slerp or nlerp (repeatable; default: both)");
    sub->add_option("--region", a->regions, "uniform, near-0, near-half-pi, near-pi, threshold (repeatable; default: all)");
    sub->add_option("--cases", a->cases, "Cases per region and precision")->capture_default_str();
    sub->add_option("--seed", a->seed, "Random seed; the same seed gives byte-identical CSVs")->capture_default_str();
    sub->add_option("--jobs", a->jobs, "Threads (0 = all cores)")->capture_default_str();
    sub->add_option("--worst-k", a->worst_k, "Worst cases kept per row")->capture_default_str();
    sub->add_option("--out", a->out, "Report folder")->capture_default_str();
    add_plugin_option(sub, a->plugins);
    sub->callback([a, &status] { status = run_command(*a); });
}

}  // namespace

QC_COMMAND("run", "Sample every region against the reference and write summary, worst cases and error curves", setup);

}  // namespace qc::cli
