// The fast metric engine's AVX2 kernel: measure_dd (metrics_dd.cpp) with the four components of a quaternion in
// the four lanes of a vector. Every lane does the scalar kernel's operations on its component, in the same
// order, and the sums over the components (the squared norm and chords) add in the scalar kernel's tree order,
// so every result is the same double, bit for bit (IEEE operations and fma are correctly rounded in both; this
// file is compiled with -ffp-contract=off like every other). What stays scalar is the same code
// (metrics_dd_internal.h): the square root of the norm, the norm error, the final atan2.
//
// ulp distances: the scalar kernel's common case, x = s R_i and y = r_i of one sign in one binade (ulp_distance_dd's
// middle branch: |x - y| / spacing, exact, rounded up), a zero against a zero, and its two other branches (opposite
// signs; one sign across a power of two) where both binades are normal and above the common case's smallest, are done
// in all four lanes; a lane outside them (a zero or subnormal against a nonzero, a = 2^e - tiny in one binade with b,
// the smallest binades) takes ulp_distance_dd itself.
// Whole outputs that are non-finite, zero, subnormal at their largest component or at least 2^1023 go to
// measure_dd (scale_output's exponent and scaling would leave the plain multiplication by a power of two).
//
// measure_batch's four-output kernel (measure_dd_avx2_outputs_batch, below) turns the lanes the other way: four
// outputs of one case at a time, one per lane, each lane doing measure_dd's operations on its output in its order,
// the same rare cases going to the scalar code lane by lane. Every output's steps are one long chain of dependent
// operations; across the outputs the four chains share each instruction.
//
// Compiled for AVX2 and FMA by function attributes, not by flags for the whole file, so that no inline function
// of a header is emitted here with AVX2 instructions for the rest of the program to link against; the kernel is
// called only where avx2_kernel_supported() (MetricEngine::set_kernel, default_metric_kernel).
#include "metrics/metrics_dd_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define QC_METRICS_AVX2 1
#include <immintrin.h>
#endif

namespace qc::metrics_detail {

#if QC_METRICS_AVX2

#define QC_V __attribute__((target("avx2,fma"), always_inline)) inline

namespace {

static_assert(sizeof(DDQuat) == 8 * sizeof(double), "DDQuat is four {hi, lo} pairs");

struct V4 {
    __m256d hi, lo;  // lane i: component i
};
struct V2 {
    __m128d hi, lo;
};

QC_V __m256d sign_bits() { return _mm256_set1_pd(-0.0); }
QC_V __m256d vneg(__m256d x) { return _mm256_xor_pd(x, sign_bits()); }
QC_V __m256d vabs(__m256d x) { return _mm256_andnot_pd(sign_bits(), x); }
QC_V __m128d lo128(__m256d x) { return _mm256_castpd256_pd128(x); }
QC_V __m128d hi128(__m256d x) { return _mm256_extractf128_pd(x, 1); }

// dd.h's error-free transformations, lane by lane (the same operations in the same order).
QC_V V4 two_sum(__m256d a, __m256d b) {
    const __m256d s = _mm256_add_pd(a, b), bb = _mm256_sub_pd(s, a);
    return {s, _mm256_add_pd(_mm256_sub_pd(a, _mm256_sub_pd(s, bb)), _mm256_sub_pd(b, bb))};
}
QC_V V2 two_sum(__m128d a, __m128d b) {
    const __m128d s = _mm_add_pd(a, b), bb = _mm_sub_pd(s, a);
    return {s, _mm_add_pd(_mm_sub_pd(a, _mm_sub_pd(s, bb)), _mm_sub_pd(b, bb))};
}
QC_V V4 fast_two_sum(__m256d a, __m256d b) {
    const __m256d s = _mm256_add_pd(a, b);
    return {s, _mm256_sub_pd(b, _mm256_sub_pd(s, a))};
}
QC_V V2 fast_two_sum(__m128d a, __m128d b) {
    const __m128d s = _mm_add_pd(a, b);
    return {s, _mm_sub_pd(b, _mm_sub_pd(s, a))};
}
QC_V V4 two_prod(__m256d a, __m256d b) {
    const __m256d p = _mm256_mul_pd(a, b);
    return {p, _mm256_fmsub_pd(a, b, p)};  // std::fma(a, b, -p)
}
// dd::mul(n, v_i) (DWTimesDW3) for the scalar n.
QC_V V4 mul(DD n, const V4 &v) {
    const __m256d nh = _mm256_set1_pd(n.hi), nl = _mm256_set1_pd(n.lo);
    const V4 c = two_prod(nh, v.hi);
    const __m256d tl0 = _mm256_mul_pd(nl, v.lo);
    const __m256d tl1 = _mm256_fmadd_pd(nh, v.lo, tl0);
    const __m256d cl2 = _mm256_fmadd_pd(nl, v.hi, tl1);
    return fast_two_sum(c.hi, _mm256_add_pd(c.lo, cl2));
}
// dd::add_abs.
QC_V V4 add_abs(const V4 &x, const V4 &y) {
    const V4 s = two_sum(x.hi, y.hi);
    const __m256d v = _mm256_add_pd(x.lo, y.lo);
    return two_sum(s.hi, _mm256_add_pd(s.lo, v));
}
// dd::add(x, y) (DWPlusFP) for y a double per lane.
QC_V V4 add(const V4 &x, __m256d y) {
    const V4 s = two_sum(x.hi, y);
    return fast_two_sum(s.hi, _mm256_add_pd(x.lo, s.lo));
}

// dd::add(x, y) (AccurateDWPlusDW) for two double-doubles per lane.
QC_V V4 add(const V4 &x, const V4 &y) {
    const V4 st = two_sum(x.hi, y.hi), t = two_sum(x.lo, y.lo);
    const V4 v = fast_two_sum(st.hi, _mm256_add_pd(st.lo, t.hi));
    return fast_two_sum(v.hi, _mm256_add_pd(t.lo, v.lo));
}
// Per lane, b where the lane's bit of mask is set, else a.
QC_V V4 blend(const V4 &a, const V4 &b, __m256d mask) {
    return {_mm256_blendv_pd(a.hi, b.hi, mask), _mm256_blendv_pd(a.lo, b.lo, mask)};
}
// The double of a nonnegative 64-bit integer below 2^52 per lane, exactly (AVX2 has no such conversion): its bits
// under those of 2^52, less 2^52.
QC_V __m256d small_to_double(__m256i v) {
    const __m256d two52 = _mm256_set1_pd(0x1p52);
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(v, _mm256_castpd_si256(two52))), two52);
}
// 2^e per lane for biased exponents E = e + 1023 in [1, 2046], built from its bits.
QC_V __m256d pow2_biased4(__m256i E) { return _mm256_castsi256_pd(_mm256_slli_epi64(E, 52)); }
// offset(z, e, p, emin) of metrics_dd_internal.h per lane for e >= emin and 2^(p-1-e) normal (the caller's lanes):
// two_sum(z.hi - 2^e, z.lo) scaled by 2^(p-1-e). `E` = e + 1023.
QC_V V4 offset4(const V4 &z, __m256i E, int p) {
    const V4 f = two_sum(_mm256_sub_pd(z.hi, pow2_biased4(E)), z.lo);
    const __m256d sc = pow2_biased4(_mm256_sub_epi64(_mm256_set1_epi64x(p - 1 + 2046), E));  // 2^(p-1-e)
    return {_mm256_mul_pd(f.hi, sc), _mm256_mul_pd(f.lo, sc)};
}
// The nonnegative double-double x rounded up (round_up of metrics_dd_internal.h): Fast2Sum, then one double up where
// the remainder is positive and the sum finite, as bits. `damage`: avx2_ulp_rounded_to_nearest skips the step up.
QC_V __m256i round_up4(const V4 &x, MetricDamage damage) {
    const V4 s = fast_two_sum(x.hi, x.lo);
    __m256d up = _mm256_and_pd(_mm256_cmp_pd(s.lo, _mm256_setzero_pd(), _CMP_GT_OQ),
                               _mm256_cmp_pd(vabs(s.hi), _mm256_set1_pd(INFINITY), _CMP_NEQ_OQ));
    if (damage == MetricDamage::avx2_ulp_rounded_to_nearest) up = _mm256_setzero_pd();
    return _mm256_sub_epi64(_mm256_castpd_si256(s.hi), _mm256_castpd_si256(up));  // +1 where up (all ones: -1)
}

