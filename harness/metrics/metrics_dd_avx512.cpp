// The fast metric engine's eight-output kernel (issue 45): measure_batch's outputs eight at a time, output j of a
// group in lane j of AVX-512 vectors, each lane doing measure_dd's operations (metrics_dd.cpp) on its output in
// measure_dd's order, so that every lane's CaseMetrics is the scalar kernel's, bit for bit (IEEE operations and fma
// are correctly rounded per lane; -ffp-contract=off as everywhere). It is the four-output AVX2 kernel
// (metrics_dd_avx2.cpp, measure_dd_avx2_outputs_batch) at twice the width, with mask registers for its lane masks;
// the rare cases go to the same scalar code lane by lane: an output measure_dd takes whole (non-finite, zero, subnormal
// or >= 2^1023 at its largest component), a chord ratio above 1 or NaN (libm's atan2 on that lane's chords, as
// atan2_chords; the chords do not give one), a component off ulp_lanes8's paths (ulp_distance_dd on that lane's
// component: subnormal or zero against nonzero, or the smallest binades).
//
// Two changes of form that give the same doubles: a division by eps = 2^(1-p) is a multiplication by 2^(p-1) (both
// are the exact quotient, rounded once: the same double, inf included on overflow; no underflow, the quotient is larger
// than the dividend); and x - r_i, formed once per component, serves both the ulp distance and |x - r_i| (see
// component_errors8).
//
// Compiled for AVX-512 by function attributes, as metrics_dd_avx2.cpp for AVX2 and for the same reason: flags for
// the whole file would let an inline function of a header be emitted here with AVX-512 instructions for the rest of
// the program to link against. Called only where avx512_kernel_supported() (MetricEngine::measure_batch).
#include "metrics/metrics_dd_internal.h"

#include <cstddef>

#if defined(__x86_64__) && defined(__GNUC__)
#define QC_METRICS_AVX512 1
// GCC 12's AVX-512 intrinsics pass a self-initialised _mm512_undefined_pd() as the unused source operand of their
// builtins, which -Wmaybe-uninitialized reports where they are inlined: not a read of anything.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#endif

namespace qc::metrics_detail {

#if QC_METRICS_AVX512

#define QC_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))
#define QC_Z QC_TARGET_AVX512 __attribute__((always_inline)) inline

namespace {

using M8 = __mmask8;  // bit j: lane j

struct Z {
    __m512d hi, lo;  // lane j: one double-double quantity of output j
};

QC_Z __m512d zset(double x) { return _mm512_set1_pd(x); }
QC_Z __m512d zzero() { return _mm512_setzero_pd(); }
QC_Z __m512d zneg(__m512d x) { return _mm512_xor_pd(x, zset(-0.0)); }
QC_Z __m512d zabs(__m512d x) { return _mm512_andnot_pd(zset(-0.0), x); }
QC_Z __m512d zbits(__m512i x) { return _mm512_castsi512_pd(x); }
QC_Z __m512i ibits(__m512d x) { return _mm512_castpd_si512(x); }
QC_Z Z zneg(const Z &x) { return {zneg(x.hi), zneg(x.lo)}; }
// Per lane, b where the lane's bit of m is set, else a.
QC_Z Z blend(M8 m, const Z &a, const Z &b) {
    return {_mm512_mask_blend_pd(m, a.hi, b.hi), _mm512_mask_blend_pd(m, a.lo, b.lo)};
}

// dd.h's error-free transformations and double-word operations, lane by lane (the same operations in the same order).
QC_Z Z two_sum(__m512d a, __m512d b) {
    const __m512d s = _mm512_add_pd(a, b), bb = _mm512_sub_pd(s, a);
    return {s, _mm512_add_pd(_mm512_sub_pd(a, _mm512_sub_pd(s, bb)), _mm512_sub_pd(b, bb))};
}
QC_Z Z fast_two_sum(__m512d a, __m512d b) {
    const __m512d s = _mm512_add_pd(a, b);
    return {s, _mm512_sub_pd(b, _mm512_sub_pd(s, a))};
}
QC_Z Z two_prod(__m512d a, __m512d b) {
    const __m512d p = _mm512_mul_pd(a, b);
    return {p, _mm512_fmsub_pd(a, b, p)};  // std::fma(a, b, -p)
}
// dd::mul(x, y) (DWTimesDW3): x the norm, y the reference's component.
QC_Z Z mul(const Z &x, const Z &y) {
    const Z c = two_prod(x.hi, y.hi);
    const __m512d tl0 = _mm512_mul_pd(x.lo, y.lo);
    const __m512d tl1 = _mm512_fmadd_pd(x.hi, y.lo, tl0);
    const __m512d cl2 = _mm512_fmadd_pd(x.lo, y.hi, tl1);
    return fast_two_sum(c.hi, _mm512_add_pd(c.lo, cl2));
}
// dd::add_abs(x, y) for x = {r, 0}.
QC_Z Z add_abs(__m512d r, const Z &y) {
    const Z s = two_sum(r, y.hi);
    const __m512d v = _mm512_add_pd(zzero(), y.lo);  // x.lo + y.lo (0 + -0 is +0: kept)
    return two_sum(s.hi, _mm512_add_pd(s.lo, v));
}
// dd::add(x, y) (DWPlusFP) for y a double per lane.
QC_Z Z add(const Z &x, __m512d y) {
    const Z s = two_sum(x.hi, y);
    return fast_two_sum(s.hi, _mm512_add_pd(x.lo, s.lo));
}

// dd::add(x, y) (AccurateDWPlusDW) for two double-doubles per lane.
QC_Z Z add(const Z &x, const Z &y) {
    const Z st = two_sum(x.hi, y.hi), t = two_sum(x.lo, y.lo);
    const Z v = fast_two_sum(st.hi, _mm512_add_pd(st.lo, t.hi));
    return fast_two_sum(v.hi, _mm512_add_pd(t.lo, v.lo));
}

// sum_squares (metrics_dd_internal.h) of four double-doubles d[0..3] per lane, its tree as written there.
QC_Z Z sum_squares8(const Z d[4]) {
    Z p[4];
    __m512d c[4];
    for (int i = 0; i < 4; i++) {
        p[i] = two_prod(d[i].hi, d[i].hi);
        c[i] = _mm512_fmadd_pd(_mm512_mul_pd(zset(2), d[i].hi), d[i].lo, p[i].lo);  // std::fma(2 * hi, lo, p.lo)
    }
    const Z s01 = two_sum(p[0].hi, p[1].hi), s23 = two_sum(p[2].hi, p[3].hi);
    const Z s = two_sum(s01.hi, s23.hi);
    const __m512d small = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(c[0], c[1]), _mm512_add_pd(c[2], c[3])),
                                        _mm512_add_pd(_mm512_add_pd(s01.lo, s23.lo), s.lo));
    return fast_two_sum(s.hi, small);
}

