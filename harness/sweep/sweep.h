// Exhaustive slices and branch maps (`quatcheck sweep`, docs/sweep.md).
//
// A slice is one float dimension of a two-key case walked in order, the others pinned:
//   --over dot  q0 = (1, 0, 0, 0), q1 = (d, s, 0, 0) with s = sqrt((1 - d)(1 + d)) rounded to the format, at a
//               fixed t: the format's dot product q0.q1 is exactly d (1 * d plus exact zeros), so d walks
//               through the values an implementation's threshold tests see.
//   --over t    a fixed key pair, t walking through [0, 1].
// The points of a slice, within its window [lo, hi]:
//   exhaustive  every representable value of the format (f32 by default: about 2.1e9 dots, 1.07e9 ts);
//   scan        when the window holds more than --points values (f64 always; f32 under --points): every
//               value of the chosen exact windows (f64 dot: 8192 values around each threshold of
//               kDotWindowCentres) plus --points points, half uniform in the value, half log-spaced in the
//               distance to the window's ends, rounded to the format and deduplicated.
// Every point is one case: the reference (ReferenceEngine, --reference fast by default) once, every selected
// implementation of the slice's precision through eval_batch (plugins contained as in `run`), each measured
// by the MetricEngine. Per slice and implementation-op: max and p99 angle error (p99 from a log histogram of
// 64 bins per octave: the reported p99 is the upper edge of its bin, at most 1.1 % above the exact one),
// max ulp1, the argmax case (worst_cases.csv, replayable with `quatcheck replay`), and an error curve (max
// angle error in 256 equal bins of the swept value).
//
// Branch map. The displacement of an output is delta = s out - R (s = sign(out.R), R the reference, in
// double): the part of the output the reference's own motion does not explain. Between consecutive points
// the jump is 2 |delta_k - delta_(k-1)| (radians of rotation, to first order); a non-finite output on one
// side only is an infinite jump. A pair is a candidate edge when its jump exceeds
// threshold = max(kEdgeFactor * median, kEdgeFloorEps * eps), the median being the median jump of the block
// of kBlock consecutive points around it (the rounding noise of that stretch), and the step is persistent:
// 2 |mean of delta over the kPersist points from k - mean over the kPersist points before k| > threshold / 2
// (a branch moves every output past it; a rounding flip does not). A candidate between points that are not
// adjacent floats is bisected (the half whose ends differ more, in delta, is kept) down to a pair of adjacent
// floats, and kept when that pair's jump still exceeds the threshold and the step across it, measured on the
// kPersist adjacent floats each side, is persistent. At most kMaxBisectedPerRow candidates (the largest jumps)
// are bisected and kMaxEdgesPerRow edges listed per slice and implementation-op.
#pragma once

#include "plugins/impls.h"
#include "reference/reference.h"
#include "regions/regions.h"
#include "base/context.h"
#include "run/plan.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace qc {

enum class SweepOver { dot, t };
const char *to_string(SweepOver o);

inline constexpr uint64_t kBlock = 4096;    // points per work block (and per noise median)
inline constexpr double kEdgeFactor = 4;    // a jump this many times the block median is an edge
inline constexpr double kEdgeFloorEps = 4;  // ... and at least this many eps of the format
inline constexpr size_t kMaxEdgesPerRow = 64;
inline constexpr size_t kMaxBisectedPerRow = 256;  // candidates bisected per row, largest jumps first
inline constexpr uint64_t kPersist = 8;            // points each side of the persistence test
inline constexpr int kCurveBins = 256;
inline constexpr uint64_t kDefaultScanPoints = uint64_t(1) << 22;  // f64 (and bounded f32) scans
inline constexpr int kExactWindowHalf = 4096;  // f64 dot: values each side of every kDotWindowCentres entry
// f64 dot: thresholds engines are known to test (0.9995 and its float rounding: the seeds; 1 - 1e-3, 1 - 1e-4,
// 1 - 1e-5, 1 - 1e-6: common engine choices; 0: the short-arc flip; the ends of [-1, 1]).
inline const std::vector<double> kDotWindowCentres = {
    -1.0, 0.0, 0.999, kSeedThreshold, double(float(kSeedThreshold)), 0.9999, 0.99999, 0.999999, 1.0};

struct SweepOptions {
    SweepOver over = SweepOver::dot;
    std::vector<std::string> impl_filters;       // as `run` (default: all but broken and bench)
    std::vector<Op> ops;                         // default: slerp
    std::vector<double> ts = {0.25, 0.5, 0.75};  // --over dot: the fixed t of each slice (rounded to the format)
    std::vector<double> pair_dots;  // --over t: extra pairs (q0 = e0, q1 = (d, s, 0, 0)); see default_pairs
    double lo = -2, hi = 2;         // window in the swept value, clipped to [-1, 1] (dot) or [0, 1] (t)
    uint64_t points = 0;            // 0: exhaustive in f32, kDefaultScanPoints scan in f64
    Shard shard;                    // slice K of N of every slice's points
    int jobs = 0;
    ReferenceMode reference = kDefaultReferenceMode;
    uint64_t seed = 1;  // the uniform key pairs of --over t
};

// One swept dimension at fixed other inputs, in one precision.
struct SliceSpec {
    Precision precision = Precision::f64;
    std::string label;                                  // "t=0x1p-2" or "pair=dot:0.7"
    double fixed_t = 0;                                 // --over dot
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0, 1, 0, 0};  // --over t: the pair (exact in the format)
    bool exhaustive = false;
    uint64_t points = 0;    // points of this shard
    double lo = 0, hi = 0;  // window (in the format)
};

