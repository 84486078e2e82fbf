// Per-case error metrics (docs/metrics.md). Pure functions of an implementation's output and the
// reference. r = output, R = reference, eps = 2^(1-p).
//
//   angle_err_rad  3-D rotation angle between r/|r| and R:  4 atan2(|r^ - sR|, |r^ + sR|), s = sign(r^.R)
//   ulp            max_i |r_i - sR_i| in units in the last place of sR_i in the output's format
//                  (binade of the exact value, subnormal floor, split at a power of two when the
//                  error interval crosses one, rounded up)
//   ulp1           max_i |r_i - sR_i| / eps  (units of the spacing at 1)
//   norm_err_ulp1  | |r| - 1 | / eps
//   nonfinite      any component NaN or inf; such a case has no other metric
//   branch_disagree  the case is in the tie band (|a.b| <= 4 eps) and r is nearer the other arc's
//                  reference, against which it is then measured
//   angle_err_vs_nlerp_rad  (nlerp op only) angle error against the exact normalised lerp
//
// Two engines compute the same definitions (ReferenceMode):
//   mpfr  the reference's MPFR values (R_mp, ...), arithmetic at 2p + 96 bits, the final square roots and
//         atan2 in double (metrics.cpp).
//   fast  the reference's double-double values (R, ...), double-double arithmetic and error-free
//         transformations, the final square roots, atan2 and divisions in double (metrics_dd.cpp). No MPFR,
//         no allocation. Its distance from the mpfr engine is bounded below (FastMetricBounds). Two kernels give
//         the same CaseMetrics bit for bit (MetricKernel): scalar (metrics_dd.cpp) and AVX2 (metrics_dd_avx2.cpp).
#pragma once

#include "quatcheck/types.h"
#include "reference/dd.h"
#include "reference/reference.h"

#include <cmath>
#include <limits>