// dd::sqrt (SQRTDWtoDW) lane by lane.
QC_Z Z sqrt8(const Z &x) {
    const __m512d sh = _mm512_sqrt_pd(x.hi);
    const __m512d rho0 = _mm512_fnmadd_pd(sh, sh, x.hi);  // std::fma(-sh, sh, x.hi): the same exact value
    const __m512d rho1 = _mm512_add_pd(x.lo, rho0);
    const __m512d sl = _mm512_div_pd(rho1, _mm512_mul_pd(zset(2), sh));
    return fast_two_sum(sh, sl);
}

// A reference quaternion broadcast: component i's double-double in every lane.
struct Bcast8 {
    Z c[4];
};
QC_Z Bcast8 broadcast8(const DDQuat &q) {
    Bcast8 b;
    for (int i = 0; i < 4; i++) b.c[i] = {zset(q[i].hi), zset(q[i].lo)};
    return b;
}
QC_Z Bcast8 blend(M8 m, const Bcast8 &a, const Bcast8 &b) {
    Bcast8 r;
    for (int i = 0; i < 4; i++) r.c[i] = blend(m, a.c[i], b.c[i]);
    return r;
}

// angle_dd per lane in two steps (chords8, atan8): the chords of the lane's scaled output r (norm n) to v, y the
// shorter (after measure_dd's swap) and x the longer, and the lanes where s = -1.
struct Chords8 {
    __m512d y, x;
    M8 sneg;
};
QC_Z Chords8 chords8(const __m512d r[4], const Z &n, const Bcast8 &v) {
    Z dm[4], dp[4];
    for (int i = 0; i < 4; i++) {
        const Z nv = mul(n, v.c[i]);
        dm[i] = add_abs(r[i], zneg(nv));
        dp[i] = add_abs(r[i], nv);
    }
    const Z um = sum_squares8(dm), up = sum_squares8(dp);
    // greater(um, up): s = -1, and the two swap.
    const M8 sneg = _mm512_cmp_pd_mask(um.hi, up.hi, _CMP_GT_OQ) |
                    (_mm512_cmp_pd_mask(um.hi, up.hi, _CMP_EQ_OQ) & _mm512_cmp_pd_mask(um.lo, up.lo, _CMP_GT_OQ));
    const Z a = blend(sneg, um, up), b = blend(sneg, up, um);
    return {_mm512_sqrt_pd(_mm512_add_pd(a.hi, a.lo)), _mm512_sqrt_pd(_mm512_add_pd(b.hi, b.lo)), sneg};
}
// The lanes of an angle whose chord ratio is off atan2_chords's ranges, with their chords, for libm's atan2 after
// the vector stages (finish_atan8): a call in the middle of them would save and restore every live vector.
struct Deferred8 {
    alignas(64) double y[8], x[8];
    M8 slow = 0;
};
// atan_correction, atan_middle and atan_high of metrics_dd_internal.h in the lanes: the same operations.
QC_Z __m512d atan_correction8(__m512d h, __m512d l) {
    const __m512d t = _mm512_mul_pd(h, h), m = zneg(t);
    __m512d p = zset(kAtanSeries[kAtanTerms - 1]);
    for (int k = kAtanTerms - 2; k >= 0; k--) p = _mm512_fmadd_pd(p, m, zset(kAtanSeries[k]));
    return _mm512_fnmadd_pd(_mm512_mul_pd(h, t), p, l);  // std::fma(-(h * t), p, l)
}
// `low`: false drops the low words (the quotient's, atan c's) for the negative control (lanes_atan_low_word_dropped).
QC_Z __m512d atan_middle8(__m512d y, __m512d x, __m512d qh, bool low) {
    const __m512d ql = low ? _mm512_div_pd(_mm512_fnmadd_pd(qh, x, y), x) : zzero();
    return _mm512_add_pd(qh, atan_correction8(qh, ql));
}
QC_Z __m512d atan_high8(__m512d y, __m512d x, bool low) {
    const M8 one = _mm512_cmp_pd_mask(y, _mm512_mul_pd(zset(0.75), x), _CMP_GE_OQ);
    const __m512d c = _mm512_mask_mov_pd(zset(0.5), one, zset(1.0));
    const __m512d num = _mm512_sub_pd(y, _mm512_mul_pd(c, x));
    const Z den = two_sum(x, _mm512_mul_pd(c, y));
    const __m512d rh = _mm512_div_pd(num, den.hi);
    const __m512d rl = _mm512_div_pd(_mm512_fnmadd_pd(rh, den.lo, _mm512_fnmadd_pd(rh, den.hi, num)), den.hi);
    const Z a{_mm512_mask_mov_pd(zset(kAtanHalf.hi), one, zset(kQuarterPi.hi)),
              low ? _mm512_mask_mov_pd(zset(kAtanHalf.lo), one, zset(kQuarterPi.lo)) : zzero()};
    const Z s = two_sum(a.hi, rh);
    return _mm512_add_pd(s.hi, _mm512_add_pd(s.lo, _mm512_add_pd(a.lo, atan_correction8(rh, rl))));
}
// 4 atan2_chords(y, x): q - q^3/3 where q = y/x < 2^-20, atan_middle where y < x/4, atan_high where q <= 1, else
// libm's atan2(y, x) in that lane (a ratio above 1 or NaN, which the chords do not give), now or (where `defer` is
// given) in finish_atan8. `live`: the lanes whose results are used (the others skip the libm call).
QC_Z __m512d atan8(const Chords8 &c, M8 live, MetricDamage damage, Deferred8 *defer = nullptr) {
    const bool low = damage != MetricDamage::lanes_atan_low_word_dropped;
    const __m512d q = _mm512_div_pd(c.y, c.x);
    const M8 series = _mm512_cmp_pd_mask(q, zset(kAtanSeriesLo), _CMP_LT_OQ);
    __m512d t = zzero();
    if (series & live) {  // (a group's lanes mostly share a range: its divisions are skipped where none is in it)
        const __m512d q3 = _mm512_div_pd(_mm512_mul_pd(_mm512_mul_pd(q, q), q), zset(3));
        t = _mm512_sub_pd(q, q3);
    }
    const M8 below_quarter = _mm512_cmp_pd_mask(c.y, _mm512_mul_pd(zset(0.25), c.x), _CMP_LT_OQ);
    const M8 middle = M8(below_quarter & ~series & live);
    const M8 high = M8(_mm512_cmp_pd_mask(q, zset(1.0), _CMP_LE_OQ) & ~below_quarter & ~series & live);
    if (middle) t = _mm512_mask_mov_pd(t, middle, atan_middle8(c.y, c.x, q, low));
    if (high) t = _mm512_mask_mov_pd(t, high, atan_high8(c.y, c.x, low));
    const M8 slow = M8(~(series | middle | high) & live);
    if (defer) {
        _mm512_store_pd(defer->y, c.y), _mm512_store_pd(defer->x, c.x);
        defer->slow = slow;
    } else if (slow) {
        alignas(64) double tt[8], yy[8], xx[8];
        _mm512_store_pd(tt, t), _mm512_store_pd(yy, c.y), _mm512_store_pd(xx, c.x);
        for (int j = 0; j < 8; j++)
            if (slow >> j & 1) tt[j] = std::atan2(yy[j], xx[j]);
        t = _mm512_load_pd(tt);
    }
    return _mm512_mul_pd(zset(4), t);
}
// The deferred lanes of atan8 into a[]: 4 atan2(y, x), as atan8 gives it.
QC_Z void finish_atan8(const Deferred8 &d, double a[8]) {
    for (int j = 0; j < 8; j++)
        if (d.slow >> j & 1) a[j] = 4 * std::atan2(d.y[j], d.x[j]);
}

