// quatcheck run's plan: the options as given (RunOptions), resolved once into what every stage reads
// (RunPlan): the selection, the regions, this shard's case range, the rows of each precision and the
// threads. Each of these is decided in plan_run() only; the reference mode is the options' (--reference).
// The stages: sample(plan) -> parts (run/runner.h), aggregate(parts) -> rows, search(plan, parts) ->
// search rows (search/search.h); harness/pipeline puts them together.
#pragma once

#include "plugins/impls.h"
#include "plugins/select.h"
#include "reference/reference.h"
#include "regions/regions.h"
#include "base/shard.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qc {

struct RunOptions {
    std::vector<std::string> impl_filters;  // names, families or globs ("seed-*"); empty = default set
    std::vector<Op> ops;                    // empty = every op
    std::vector<Region> regions;            // empty = every region
    uint64_t cases = 4000;                  // cases per region and precision
    // --cases-for GLOB=N: at most N of those cases for the implementations GLOB matches (filter_matches: name,
    // family or glob; the smallest N of the matching ones). The capped rows measure the first N cases of each
    // region, the same cases a run at --cases N measures, so their figures are that run's.
    std::vector<std::pair<std::string, uint64_t>> cases_for;
    uint64_t seed = 1;
    int jobs = 0;  // 0 = all cores
    int worst_k = 5;
    Shard shard;                                      // the part of the cases to run (default: all)
    ReferenceMode reference = kDefaultReferenceMode;  // --reference: fast path (MPFR fallback) or MPFR only
    bool paranoid = false;  // --paranoid: the fast path's validation at 1 in 64 whatever the count (the nightly)
};

struct RunPlan {
    RunOptions options;
    std::vector<ImplOp> selected;
    std::vector<Region> regions;     // the regions run: --region, or every region
    uint64_t first = 0, last = 0;    // this shard's case range [first, last) of every region and precision
    std::vector<uint64_t> case_end;  // per selected impl-op: the end of its cases (options.cases, or its cap)
    int jobs = 1;                    // threads (--jobs 0: every core)
    int fast_check_log2 = 6;         // the fast path's validation: 1 case in 2^this (fast_check_rate_log2)

    // The rows of a part of precision p: the indices into `selected` of that precision's implementation-ops,
    // in selection order (empty: the precision is not run).
    const std::vector<size_t> &rows(Precision p) const { return rows_[p == Precision::f32 ? 0 : 1]; }
    // Cases the run evaluates: regions x precisions with a selected implementation x the case range.
    uint64_t planned_cases() const;

    std::vector<size_t> rows_[2];  // (set by plan_run)
};

// The plan of a selection made (merge: the shards' selection).
RunPlan plan_run(const RunOptions &options, std::vector<ImplOp> selected);
// The plan of the options' selection in the catalogue (select_impls).
RunPlan plan_run(const RunOptions &options, const std::vector<Impl> &catalogue);

}  // namespace qc