// The four components of q.
QC_V V4 load(const DDQuat &q) {
    const double *p = &q[0].hi;
    const __m256d a = _mm256_loadu_pd(p), b = _mm256_loadu_pd(p + 4);  // h0 l0 h1 l1, h2 l2 h3 l3
    return {_mm256_permute4x64_pd(_mm256_unpacklo_pd(a, b), 0xD8),
            _mm256_permute4x64_pd(_mm256_unpackhi_pd(a, b), 0xD8)};
}

// sum_squares (metrics_dd_internal.h) of a and of b: lane 0 the sum over a's components, lane 1 over b's. The
// tree of the scalar code: s01 = TwoSum(p0, p1), s23 = TwoSum(p2, p3), s = TwoSum(s01, s23), and the small terms
// ((c0 + c1) + (c2 + c3)) + ((s01.lo + s23.lo) + s.lo).
QC_V V2 sum_squares(const V4 &a, const V4 &b) {
    const V4 pa = two_prod(a.hi, a.hi), pb = two_prod(b.hi, b.hi);
    const __m256d ca = _mm256_fmadd_pd(_mm256_add_pd(a.hi, a.hi), a.lo, pa.lo);  // 2 h exactly, as 2 * h
    const __m256d cb = _mm256_fmadd_pd(_mm256_add_pd(b.hi, b.hi), b.lo, pb.lo);
    // [pa0 pb0 pa2 pb2] + [pa1 pb1 pa3 pb3] -> [s01a s01b s23a s23b]
    const V4 s0123 = two_sum(_mm256_unpacklo_pd(pa.hi, pb.hi), _mm256_unpackhi_pd(pa.hi, pb.hi));
    const V2 s = two_sum(lo128(s0123.hi), hi128(s0123.hi));
    const __m256d c2 = _mm256_add_pd(_mm256_unpacklo_pd(ca, cb), _mm256_unpackhi_pd(ca, cb));
    const __m128d c = _mm_add_pd(lo128(c2), hi128(c2));
    const __m128d lows = _mm_add_pd(_mm_add_pd(lo128(s0123.lo), hi128(s0123.lo)), s.lo);
    return fast_two_sum(s.hi, _mm_add_pd(c, lows));
}

// angle_dd: the rotation angle between r (scaled, norm n) and the unit quaternion v, and s.
QC_V double angle(__m256d r, DD n, const V4 &v, int &s) {
    const V4 nv = mul(n, v);
    const V4 rr{r, _mm256_setzero_pd()};
    const V2 u = sum_squares(add_abs(rr, {vneg(nv.hi), vneg(nv.lo)}), add_abs(rr, nv));
    const DD um{_mm_cvtsd_f64(u.hi), _mm_cvtsd_f64(u.lo)};
    const DD up{_mm_cvtsd_f64(_mm_unpackhi_pd(u.hi, u.hi)), _mm_cvtsd_f64(_mm_unpackhi_pd(u.lo, u.lo))};
    s = greater(um, up) ? -1 : 1;
    const __m128d chords = _mm_sqrt_pd(_mm_add_pd(u.hi, u.lo));  // sqrt(to_double(um)), sqrt(to_double(up))
    const double cm = _mm_cvtsd_f64(chords), cp = _mm_cvtsd_f64(_mm_unpackhi_pd(chords, chords));
    return 4 * (s < 0 ? atan2_chords(cp, cm) : atan2_chords(cm, cp));
}

// The largest lane of x >= 0 (no NaN), +0 when every lane is a zero: what std::max from +0 gives.
QC_V double max_lane(__m256d x) {
    const __m128d m = _mm_max_pd(lo128(x), hi128(x));
    return std::max(0.0, _mm_cvtsd_f64(_mm_max_sd(m, _mm_unpackhi_pd(m, m))));
}

