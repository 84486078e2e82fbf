// Google Benchmark suites of quatcheck (README "Timing and throughput").
//
//   BM_Impl/<impl>/<op>/<region>/<mode>   one call of an implementation, per region of the case generators,
//                                         mode "throughput" (independent calls over a batch of 4,096
//                                         prepared cases) or "latency" (each call's t depends on the
//                                         previous call's output, so calls cannot overlap)
//   BM_Reference/<op>/<precision>[/<region>]  ReferenceEngine for one case, validation at its natural rate
//                                         (1 in 64 sampled plus every ill-conditioned case)
//   BM_MpfrFloor/<op>/<precision>[/<region>]  the same formula as bare MPFR calls on preallocated variables
//                                         at the working precision, no validation
//   BM_Metric/<op>/<precision>            MetricEngine::measure for one implementation output
//   BM_FastReference/<op>/<precision>[/<region>]  ReferenceEngine in --reference fast (double-double with a
//                                         certified bound, MPFR fallback, 1-in-64 validation samples)
//   BM_MetricFast/<op>/<precision>        MetricEngine::measure in the double-double engine
//   BM_Runner/<fast|fast_before|mpfr>     the whole runner (default selection, every region, both
//                                         precisions, one job, worst-case search included) per case of a region and
//                                         precision; fast_before: --reference fast with the reference and the
//                                         metrics on their scalar paths (QC_FORCE_SCALAR=1), the fast path before
//                                         issue 29
//   BM_SweepPoint/t/f32                   one point of an exhaustive f32 t slice of the default sweep selection,
//                                         as the sweep measures it for its estimate (manual time: process CPU)
//   BM_SlerpCr/<impl>/slerp/<region>      (--suite slerp-cr) qc-slerp-cr, seed-c (the textbook slerp) and qc-slerp,
//                                         both precisions, throughput mode, on the same cases, region by region
//                                         (bench/slerp_cr_bench.cpp; docs/slerp-cr.md "Speed")
//   BM_EvalBatch/<impl>/slerp             (qc_bench only) the runner's call path: eval_batch() through the
//                                         implementation's backend on chunks of 32 cases, per case
//
// Without a region suffix the reference benchmarks draw cases from every region in turn, as the default
// run does. Registration functions only register; the caller runs them (quatcheck bench, or the qc_bench
// binary with the usual --benchmark_* flags).
#pragma once

#include "plugins/impls.h"
#include "regions/regions.h"

#include "quatcheck/slerp_cr.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

namespace qc::bench {

inline constexpr size_t kBatch = 4096;  // prepared cases per implementation benchmark

struct BenchOptions {
    std::vector<std::string> impl_filters;  // as `quatcheck run --impl`; empty = every built-in but broken-*
    std::vector<Region> regions;            // empty = every region
    uint64_t seed = 1;
    double min_time_s = 0.05;  // per repetition
    int repetitions = 3;
};

// One registered benchmark, as timing.csv / throughput.csv describe it.
struct BenchKey {
    std::string suite;  // "impl", "slerp_cr", "reference", "fast_reference", "floor", "metric", "metric_fast",
                        // "metric_fast_scalar", "metric_fast_batch", "metric_fast_batch_four_lanes",
                        // "metric_fast_batch_components", "runner_fast", "runner_mpfr"
    std::string impl;   // impl name (suite impl), empty otherwise
    std::string op;     // slerp, nlerp, squad
    std::string precision;
    std::string region;  // a region, or "all" (every region in turn)
    std::string mode;    // latency, throughput (suite impl); "case" otherwise
    double calls_per_iteration = 1;
    bool self_timed = false;  // the figure is the implementation's own time (manual time: real, not CPU)
};

// Registers the benchmarks and returns their keys indexed by registered name.
void register_impl_benchmarks(const std::vector<Impl> &catalogue, const BenchOptions &o,
                              std::vector<std::pair<std::string, BenchKey>> &keys);
void register_harness_benchmarks(const BenchOptions &o, std::vector<std::pair<std::string, BenchKey>> &keys);
// The f64 cases of the harness benchmarks without a region suffix ("all": every region in turn, the same
// 4,096 cases as BM_FastReference/slerp/f64), nine doubles per case: q0 (w x y z), q1, t. The peers of
// `quatcheck bench` (scripts/bench_peers.py) are timed on them.
std::vector<double> peer_cases_f64(const BenchOptions &o);
// BM_SlerpCr: slerp_cr_families() (qc-slerp-cr, then the textbook seed-c, then qc-slerp), .f32 and .f64 of each, per
// region. Throws InputError where the catalogue lacks one of them.
const std::vector<std::string> &slerp_cr_families();
void register_slerp_cr_benchmarks(const std::vector<Impl> &catalogue, const BenchOptions &o,
                                  std::vector<std::pair<std::string, BenchKey>> &keys);
// What the slerp-cr suite reports beside its timings, measured outside Google Benchmark's loops on the same cases
// (kBatch per region, seed o.seed): the correctly rounded slerp's counters per region and precision, and per
// precision its slowest single call (each call timed alone; the slowest few timed again, the least of those
// figures kept, so that one preempted call does not name a fast case).
struct SlerpCrPhases {
    std::string precision, region;
    qc_slerp_cr_stats stats{};  // over the region's kBatch calls
};
struct SlerpCrSlowest {
    std::string precision, region;
    size_t index = 0;                // the case's index in the region's stream (regenerate_case)
    double ns = 0;                   // the least of its timings again
    double first_ns = 0;             // its timing in the pass over every case
    double q0[4]{}, q1[4]{}, t = 0;  // its inputs (f32 inputs converted exactly)
    int status = 0;                  // QC_SLERP_CR_OK, _NAN or _CAPPED
    qc_slerp_cr_stats stats{};       // that one call's counters
};
struct SlerpCrCases {
    std::vector<SlerpCrPhases> phases;
    std::vector<SlerpCrSlowest> slowest;  // f32, f64
};
SlerpCrCases measure_slerp_cr_cases(const BenchOptions &o);
// BM_EvalBatch for noop and seed-c (both precisions): development only, not in `quatcheck bench`'s tables.
void register_eval_benchmarks(const std::vector<Impl> &catalogue, const BenchOptions &o);

}  // namespace qc::bench