// 2^e per lane for biased exponents E = e + 1023 in [1, 2046], built from its bits.
QC_Z __m512d pow2_biased8(__m512i E) { return zbits(_mm512_slli_epi64(E, 52)); }
// offset(z, e, p, emin) of metrics_dd_internal.h per lane for e >= emin and 2^(p-1-e) normal (the caller's lanes):
// two_sum(z.hi - 2^e, z.lo) scaled by 2^(p-1-e). `E` = e + 1023.
QC_Z Z offset8(const Z &z, __m512i E, int p) {
    const Z f = two_sum(_mm512_sub_pd(z.hi, pow2_biased8(E)), z.lo);
    const __m512d sc = pow2_biased8(_mm512_sub_epi64(_mm512_set1_epi64(p - 1 + 2046), E));  // 2^(p-1-e)
    return {_mm512_mul_pd(f.hi, sc), _mm512_mul_pd(f.lo, sc)};
}
// The nonnegative double-double x rounded up (round_up of metrics_dd_internal.h): Fast2Sum, then one double up where
// the remainder is positive and the sum finite. `damage`: avx2_ulp_rounded_to_nearest skips the step up.
QC_Z __m512d round_up8(const Z &x, MetricDamage damage) {
    const Z s = fast_two_sum(x.hi, x.lo);
    M8 up = _mm512_cmp_pd_mask(s.lo, zzero(), _CMP_GT_OQ) & _mm512_cmp_pd_mask(zabs(s.hi), zset(INFINITY), _CMP_NEQ_OQ);
    if (damage == MetricDamage::avx2_ulp_rounded_to_nearest) up = 0;
    return zbits(_mm512_mask_add_epi64(ibits(s.hi), up, ibits(s.hi), _mm512_set1_epi64(1)));
}