// ulp_lanes's lanes off its common path, on ulp_distance_dd's two other branches where a.hi and b are normal with
// biased exponents above e_low: their ulps into `ulps`, and `ok` with their lanes added.
QC_V __m256i ulp_lanes_other_branches(const V4 &a, __m256d b, __m256d xneg, __m256d yneg, __m256d below_pow2,
                                      __m256i ea, __m256i eb, int e_low, int p, int emin, MetricDamage damage,
                                      __m256i ok, __m256i &ulps) {
    // ulp_distance_dd's two other branches, where a.hi and b are normal with biased exponents above e_low (binade() is
    // then the exponent, one less for a = 2^e - tiny, and at least emin; offsets and 2^(p-1-e) normal), each by its
    // operations in its order (as the eight-output kernel, metrics_dd_avx512.cpp).
    const __m256d zero = _mm256_setzero_pd();
    const __m256i above = _mm256_set1_epi64x(e_low), top = _mm256_set1_epi64x(2047);
    const __m256i general = _mm256_andnot_si256(
        ok, _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi64(ea, above), _mm256_cmpgt_epi64(eb, above)),
                             _mm256_and_si256(_mm256_cmpgt_epi64(top, ea), _mm256_cmpgt_epi64(top, eb))));
    if (!_mm256_movemask_pd(_mm256_castsi256_pd(general))) return ok;
    const __m256i Ea = _mm256_add_epi64(ea, _mm256_castpd_si256(below_pow2));  // binade(a) + 1023 (mask: -1)
    const __m256d opposite = _mm256_xor_pd(xneg, yneg);
    const __m256d two_binades = _mm256_andnot_pd(
        opposite, _mm256_castsi256_pd(_mm256_xor_si256(_mm256_cmpeq_epi64(Ea, eb), _mm256_set1_epi64x(-1))));
    const __m256d steps = _mm256_set1_pd(pow2(p - 1));  // binade_steps
    const V4 oa = offset4(a, Ea, p), ob = offset4({b, zero}, eb, p);
    // N(a) + N(b), N(z) = (e - emin + 1) 2^(p-1) + offset(z).
    const __m256i base = _mm256_set1_epi64x(
        1023 + emin - (damage == MetricDamage::lanes_ulp_split_swapped ? 0 : 1));  // E - base = e - emin + 1
    const V4 na = add(oa, _mm256_mul_pd(small_to_double(_mm256_sub_epi64(Ea, base)), steps));
    const V4 nb = add(ob, _mm256_mul_pd(small_to_double(_mm256_sub_epi64(eb, base)), steps));
    const V4 dist_opp = add(na, nb);
    // offset(high) + |ea - eb| 2^(p-1) - offset(low).
    __m256d a_high = _mm256_castsi256_pd(_mm256_cmpgt_epi64(Ea, eb));
    const __m256i gap = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(_mm256_sub_epi64(eb, Ea)),
                                                             _mm256_castsi256_pd(_mm256_sub_epi64(Ea, eb)), a_high));
    if (damage == MetricDamage::lanes_ulp_split_swapped)
        a_high = _mm256_xor_pd(a_high, _mm256_castsi256_pd(_mm256_set1_epi64x(-1)));
    const V4 oh = blend(ob, oa, a_high), ol = blend(oa, ob, a_high);
    const V4 dist_two = add(add(oh, _mm256_mul_pd(small_to_double(gap), steps)), V4{vneg(ol.hi), vneg(ol.lo)});
    const V4 dist = blend(dist_two, dist_opp, opposite);
    const __m256i u = round_up4(dist, damage);
    const __m256i take = _mm256_and_si256(general, _mm256_castpd_si256(_mm256_or_pd(opposite, two_binades)));
    ulps = _mm256_castpd_si256(
        _mm256_blendv_pd(_mm256_castsi256_pd(ulps), _mm256_castsi256_pd(u), _mm256_castsi256_pd(take)));
    return _mm256_or_si256(ok, take);
}

// ulp_distance_dd(x, y) lane by lane on the fast path below; returns the mask of the lanes off it (bit i: lane i),
// whose ulps are to be taken from ulp_distance_dd itself. Lane-generic: the lanes are the four components of one
// output (component_errors) or one component of four outputs (the four-output kernel).
QC_V int ulp_lanes(const V4 &x, __m256d y, int p, int emin, MetricDamage damage, __m256d &ulps_out) {
    const __m256d zero = _mm256_setzero_pd();
    // ulp_distance_dd: a = |x| and b = |y| (the sign flipped where x.hi < 0, as dd::neg), their binades.
    const __m256d xneg = _mm256_cmp_pd(x.hi, zero, _CMP_LT_OQ), yneg = _mm256_cmp_pd(y, zero, _CMP_LT_OQ);
    const __m256d flip = _mm256_and_pd(xneg, sign_bits());
    const V4 a{_mm256_xor_pd(x.hi, flip), _mm256_xor_pd(x.lo, flip)};
    const __m256d b = vabs(y);
    const __m256i ea = _mm256_srli_epi64(_mm256_castpd_si256(a.hi), 52),
                  eb = _mm256_srli_epi64(_mm256_castpd_si256(b), 52);
    // The fast path: one sign (xneg == yneg), one biased exponent E >= the smallest for which 2^(p-1-e) is a
    // normal power of two and e >= emin (so both are nonzero and binade() is e for b), and not a = 2^e - tiny
    // (binade() would be e - 1 for a).
    const int e_low = std::max(emin, p - 1024) + 1023;
    const __m256i mant = _mm256_and_si256(_mm256_castpd_si256(a.hi), _mm256_set1_epi64x((int64_t(1) << 52) - 1));
    const __m256d below_pow2 = _mm256_and_pd(_mm256_cmp_pd(a.lo, zero, _CMP_LT_OQ),
                                             _mm256_castsi256_pd(_mm256_cmpeq_epi64(mant, _mm256_setzero_si256())));
    const __m256i same_binade = _mm256_andnot_si256(
        _mm256_castpd_si256(_mm256_or_pd(_mm256_xor_pd(xneg, yneg), below_pow2)),
        _mm256_and_si256(_mm256_cmpeq_epi64(ea, eb), _mm256_cmpgt_epi64(ea, _mm256_set1_epi64x(e_low - 1))));
    // One binade: |a - b| / spacing, dd::add(a, -b.hi), made nonnegative as dd::neg, times 2^(p-1-e) (exact).
    V4 diff = add(a, vneg(b));
    const __m256d dflip = _mm256_and_pd(_mm256_cmp_pd(diff.hi, zero, _CMP_LT_OQ), sign_bits());
    diff = {_mm256_xor_pd(diff.hi, dflip), _mm256_xor_pd(diff.lo, dflip)};
    const __m256d spacing_inv =
        _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_sub_epi64(_mm256_set1_epi64x(p + 2045), ea), 52));
    __m256i ulps = round_up4({_mm256_mul_pd(diff.hi, spacing_inv), _mm256_mul_pd(diff.lo, spacing_inv)}, damage);
    // Also exact zeros on both sides (R_i = 0 and r_i = +-0, common in the axis-aligned regions): ulp_distance_dd
    // gives a zero there (of either sign), which the maximum from +0 never takes; +0 here.
    const __m256d both_zero =
        _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(x.hi, zero, _CMP_EQ_OQ), _mm256_cmp_pd(x.lo, zero, _CMP_EQ_OQ)),
                      _mm256_cmp_pd(y, zero, _CMP_EQ_OQ));
    ulps = _mm256_andnot_si256(_mm256_castpd_si256(both_zero), ulps);
    __m256i ok = _mm256_or_si256(same_binade, _mm256_castpd_si256(both_zero));
    ok = ulp_lanes_other_branches(a, b, xneg, yneg, below_pow2, ea, eb, e_low, p, emin, damage, ok, ulps);
    ulps_out = _mm256_castsi256_pd(ulps);
    return ~_mm256_movemask_pd(_mm256_castsi256_pd(ok)) & 0xf;
}

