#include "pipeline/pipeline.h"
#include "run/shard_file.h"

#include <algorithm>
#include <chrono>

namespace qc {

RunOutput run(const RunPlan &plan, const RunContext &ctx, const SearchSettings &search) {
    auto t0 = std::chrono::steady_clock::now();
    RunOutput out;
    static_cast<RunResult &>(out) = sample(plan, ctx);
    aggregate(out);
    if (plan.options.shard.whole() && !out.partial) {
        try {
            out.search = search_worst_cases(out, out.jobs, search, ctx.stop);
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
    out.search = search_worst_cases(out, std::max(1, jobs), search, ctx.stop);
    out.wall_time_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.merged_shards = int(dirs.size());
    return out;
}

}  // namespace qc
