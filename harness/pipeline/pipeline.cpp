#include "pipeline/pipeline.h"
#include "run/shard_file.h"

#include <algorithm>
#include <chrono>
#include <ctime>

namespace qc {

namespace {
// The process's CPU time so far, every thread's (the search's cost where the machine is shared).
double process_cpu_s() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
}  // namespace

RunOutput run(const RunPlan &plan, const RunContext &ctx, const SearchSettings &search) {
    auto t0 = std::chrono::steady_clock::now();
    RunOutput out;
    static_cast<RunResult &>(out) = sample(plan, ctx);
    aggregate(out);
    if (plan.options.shard.whole() && !out.partial) {
        out.search_settings = search;
        try {
            const auto s0 = std::chrono::steady_clock::now();
            const double c0 = process_cpu_s();
            out.search = search_worst_cases(out, out.jobs, search, ctx.stop);
            out.search_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
            out.search_cpu_s = process_cpu_s() - c0;
        } catch (const Interrupted &) {
            out.partial = true;  // a signal during the search: a partial report without its results
        }
    }
    out.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

RunOutput run(const RunOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx,
              const SearchSettings &search) {
    return run(plan_run(options, catalogue), ctx, search);
}

RunOutput merge_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue, int jobs,
                       const RunContext &ctx, const SearchSettings &search) {
    RunOutput out;
    static_cast<RunResult &>(out) = read_shards(dirs, catalogue);
    aggregate(out);
    auto t0 = std::chrono::steady_clock::now();
    out.search_settings = search;
    const double c0 = process_cpu_s();
    out.search = search_worst_cases(out, std::max(1, jobs), search, ctx.stop);
    out.search_cpu_s = process_cpu_s() - c0;
    out.search_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.wall_time_s += out.search_wall_s;
    out.merged_shards = int(dirs.size());
    return out;
}

}  // namespace qc