// The component errors against x = s R: max_i ulp_distance_dd(x_i, y_i) and max_i |x_i - y_i| (dd::add, rounded).
QC_V void component_errors(const V4 &x, __m256d y, int p, int emin, MetricDamage damage, double &max_ulp,
                           double &max_abs) {
    const V4 d = add(x, vneg(y));
    max_abs = max_lane(vabs(_mm256_add_pd(d.hi, d.lo)));
    __m256d ulps;
    const int slow = ulp_lanes(x, y, p, emin, damage, ulps);
    if (!slow) {
        max_ulp = max_lane(ulps);
        return;
    }
    alignas(32) double u[4], xh[4], xl[4], yy[4];
    _mm256_store_pd(u, ulps);
    _mm256_store_pd(xh, x.hi), _mm256_store_pd(xl, x.lo), _mm256_store_pd(yy, y);
    for (int i = 0; i < 4; i++)
        if (slow >> i & 1) u[i] = ulp_distance_dd(DD{xh[i], xl[i]}, yy[i], p, emin);
    max_ulp = 0;
    for (int i = 0; i < 4; i++) max_ulp = std::max(max_ulp, u[i]);
}

constexpr int kBlock = 8;  // outputs per block of measure_dd_avx2_batch

// One output of a batch between the stages of measure_dd_avx2_batch.
struct Output {
    __m256d y, r;  // the output, and r 2^-k
    DD n;          // |r 2^-k|, the norm of r scaled as scale_output
    DD n_angle;    // n as the angles use it (damaged by avx2_norm_low_word_dropped)
    int k;
    int s;
    bool scalar;  // measured by measure_dd instead (non-finite, zero, subnormal or huge)
    const DDQuat *target, *target_nlerp;
};

// The norms n of the scaled outputs r of a block (the scalar ones skipped), two outputs at a time in the two lanes
// of sum_squares, and n as the angles use it (n_angle, damaged for the negative control).
QC_V void block_norms(Output *o, int count, MetricDamage damage) {
    const __m256d zero = _mm256_setzero_pd();
    for (int j = 0; j < count; j += 2) {
        Output &a = o[j], &b = o[std::min(j + 1, count - 1)];
        const V2 sq = sum_squares({a.r, zero}, {b.r, zero});
        const __m128d hi1 = _mm_unpackhi_pd(sq.hi, sq.hi), lo1 = _mm_unpackhi_pd(sq.lo, sq.lo);
        if (!a.scalar) a.n = dd::sqrt(DD{_mm_cvtsd_f64(sq.hi), _mm_cvtsd_f64(sq.lo)});
        if (!b.scalar) b.n = dd::sqrt(DD{_mm_cvtsd_f64(hi1), _mm_cvtsd_f64(lo1)});
    }
    for (int j = 0; j < count; j++)
        o[j].n_angle = damage == MetricDamage::avx2_norm_low_word_dropped ? DD{o[j].n.hi, 0} : o[j].n;
}

// The outputs of a batch stage by stage, every stage a loop over the outputs: one output's steps are a chain of
// dependent operations (square roots and divisions among them), and the outputs' chains are independent, so the
// processor overlaps the iterations of a stage. Every output gets exactly measure_dd's CaseMetrics.
QC_V void measure_block(const double (*out)[4], const Op *ops, int count, const DDQuat &R, const DDQuat &N,
                        const DDQuat &R_other, const DDQuat &N_other, bool in_tie_band, Precision precision,
                        bool angle_only, MetricDamage damage, CaseMetrics *res) {
    const int p = precision_bits(precision);
    const int emin = precision == Precision::f32 ? Format<float>::emin : Format<double>::emin;
    const double eps = precision_eps(precision);
    const __m256d zero = _mm256_setzero_pd();
    Output o[kBlock];
    for (int j = 0; j < count; j++) {
        // Non-finite (a lane not below inf, NaN included), zero, subnormal or >= 2^1023 at the largest: measure_dd.
        Output &w = o[j];
        w.y = _mm256_loadu_pd(out[j]);
        const __m256d ay = vabs(w.y);
        const __m128d m2 = _mm_max_pd(lo128(ay), hi128(ay));
        const double mx = _mm_cvtsd_f64(_mm_max_sd(m2, _mm_unpackhi_pd(m2, m2)));
        const int biased = int(std::bit_cast<uint64_t>(mx) >> 52);
        w.scalar = _mm256_movemask_pd(_mm256_cmp_pd(ay, _mm256_set1_pd(INFINITY), _CMP_LT_OQ)) != 0xf || biased == 0 ||
                   biased > 2045;
        if (w.scalar) {
            res[j] = measure_dd(out[j], R, N, R_other, N_other, in_tie_band, ops[j], precision, angle_only);
            w.r = zero;  // (a harmless lane of the sums below)
            continue;
        }
        // scale_output: r 2^-k, max |r_i 2^-k| in [1, 2); n = sqrt(sum_squares) with no low words.
        w.k = biased - 1023;
        w.r = _mm256_mul_pd(w.y, _mm256_set1_pd(pow2(-w.k)));
    }
    block_norms(o, count, damage);
    const V4 Rv = load(R);
    for (int j = 0; j < count; j++) {
        Output &w = o[j];
        if (w.scalar) continue;
        res[j] = CaseMetrics();
        w.s = 1;
        w.target = &R, w.target_nlerp = &N;
        res[j].angle_err_rad = angle(w.r, w.n_angle, Rv, w.s);
    }
    if (in_tie_band) {
        const V4 Ov = load(R_other);
        for (int j = 0; j < count; j++) {
            Output &w = o[j];
            if (w.scalar) continue;
            int s_other = 1;
            const double other = angle(w.r, w.n_angle, Ov, s_other);
            if (other < res[j].angle_err_rad) {
                res[j].branch_disagree = true;
                res[j].angle_err_rad = other;
                w.s = s_other;
                w.target = &R_other;
                w.target_nlerp = &N_other;
            }
        }
    }
    if (angle_only) return;
    for (int j = 0; j < count; j++) {
        Output &w = o[j];
        if (w.scalar) continue;
        res[j].norm_err_ulp1 = norm_error(w.n, w.k, eps);
        if (ops[j] == Op::nlerp) {
            int s_nlerp = 1;
            res[j].angle_err_vs_nlerp_rad = angle(w.r, w.n_angle, load(*w.target_nlerp), s_nlerp);
        }
    }
    for (int j = 0; j < count; j++) {
        Output &w = o[j];
        if (w.scalar) continue;
        const V4 t = w.target == &R ? Rv : load(*w.target);
        const V4 x = w.s > 0 ? t : V4{vneg(t.hi), vneg(t.lo)};
        double max_ulp, max_abs;
        component_errors(x, w.y, p, emin, damage, max_ulp, max_abs);
        res[j].ulp = max_ulp;
        res[j].ulp1 = max_abs / eps;
    }
}