namespace qc {

struct CaseMetrics {
    double angle_err_rad = 0;
    double ulp = 0;
    double ulp1 = 0;
    double norm_err_ulp1 = 0;
    double angle_err_vs_nlerp_rad = std::numeric_limits<double>::quiet_NaN();
    bool nonfinite = false;
    bool branch_disagree = false;
};

// ---- error bounds of the fast engine against the mpfr engine (docs/metrics.md "Metric error bounds (fast mode)") ----
//
// For every metric m: |m_fast - m_mpfr| <= max(rel * |m_mpfr|, abs), both engines measuring the same output
// against the same reference, whose double-double values are the MPFR values rounded by round_to_dd.
// Derivation. u = 2^-53. Inputs: the output r is exact. The reference components differ by
// |R_i - R_mp,i| <= 2^-105 |R_i| + 2^-1075 (round_to_dd; the second term only where the low word is
// subnormal, |R_i| < 2^-969). Double-double operations, relative to the operation's exact result (JMP 2017 =
// Joldes, Muller, Popescu, ACM TOMS 44(2); LM 2022 = Lefevre, Muller et al., ACM TOMS 2022): TwoSum and
// TwoProd (FMA) exact; DW+DW (JMP Alg. 6) <= 3u^2 + 13u^3; DW+FP (Alg. 4) <= 2u^2; DW*DW (Alg. 12) <= 5u^2;
// sqrt(DW) (LM 2022) <= 25/8 u^2. Two cheaper blocks, proved in metrics_dd.cpp: add_abs (JMP Alg. 5 ending in
// TwoSum), absolute error <= 3u^2 (|x| + |y|); sum_squares of four DW, relative <= 25u^2 (12u^2 without low
// words). Final operations in double: RN, sqrt correctly rounded (<= u), atan2 taken as <= 1 ulp (<= 2u; glibc
// does not promise correct rounding; with 2 ulps the angle total below is 14u < 0.88 * 2^-49, still inside).
// The mpfr engine works at 2p + 96 >= 144 bits: its own error before the final double operations is below
// 2^-135 everywhere below, and is absorbed in the margins. Underflow inside the fast engine (products of
// components below 2^-511) adds at most a few 2^-1074 absolute, far below every absolute term.
//
// |r|: r is scaled by a power of two (exact) so that max |r_i| is in [1, 2); n = |r| by sum_squares (12u^2)
//   and sqrt (25/8 u^2): relative <= 6u^2 + 3.125u^2 = 9.125u^2 < 2^-102.8.
//
// angle_err_rad, angle_err_vs_nlerp_rad. Instead of normalising r, the fast engine scales R by n: the angle
//   4 atan2(|r - s n R|, |r + s n R|) is the same (both chords scale by n). n R_i by DW*DW: off the exact
//   |r| R_mp,i by <= n (9.125u^2 + 5u^2 + 2^-105 (1 + u)) |R_i|; the chords' components by add_abs, <= 3u^2 (|r_i|
//   + n |R_i|). As vectors (|R| = 1 within 2^-(p+16)), each chord is off by E <= 22.2u^2 n, i.e. 22.2u^2 on the
//   unit sphere. The squared chords by sum_squares (25u^2 relative): each chord length within relative 12.5u^2
//   and absolute E. s is the sign of the smaller squared chord (|r - nR|^2 - |r + nR|^2 = -4n r.R), wrong only
//   where 4|r^.R| <= 2 (2 * 2 * 22.2u^2 + 25u^2 * 4) = 377.6u^2 (on the unit sphere; chords <= 2). Then in
//   double: RN and sqrt, <= 1.5u relative on each chord; atan2(y, x) has d(atan2)/d(ln y) = -d(atan2)/d(ln x)
//   = sin(2a)/2 <= a, so relative errors of the chords add up relative to the angle, and |d(atan2)/dy| <=
//   1/sqrt(x^2 + y^2) = 1/(2n), so absolute ones count 1/(2n); atan2 itself <= 2u. Fast engine: relative
//   5u + 25u^2, absolute 4 * 2E/(2n) = 88.8u^2 plus, for a wrong sign (the angle is pi -/+ 2|r^.R|, off by
//   4|r^.R|), 377.6u^2: 466.4u^2 < 2^-97.1. Mpfr engine: relative 5u + O(u^2).
//   Together: relative 10u (1 + 5u) < 0.63 * 2^-49, absolute < 2^-97.1.
//   -> rel 2^-49, abs 2^-96.
// ulp. Both engines compute N(x) - N(y), N the index of docs/metrics.md (ulp_distance). The fast one forms it
//   from the binade offsets (exact: Sterbenz, TwoSum, scaling by powers of two) and the whole binades between
//   (an exact double), added by one DW+FP and one DW+DW: relative <= 7.1u^2, plus absolute u^2 2^p ulps where
//   exactly one power of two is crossed. The reference's rounding moves N by <= 2^-105 |R_i| / (ulp(R_i) / 2)
//   < 2^(p-104) ulps, plus 2^-1075 / ulp(R_i) where the low word is subnormal (only f64 references with
//   |R_i| < 2^-969; up to 1/2 ulp for a subnormal R_i: that term is not in the constants, see
//   fast_ulp_reference_slack()). The mpfr engine forms N at 192 bits (< 2^(p-180) absolute). Both round up
//   to double: two roundings up differ by at most 2u times the larger value plus the difference before
//   rounding. Together: relative 2u + 7.1u^2, absolute 2^(p-104) + 2^(p-106) + 2^(p-180) < 2^(p-103.6).
//   -> rel 2^-51, abs 2^(p-102) ulps: f32 2^-78, f64 2^-49.
// ulp1. |R_i - r_i| by DW+FP (2u^2), then RN to double (u), each engine; the reference's rounding moves it by
//   <= 2^-105 |R_i| + 2^-1075 <= 2^-104.9; divided by eps = 2^(1-p) (exact). Together: relative 2u + 2u^2,
//   absolute 2^-104.9 / eps = 2^(p-105.9).
//   -> rel 2^-51, abs 2^(p-105) ulp1: f32 2^-81, f64 2^-52.
// norm_err_ulp1. |r| relative < 2^-102.8 (above); |r| - 1 by DW+FP (2u^2); RN (u). Mpfr: RN (u). Together:
//   relative 2u + 2u^2, absolute 2^-102.8 |r| / eps = 2^(p-103.8) |r|. For |r| >= 2, 2^(p-103.8)|r| <=
//   2^-101.8 |m| (m >= (|r| - 1)/eps >= |r| 2^(p-2)), inside the relative margin; for |r| < 2 it is
//   < 2^(p-102.8).
//   -> rel 2^-51, abs 2^(p-102) ulp1: f32 2^-78, f64 2^-49.
// nonfinite: exact in both engines (the same test on the same doubles): always equal.
// branch_disagree: both engines take the other arc where its angle is smaller (strict). They can differ only
//   where the two angles are within the angle bound of each other; ulp, ulp1 and the nlerp angle are then
//   measured against different arcs. Likewise, where |r^.sR| <= sign_band (the output is a half-turn from the
//   reference), the engines may pick opposite s; the angle is pi within the angle bound either way, but ulp and
//   ulp1 are measured against R in one engine and -R in the other. Both are ties of the definition, not errors.
struct FastMetricBounds {
    double angle_rel, angle_abs;  // angle_err_rad and angle_err_vs_nlerp_rad, radians
    double ulp_rel, ulp_abs;      // ulp, in ulps of the output's format
    double ulp1_rel, ulp1_abs;    // ulp1, in units of eps
    double norm_rel, norm_abs;    // norm_err_ulp1, in units of eps
    double sign_band;             // |r^.R| at or below which s may differ between the engines
};
inline constexpr FastMetricBounds kFastMetricBoundsF32{0x1p-49, 0x1p-96, 0x1p-51, 0x1p-78, 0x1p-51,
                                                       0x1p-81, 0x1p-51, 0x1p-78, 0x1p-98};
inline constexpr FastMetricBounds kFastMetricBoundsF64{0x1p-49, 0x1p-96, 0x1p-51, 0x1p-49, 0x1p-51,
                                                       0x1p-52, 0x1p-51, 0x1p-49, 0x1p-98};
inline const FastMetricBounds &fast_metric_bounds(Precision p) {
    return p == Precision::f32 ? kFastMetricBoundsF32 : kFastMetricBoundsF64;
}
// Whether a fast metric value is within (rel, abs) of the mpfr one: |fast - mpfr| <= max(rel |mpfr|, abs).
// NaN matches NaN and an infinity the same infinity.
bool within_fast_bound(double fast, double mpfr, double rel, double abs);
// The ulp bound's extra term for a reference whose double-double low word is subnormal: the largest
// 2^-1075 / ulp(R_i) over the components of the target with |R_i.hi| < 2^-969, zero included (round_to_dd
// maps 0 < |x| <= 2^-1075 to 0: the threshold region at t a few ulps above 0 has components ~6e-325).
// Nonnegligible only for f64 (up to 1/2 ulp); 0 for every reference without such a component.
double fast_ulp_reference_slack(const DDQuat &target, int p, int emin);

// Distance in ulps between the exact value x and the representable value y of a format with p
// significand bits and minimum normal exponent emin, rounded up. Zero and subnormals use the subnormal
// spacing 2^(emin-p+1); a distance that crosses a power of two is split at it.
double ulp_distance(const Real &x, double y, int p, int emin);
// The same for x given as a normalised double-double (|x.lo| <= ulp(x.hi) / 2), in double-double
// arithmetic: relative error <= 7.1u^2 (u = 2^-53) plus absolute u^2 2^p before the rounding up.
double ulp_distance(dd::DD x, double y, int p, int emin);

// atan2(y, x) for 0 <= y <= x, x > 0, as the fast engine's angles take it (metrics_dd_internal.h, atan2_chords):
// relative error <= 2u + u^2 + 2^-80 where y/x < 2^-20, <= 1.16u from there to 1 (a series and a reduction, without
// libm), libm's atan2 above 1. For the search's screen, which adds its own slack.
double atan2_chords_fast(double y, double x);

// Test hook: a deliberately damaged fast engine, for the negative controls of tests/metrics_dd_test.cpp.
enum class MetricDamage {
    none,
    drop_reference_low_word,      // the fast engine reads R, N (and the other arc's) with their low words dropped
    avx2_ulp_rounded_to_nearest,  // the AVX2 kernel's ulp fast path rounds to nearest instead of up
    avx2_norm_low_word_dropped,   // the AVX2 kernel's angles scale the reference by |r| without its low word
    avx2_batch_lane,              // the four- or eight-output kernel's lane 1 (the second output of each group in
                                  // measure_batch): its angles scale the reference by |r| without its low word
    avx512_batch_lane,            // the same in lane 5 of the eight-output kernel (a lane the AVX2 kernels lack)
    lanes_ulp_split_swapped,      // the four- and eight-output kernels' ulp distance across a power of two takes
                                  // the low binade's offset as the high one's; N(a) + N(b) one binade short
    lanes_atan_low_word_dropped,  // the four- and eight-output kernels' atan of a chord ratio in [2^-20, 1] (the
                                  // four-output kernel's below 1/4) drops the low words (the quotient's, atan c's)
};

// The fast engine's kernel. Both give the same CaseMetrics bit for bit (tests/metrics_dd_test.cpp): avx2 evaluates
// the scalar kernel's operations four components at a time, in the same order, and hands the rare cases it has
// no fast path for (non-finite, zero, subnormal or huge outputs; ulp distances across a power of two, at zero or
// of opposite signs) to the scalar kernel. In measure_batch, avx2 takes several outputs at a time instead, one per
// lane (MetricBatch: eight in AVX-512 where the CPU has it, else four), with the same rare cases going to the scalar
// code lane by lane.
enum class MetricKernel { scalar, avx2 };
// avx2 where this build has it and the CPU has AVX2 and FMA, unless set_metric_force_scalar(true) (the CLI: the
// environment variable QC_FORCE_SCALAR=1); read when a MetricEngine is constructed.
MetricKernel default_metric_kernel();
bool metric_avx2_supported();
// measure_batch's kernel where the engine's kernel is avx2, each giving measure()'s CaseMetrics bit for bit:
// per_output, one output at a time with its components in the AVX2 lanes (the batch before issue 45); four_lanes,
// four outputs at a time, one per AVX2 lane (metrics_dd_avx2.cpp); eight_lanes, eight at a time in AVX-512 lanes
// (metrics_dd_avx512.cpp), the default where metric_avx512_supported().
enum class MetricBatch { per_output, four_lanes, eight_lanes };
// Whether this build has the eight-output kernel and the CPU has AVX-512 F, DQ and VL (and AVX2 and FMA).
bool metric_avx512_supported();
// The lane of batch kernel b in which output j of a batch of n is measured, or -1 where the per-output kernel measures
// it (the tail of a batch; every output under per_output). For the lane tests.
int metric_batch_lane(MetricBatch b, size_t j, size_t n);
void set_metric_force_scalar(bool scalar);
bool metric_force_scalar();

// The smallest angle error the metrics report (MetricEngine::measure, measure_angle): 2^-(p+38) rad, what the
// reference's certified 2^-(p+40) per component allows; a computed angle below it is reported as 0.
double angle_resolution(Precision p);

class MetricEngine {
public:
    MetricEngine(Precision precision, ReferenceMode mode);  // (no default mode: see metrics/comparison.h)