struct Edge {
    double below = 0, above = 0;  // adjacent floats of the swept value
    double jump_rad = 0, err_below_rad = 0, err_above_rad = 0;
};

struct SweepRow {
    const Impl *impl = nullptr;
    Op op = Op::slerp;
    size_t slice = 0;  // index into SweepResult::slices
    uint64_t cases = 0, nonfinite = 0, candidates = 0;
    double max_angle_err_rad = 0, p99_angle_err_rad = 0, max_ulp1 = 0;
    double argmax_value = 0;  // the swept value of the worst case
    bool have_argmax = false;
    double worst_q0[4] = {}, worst_q1[4] = {}, worst_t = 0, worst_out[4] = {}, worst_ref[4] = {}, worst_ulp = 0,
           worst_ulp1 = 0;
    std::vector<double> curve_max;  // kCurveBins
    std::vector<uint64_t> curve_cases;
    std::vector<Edge> edges;                     // ascending in the swept value
    std::vector<std::pair<int, uint64_t>> hist;  // angle-error histogram: (bin, count), bins ascending, counts > 0
    EvalStatus status = EvalStatus::ok;
    std::string status_detail;
};

struct SweepResult {
    SweepOptions options;
    std::vector<ImplOp> selected;
    std::vector<SliceSpec> slices;
    std::vector<SweepRow> rows;
    ReferenceStats reference_f32, reference_f64;
    int jobs = 1;
    uint64_t cases = 0;  // reference evaluations of the sweep proper (bisection not counted)
    uint64_t bisection_cases = 0;
    double wall_time_s = 0;
    // Measured throughput, per precision (0 f32, 1 f64): points (reference evaluations), implementation
    // evaluations and the process CPU time of the sweep proper (bisection excluded; isolated workers' CPU
    // time not counted), and its wall time.
    uint64_t points[2] = {0, 0}, impl_evals[2] = {0, 0};
    double cpu_s[2] = {0, 0}, sweep_wall_s[2] = {0, 0};
    // CPU seconds per point of an exhaustive t slice (pair a.b = 0.7) of this selection, measured on 2048 points
    // spread over it (f32 only: an f64 t slice has 4.6e18 values).
    double exhaustive_t_cost_s[2] = {0, 0};
};

// Throughput figures derived from a result (printed by the tool and written to sweep.json).
struct SweepThroughput {
    bool measured = false;
    double points_per_s_per_core = 0, impl_evals_per_s_per_core = 0;
    int impl_ops = 0;                  // rows per point in this precision's slices
    uint64_t exhaustive_t_points = 0;  // representable t in [0, 1]
    double seconds_per_t_point = 0;    // CPU s per point of that slice (SweepResult::exhaustive_t_cost_s)
    double slice_wall_s = 0;           // one exhaustive t slice of this selection, on `jobs` cores
};
SweepThroughput sweep_throughput(const SweepResult &r, Precision p);

// The slices a sweep will evaluate (for the estimate printed before it starts). `stop` throws Interrupted
// while the scan points are planned (here, in seconds_per_point and in run_sweep).
std::vector<SliceSpec> plan_slices(const SweepOptions &options, const std::vector<ImplOp> &selected,
                                   const StopToken &stop = {});
uint64_t planned_sweep_cases(const std::vector<SliceSpec> &slices);
// CPU seconds per point of a slice for the given selection, measured on 2048 points spread evenly over it:
// the basis of the estimate printed before a sweep starts.
double seconds_per_point(const SweepOptions &options, const std::vector<ImplOp> &selected, const SliceSpec &slice,
                         const StopToken &stop = {});

// The implementation-ops of a sweep: as `run` selects them (default op: slerp), but a glob never selects the
// bench group (noop, for timing only): name it to sweep it.
std::vector<ImplOp> select_sweep_impls(const std::vector<Impl> &catalogue, const SweepOptions &options);

// ctx.progress advances as points complete; a stop request (ctx.stop) throws Interrupted.
SweepResult run_sweep(const SweepOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx = {});

// The sweep's shortcuts (issue 45; on unless set): a row's median jump is not selected where it cannot raise the
// edge threshold above its floor, and the reference's evaluations of one key pair (its AVX2 batches and MPFR
// validation samples along a t slice) reuse the pair's normalised ends and arc (reference/pair_memo.h). Every
// figure is the same either way; the CLI turns them off with QC_SWEEP_PLAIN=1 (tests/sweep_identity.test.sh
// compares the two).
void set_sweep_shortcuts(bool on);

// The number of representable values of the format in [lo, hi].
uint64_t representable_count(Precision p, double lo, double hi);

// The p99 of a row from its histogram (nearest rank; the upper edge of the bin, capped at the row's maximum).
double sweep_p99(const SweepRow &row);

// Every report also holds sweep_state.json: the options, the slices and each row's mergeable state
// (counts, maxima, histogram, curve, argmax case, edges; doubles as hexfloats). `quatcheck merge` of the
// folders of the N shards of one sweep (sweep --shard K/N) gives the report of the whole sweep: counts,
// maxima, curves and histograms (so the p99) combine exactly; edges are the union of the shards' (the pair
// across a shard boundary belongs to the later shard), the largest kMaxEdgesPerRow kept.
// The report's files, name and content, for the caller to write into its report folder (cmd_sweep, cmd_merge).
std::vector<std::pair<std::string, std::string>> sweep_report_files(const SweepResult &r);
bool is_sweep_folder(const std::string &dir);
// Throws InputError "merge: PATH: reason" for a missing or malformed state, shards of different sweeps, a
// missing or repeated shard (the checks of base/shard.h's ShardSet, as for a run's shards), or an
// implementation that is not loaded.
SweepResult merge_sweep_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue);

}  // namespace qc