// ---- the four-output kernel: one output per lane ----
//
// measure_dd of four outputs at once, output j in lane j: every vector below holds one quantity of the four outputs
// (component i of r, the norm, a chord), and each lane does exactly measure_dd's operations on its output in
// measure_dd's order (the sums over the components are the scalar tree, written out lane by lane). The reference is
// the same for the four (one case), broadcast. What is left to scalar code: an output measure_dd takes whole
// (the same test as measure_block's: non-finite, zero, subnormal or >= 2^1023 at its largest component), the
// atan2 of a chord ratio of at least 1/4 (atan2_chords on that lane's two chords, as measure_dd calls it), and a
// component off ulp_lanes's paths (ulp_distance_dd on that lane's component).

// A reference quaternion broadcast: component i's double-double in every lane.
struct Bcast {
    V4 c[4];
};
QC_V Bcast broadcast(const DDQuat &q) {
    Bcast b;
    for (int i = 0; i < 4; i++) b.c[i] = {_mm256_set1_pd(q[i].hi), _mm256_set1_pd(q[i].lo)};
    return b;
}
QC_V Bcast blend(const Bcast &a, const Bcast &b, __m256d mask) {
    Bcast r;
    for (int i = 0; i < 4; i++) r.c[i] = blend(a.c[i], b.c[i], mask);
    return r;
}

// dd::mul(x, y) (DWTimesDW3) lane by lane, in its order: x the norm, y the reference's component.
QC_V V4 mul(const V4 &x, const V4 &y) {
    const V4 c = two_prod(x.hi, y.hi);
    const __m256d tl0 = _mm256_mul_pd(x.lo, y.lo);
    const __m256d tl1 = _mm256_fmadd_pd(x.hi, y.lo, tl0);
    const __m256d cl2 = _mm256_fmadd_pd(x.lo, y.hi, tl1);
    return fast_two_sum(c.hi, _mm256_add_pd(c.lo, cl2));
}

// sum_squares (metrics_dd_internal.h) of four double-doubles d[0..3] per lane, its tree as written there.
QC_V V4 sum_squares4(const V4 d[4]) {
    V4 p[4];
    __m256d c[4];
    const __m256d two = _mm256_set1_pd(2);
    for (int i = 0; i < 4; i++) {
        p[i] = two_prod(d[i].hi, d[i].hi);
        c[i] = _mm256_fmadd_pd(_mm256_mul_pd(two, d[i].hi), d[i].lo, p[i].lo);  // std::fma(2 * hi, lo, p.lo)
    }
    const V4 s01 = two_sum(p[0].hi, p[1].hi), s23 = two_sum(p[2].hi, p[3].hi);
    const V4 s = two_sum(s01.hi, s23.hi);
    const __m256d small = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(c[0], c[1]), _mm256_add_pd(c[2], c[3])),
                                        _mm256_add_pd(_mm256_add_pd(s01.lo, s23.lo), s.lo));
    return fast_two_sum(s.hi, small);
}

// dd::sqrt (SQRTDWtoDW) lane by lane.
QC_V V4 sqrt4(const V4 &x) {
    const __m256d sh = _mm256_sqrt_pd(x.hi);
    const __m256d rho0 = _mm256_fnmadd_pd(sh, sh, x.hi);  // std::fma(-sh, sh, x.hi): the same exact value
    const __m256d rho1 = _mm256_add_pd(x.lo, rho0);
    const __m256d sl = _mm256_div_pd(rho1, _mm256_mul_pd(_mm256_set1_pd(2), sh));
    return fast_two_sum(sh, sl);
}

