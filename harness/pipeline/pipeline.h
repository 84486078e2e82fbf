// The run path's stages put together: quatcheck run is plan -> sample -> aggregate (harness/run/runner.h)
// -> search (harness/search/search.h); quatcheck merge is read_shards (harness/run/shard.h) -> aggregate ->
// search. The report (harness/report) reads what these return. This folder sits above both halves (layer
// studies), so that run/ never includes search/ and the search never holds run() or the shard merge.
#pragma once

#include "plugins/impls.h"
#include "isolate/context.h"
#include "run/runner.h"
#include "search/search.h"

#include <string>
#include <vector>

namespace qc {

// quatcheck run: sample(), then, for a whole (unsharded) and uninterrupted run, the search (a stop request
// during it makes the result partial, without the search's results).
RunResult run(const RunOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx = {},
              const SearchSettings &search = {});

// quatcheck merge: read_shards, aggregate, then the search over `jobs` threads (it needs every case's error of
// a row, so shards skip it and it runs here, as in the unsharded run).
RunResult merge_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue, int jobs,
                       const RunContext &ctx = {}, const SearchSettings &search = {});

}  // namespace qc