// ulp_distance_dd(x, y) lane by lane on its common path (one sign, one binade: |x - y| / spacing, exact, rounded up),
// for a zero against a zero, and on its two other branches where x.hi and y are normal and their binades at least one
// above the smallest the common path takes (opposite signs: N(a) + N(b); one sign, two binades: the split at the powers
// of two), each by ulp_distance_dd's operations in its order; the lanes off them are returned, their ulps to be taken
// from ulp_distance_dd itself. (An nlerp output's components are measured against the slerp reference, a few per
// cent away, and often straddle a power of two or zero: in the nlerp f32 benchmark, 2.0 million components went to the
// scalar code for 7.2 million outputs measured in lanes, before the two other branches were added here.)
// d = dd::add(x, -y), which the caller needs too: on the fast path a = +-x and b = +-y with one sign, so
// ulp_distance_dd's dd::add(a, -b) is +-d (dd::add commutes with negation, rounding to nearest being symmetric) up to
// the sign of a zero, and its magnitude, d or -d by the sign of the high word, is the same double-double (a zero high
// word: the lanes' zeros of either sign give ulps of +-0, which no maximum from +0 takes).
QC_Z M8 ulp_lanes8(const Z &x, __m512d y, const Z &d, int p, int emin, MetricDamage damage, __m512d &ulps_out) {
    const __m512d zero = zzero();
    const M8 xneg = _mm512_cmp_pd_mask(x.hi, zero, _CMP_LT_OQ), yneg = _mm512_cmp_pd_mask(y, zero, _CMP_LT_OQ);
    // a = |x| (the sign flipped where x.hi < 0, as dd::neg), b = |y|, their biased exponents.
    const __m512d ahi = _mm512_mask_xor_pd(x.hi, xneg, x.hi, zset(-0.0));
    const __m512d alo = _mm512_mask_xor_pd(x.lo, xneg, x.lo, zset(-0.0));
    const __m512i ea = _mm512_srli_epi64(ibits(ahi), 52), eb = _mm512_srli_epi64(ibits(zabs(y)), 52);
    // The fast path (ulp_distance_dd's middle branch, binade() = e for both): one sign, one biased exponent E >= the
    // smallest for which 2^(p-1-e) is a normal power of two and e >= emin, and not a = 2^e - tiny.
    const int e_low = std::max(emin, p - 1024) + 1023;
    const __m512i mant = _mm512_and_si512(ibits(ahi), _mm512_set1_epi64((int64_t(1) << 52) - 1));
    const M8 below_pow2 =
        _mm512_cmp_pd_mask(alo, zero, _CMP_LT_OQ) & _mm512_cmpeq_epi64_mask(mant, _mm512_setzero_si512());
    const M8 same_binade = M8(~((xneg ^ yneg) | below_pow2) & _mm512_cmpeq_epi64_mask(ea, eb) &
                              _mm512_cmpgt_epi64_mask(ea, _mm512_set1_epi64(e_low - 1)));
    // |a - b|: d made nonnegative by the sign of its high word, times 2^(p-1-e) (exact), rounded up.
    const M8 dneg = _mm512_cmp_pd_mask(d.hi, zero, _CMP_LT_OQ);
    const Z diff{_mm512_mask_xor_pd(d.hi, dneg, d.hi, zset(-0.0)), _mm512_mask_xor_pd(d.lo, dneg, d.lo, zset(-0.0))};
    const __m512d spacing_inv = zbits(_mm512_slli_epi64(_mm512_sub_epi64(_mm512_set1_epi64(p + 2045), ea), 52));
    __m512i ulps = ibits(round_up8({_mm512_mul_pd(diff.hi, spacing_inv), _mm512_mul_pd(diff.lo, spacing_inv)}, damage));
    // Exact zeros on both sides: ulp_distance_dd gives a zero, which the maximum from +0 never takes; +0 here.
    const M8 both_zero = _mm512_cmp_pd_mask(x.hi, zero, _CMP_EQ_OQ) & _mm512_cmp_pd_mask(x.lo, zero, _CMP_EQ_OQ) &
                         _mm512_cmp_pd_mask(y, zero, _CMP_EQ_OQ);
    ulps = _mm512_maskz_mov_epi64(M8(~both_zero), ulps);
    M8 done = same_binade | both_zero;
    // The two other branches, where a.hi and b are normal with biased exponents above e_low (binade() is then the
    // exponent, one less for a = 2^e - tiny, and at least emin; offsets and 2^(p-1-e) normal).
    const __m512i above = _mm512_set1_epi64(e_low);
    const M8 general =
        M8(~done & _mm512_cmpgt_epi64_mask(ea, above) & _mm512_cmpgt_epi64_mask(eb, above) &
           _mm512_cmplt_epi64_mask(ea, _mm512_set1_epi64(2047)) & _mm512_cmplt_epi64_mask(eb, _mm512_set1_epi64(2047)));
    if (general) {
        const __m512i Ea = _mm512_mask_sub_epi64(ea, below_pow2, ea, _mm512_set1_epi64(1));  // binade(a) + 1023
        const Z a{ahi, alo}, bz{zabs(y), zero};
        const M8 opposite = xneg ^ yneg, two_binades = M8(~opposite & _mm512_cmpneq_epi64_mask(Ea, eb));
        const __m512d steps = zset(pow2(p - 1));  // binade_steps
        const Z oa = offset8(a, Ea, p), ob = offset8(bz, eb, p);
        Z dist_opp{zero, zero}, dist_two{zero, zero};
        if (opposite & general) {
            // N(a) + N(b), N(z) = (e - emin + 1) 2^(p-1) + offset(z).
            const __m512i base =
                _mm512_set1_epi64(1023 + emin - (damage == MetricDamage::lanes_ulp_split_swapped ? 0 : 1));
            // (E - base = e - emin + 1)
            const Z na = add(oa, _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_sub_epi64(Ea, base)), steps));
            const Z nb = add(ob, _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_sub_epi64(eb, base)), steps));
            dist_opp = add(na, nb);
        }
        if (two_binades & general) {
            // offset(high) + |ea - eb| 2^(p-1) - offset(low).
            const M8 a_high = _mm512_cmpgt_epi64_mask(Ea, eb);
            const M8 h = damage == MetricDamage::lanes_ulp_split_swapped ? M8(~a_high) : a_high;
            const Z oh = blend(h, ob, oa), ol = blend(h, oa, ob);
            const __m512i gap = _mm512_abs_epi64(_mm512_sub_epi64(Ea, eb));
            dist_two = add(add(oh, _mm512_mul_pd(_mm512_cvtepi64_pd(gap), steps)), zneg(ol));
        }
        const M8 take = M8(general & (opposite | two_binades));
        const Z dist = blend(opposite, dist_two, dist_opp);
        ulps = _mm512_mask_mov_epi64(ulps, take, ibits(round_up8(dist, damage)));
        done |= take;
    }
    ulps_out = zbits(ulps);
    return M8(~done);
}