// angle_dd per lane, in two steps, so that the steps of several groups of four interleave. chords4: the chords of the
// lane's scaled output r (norm n) to v, y the shorter (after measure_dd's swap) and x the longer, and the mask of the
// lanes where s = -1.
struct Chords {
    __m256d y, x, sneg;
};
QC_V Chords chords4(const __m256d r[4], const V4 &n, const Bcast &v) {
    const __m256d zero = _mm256_setzero_pd();
    V4 dm[4], dp[4];
    for (int i = 0; i < 4; i++) {
        const V4 nv = mul(n, v.c[i]);
        dm[i] = add_abs({r[i], zero}, {vneg(nv.hi), vneg(nv.lo)});
        dp[i] = add_abs({r[i], zero}, nv);
    }
    const V4 um = sum_squares4(dm), up = sum_squares4(dp);
    // greater(um, up): s = -1, and the two swap.
    const __m256d sneg =
        _mm256_or_pd(_mm256_cmp_pd(um.hi, up.hi, _CMP_GT_OQ),
                     _mm256_and_pd(_mm256_cmp_pd(um.hi, up.hi, _CMP_EQ_OQ), _mm256_cmp_pd(um.lo, up.lo, _CMP_GT_OQ)));
    const V4 a = blend(um, up, sneg), b = blend(up, um, sneg);
    return {_mm256_sqrt_pd(_mm256_add_pd(a.hi, a.lo)), _mm256_sqrt_pd(_mm256_add_pd(b.hi, b.lo)), sneg};
}
// atan_correction and atan_middle of metrics_dd_internal.h in the lanes: the same operations.
// `low`: false drops the quotient's low word (the negative control lanes_atan_low_word_dropped).
QC_V __m256d atan_middle4(__m256d y, __m256d x, __m256d qh, bool low) {
    const __m256d ql = low ? _mm256_div_pd(_mm256_fnmadd_pd(qh, x, y), x) : _mm256_setzero_pd();
    const __m256d t = _mm256_mul_pd(qh, qh), m = vneg(t);
    __m256d p = _mm256_set1_pd(kAtanSeries[kAtanTerms - 1]);
    for (int k = kAtanTerms - 2; k >= 0; k--) p = _mm256_fmadd_pd(p, m, _mm256_set1_pd(kAtanSeries[k]));
    return _mm256_add_pd(qh, _mm256_fnmadd_pd(_mm256_mul_pd(qh, t), p, ql));
}
// 4 atan2_chords(y, x): q - q^3/3 where q = y/x < 2^-20, atan_middle where y < x/4, else atan2_chords itself in that
// lane (atan_high, rare here). `live`: the lanes whose results are used (the others skip the call).
QC_V __m256d atan4(const Chords &c, int live, MetricDamage damage) {
    const __m256d q = _mm256_div_pd(c.y, c.x);
    const __m256d q3 = _mm256_div_pd(_mm256_mul_pd(_mm256_mul_pd(q, q), q), _mm256_set1_pd(3));
    __m256d t = _mm256_sub_pd(q, q3);
    const __m256d series_v = _mm256_cmp_pd(q, _mm256_set1_pd(kAtanSeriesLo), _CMP_LT_OQ);
    const __m256d below_quarter = _mm256_cmp_pd(c.y, _mm256_mul_pd(_mm256_set1_pd(0.25), c.x), _CMP_LT_OQ);
    const int series = _mm256_movemask_pd(series_v);
    const int middle = _mm256_movemask_pd(below_quarter) & ~series & live;
    if (middle)
        t = _mm256_blendv_pd(t, atan_middle4(c.y, c.x, q, damage != MetricDamage::lanes_atan_low_word_dropped),
                             _mm256_andnot_pd(series_v, below_quarter));
    const int slow = ~(series | middle) & live;
    if (slow) {
        alignas(32) double tt[4], yy[4], xx[4];
        _mm256_store_pd(tt, t), _mm256_store_pd(yy, c.y), _mm256_store_pd(xx, c.x);
        for (int j = 0; j < 4; j++)
            if (slow >> j & 1) tt[j] = atan2_chords(yy[j], xx[j]);
        t = _mm256_load_pd(tt);
    }
    return _mm256_mul_pd(_mm256_set1_pd(4), t);
}

// The reference of a batch, broadcast once for its groups of four.
struct Refs {
    Bcast R, N, Ro, No;
};

// One group of four outputs between the stages of measure_groups.
struct Group {
    __m256d y[4];   // component i of the four outputs (a scalar lane's output replaced by (1, 0, 0, 0))
    __m256d r[4];   // scaled: y[i] 2^-k
    __m256i bias;   // k + 1023 (the biased exponent of the largest |y_i|)
    int live;       // the lanes measured here (the others by measure_dd)
    V4 n, n_angle;  // |r|, and |r| as the angles use it (damaged for the negative controls)
    Chords c;
    __m256d angle, sneg, other_arc;  // s = -1 lanes; lanes measured against the other arc
    int nlerp_lanes;
};

// Loads out[0..3] into g (the transpose, the scalar lanes, the scaling); the outputs measure_dd takes whole
// (a component not below inf, NaN included, or the largest |y_i| zero, subnormal or >= 2^1023) are measured here.
QC_V void load_group(const double (*out)[4], const Op *ops, const DDQuat &R, const DDQuat &N, const DDQuat &R_other,
                     const DDQuat &N_other, bool in_tie_band, Precision precision, bool angle_only, CaseMetrics *res,
                     Group &g) {
    const __m256d zero = _mm256_setzero_pd();
    __m256d y[4];
    const __m256d a = _mm256_loadu_pd(out[0]), b = _mm256_loadu_pd(out[1]), c = _mm256_loadu_pd(out[2]),
                  d = _mm256_loadu_pd(out[3]);
    const __m256d t0 = _mm256_unpacklo_pd(a, b), t1 = _mm256_unpackhi_pd(a, b), t2 = _mm256_unpacklo_pd(c, d),
                  t3 = _mm256_unpackhi_pd(c, d);
    y[0] = _mm256_permute2f128_pd(t0, t2, 0x20), y[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    y[2] = _mm256_permute2f128_pd(t0, t2, 0x31), y[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
    const __m256d inf = _mm256_set1_pd(INFINITY);
    __m256d finite = _mm256_cmp_pd(vabs(y[0]), inf, _CMP_LT_OQ);
    for (int i = 1; i < 4; i++) finite = _mm256_and_pd(finite, _mm256_cmp_pd(vabs(y[i]), inf, _CMP_LT_OQ));
    // scale_output's maximum: std::max from +0 over the |y_i| (the same value in any order; no NaN in a live lane).
    const __m256d mx = _mm256_max_pd(_mm256_max_pd(vabs(y[0]), vabs(y[1])), _mm256_max_pd(vabs(y[2]), vabs(y[3])));
    const __m256i biased = _mm256_srli_epi64(_mm256_castpd_si256(mx), 52);
    const __m256i bad_exp = _mm256_or_si256(_mm256_cmpeq_epi64(biased, _mm256_setzero_si256()),
                                            _mm256_cmpgt_epi64(biased, _mm256_set1_epi64x(2045)));
    const __m256d scalar =
        _mm256_or_pd(_mm256_xor_pd(finite, _mm256_castsi256_pd(_mm256_set1_epi64x(-1))), _mm256_castsi256_pd(bad_exp));
    const int scalar_lanes = _mm256_movemask_pd(scalar);
    g.live = ~scalar_lanes & 0xf;
    for (int j = 0; j < 4; j++)
        if (scalar_lanes >> j & 1)
            res[j] = measure_dd(out[j], R, N, R_other, N_other, in_tie_band, ops[j], precision, angle_only);
    g.nlerp_lanes = 0;
    for (int j = 0; j < 4; j++) g.nlerp_lanes |= int(ops[j] == Op::nlerp) << j;
    g.nlerp_lanes &= g.live;
    // A scalar lane computes on as the output (1, 0, 0, 0), harmlessly; its results are not stored.
    g.bias = _mm256_blendv_epi8(biased, _mm256_set1_epi64x(1023), _mm256_castpd_si256(scalar));
    g.y[0] = _mm256_blendv_pd(y[0], _mm256_set1_pd(1), scalar);
    for (int i = 1; i < 4; i++) g.y[i] = _mm256_blendv_pd(y[i], zero, scalar);
    // scale_output: y_i 2^-k, k = biased - 1023 (2^-k a normal power of two, 2^(2046 - biased)).
    const __m256d down = _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_sub_epi64(_mm256_set1_epi64x(2046), g.bias), 52));
    for (int i = 0; i < 4; i++) g.r[i] = _mm256_mul_pd(g.y[i], down);
}

