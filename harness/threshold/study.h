// The threshold selection study (`quatcheck threshold`, docs/threshold.md).
//
// For each precision and each family of harness/threshold/families.h, tau runs over a log grid of 1 - tau
// from 1e-1 down to the precision's limit 2^-p (tau = 1 - 2^-p is the largest value below 1), rounded to
// the format and deduplicated, plus tau = 0.9995. At each tau the study draws cases whose arcs are
// concentrated below and around tau (see sample_threshold_case), asks the ReferenceEngine once per case,
// runs every family's routine with that tau and with each branch forced, and measures them with the
// MetricEngine:
//   max / p99 angle error, max ulp1, max norm error  the routine with threshold tau
//   arc_floor_rad     the max angle error of the family's arc branch alone (switch disabled) on the
//                     same cases: the arc's own rounding floor at this tau (non-finite outputs, where the
//                     arc divides by sin 0, are excluded)
//   jump_rad          max over t in {k/64, k = 0..64} of the rotation angle between the routine's
//                     outputs at the two adjacent representable dot products tau_T (arc side) and
//                     next(tau_T) (fallback side), with q0 = e_0, q1 = d e_0 + sqrt(1 - d^2) e_1
//                     (deterministic: no random input)
//   ideal_step_rad    the same difference between the reference outputs of those two inputs (the part
//                     of the jump the inputs themselves cause)
//   ns_arc, ns_fallback  Google Benchmark: ns per call of the routine with the branch forced, on the
//                     first 256 cases of this tau; the fastest of 3 repetitions of at least min_time_s;
//                     every benchmark of the study runs in one Google Benchmark run, on one thread, after
//                     the accuracy pass, the two branches of a family and tau one after the other.
//                     Timings are the only figures that differ between two runs with the same seed.
// Recommended tau*: the largest 1 - tau of the grid such that, there and at every smaller 1 - tau of
// the grid, max_angle_err_rad <= floor_factor * arc_floor_rad; none when tau has no effect at all (the
// routine's outputs with tau = 2 and tau = -1 are identical on every case of every grid point: a routine
// that ignores its tau would otherwise look perfect, its "arc floor" being the routine itself).
//
// User routines (`quatcheck threshold --impl X`): instead of the three families, the study sweeps the
// slerp_tau of the named implementations (qc_impl_v2 plugins, protocol-2 adapters: plugin.h,
// docs/plugin-protocol.md), each in its own precision, on the same grid, cases and metrics, through
// eval_batch_tau (one round trip per batch: all cases of a grid point at one tau). Their ns columns are
// the time a process plugin's adapter measured around its own calls (Google Benchmark's manual time, one
// batch of the point's timing cases per iteration); nan for shared-library plugins, whose workers do not
// time themselves. A routine that crashes, hangs or breaks the protocol ends the study with an InputError
// naming the case and tau (exit 2).
#pragma once

#include "quatcheck/types.h"
#include "reference/reference.h"
#include "regions/regions.h"
#include "base/context.h"
#include "threshold/families.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qc {

class Rng;
struct Impl;

struct ThresholdOptions {
    std::vector<Precision> precisions = {Precision::f32, Precision::f64};
    int points = 64;        // log-grid points per precision before rounding and deduplication (>= 40)
    uint64_t cases = 4000;  // cases per tau and precision
    uint64_t seed = 1;
    int jobs = 0;              // 0 = all cores
    double min_time_s = 0.01;  // Google Benchmark minimum time per benchmark; 0 = no timing (ns = nan)
    double floor_factor = 2;   // tau* tolerance, in units of the arc floor
    ReferenceMode reference = kDefaultReferenceMode;
    // Non-empty: study these implementations' slerp_tau (each supports_slerp_tau()) instead of the families.
    std::vector<const Impl *> impls;
};

struct ThresholdRow {
    Precision precision = Precision::f32;
    ThresholdFamily family = ThresholdFamily::acos_nlerp;
    std::string routine;       // the family column: to_string(family), or the implementation's name
    bool tau_effect = true;    // the outputs with tau = 2 and tau = -1 differ on some case of this point
    double one_minus_tau = 0;  // exact: 1 - tau_T, tau_T the threshold in the format
    double tau = 0;            // tau_T as a double
    uint64_t cases = 0, nonfinite = 0;
    double max_angle_err_rad = 0, p99_angle_err_rad = 0, max_ulp1 = 0, max_norm_err_ulp1 = 0;
    double jump_rad = 0, ideal_step_rad = 0;
    double ns_arc = 0, ns_fallback = 0;
    double arc_floor_rad = 0;
};

struct ThresholdSummaryRow {
    Precision precision = Precision::f32;
    ThresholdFamily family = ThresholdFamily::acos_nlerp;
    std::string routine;
    bool tau_effect = true;             // false: tau changed no output anywhere (no recommendation)
    bool found = false;                 // false: no grid point meets the criterion
    double one_minus_tau = 0, tau = 0;  // tau*
    double max_angle_err_rad = 0;       // at tau*
    double arc_floor_rad = 0;           // at tau*
    double max_angle_err_at_0_9995_rad = 0;
    double arc_floor_at_0_9995_rad = 0;
};

struct ThresholdResult {
    ThresholdOptions options;
    std::vector<ThresholdRow> rows;  // precision, family, then 1 - tau descending
    std::vector<ThresholdSummaryRow> summary;
    ReferenceStats reference_f32, reference_f64;
    int jobs = 1;
    double wall_time_s = 0, timing_wall_time_s = 0;
};

// The distinct values 1 - tau_T of the grid for a precision, descending; includes 1 - T(0.9995).
std::vector<double> threshold_grid(Precision p, int points);

// Case `index` of the grid point with threshold tau_T (exact), drawn from its own stream: 1 - d
// log-uniform in [1 - tau, 16 (1 - tau)] (capped at 1) for 60 % of the cases (arc side), in
// [(1 - tau) / 16, 1 - tau] for 30 % (fallback side), and for 10 % ends whose dot product in the format
// is exactly one of the 9 representable values tau_T - 4 steps .. tau_T + 4 steps (capped at 1).
template <class T> SlerpCase<T> sample_threshold_case(uint64_t seed, T tau, uint64_t index);

// Applies the tau* rule to the rows of one precision and family (1 - tau descending).
ThresholdSummaryRow recommend_threshold(const std::vector<ThresholdRow> &rows, double floor_factor);

// A stop request (ctx.stop) throws Interrupted (between cases, and after the benchmark that was running).
ThresholdResult run_threshold_study(const ThresholdOptions &options, const RunContext &ctx = {});

std::string threshold_csv(const ThresholdResult &r);
std::string threshold_summary_csv(const ThresholdResult &r);
std::string threshold_json(const ThresholdResult &r);

}  // namespace qc
