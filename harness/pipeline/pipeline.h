// The run path's stages put together: quatcheck run is plan_run (harness/run/plan.h) -> sample -> aggregate
// (harness/run/runner.h) -> search (harness/search/search.h); quatcheck merge is read_shards
// (harness/run/shard_file.h) -> aggregate -> search. The report (harness/report) reads what these return:
// the rows and the search rows. This folder sits above both halves (layer studies), so that run/ never
// includes search/ and the search never holds run() or the shard merge.
#pragma once

#include "plugins/impls.h"
#include "base/context.h"
#include "run/runner.h"
#include "search/search.h"

#include <string>
#include <vector>

namespace qc {

// What quatcheck run and merge return, and the report reads: the aggregated run (its plan, parts, rows and
// curves) and the search rows, one per row (none when the search did not run: a shard, an interrupted run).
struct RunOutput : RunResult {
    std::vector<SearchRow> search;
    int merged_shards = 0;  // quatcheck merge: the number of shards this result combines
    // How the search ran (run.json "search"): its settings, its wall time and the process's CPU time during it
    // (0 when it did not run).
    SearchSettings search_settings;
    double search_wall_s = 0, search_cpu_s = 0;

    // The search row of rows[k] (an empty one, maximum NaN, when the search did not run).
    const SearchRow &search_of(size_t k) const {
        static const SearchRow none;
        return k < search.size() ? search[k] : none;
    }
};

// quatcheck run: sample() and aggregate(), then, for a whole (unsharded) and uninterrupted run, the search (a
// stop request during it makes the result partial, without the search's results).
RunOutput run(const RunPlan &plan, const RunContext &ctx = {}, const SearchSettings &search = {});
// The same with the plan of the options' selection in the catalogue (plan_run).
RunOutput run(const RunOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx = {},
              const SearchSettings &search = {});

// quatcheck merge: read_shards, aggregate, then the search over `jobs` threads (it needs every case's error of
// a row, so shards skip it and it runs here, as in the unsharded run).
RunOutput merge_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue, int jobs,
                       const RunContext &ctx = {}, const SearchSettings &search = {});

}  // namespace qc
