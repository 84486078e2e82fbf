// The runner: for every precision and region, generate cases, compute each case's reference once, run
// every selected implementation of that precision on it, measure, and aggregate per
// implementation x op x region. Work is split over threads by case index; results are stored by case
// index and aggregated serially, so the output does not depend on the number of threads.
#pragma once

#include "metrics/metrics.h"
#include "plugins/impls.h"
#include "plugins/select.h"
#include "reference/reference.h"
#include "regions/regions.h"
#include "isolate/context.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace qc {

struct FoundCase {
    double q0[4] = {0, 0, 0, 0}, q1[4] = {0, 0, 0, 0}, t = 0;  // exact in the implementation's format
    double angle_err_rad = 0;                                  // +inf for a non-finite output
};

// --shard K/N: slice K (1-based) of N runs cases [(K-1) n / N, K n / N) of every region and precision.
struct Shard {
    int index = 1, count = 1;
    bool whole() const { return count == 1; }
};
// Parses "K/N" with 1 <= K <= N; throws UsageError naming --shard otherwise.
Shard parse_shard(const std::string &text);
// The case range [begin, end) of a shard among n cases.
std::pair<uint64_t, uint64_t> shard_range(const Shard &s, uint64_t n);

struct RunOptions {
    std::vector<std::string> impl_filters;  // names, families or globs ("seed-*"); empty = default set
    std::vector<Op> ops;                    // empty = every op
    std::vector<Region> regions;            // empty = every region
    uint64_t cases = 4000;                  // cases per region and precision
    uint64_t seed = 1;
    int jobs = 0;  // 0 = all cores
    int worst_k = 5;
    Shard shard;                                      // the slice of the cases to run (default: all)
    ReferenceMode reference = kDefaultReferenceMode;  // --reference: fast path (MPFR fallback) or MPFR only

    // What the stages derive from these, each decided here only: the regions run (the default: every one)
    // and this shard's case range [first, last) of every region and precision.
    std::vector<Region> run_regions() const { return regions.empty() ? all_regions() : regions; }
    std::pair<uint64_t, uint64_t> case_range() const { return shard_range(shard, cases); }
};

// A selected (implementation, op) pair.
struct ImplOp {
    const Impl *impl;
    Op op;
};

// A case found among the worst of a row, kept as its generator coordinates so it can be regenerated.
struct WorstRef {
    uint64_t index = 0;
    double angle_err_rad = 0;  // +inf for a non-finite output, which ranks first
};

struct RowResult {
    const Impl *impl = nullptr;
    Op op = Op::slerp;
    Region region = Region::uniform;
    uint64_t cases = 0, nonfinite = 0, branch_disagree = 0, ties = 0;
    double max_angle_err_rad = 0, p99_angle_err_rad = 0, max_ulp = 0, max_ulp1 = 0, max_norm_err_ulp1 = 0;
    double max_angle_err_vs_nlerp_rad = 0;  // nlerp only: against the exact normalised lerp
    std::vector<WorstRef> worst;            // worst K, worst first
    // Containment: ok, or how the implementation failed on case `failed_index` (the row then covers the
    // cases before it), with a hexfloat reproducer of that case. A failure after the sampling (the search,
    // the worst cases' re-evaluation) ends the row the same way: failed_index = cases, and the detail says
    // where it happened.
    EvalStatus status = EvalStatus::ok;
    uint64_t failed_index = 0;
    std::string status_detail, failed_case;
    // Worst-case search (harness/search) with as many reference evaluations as sampling: its maximum (NaN
    // when the search did not run: a shard, an interrupted run, a failed implementation) and worst cases.
    double max_angle_err_search_rad = std::numeric_limits<double>::quiet_NaN();
    std::vector<FoundCase> search_worst;
};

struct CurveBin {
    double w_lo = 0, w_hi = 0;
    std::string kind;  // "log" (log-spaced W bins) or "threshold" (fine bins around acos(0.9995))
    uint64_t cases = 0, nonfinite = 0;
    double max_angle_err_rad = 0, p50_angle_err_rad = 0, max_ulp1 = 0;
};