// One group of eight outputs through the stages of measure_group8.
struct Group8 {
    __m512d y[4];  // component i of the eight outputs (a scalar or absent lane's output replaced by (1, 0, 0, 0))
    __m512d r[4];  // scaled: y[i] 2^-k
    __m512i bias;  // k + 1023 (the biased exponent of the largest |y_i|)
    M8 live;       // the lanes measured here (not: measure_dd's, and the lanes past the batch's end)
    M8 nlerp;      // the live lanes of op nlerp
    Z n, n_angle;  // |r|, and |r| as the angles use it (damaged for the negative controls)
    __m512d angle, nlerp_angle;  // (nlerp_angle: in the nlerp lanes)
    __m512d ulp, ulp1;           // the component errors (not under angle_only)
    M8 sneg, other_arc;          // s = -1; measured against the other arc
    Deferred8 angle_libm, nlerp_libm;
};

// The shared arguments of one batch.
struct Batch8 {
    const DDQuat &R, &N, &R_other, &N_other;
    bool in_tie_band, angle_only;
    Precision precision;
    MetricDamage damage;
};

// Loads the count <= 8 outputs out[0..count) into g (the transpose, the scalar lanes, the scaling); the outputs
// measure_dd takes whole (a component not below inf, NaN included, or the largest |y_i| zero, subnormal or >=
// 2^1023) are measured here.
QC_Z void load_group8(const double (*out)[4], const Op *ops, int count, const Batch8 &b, CaseMetrics *res, Group8 &g) {
    const double *p = out[0];
    const M8 present = M8((1u << count) - 1);
    __m512d v[4];  // outputs 2j and 2j + 1; the absent ones zero (a masked load reads nothing past the batch)
    for (int j = 0; j < 4; j++)
        v[j] = _mm512_maskz_loadu_pd(M8((present >> (2 * j) & 1 ? 0x0f : 0) | (present >> (2 * j + 1) & 1 ? 0xf0 : 0)),
                                     p + 8 * j);
    // Components 0, 1 (idx01) and 2, 3 (idx23) of outputs 0-3 (from v[0], v[1]) and 4-7 (from v[2], v[3]).
    const __m512i idx01 = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13),
                  idx23 = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
    const __m512i lo_halves = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11),
                  hi_halves = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
    const __m512d t0 = _mm512_permutex2var_pd(v[0], idx01, v[1]), t1 = _mm512_permutex2var_pd(v[0], idx23, v[1]);
    const __m512d t2 = _mm512_permutex2var_pd(v[2], idx01, v[3]), t3 = _mm512_permutex2var_pd(v[2], idx23, v[3]);
    __m512d y[4] = {_mm512_permutex2var_pd(t0, lo_halves, t2), _mm512_permutex2var_pd(t0, hi_halves, t2),
                    _mm512_permutex2var_pd(t1, lo_halves, t3), _mm512_permutex2var_pd(t1, hi_halves, t3)};
    M8 finite = 0xff;
    for (int i = 0; i < 4; i++) finite &= _mm512_cmp_pd_mask(zabs(y[i]), zset(INFINITY), _CMP_LT_OQ);
    // scale_output's maximum: std::max from +0 over the |y_i| (the same value in any order; no NaN in a live lane).
    const __m512d mx = _mm512_max_pd(_mm512_max_pd(zabs(y[0]), zabs(y[1])), _mm512_max_pd(zabs(y[2]), zabs(y[3])));
    const __m512i biased = _mm512_srli_epi64(ibits(mx), 52);
    const M8 bad_exp = _mm512_cmpeq_epi64_mask(biased, _mm512_setzero_si512()) |
                       _mm512_cmpgt_epi64_mask(biased, _mm512_set1_epi64(2045));
    const M8 scalar = M8((~finite | bad_exp) & present);
    g.live = M8(present & ~scalar);
    for (int j = 0; j < count; j++)
        if (scalar >> j & 1)
            res[j] =
                measure_dd(out[j], b.R, b.N, b.R_other, b.N_other, b.in_tie_band, ops[j], b.precision, b.angle_only);
    g.nlerp = 0;
    for (int j = 0; j < count; j++) g.nlerp |= M8(int(ops[j] == Op::nlerp) << j);
    g.nlerp &= g.live;
    // A lane not live computes on as the output (1, 0, 0, 0), harmlessly; its results are not stored.
    g.bias = _mm512_mask_blend_epi64(g.live, _mm512_set1_epi64(1023), biased);
    g.y[0] = _mm512_mask_blend_pd(g.live, zset(1), y[0]);
    for (int i = 1; i < 4; i++) g.y[i] = _mm512_maskz_mov_pd(g.live, y[i]);
    // scale_output: y_i 2^-k, k = biased - 1023 (2^-k a normal power of two, 2^(2046 - biased)).
    const __m512d down = zbits(_mm512_slli_epi64(_mm512_sub_epi64(_mm512_set1_epi64(2046), g.bias), 52));
    for (int i = 0; i < 4; i++) g.r[i] = _mm512_mul_pd(g.y[i], down);
}

