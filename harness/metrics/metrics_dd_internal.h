// The fast metric engine's building blocks (metrics_dd.cpp: the scalar kernel, which is also the oracle of the
// AVX2 kernel in metrics_dd_avx2.cpp). Shared by both files, so that the steps the AVX2 kernel keeps scalar
// (the norm, the final atan2, the ulp distances off its fast path) are the same code. Internal to
// harness/metrics.
#pragma once

#include "metrics/metrics.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <utility>

#define QC_INLINE __attribute__((always_inline)) inline

namespace qc::metrics_detail {

using dd::DD;

// 2^e for -1022 <= e <= 1023, built from its bits.
QC_INLINE double pow2(int e) { return std::bit_cast<double>(uint64_t(e + 1023) << 52); }
// x 2^e, rounded once (as std::ldexp, which the rare exponents outside the normal range use).
QC_INLINE double scale(double x, int e) { return e >= -1022 && e <= 1023 ? x * pow2(e) : std::ldexp(x, e); }
// floor(log2 a) for a finite a > 0 (std::ilogb without the call for normal numbers).
QC_INLINE int exponent(double a) {
    const int biased = int(std::bit_cast<uint64_t>(a) >> 52) & 0x7ff;
    return biased != 0 ? biased - 1023 : std::ilogb(a);
}
// Whether a finite a > 0 is a power of two.
QC_INLINE bool is_pow2(double a) {
    const uint64_t bits = std::bit_cast<uint64_t>(a);
    return (bits & ((uint64_t(1) << 52) - 1)) == 0 ? (bits >> 52) != 0 : std::has_single_bit(bits);
}

// a > b for normalised double-doubles.
inline bool greater(DD a, DD b) { return a.hi > b.hi || (a.hi == b.hi && a.lo > b.lo); }

using dd::add_abs;  // (reference/dd.h: absolute error <= 3u^2 (1 + u) (|x.hi| + |y.hi|))

// sum_i d_i^2 for four normalised double-doubles, relative error <= 25u^2: the squares of the high words exact
// (TwoProd) and added exactly by a tree of TwoSum; the small terms (the three TwoSum and four TwoProd errors,
// 2 h_i l_i folded into the latter by FMA; l_i^2 <= u^2 h_i^2 dropped), together at most 6u times the sum,
// added in double by a tree in which each passes through at most 4 roundings (gamma_4 * 6u = 24u^2).
QC_INLINE DD sum_squares(const DD d[4]) {
    DD p[4];
    double c[4];
    for (int i = 0; i < 4; i++) {
        p[i] = dd::two_prod(d[i].hi, d[i].hi);
        c[i] = std::fma(2 * d[i].hi, d[i].lo, p[i].lo);
    }
    const DD s01 = dd::two_sum(p[0].hi, p[1].hi), s23 = dd::two_sum(p[2].hi, p[3].hi);
    const DD s = dd::two_sum(s01.hi, s23.hi);
    const double small = ((c[0] + c[1]) + (c[2] + c[3])) + ((s01.lo + s23.lo) + s.lo);
    return dd::fast_two_sum(s.hi, small);  // |small| <= 6u |s.hi|
}

// A finite, nonzero output r scaled by 2^-k (exact) so that max |r_i| is in [1, 2), and its norm n = |r| 2^-k
// in [1, 4): sum_squares (<= 12u^2 here: no low words), then the square root (LM 2022).
struct Scaled {
    double r[4];
    DD n;
    int k = 0;
};

// The output scaled as above; false when r = 0.
QC_INLINE bool scale_output(const double r[4], Scaled &o) {
    double mx = 0;
    for (int i = 0; i < 4; i++) mx = std::max(mx, std::fabs(r[i]));
    if (mx == 0) return false;
    o.k = exponent(mx);
    DD rs[4];
    for (int i = 0; i < 4; i++) o.r[i] = scale(r[i], -o.k), rs[i] = {o.r[i], 0};
    o.n = dd::sqrt(sum_squares(rs));
    return true;
}

// atan2(y, x) for 0 <= y <= x, x > 0 without libm (atan2_chords below), written here from the Taylor series
// atan r = r - r^3/3 + r^5/5 - ... (alternating, its terms decreasing for |r| < 1) and, above y/x = 1/4, the
// reduction atan(y/x) = atan c + atan((y - c x) / (x + c y)) with c = 1/2 or 1. u = 2^-53.
//
// atan_correction(h, l): l - h t P(t), t = h^2, P(t) = 1/3 - t/5 + ... - t^13/29 by Horner, so that atan r is
// h + atan_correction(h, l) for r = h + l (|l| <= u |h|, |h| <= 1/4): the series cut after t^13/29 is off by
// <= |r| t^14/31 < 2^-60 |r| (t <= 2^-4); |h t P(t)| <= |h| t / 3 carries a relative error <= 6u (t, the product,
// Horner's roundings and the coefficients').
inline constexpr int kAtanTerms = 14;
inline constexpr double kAtanSeries[kAtanTerms] = {1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,  1.0 / 11,
                                                   1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21,
                                                   1.0 / 23, 1.0 / 25, 1.0 / 27, 1.0 / 29};
inline constexpr double kAtanSeriesLo = 0x1p-20;
QC_INLINE double atan_correction(double h, double l) {
    const double t = h * h, m = -t;
    double p = kAtanSeries[kAtanTerms - 1];
    for (int k = kAtanTerms - 2; k >= 0; k--) p = std::fma(p, m, kAtanSeries[k]);
    return std::fma(-(h * t), p, l);
}

// The middle range, 2^-20 <= q and y < x / 4 (the chord ratio of an nlerp output against the slerp reference: about
// 0.036 at most for keys a quarter turn apart on the sphere; any output within about 1 rad of its reference): q =
// qh + ql (qh = RN(y/x) <= 1/4; the remainder y - qh x exact by FMA; ql = RN(remainder / x), |ql| <= u qh, its
// rounding u^2 qh), atan q = qh + atan_correction(qh, ql). Relative to q: the cut 2^-60 < u / 128; the product
// <= q / 48 off by 6u, u / 8; the correction's rounding, u / 48. Together < 0.15u before the final rounding, and
// atan q >= 0.979 q: within 1.16u of atan(y/x).
QC_INLINE double atan_middle(double y, double x, double qh) {
    return qh + atan_correction(qh, std::fma(-qh, x, y) / x);
}

// The high range, x / 4 <= y <= x: c = 1 where y >= RN(3x/4), else 1/2; y - c x is exact (Sterbenz: y is in [c x / 2,
// 2 c x]), x + c y exact as a double-double D (TwoSum), r = (y - c x) / D = rh + rl (rh = RN(num / D.hi), rl from the
// FMA remainders, off by about u^2 |r|), |r| <= 2/9, t <= 0.05. atan c as a double-double (atan 1/2 and pi/4, to 2^-107
// relative); atan c + rh by TwoSum, then the small words. Absolute: the correction <= 0.0037 off by 6u, 0.022u; its
// rounding, 0.004u; the small words' two roundings, 0.008u; the cut, 2^-65. Together < 0.035u before the final
// rounding, against atan(y/x) >= atan(1/4) = 0.245: within 1.15u of atan(y/x).
inline constexpr DD kAtanHalf{0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56};   // atan(1/2)
inline constexpr DD kQuarterPi{0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55};  // pi/4
QC_INLINE double atan_high(double y, double x) {
    const bool one = y >= 0.75 * x;
    const double c = one ? 1.0 : 0.5;
    const double num = y - c * x;
    const DD den = dd::two_sum(x, c * y);
    const double rh = num / den.hi;
    const double rl = std::fma(-rh, den.lo, std::fma(-rh, den.hi, num)) / den.hi;
    const DD a = one ? kQuarterPi : kAtanHalf;
    const DD s = dd::two_sum(a.hi, rh);
    return s.hi + (s.lo + (a.lo + atan_correction(rh, rl)));
}

// atan2(y, x) for 0 <= y <= x, x > 0 (the chords above: y the shorter). Where y/x < 2^-20 (every angle error below
// about 4e-6 rad, the common case), atan q = q - q^3/3 + q^5/5 - ..., and q - q^3/3 is within q^5/5 <= 2^-80 q of it:
// the division and the subtraction round twice (<= 2u + u^2 + 2^-80 relative: the 2u metrics.h allows atan2, plus far
// less than the slack of its angle total). Then atan_middle and atan_high (<= 1.16u), inside the same 2u; libm's atan2
// only for a ratio above 1 or NaN, which the chords do not give. Tested against MPFR (tests/atan_series_test.cpp:
// at most 0.996u measured in the middle range and 1.061u in the high one, on 2 10^5 pairs each). The vector
// kernels do the same operations in their lanes: libm's atan2 lane by lane was about 4 ns of an nlerp output's
// 38 (BM_MetricFastBatch/nlerp/f32).
QC_INLINE double atan2_chords(double y, double x) {
    const double q = y / x;
    if (q < kAtanSeriesLo) return q - q * q * q / 3;
    if (y < 0.25 * x) return atan_middle(y, x, q);
    if (q <= 1) return atan_high(y, x);
    return std::atan2(y, x);
}

// Rotation angle between r and the unit quaternion v, 4 atan2(|r^ - s v|, |r^ + s v|), computed on the sphere
// of radius n = |r| instead (the angle does not change when both chords are scaled by n): n v_i by DW*DW, the
// chords' components r_i -/+ n v_i by add_abs, their squared lengths by sum_squares, the rest in double.
// s = sign(r.v) is read off the chords (|r - n v|^2 - |r + n v|^2 = -4n r.v): -1 where |r - n v| is the longer,
// +1 on a tie, as the mpfr engine's sign of an exact zero.
QC_INLINE double angle_dd(const Scaled &o, const DDQuat &v, int &s) {
    DD dm[4], dp[4];
    for (int i = 0; i < 4; i++) {
        const DD nv = dd::mul(o.n, v[i]);
        dm[i] = add_abs(DD{o.r[i], 0}, dd::neg(nv));
        dp[i] = add_abs(DD{o.r[i], 0}, nv);
    }
    DD um = sum_squares(dm), up = sum_squares(dp);
    s = greater(um, up) ? -1 : 1;
    if (s < 0) std::swap(um, up);
    return 4 * atan2_chords(std::sqrt(dd::to_double(um)), std::sqrt(dd::to_double(up)));
}

// The binade of z >= 0 (normalised): e with 2^e <= z < 2^(e+1); below 2^emin, emin - 1 (the subnormal range
// [0, 2^emin) acts as one more binade, starting at 0, with the spacing of binade emin).
QC_INLINE int binade(DD z, int emin) {
    if (z.hi == 0) return emin - 1;
    int e = exponent(z.hi);
    if (z.lo < 0 && is_pow2(z.hi)) e--;  // hi is a power of two and z lies just below it
    return std::max(e, emin - 1);
}

// (z - start of binade e) / spacing of binade e, exactly: the position of z in its binade, in ulps, in
// [0, 2^(p-1)]. z.hi - start is exact (Sterbenz: z.hi is in [2^e, 2^(e+1)], or start = 0); TwoSum adds z.lo
// exactly; the scaling is by a power of two.
QC_INLINE DD offset(DD z, int e, int p, int emin) {
    const double start = e >= emin ? pow2(e) : 0.0;
    const DD f = dd::two_sum(z.hi - start, z.lo);
    const int s = p - 1 - std::max(e, emin);
    return {scale(f.hi, s), scale(f.lo, s)};
}

// The nonnegative double-double x rounded up to a double.
QC_INLINE double round_up(DD x) {
    const DD s = dd::fast_two_sum(x.hi, x.lo);  // s.hi = RN(x), s.lo the exact remainder
    if (!(s.lo > 0) || std::isinf(s.hi)) return s.hi;
    return std::bit_cast<double>(std::bit_cast<uint64_t>(s.hi) + 1);  // the next double up (s.hi >= 0)
}

// ulp_distance of a double-double (docs/metrics.md), N(x) - N(y) formed without cancellation of the large
// binade counts: see metrics.h for its error.
QC_INLINE double ulp_distance_dd(DD x, double y, int p, int emin) {
    const bool xneg = x.hi < 0, yneg = y < 0;
    const DD a = xneg ? dd::neg(x) : x;
    const DD b{std::fabs(y), 0};
    const int ea = binade(a, emin), eb = binade(b, emin);
    const double binade_steps = pow2(p - 1);  // representable magnitudes per binade
    DD dist;
    if (a.hi == 0 || b.hi == 0 || xneg != yneg) {
        // Opposite sides of zero (or one of them zero): N(a) + N(b), N(z) = (e - emin + 1) 2^(p-1) + offset.
        const DD na = dd::add(offset(a, ea, p, emin), (ea - emin + 1) * binade_steps);
        const DD nb = dd::add(offset(b, eb, p, emin), (eb - emin + 1) * binade_steps);
        dist = dd::add(na, nb);
    } else if (ea == eb) {
        // One binade: |a - b| / spacing.
        DD diff = dd::add(a, -b.hi);
        if (diff.hi < 0) diff = dd::neg(diff);
        const int s = p - 1 - std::max(ea, emin);
        dist = {scale(diff.hi, s), scale(diff.lo, s)};
    } else {
        // Split at the powers of two: N(high) - N(low) = offset(high) + (e_high - e_low) 2^(p-1) - offset(low).
        const bool a_high = ea > eb;
        const DD oh = a_high ? offset(a, ea, p, emin) : offset(b, eb, p, emin);
        const DD ol = a_high ? offset(b, eb, p, emin) : offset(a, ea, p, emin);
        dist = dd::sub(dd::add(oh, std::abs(ea - eb) * binade_steps), ol);
    }
    return round_up(dist);
}

// | |r| - 1 | / eps from the scaled norm n = |r| 2^-k; |r| above DBL_MAX gives inf, as the mpfr engine's
// rounding to double.
QC_INLINE double norm_error(DD n, int k, double eps) {
    const DD norm{scale(n.hi, k), scale(n.lo, k)};
    return std::isfinite(norm.hi) ? std::fabs(dd::to_double(dd::add(norm, -1.0))) / eps : INFINITY;
}

// A zero output has no direction: the largest possible rotation error (as the mpfr engine).
inline CaseMetrics zero_output_metrics(int p, double eps) {
    CaseMetrics m;
    m.angle_err_rad = M_PI;
    m.norm_err_ulp1 = 1 / eps;
    m.ulp1 = 1 / eps;
    m.ulp = std::ldexp(1.0, p);
    return m;
}

// Every metric of docs/metrics.md in double-double against the given double-double reference: the scalar
// kernel (metrics_dd.cpp).
CaseMetrics measure_dd(const double out[4], const DDQuat &R, const DDQuat &N, const DDQuat &R_other,
                       const DDQuat &N_other, bool in_tie_band, Op op, Precision precision, bool angle_only);

// The same, bit for bit, four components at a time in AVX2 (metrics_dd_avx2.cpp); only where
// avx2_kernel_supported(). `damage` damages it for the negative controls (the scalar kernel it falls back to
// is never damaged).
CaseMetrics measure_dd_avx2(const double out[4], const DDQuat &R, const DDQuat &N, const DDQuat &R_other,
                            const DDQuat &N_other, bool in_tie_band, Op op, Precision precision, bool angle_only,
                            MetricDamage damage);
// measure_dd_avx2 of n outputs against one reference: m[j] for out[j] and ops[j], the same CaseMetrics as one
// call each, the outputs' steps overlapped.
void measure_dd_avx2_batch(const double (*out)[4], const Op *ops, size_t n, const DDQuat &R, const DDQuat &N,
                           const DDQuat &R_other, const DDQuat &N_other, bool in_tie_band, Precision precision,
                           bool angle_only, MetricDamage damage, CaseMetrics *m);
// The same CaseMetrics with the outputs in the lanes instead (the four-output kernel, metrics_dd_avx2.cpp): four
// outputs at a time, output j of a group in lane j, each lane doing measure_dd's operations on its output in
// measure_dd's order; an output or a step without a vector path in a lane goes to the scalar code for that lane, and
// the last n mod 4 outputs to measure_dd_avx2_batch. `damage` as measure_dd_avx2, plus avx2_batch_lane.
void measure_dd_avx2_outputs_batch(const double (*out)[4], const Op *ops, size_t n, const DDQuat &R, const DDQuat &N,
                                   const DDQuat &R_other, const DDQuat &N_other, bool in_tie_band, Precision precision,
                                   bool angle_only, MetricDamage damage, CaseMetrics *m);
// Whether this build has the AVX2 kernel and the CPU running it has AVX2 and FMA.
bool avx2_kernel_supported();

// The eight-output kernel (metrics_dd_avx512.cpp): measure_dd_avx2_outputs_batch eight outputs at a time in the lanes
// of AVX-512 vectors, bit for bit the same CaseMetrics; only where avx512_kernel_supported(). The last n mod 8: where
// there are at least kEightLaneTailMin of them, one more group with the absent lanes masked off (a group costs about
// as much with six live lanes as with eight), else measure_dd_avx2_outputs_batch (a group of four, then the per-output
// kernel). `damage` as measure_dd_avx2_outputs_batch, plus avx512_batch_lane, lanes_ulp_split_swapped and
// lanes_atan_low_word_dropped.
void measure_dd_avx512_outputs_batch(const double (*out)[4], const Op *ops, size_t n, const DDQuat &R, const DDQuat &N,
                                     const DDQuat &R_other, const DDQuat &N_other, bool in_tie_band,
                                     Precision precision, bool angle_only, MetricDamage damage, CaseMetrics *m);
// From the per-output costs of BM_MetricFastBatch, ...FourLanes and ...Components (docs/metrics.md): a masked group
// of eight costs about 8 x 30-37 ns, a group of four 4 x 38-52, the per-output kernel 41-60 ns an output.
constexpr size_t kEightLaneTailMin = 6;
// The outputs [0, eight_lane_batch_end(n)) of a batch of n are measured in the eight-output kernel's lanes, output j in
// lane j mod 8; the rest by measure_dd_avx2_outputs_batch.
constexpr size_t eight_lane_batch_end(size_t n) { return n % 8 >= kEightLaneTailMin ? n : n / 8 * 8; }
// Whether this build has the eight-output kernel and the CPU running it has AVX-512 F, DQ and VL, AVX2 and FMA.
bool avx512_kernel_supported();

}  // namespace qc::metrics_detail