// The component errors of the groups' live lanes against s R (R_other on the other arc): x = +-R_i, y = the
// component; the largest ulp distance and the largest |x - y| / eps per lane (measure_groups).
template <int G> QC_V void group_component_errors(Group (&g)[G], const Refs &refs, bool in_tie_band, int p, int emin,
                                                  double eps, MetricDamage damage, double (&ulp)[G][4],
                                                  double (&ulp1)[G][4]) {
    const __m256d zero = _mm256_setzero_pd();
    for (int k = 0; k < G; k++) {
        const Bcast tr = in_tie_band ? blend(refs.R, refs.Ro, g[k].other_arc) : refs.R;
        const __m256d flip = _mm256_and_pd(g[k].sneg, sign_bits());
        __m256d max_ulp = zero, max_abs = zero;
        for (int i = 0; i < 4; i++) {
            const V4 x{_mm256_xor_pd(tr.c[i].hi, flip), _mm256_xor_pd(tr.c[i].lo, flip)};
            __m256d u;
            const int slow = ulp_lanes(x, g[k].y[i], p, emin, damage, u) & g[k].live;
            if (slow) {
                alignas(32) double uu[4], xh[4], xl[4], yy[4];
                _mm256_store_pd(uu, u);
                _mm256_store_pd(xh, x.hi), _mm256_store_pd(xl, x.lo), _mm256_store_pd(yy, g[k].y[i]);
                for (int j = 0; j < 4; j++)
                    if (slow >> j & 1) uu[j] = ulp_distance_dd(DD{xh[j], xl[j]}, yy[j], p, emin);
                u = _mm256_load_pd(uu);
            }
            const V4 d = add(x, vneg(g[k].y[i]));
            // std::max(acc, v) = acc < v ? v : acc = _mm256_max_pd(v, acc) (the same for zeros of either sign).
            max_ulp = _mm256_max_pd(u, max_ulp);
            max_abs = _mm256_max_pd(vabs(_mm256_add_pd(d.hi, d.lo)), max_abs);
        }
        _mm256_store_pd(ulp[k], max_ulp);
        _mm256_store_pd(ulp1[k], _mm256_div_pd(max_abs, _mm256_set1_pd(eps)));
    }
}

// Every live lane's figures into its CaseMetrics (measure_groups).
template <int G> QC_V void store_results(const Group (&g)[G], const double (&a)[G][4], const double (&norm_err)[G][4],
                                         const double (&nlerp)[G][4], const double (&ulp)[G][4],
                                         const double (&ulp1)[G][4], bool angle_only, CaseMetrics *res) {
    for (int k = 0; k < G; k++) {
        const int other_lanes = _mm256_movemask_pd(g[k].other_arc);
        for (int j = 0; j < 4; j++) {
            if (!(g[k].live >> j & 1)) continue;
            CaseMetrics &m = res[4 * k + j];
            m = CaseMetrics();
            m.angle_err_rad = a[k][j];
            m.branch_disagree = other_lanes >> j & 1;
            if (angle_only) continue;
            m.norm_err_ulp1 = norm_err[k][j];
            m.angle_err_vs_nlerp_rad = nlerp[k][j];
            m.ulp = ulp[k][j];
            m.ulp1 = ulp1[k][j];
        }
    }
}

// measure_dd of the G groups of four outputs out[0..4G) (ops alike) into res[0..4G), one output per lane; every
// stage a loop over the groups. (measure_dd_avx2_outputs_batch uses G = 1: see there.)
template <int G> QC_V void measure_groups(const double (*out)[4], const Op *ops, const Refs &refs, const DDQuat &R,
                                          const DDQuat &N, const DDQuat &R_other, const DDQuat &N_other,
                                          bool in_tie_band, Precision precision, bool angle_only, MetricDamage damage,
                                          CaseMetrics *res) {
    const int p = precision_bits(precision);
    const int emin = precision == Precision::f32 ? Format<float>::emin : Format<double>::emin;
    const double eps = precision_eps(precision);
    const __m256d zero = _mm256_setzero_pd();
    Group g[G];
    int any = 0;
    for (int k = 0; k < G; k++) {
        load_group(out + 4 * k, ops + 4 * k, R, N, R_other, N_other, in_tie_band, precision, angle_only, res + 4 * k,
                   g[k]);
        any |= g[k].live;
    }
    if (!any) return;
    // n = sqrt(sum_squares({r_i, 0})) (scale_output).
    for (int k = 0; k < G; k++) {
        const V4 rs[4] = {{g[k].r[0], zero}, {g[k].r[1], zero}, {g[k].r[2], zero}, {g[k].r[3], zero}};
        g[k].n = sqrt4(sum_squares4(rs));
        g[k].n_angle = g[k].n;
        if (damage == MetricDamage::avx2_norm_low_word_dropped) g[k].n_angle.lo = zero;
        if (damage == MetricDamage::avx2_batch_lane) g[k].n_angle.lo = _mm256_blend_pd(g[k].n_angle.lo, zero, 0x2);
    }
    // The angle against R, and against R_other in the tie band (taken where smaller).
    for (int k = 0; k < G; k++) g[k].c = chords4(g[k].r, g[k].n_angle, refs.R);
    for (int k = 0; k < G; k++) g[k].angle = atan4(g[k].c, g[k].live, damage), g[k].sneg = g[k].c.sneg;
    for (int k = 0; k < G; k++) g[k].other_arc = zero;
    if (in_tie_band) {
        for (int k = 0; k < G; k++) g[k].c = chords4(g[k].r, g[k].n_angle, refs.Ro);
        for (int k = 0; k < G; k++) {
            const __m256d other = atan4(g[k].c, g[k].live, damage);
            g[k].other_arc = _mm256_cmp_pd(other, g[k].angle, _CMP_LT_OQ);
            g[k].angle = _mm256_blendv_pd(g[k].angle, other, g[k].other_arc);
            g[k].sneg = _mm256_blendv_pd(g[k].sneg, g[k].c.sneg, g[k].other_arc);
        }
    }
    alignas(32) double a[G][4], norm_err[G][4], nlerp[G][4], ulp[G][4], ulp1[G][4];
    for (int k = 0; k < G; k++) _mm256_store_pd(a[k], g[k].angle);
    if (!angle_only) {
        const __m256d inf = _mm256_set1_pd(INFINITY);
        // norm_error: {n.hi 2^k, n.lo 2^k} - 1 by DWPlusFP, rounded, |.| / eps; inf where |r| overflows.
        for (int k = 0; k < G; k++) {
            const __m256d upk = _mm256_castsi256_pd(_mm256_slli_epi64(g[k].bias, 52));
            const V4 norm{_mm256_mul_pd(g[k].n.hi, upk), _mm256_mul_pd(g[k].n.lo, upk)};
            const V4 m1 = add(norm, _mm256_set1_pd(-1.0));
            const __m256d ne = _mm256_div_pd(vabs(_mm256_add_pd(m1.hi, m1.lo)), _mm256_set1_pd(eps));
            _mm256_store_pd(norm_err[k], _mm256_blendv_pd(inf, ne, _mm256_cmp_pd(vabs(norm.hi), inf, _CMP_LT_OQ)));
        }
        // The angle against the exact nlerp (N, or N_other on the other arc), in the nlerp lanes.
        for (int k = 0; k < G; k++)
            if (g[k].nlerp_lanes) {
                const Bcast tn = in_tie_band ? blend(refs.N, refs.No, g[k].other_arc) : refs.N;
                g[k].c = chords4(g[k].r, g[k].n_angle, tn);
            }
        for (int k = 0; k < G; k++) {
            if (g[k].nlerp_lanes) _mm256_store_pd(nlerp[k], atan4(g[k].c, g[k].nlerp_lanes, damage));
            for (int j = 0; j < 4; j++)
                if (!(g[k].nlerp_lanes >> j & 1)) nlerp[k][j] = std::numeric_limits<double>::quiet_NaN();
        }
        group_component_errors<G>(g, refs, in_tie_band, p, emin, eps, damage, ulp, ulp1);
    }
    store_results<G>(g, a, norm_err, nlerp, ulp, ulp1, angle_only, res);
}

}  // namespace