// The largest ulp distance and the largest |x - y| / eps per lane over the components, x = s R_i (R_other on the
// other arc), y = the output's component; a live lane off the ulp fast path takes ulp_distance_dd.
QC_Z void component_errors8(const Group8 &g, const Batch8 &b, int p, int emin, __m512d &ulp, __m512d &ulp1) {
    const Bcast8 tr = b.in_tie_band ? blend(g.other_arc, broadcast8(b.R), broadcast8(b.R_other)) : broadcast8(b.R);
    __m512d max_ulp = zzero(), max_abs = zzero();
    for (int i = 0; i < 4; i++) {
        const Z x{_mm512_mask_xor_pd(tr.c[i].hi, g.sneg, tr.c[i].hi, zset(-0.0)),
                  _mm512_mask_xor_pd(tr.c[i].lo, g.sneg, tr.c[i].lo, zset(-0.0))};
        const Z d = add(x, zneg(g.y[i]));  // dd::add(x, -r_i)
        __m512d u;
        const M8 slow = ulp_lanes8(x, g.y[i], d, p, emin, b.damage, u) & g.live;
        if (slow) {
            alignas(64) double uu[8], xh[8], xl[8], yy[8];
            _mm512_store_pd(uu, u);
            _mm512_store_pd(xh, x.hi), _mm512_store_pd(xl, x.lo), _mm512_store_pd(yy, g.y[i]);
            for (int j = 0; j < 8; j++)
                if (slow >> j & 1) uu[j] = ulp_distance_dd(DD{xh[j], xl[j]}, yy[j], p, emin);
            u = _mm512_load_pd(uu);
        }
        // std::max(acc, v) = acc < v ? v : acc = _mm512_max_pd(v, acc) (the same for zeros of either sign).
        max_ulp = _mm512_max_pd(u, max_ulp);
        max_abs = _mm512_max_pd(zabs(_mm512_add_pd(d.hi, d.lo)), max_abs);
    }
    ulp = max_ulp;
    ulp1 = _mm512_mul_pd(max_abs, zset(1 / precision_eps(b.precision)));  // / eps, exactly
}

