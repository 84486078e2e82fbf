// The runner: for every precision and region, generate cases, compute each case's reference once, run
// every selected implementation of that precision on it, measure, and aggregate per
// implementation x op x region. Work is split over threads by case index; results are stored by case
// index and aggregated serially, so the output does not depend on the number of threads.
#pragma once

#include "metrics/metrics.h"
#include "plugins/impls.h"
#include "reference/reference.h"
#include "regions/regions.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qc {

struct RunOptions {
    std::vector<std::string> impl_filters;  // names, families or globs ("seed-*"); empty = default set
    std::vector<Op> ops;                    // empty = every op
    std::vector<Region> regions;            // empty = every region
    uint64_t cases = 4000;                  // cases per region and precision
    uint64_t seed = 1;
    int jobs = 0;                           // 0 = all cores
    int worst_k = 5;
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

struct RunResult {
    RunOptions options;
    std::vector<ImplOp> selected;
    std::vector<RowResult> rows;
    std::vector<CurveResult> curves;
    ReferenceStats reference_f32, reference_f64;
    int jobs = 1;
    double wall_time_s = 0;
};

// Selects implementation x op pairs: filters match a name ("seed-c.f32"), a family ("seed-c") or a glob
// ("seed-*", "*.f64"). Without filters every implementation except the broken-* group is selected.
// Throws UsageError when a filter matches nothing.
std::vector<ImplOp> select_impls(const std::vector<Impl> &catalogue, const std::vector<std::string> &filters,
                                 const std::vector<Op> &ops);

// The bin edges of error_curve.csv.
std::vector<CurveBin> curve_bins();

RunResult run(const RunOptions &options, const std::vector<Impl> &catalogue);

// Regenerates case `index` of a region, as the runner drew it.
template <class T> SlerpCase<T> regenerate_case(uint64_t seed, Region region, uint64_t index) {
    Rng rng = case_rng(seed, Format<T>::precision, region, index);
    return sample_case<T>(region, rng);
}

bool glob_match(const std::string &pattern, const std::string &text);

}  // namespace qc
