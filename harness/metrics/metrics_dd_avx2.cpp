// The fast metric engine's AVX2 kernel: measure_dd (metrics_dd.cpp) with the four components of a quaternion in
// the four lanes of a vector. Every lane does the scalar kernel's operations on its component, in the same
// order, and the sums over the components (the squared norm and chords) add in the scalar kernel's tree order,
// so every result is the same double, bit for bit (IEEE operations and fma are correctly rounded in both; this
// file is compiled with -ffp-contract=off like every other). What stays scalar is the same code
// (metrics_dd_internal.h): the square root of the norm, the norm error, the final atan2.
//
// ulp distances: the scalar kernel's common case, x = s R_i and y = r_i of one sign in one binade (ulp_distance_dd's
// middle branch: |x - y| / spacing, exact, rounded up), and a zero against a zero, are done in all four lanes; a
// lane outside them (crossing a power of two, a zero against a nonzero, opposite signs, a binade below
// 2^(p-1024) or emin) takes ulp_distance_dd itself.
// Whole outputs that are non-finite, zero, subnormal at their largest component or at least 2^1023 go to
// measure_dd (scale_output's exponent and scaling would leave the plain multiplication by a power of two).
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

// The component errors against x = s R: max_i ulp_distance_dd(x_i, y_i) and max_i |x_i - y_i| (dd::add, rounded).
QC_V void component_errors(const V4 &x, __m256d y, int p, int emin, MetricDamage damage, double &max_ulp,
                           double &max_abs) {
    const __m256d zero = _mm256_setzero_pd();
    const V4 d = add(x, vneg(y));
    max_abs = max_lane(vabs(_mm256_add_pd(d.hi, d.lo)));

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
    // round_up: RN(hi + lo), one double up where the remainder is positive and the sum finite.
    const V4 dist = fast_two_sum(_mm256_mul_pd(diff.hi, spacing_inv), _mm256_mul_pd(diff.lo, spacing_inv));
    __m256d up = _mm256_and_pd(_mm256_cmp_pd(dist.lo, zero, _CMP_GT_OQ),
                               _mm256_cmp_pd(vabs(dist.hi), _mm256_set1_pd(INFINITY), _CMP_NEQ_OQ));
    if (damage == MetricDamage::avx2_ulp_rounded_to_nearest) up = zero;
    __m256i ulps = _mm256_sub_epi64(_mm256_castpd_si256(dist.hi), _mm256_castpd_si256(up));  // +1 where up
    // Also exact zeros on both sides (R_i = 0 and r_i = +-0, common in the axis-aligned regions): ulp_distance_dd
    // gives a zero there (of either sign), which the maximum from +0 never takes; +0 here.
    const __m256d both_zero =
        _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(x.hi, zero, _CMP_EQ_OQ), _mm256_cmp_pd(x.lo, zero, _CMP_EQ_OQ)),
                      _mm256_cmp_pd(y, zero, _CMP_EQ_OQ));
    ulps = _mm256_andnot_si256(_mm256_castpd_si256(both_zero), ulps);
    const __m256i ok = _mm256_or_si256(same_binade, _mm256_castpd_si256(both_zero));

    const int slow = ~_mm256_movemask_pd(_mm256_castsi256_pd(ok)) & 0xf;
    if (!slow) {
        max_ulp = max_lane(_mm256_castsi256_pd(ulps));
        return;
    }
    alignas(32) double u[4], xh[4], xl[4], yy[4];
    _mm256_store_pd(u, _mm256_castsi256_pd(ulps));
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

}  // namespace

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
bool avx2_kernel_supported() { return false; }

#endif

}  // namespace qc::metrics_detail