    CaseMetrics measure(const float out[4], const SlerpReference &ref, Op op);
    CaseMetrics measure(const double out[4], const SlerpReference &ref, Op op);
    // measure() of n outputs against one reference (several implementations' outputs on one case): m[j] is
    // measure(out[j], ref, ops[j]) bit for bit. In mode fast with the AVX2 kernel, several outputs at a time in the
    // lanes of a vector (batch(): eight in AVX-512 where the CPU has it, else four in AVX2), a short tail by the
    // per-output AVX2 kernel with their steps overlapped; several times faster per output than one call each.
    void measure_batch(const double (*out)[4], const Op *ops, size_t n, const SlerpReference &ref, CaseMetrics *m);
    // Only what the worst-case search ranks by: nonfinite, angle_err_rad and branch_disagree, the same values
    // as measure() gives them. The ulp, norm and nlerp metrics are skipped: their fields are not to be read.
    CaseMetrics measure_angle(const float out[4], const SlerpReference &ref);
    CaseMetrics measure_angle(const double out[4], const SlerpReference &ref);

    // Rotation angle (radians, in [0, pi]) between two unit quaternions given exactly, e.g. to measure
    // an output against a reference of another driver. u need not be unit: it is normalised first.
    // MPFR in both modes.
    double rotation_angle(const double u[4], const RealQuat &unit_v);
    // The same against a double-double quaternion: double-double in mode fast; in mode mpfr the value is
    // converted exactly into MPFR and measured as above.
    double rotation_angle(const double u[4], const DDQuat &unit_v);