__attribute__((target("avx2,fma"))) void measure_dd_avx2_outputs_batch(const double (*out)[4], const Op *ops, size_t n,
                                                                       const DDQuat &R, const DDQuat &N,
                                                                       const DDQuat &R_other, const DDQuat &N_other,
                                                                       bool in_tie_band, Precision precision,
                                                                       bool angle_only, MetricDamage damage,
                                                                       CaseMetrics *m) {
    const size_t whole = n / 4 * 4;
    if (whole) {
        Refs refs;
        refs.R = broadcast(R), refs.N = broadcast(N);
        if (in_tie_band) refs.Ro = broadcast(R_other), refs.No = broadcast(N_other);
        else refs.Ro = refs.R, refs.No = refs.N;
        // One group at a time: measure_groups<2> (two groups' stages interleaved) measured slower on this machine, by
        // 2 to 6 ns per output (its disassembly shows much more stack traffic between the stages).
        for (size_t i = 0; i < whole; i += 4)
            measure_groups<1>(out + i, ops + i, refs, R, N, R_other, N_other, in_tie_band, precision, angle_only,
                              damage, m + i);
    }
    // The tail, fewer than four outputs: the per-output kernel.
    if (whole < n)
        measure_dd_avx2_batch(out + whole, ops + whole, n - whole, R, N, R_other, N_other, in_tie_band, precision,
                              angle_only, damage, m + whole);
}

__attribute__((target("avx2,fma"))) void measure_dd_avx2_batch(const double (*out)[4], const Op *ops, size_t n,
                                                               const DDQuat &R, const DDQuat &N, const DDQuat &R_other,
                                                               const DDQuat &N_other, bool in_tie_band,
                                                               Precision precision, bool angle_only,
                                                               MetricDamage damage, CaseMetrics *m) {
    for (size_t i = 0; i < n; i += kBlock)
        measure_block(out + i, ops + i, int(std::min<size_t>(kBlock, n - i)), R, N, R_other, N_other, in_tie_band,
                      precision, angle_only, damage, m + i);
}

__attribute__((target("avx2,fma"))) CaseMetrics measure_dd_avx2(const double out[4], const DDQuat &R, const DDQuat &N,
                                                                const DDQuat &R_other, const DDQuat &N_other,
                                                                bool in_tie_band, Op op, Precision precision,
                                                                bool angle_only, MetricDamage damage) {
    CaseMetrics m;
    measure_block(reinterpret_cast<const double(*)[4]>(out), &op, 1, R, N, R_other, N_other, in_tie_band, precision,
                  angle_only, damage, &m);
    return m;
}

bool avx2_kernel_supported() {
    static const bool cpu = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return cpu;
}

#else

CaseMetrics measure_dd_avx2(const double out[4], const DDQuat &R, const DDQuat &N, const DDQuat &R_other,
                            const DDQuat &N_other, bool in_tie_band, Op op, Precision precision, bool angle_only,
                            MetricDamage) {
    return measure_dd(out, R, N, R_other, N_other, in_tie_band, op, precision, angle_only);
}
void measure_dd_avx2_batch(const double (*out)[4], const Op *ops, size_t n, const DDQuat &R, const DDQuat &N,
                           const DDQuat &R_other, const DDQuat &N_other, bool in_tie_band, Precision precision,
                           bool angle_only, MetricDamage, CaseMetrics *m) {
    for (size_t j = 0; j < n; j++)
        m[j] = measure_dd(out[j], R, N, R_other, N_other, in_tie_band, ops[j], precision, angle_only);
}
void measure_dd_avx2_outputs_batch(const double (*out)[4], const Op *ops, size_t n, const DDQuat &R, const DDQuat &N,
                                   const DDQuat &R_other, const DDQuat &N_other, bool in_tie_band, Precision precision,
                                   bool angle_only, MetricDamage damage, CaseMetrics *m) {
    measure_dd_avx2_batch(out, ops, n, R, N, R_other, N_other, in_tie_band, precision, angle_only, damage, m);
}
bool avx2_kernel_supported() { return false; }

#endif

}  // namespace qc::metrics_detail