struct CurveResult {
    const Impl *impl = nullptr;
    Op op = Op::slerp;
    std::vector<CurveBin> bins;
};

// What one case range of one region contributes to the report, before percentiles and worst-K are
// taken: the per-case angle errors (+inf for a non-finite output) and arcs, plus the figures that merge
// by sum or max. Slices of disjoint ranges merge exactly, so sharded runs merge into the unsharded
// report (shard.bin, harness/run/shard.h, stores these).
struct RowSlice {
    std::vector<double> angle_err_rad;  // per case of the range; +inf = non-finite output
    uint64_t branch_disagree = 0;
    double max_ulp = 0, max_ulp1 = 0, max_norm_err_ulp1 = 0, max_angle_err_vs_nlerp_rad = 0;
    std::vector<double> bin_max_ulp1;  // per curve bin (curve_bins()), finite outputs
    // Containment (harness/isolate/eval.h): when the implementation crashed, hung or wrote out of bounds
    // on case `failed_index`, angle_err_rad covers only the cases of the range before it.
    EvalStatus status = EvalStatus::ok;
    uint64_t failed_index = 0;
    std::string status_detail;  // e.g. "killed by SIGSEGV"
    std::string failed_case;    // reproducer: "q0=(w;x;y;z) q1=(w;x;y;z) t=T" in hexfloats
};
struct RegionSlice {
    Precision precision = Precision::f64;
    Region region = Region::uniform;
    uint64_t begin = 0, end = 0;  // case indices
    uint64_t ties = 0;
    std::vector<double> arc_w;   // the reference's W per case
    std::vector<RowSlice> rows;  // one per selected impl-op of this precision, in selection order
};

struct RunResult {
    RunOptions options;
    std::vector<ImplOp> selected;
    std::vector<RowResult> rows;
    std::vector<CurveResult> curves;
    ReferenceStats reference_f32, reference_f64;
    int jobs = 1;
    double wall_time_s = 0;
    std::vector<RegionSlice> slices;  // the unaggregated data the rows and curves were computed from
    int merged_shards = 0;            // quatcheck merge: the number of shards this result combines
    // SIGINT/SIGTERM stopped the run: the slices cover the regions done so far, the last one cut short.
    bool partial = false;
};

// The (implementation, op) pairs of the selection rule (plugins/select.h) and the ops (default slerp and
// nlerp), each implementation with the ops it supports. Throws UsageError when a filter matches nothing.
std::vector<ImplOp> select_impls(const std::vector<Impl> &catalogue, const std::vector<std::string> &filters,
                                 const std::vector<Op> &ops);

// The bin edges of error_curve.csv.
std::vector<CurveBin> curve_bins();

// The sampling half of quatcheck run: every region and precision of the selection against the reference,
// measured and aggregated into rows and curves. The worst-case search is the next layer's (search/search.h;
// harness/pipeline: run() is sample() and the search). ctx.progress advances as cases complete; a stop request (ctx.stop)
// ends the run after the chunks in flight, as a partial result (RunResult::partial).
RunResult sample(const RunOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx = {});

// Computes result.rows and result.curves from result.slices (the slices of every region and precision of
// the selection, in any order, covering disjoint case ranges). run() ends with it; merge calls it on the
// slices of every shard.
void aggregate(RunResult &result);

// Cases the run will evaluate: regions x precisions with a selected implementation x the shard's range.
uint64_t planned_cases(const RunOptions &options, const std::vector<ImplOp> &selected);

// A case as summary.csv's failed_case column writes it: "q0=(w;x;y;z) q1=(w;x;y;z) t=T" in hexfloats.
template <class T> std::string case_text(const SlerpCase<T> &c);

// Regenerates case `index` of a region, as the runner drew it.
template <class T> SlerpCase<T> regenerate_case(uint64_t seed, Region region, uint64_t index) {
    Rng rng = case_rng(seed, Format<T>::precision, region, index);
    return sample_case<T>(region, rng);
}

}  // namespace qc
