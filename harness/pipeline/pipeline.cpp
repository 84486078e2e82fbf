#include "pipeline/pipeline.h"
#include "run/shard.h"

#include <algorithm>
#include <chrono>

namespace qc {

RunResult run(const RunOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx,
              const SearchSettings &search) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult result = sample(options, catalogue, ctx);
    if (options.shard.whole() && !result.partial) {
        try {
            search_worst_cases(result, result.jobs, search, ctx.stop);
        } catch (const Interrupted &) {
            result.partial = true;  // a signal during the search: a partial report without its results
        }
    }
    result.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

RunResult merge_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue, int jobs,
                       const RunContext &ctx, const SearchSettings &search) {
    RunResult result = read_shards(dirs, catalogue);
    aggregate(result);
    auto t0 = std::chrono::steady_clock::now();
    search_worst_cases(result, std::max(1, jobs), search, ctx.stop);
    result.wall_time_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result.merged_shards = int(dirs.size());
    return result;
}

}  // namespace qc
