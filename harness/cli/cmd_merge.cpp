// quatcheck merge: combine the reports of the shards of one run (quatcheck run --shard K/N) into the report
// of the whole run: the same summary.csv, worst_cases.csv and error_curve.csv, byte for byte, as the
// unsharded run with the same seed. Every shard is needed; each must have been run with the same options.
// The worst-case search (harness/search) needs every case's error of a row, so shards skip it and merge
// runs it on the merged data, exactly as the unsharded run does: that part of the work is not spread.
// The shards of a sweep (sweep_state.json) and of a history scan (history_shard.json, cli/history.h) are merged
// here too.
#include "cli/command.h"
#include "cli/history.h"
#include "pipeline/pipeline.h"
#include "report/run_report.h"
#include "base/parallel.h"
#include "base/shard.h"
#include "sweep/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace qc::cli {
namespace {

struct MergeArgs : SharedArgs {
    std::vector<std::string> dirs;
    SearchSettings search;
};

int merge_command(const MergeArgs &a) {
    const RunContext ctx = command_context();
    std::vector<Impl> catalogue = load_catalogue(a.plugins, ctx);
    ReportDir dir(a.out, ctx.stop);
    if (!a.dirs.empty() && is_history_folder(a.dirs.front())) {  // the shards of quatcheck history --shard K/N
        const std::string text = merge_history_shards(a.dirs, dir);
        dir.commit();
        std::printf("%s", text.c_str());
        std::printf("quatcheck merge: %zu history shards: history.csv, transitions.csv and history.html in %s\n",
                    a.dirs.size(), a.out.c_str());
        return 0;
    }
    if (!a.dirs.empty() && is_sweep_folder(a.dirs.front())) {  // the shards of quatcheck sweep --shard K/N
        SweepResult r = merge_sweep_shards(a.dirs, catalogue);
        for (const auto &[name, content] : sweep_report_files(r)) dir.write(name, content);
        dir.commit();
        std::fprintf(stderr, "quatcheck merge: %zu sweep shards, %zu rows, report in %s\n", a.dirs.size(),
                     r.rows.size(), a.out.c_str());
        return 0;
    }
    // Each shard.bin is read whole and then parsed into parts of about its size (the file is freed after):
    // the parts of every shard, plus the largest file, plus the aggregation's copy of one row's errors.
    double total = 0, largest = 0;
    for (const std::string &d : a.dirs) {
        std::error_code ec;
        const std::filesystem::path p = std::filesystem::path(d) / "shard.bin";
        if (!std::filesystem::is_regular_file(p, ec)) continue;  // read_shards names what is wrong with it
        const double size = double(std::filesystem::file_size(p, ec));
        if (!ec) total += size, largest = std::max(largest, size);
    }
    require_memory(fmt::format("merge: {} shards of {:.0f} bytes in all", a.dirs.size(), total), 2 * total + largest,
                   "the shards' --cases");
    const int jobs = resolve_jobs(a.jobs);
    RunOutput result = merge_shards(a.dirs, catalogue, jobs, ctx, a.search);
    write_run_report(result, dir);
    dir.discard("shard.bin");  // the merged report is unsharded: a shard's shard.bin must not survive in --out
    dir.commit();
    std::fprintf(stderr, "quatcheck merge: %zu shards, %zu rows, %llu cases per region, report in %s\n", a.dirs.size(),
                 result.rows.size(), (unsigned long long)result.plan.options.cases, a.out.c_str());
    return 0;
}

void setup(CLI::App *sub, int &status) {
    auto a = std::make_shared<MergeArgs>();
    sub->add_option("dirs", a->dirs,
                    "Report folders of every shard (each holds shard.bin, sweep_state.json for sweep --shard, or "
                    "history_shard.json for history --shard)")
        ->required();
    add_shared_options(
        sub, *a,
        {.jobs = "Threads for the worst-case search (0 = all cores)", .out = "Report folder of the merged run"});
    add_search_max_block_option(sub, a->search.max_block);
    add_search_mode_option(sub, a->search.generations);
    sub->callback([a, &status] { status = merge_command(*a); });
}

}  // namespace

QC_COMMAND("merge", "Merge the reports of the shards of one run (run --shard K/N) into the report of the whole run",
           setup);

}  // namespace qc::cli