// The angles and the component errors: the angle against R, and against R_other in the tie band (taken where
// smaller), s read off the chords; the component errors against s R; the nlerp lanes' angle against N (N_other on the
// other arc). Outside the tie band (nearly every case) in an order that lets the processor overlap them: the component
// errors need only s, and the angle against N only n, so both go between R's chords and its atan2, and every libm
// atan2 is deferred.
QC_Z void angles8(Group8 &g, const Batch8 &b) {
    // n = sqrt(sum_squares({r_i, 0})) (scale_output).
    const Z rs[4] = {{g.r[0], zzero()}, {g.r[1], zzero()}, {g.r[2], zzero()}, {g.r[3], zzero()}};
    g.n = sqrt8(sum_squares8(rs));
    g.n_angle = g.n;
    if (b.damage == MetricDamage::avx2_norm_low_word_dropped) g.n_angle.lo = zzero();
    if (b.damage == MetricDamage::avx2_batch_lane) g.n_angle.lo = _mm512_mask_mov_pd(g.n_angle.lo, 0x02, zzero());
    if (b.damage == MetricDamage::avx512_batch_lane) g.n_angle.lo = _mm512_mask_mov_pd(g.n_angle.lo, 0x20, zzero());
    g.other_arc = 0;
    if (!b.in_tie_band) {
        const Chords8 c = chords8(g.r, g.n_angle, broadcast8(b.R));
        g.sneg = c.sneg;
        if (g.nlerp && !b.angle_only)
            g.nlerp_angle = atan8(chords8(g.r, g.n_angle, broadcast8(b.N)), g.nlerp, b.damage, &g.nlerp_libm);
        g.angle = atan8(c, g.live, b.damage, &g.angle_libm);
        return;
    }
    Chords8 c = chords8(g.r, g.n_angle, broadcast8(b.R));
    g.angle = atan8(c, g.live, b.damage);
    g.sneg = c.sneg;
    c = chords8(g.r, g.n_angle, broadcast8(b.R_other));
    const __m512d other = atan8(c, g.live, b.damage);
    g.other_arc = _mm512_cmp_pd_mask(other, g.angle, _CMP_LT_OQ);
    g.angle = _mm512_mask_mov_pd(g.angle, g.other_arc, other);
    g.sneg = M8((g.sneg & ~g.other_arc) | (c.sneg & g.other_arc));
    if (b.angle_only) return;
    if (g.nlerp)
        g.nlerp_angle = atan8(chords8(g.r, g.n_angle, blend(g.other_arc, broadcast8(b.N), broadcast8(b.N_other))),
                              g.nlerp, b.damage);
}

// Every live lane's figures into its CaseMetrics (measure_group8), as CaseMetrics() with the figures set: the six
// 8-byte words of a CaseMetrics (the five metrics, then nonfinite = false and branch_disagree in the low bytes of the
// last) written as three 16-byte pairs, from vectors of the eight lanes' words interleaved in pairs (word 2w of lane j
// in the low half of 128-bit lane j / 2 of pair[w][j % 2], word 2w + 1 in its high half). One store per pair instead
// of the fields one by one (about 2 ns an output).
static_assert(sizeof(CaseMetrics) == 48 && offsetof(CaseMetrics, angle_err_rad) == 0 &&
              offsetof(CaseMetrics, ulp) == 8 && offsetof(CaseMetrics, ulp1) == 16 &&
              offsetof(CaseMetrics, norm_err_ulp1) == 24 && offsetof(CaseMetrics, angle_err_vs_nlerp_rad) == 32 &&
              offsetof(CaseMetrics, nonfinite) == 40 && offsetof(CaseMetrics, branch_disagree) == 41);
template <int L> QC_Z void store_lane_pair8(const __m512d (&pair)[3][2], M8 live, CaseMetrics *res) {
    for (int h = 0; h < 2; h++) {
        if (!(live >> (2 * L + h) & 1)) continue;
        double *d = &res[2 * L + h].angle_err_rad;  // (_mm_storeu_pd may alias anything)
        for (int w = 0; w < 3; w++) _mm_storeu_pd(d + 2 * w, _mm512_extractf64x2_pd(pair[w][h], L));
    }
}
QC_Z void store_results8(const Group8 &g, bool angle_only, const double angle[8], const double norm_err[8],
                         const double nlerp[8], const double ulp[8], const double ulp1[8], CaseMetrics *res) {
    const CaseMetrics none;
    const __m512d zero = zzero(), nan = zset(none.angle_err_vs_nlerp_rad);
    const __m512d words[6] = {
        _mm512_load_pd(angle),
        angle_only ? zero : _mm512_load_pd(ulp),
        angle_only ? zero : _mm512_load_pd(ulp1),
        angle_only ? zero : _mm512_load_pd(norm_err),
        angle_only || !g.nlerp ? nan : _mm512_mask_mov_pd(nan, g.nlerp, _mm512_load_pd(nlerp)),
        zbits(_mm512_maskz_mov_epi64(g.other_arc, _mm512_set1_epi64(int64_t(1) << 8))),  // branch_disagree: byte 41
    };
    __m512d pair[3][2];
    for (int w = 0; w < 3; w++)
        pair[w][0] = _mm512_unpacklo_pd(words[2 * w], words[2 * w + 1]),
        pair[w][1] = _mm512_unpackhi_pd(words[2 * w], words[2 * w + 1]);
    store_lane_pair8<0>(pair, g.live, res);
    store_lane_pair8<1>(pair, g.live, res);
    store_lane_pair8<2>(pair, g.live, res);
    store_lane_pair8<3>(pair, g.live, res);
}