    ReferenceMode mode() const { return mode_; }
    Precision precision() const { return precision_; }
    void set_damage(MetricDamage d) { damage_ = d; }
    // Test hook: the kernel of mode fast (default_metric_kernel()); avx2 only where metric_avx2_supported().
    void set_kernel(MetricKernel k);
    MetricKernel kernel() const { return kernel_; }
    // Test and benchmark hook: measure_batch's kernel (MetricBatch; eight_lanes only where metric_avx512_supported(),
    // four_lanes otherwise). The default: eight_lanes where supported, else four_lanes.
    void set_batch(MetricBatch b);
    MetricBatch batch() const { return batch_; }

private:
    // mpfr engine (metrics.cpp)
    CaseMetrics measure_mpfr(const double out[4], const SlerpReference &ref, Op op, bool angle_only);
    // Angle between r^ (already normalised into rhat_) and the unit quaternion v; sets sign_.
    double angle_to(const RealQuat &v);
    // x converted exactly into MPFR (the precision grows to hold hi + lo exactly).
    void set_exact(Real &out, dd::DD x);
    // fast engine (metrics_dd.cpp)
    CaseMetrics measure_fast(const double out[4], const SlerpReference &ref, Op op, bool angle_only);
    double rotation_angle_fast(const double u[4], const DDQuat &unit_v) const;

    Precision precision_;
    ReferenceMode mode_;
    int bits_;
    MetricDamage damage_ = MetricDamage::none;
    MetricKernel kernel_;
    MetricBatch batch_;
    Real rhat_[4], norm_, tmp_, u_, v_;
    RealQuat conv_R_, conv_N_, conv_R_other_, conv_N_other_;  // DD references converted (mpfr mode)
    int sign_ = 1;
};

}  // namespace qc
