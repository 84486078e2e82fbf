// The runner, the sample and aggregate stages of quatcheck run (the plan: run/plan.h): for every precision
// and region, generate cases, compute each case's reference once, run every selected implementation of that
// precision on it, measure (sample: the parts), and aggregate per implementation x op x region (the rows). Work is split over threads by case index; results are stored by case
// index and aggregated serially, so the output does not depend on the number of threads.
#pragma once

#include "metrics/metrics.h"
#include "plugins/contain.h"  // case_text
#include "plugins/impls.h"
#include "reference/reference.h"
#include "regions/regions.h"
#include "base/context.h"
#include "run/plan.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace qc {

// A case found among the worst of a row, kept as its generator coordinates so it can be regenerated.
// "No case": a maximum that no case attained (every case scored 0, or none was evaluated).
constexpr uint64_t kNoCase = ~uint64_t(0);

struct WorstRef {
    uint64_t index = 0;
    double angle_err_rad = 0;  // +inf for a non-finite output, which ranks first
};

// A row: one implementation x op x region of a precision, one line of summary.csv. Its figures are
// aggregated from RowParts, the same row over disjoint case ranges (below).
struct Row {
    const Impl *impl = nullptr;
    Op op = Op::slerp;
    Region region = Region::uniform;
    uint64_t cases = 0, nonfinite = 0, branch_disagree = 0, ties = 0;
    double max_angle_err_rad = 0, p99_angle_err_rad = 0, max_ulp = 0, max_ulp1 = 0, max_norm_err_ulp1 = 0;
    double max_angle_err_vs_nlerp_rad = 0;  // nlerp only: against the exact normalised lerp
    std::vector<WorstRef> worst;            // worst K by angle, worst first
    // The case (index) that attains max_ulp, max_ulp1 and max_norm_err_ulp1: the first in case order, or kNoCase.
    // worst_cases.csv carries it, so every figure of summary.csv has its case (issue 38).
    uint64_t argmax_ulp = kNoCase, argmax_ulp1 = kNoCase, argmax_norm = kNoCase, argmax_angle = kNoCase;
    // Containment: ok, or how the implementation failed on case `failed_index` (the row then covers the
    // cases before it), with a hexfloat reproducer of that case. A failure after the sampling (the search,
    // the worst cases' re-evaluation) ends the row the same way: failed_index = cases, and the detail says
    // where it happened.
    EvalStatus status = EvalStatus::ok;
    uint64_t failed_index = 0;
    std::string status_detail, failed_case;
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

// A row part: what one case range of one region contributes to a row, before percentiles and worst-K are
// taken: the per-case angle errors (+inf for a non-finite output) and arcs, plus the figures that merge
// by sum or max. Parts of disjoint ranges merge exactly, so sharded runs merge into the unsharded
// report (shard.bin, harness/base/shard.h, stores these).
struct RowPart {
    std::vector<double> angle_err_rad;  // per case of the range; +inf = non-finite output
    // The region's ties on this row's cases: the range's (RegionPart::ties), or under a --cases-for cap those
    // below it. Not in shard.bin: a shard has no caps, so read_parts gives every row its part's ties.
    uint64_t ties = 0;
    uint64_t branch_disagree = 0;
    double max_ulp = 0, max_ulp1 = 0, max_norm_err_ulp1 = 0, max_angle_err_vs_nlerp_rad = 0;
    uint64_t argmax_ulp = kNoCase, argmax_ulp1 = kNoCase, argmax_norm = kNoCase;  // case indices, as Row's
    std::vector<double> bin_max_ulp1;  // per curve bin (curve_bins()), finite outputs
    // Containment (harness/isolate/eval.h): when the implementation crashed, hung or wrote out of bounds
    // on case `failed_index`, angle_err_rad covers only the cases of the range before it.
    EvalStatus status = EvalStatus::ok;
    uint64_t failed_index = 0;
    std::string status_detail;  // e.g. "killed by SIGSEGV"
    std::string failed_case;    // reproducer: "q0=(w;x;y;z) q1=(w;x;y;z) t=T" in hexfloats
};
// A region part: one case range of a region and precision, with the RowPart of every row there.
struct RegionPart {
    Precision precision = Precision::f64;
    Region region = Region::uniform;
    uint64_t begin = 0, end = 0;  // case indices
    uint64_t ties = 0;
    std::vector<double> arc_w;  // the reference's W per case
    std::vector<RowPart> rows;  // one per selected impl-op of this precision, in selection order
};

// What sample() and aggregate() make of a plan (and what merge reads back from the shards): the parts, then
// the rows and curves computed from them. The worst-case search's rows are the next layer's
// (search/search.h); harness/pipeline returns both.
struct RunResult {
    RunPlan plan;
    std::vector<Row> rows;
    std::vector<CurveResult> curves;
    ReferenceStats reference_f32, reference_f64;
    int jobs = 1;
    double wall_time_s = 0;
    std::vector<RegionPart> parts;  // the unaggregated data the rows and curves were computed from
    // SIGINT/SIGTERM stopped the run: the parts cover the regions done so far, the last one cut short.
    bool partial = false;
};

// The bin edges of error_curve.csv.
std::vector<CurveBin> curve_bins();

// The sampling stage of quatcheck run: every region and precision of the plan against the reference, each
// region's cases measured into a part (result.parts; rows and curves are aggregate()'s). ctx.progress
// advances as cases complete; a stop request (ctx.stop) ends the run after the chunks in flight, as a
// partial result (RunResult::partial).
RunResult sample(const RunPlan &plan, const RunContext &ctx = {});

// Computes result.rows and result.curves from result.parts (the parts of every region and precision of
// the plan, in any order, covering disjoint case ranges): after sample(), or on the parts of every shard
// (merge).
void aggregate(RunResult &result);

// Regenerates case `index` of a region, as the runner drew it.
template <class T> SlerpCase<T> regenerate_case(uint64_t seed, Region region, uint64_t index) {
    Rng rng = case_rng(seed, Format<T>::precision, region, index);
    return sample_case<T>(region, rng);
}

}  // namespace qc