// measure_dd of the count <= 8 outputs out[0..count) into res[0..count), one output per lane.
QC_Z void measure_group8(const double (*out)[4], const Op *ops, int count, const Batch8 &b, CaseMetrics *res) {
    const double inv_eps = 1 / precision_eps(b.precision);  // 2^(p-1): / eps is * inv_eps, exactly
    Group8 g;
    load_group8(out, ops, count, b, res, g);
    if (!g.live) return;
    angles8(g, b);
    alignas(64) double angle[8], norm_err[8], nlerp[8], ulp[8], ulp1[8];
    _mm512_store_pd(angle, g.angle);
    if (!b.angle_only) {
        // norm_error: {n.hi 2^k, n.lo 2^k} - 1 by DWPlusFP, rounded, |.| / eps; inf where |r| overflows.
        const __m512d upk = zbits(_mm512_slli_epi64(g.bias, 52));
        const Z norm{_mm512_mul_pd(g.n.hi, upk), _mm512_mul_pd(g.n.lo, upk)};
        const Z m1 = add(norm, zset(-1.0));
        const __m512d ne = _mm512_mul_pd(zabs(_mm512_add_pd(m1.hi, m1.lo)), zset(inv_eps));
        const M8 finite = _mm512_cmp_pd_mask(zabs(norm.hi), zset(INFINITY), _CMP_LT_OQ);
        _mm512_store_pd(norm_err, _mm512_mask_mov_pd(zset(INFINITY), finite, ne));
        if (g.nlerp) _mm512_store_pd(nlerp, g.nlerp_angle);
        const int p = precision_bits(b.precision);
        const int emin = b.precision == Precision::f32 ? Format<float>::emin : Format<double>::emin;
        component_errors8(g, b, p, emin, g.ulp, g.ulp1);
        _mm512_store_pd(ulp, g.ulp), _mm512_store_pd(ulp1, g.ulp1);
    }
    finish_atan8(g.angle_libm, angle);
    finish_atan8(g.nlerp_libm, nlerp);
    store_results8(g, b.angle_only, angle, norm_err, nlerp, ulp, ulp1, res);
}

}  // namespace

QC_TARGET_AVX512 void measure_dd_avx512_outputs_batch(const double (*out)[4], const Op *ops, size_t n, const DDQuat &R,
                                                      const DDQuat &N, const DDQuat &R_other, const DDQuat &N_other,
                                                      bool in_tie_band, Precision precision, bool angle_only,
                                                      MetricDamage damage, CaseMetrics *m) {
    const size_t lanes_end = eight_lane_batch_end(n);
    if (lanes_end) {
        // (The references are broadcast where they are used, from memory: kept broadcast here, their 32 vectors
        // would live on the stack, and writing them cost more than the broadcasts.)
        const Batch8 b{R, N, R_other, N_other, in_tie_band, angle_only, precision, damage};
        for (size_t i = 0; i < lanes_end; i += 8)
            measure_group8(out + i, ops + i, int(std::min<size_t>(8, lanes_end - i)), b, m + i);
    }
    // A tail of fewer than kEightLaneTailMin outputs: the four-output kernel (a group of four, then the per-output
    // kernel).
    if (lanes_end < n)
        measure_dd_avx2_outputs_batch(out + lanes_end, ops + lanes_end, n - lanes_end, R, N, R_other, N_other,
                                      in_tie_band, precision, angle_only, damage, m + lanes_end);
}

bool avx512_kernel_supported() {
    static const bool cpu = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2") &&
                            __builtin_cpu_supports("fma");
    return cpu;
}

#else

void measure_dd_avx512_outputs_batch(const double (*out)[4], const Op *ops, size_t n, const DDQuat &R, const DDQuat &N,
                                     const DDQuat &R_other, const DDQuat &N_other, bool in_tie_band,
                                     Precision precision, bool angle_only, MetricDamage damage, CaseMetrics *m) {
    measure_dd_avx2_outputs_batch(out, ops, n, R, N, R_other, N_other, in_tie_band, precision, angle_only, damage, m);
}
bool avx512_kernel_supported() { return false; }

#endif

}  // namespace qc::metrics_detail
