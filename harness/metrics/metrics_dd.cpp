// The fast metric engine (ReferenceMode::fast): the definitions of docs/metrics.md evaluated in double-double
// arithmetic and error-free transformations (reference/dd.h) on the reference's double-double values, the
// final square roots, atan2 and divisions in double. No MPFR, no allocation. The structure follows the mpfr
// engine (metrics.cpp) step by step, except that R is scaled by |r| instead of r being divided by it (the same
// angle, without a division); the error analysis of every step, and the resulting bounds against the mpfr
// engine, are in metrics.h (FastMetricBounds).
#include "metrics/metrics.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cstdint>
#include <cmath>
#include <utility>

// std::fma is one instruction only where the compiler may assume FMA hardware. CMakeLists.txt compiles this
// file with -mfma where the build machine has FMA; otherwise (baseline x86-64, where every std::fma of dd.h
// would be a call into libm) the entry points below are compiled twice, for baseline and for FMA hardware,
// and the loader picks one (GCC/Clang target_clones). Every variant computes the same values: fma is
// correctly rounded either way, and -ffp-contract=off keeps the compiler from fusing anything else.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__)
#define QC_FMA_CLONES __attribute__((target_clones("default", "fma")))
#else
#define QC_FMA_CLONES
#endif
#define QC_INLINE __attribute__((always_inline)) inline

namespace qc {

using dd::DD;

namespace {

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

// atan2(y, x) for 0 <= y <= x, x > 0 (the chords above: y the shorter). Where y/x < 2^-20 (every angle error
// below about 4e-6 rad, the common case), atan q = q - q^3/3 + q^5/5 - ..., and q - q^3/3 is within q^5/5 <=
// 2^-80 q of it: the division and the subtraction round twice (<= 2u + u^2 + 2^-80 relative: the 2u metrics.h
// allows atan2, plus far less than the slack of its angle total), without the libm call, which was a few per
// cent of a fast run. Elsewhere libm's atan2.
QC_INLINE double atan2_chords(double y, double x) {
    const double q = y / x;
    if (q < 0x1p-20) return q - q * q * q / 3;
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

// Every metric of docs/metrics.md in double-double against the given double-double reference.
QC_FMA_CLONES CaseMetrics measure_dd(const double out[4], const DDQuat &R, const DDQuat &N, const DDQuat &R_other,
                                     const DDQuat &N_other, bool in_tie_band, Op op, Precision precision,
                                     bool angle_only) {
    CaseMetrics m;
    for (int i = 0; i < 4; i++)
        if (!std::isfinite(out[i])) {
            m.nonfinite = true;
            return m;
        }
    const int p = precision_bits(precision);
    const int emin = precision == Precision::f32 ? Format<float>::emin : Format<double>::emin;
    const double eps = precision_eps(precision);

    Scaled d;
    if (!scale_output(out, d)) {
        // A zero output has no direction: report the largest possible rotation error (as the mpfr engine).
        m.angle_err_rad = M_PI;
        m.norm_err_ulp1 = 1 / eps;
        m.ulp1 = 1 / eps;
        m.ulp = std::ldexp(1.0, p);
        return m;
    }
    const DDQuat *target = &R, *target_nlerp = &N;
    int s = 1;
    m.angle_err_rad = angle_dd(d, R, s);
    if (in_tie_band) {
        int s_other = 1;
        const double other = angle_dd(d, R_other, s_other);
        if (other < m.angle_err_rad) {
            m.branch_disagree = true;
            m.angle_err_rad = other;
            s = s_other;
            target = &R_other;
            target_nlerp = &N_other;
        }
    }
    if (angle_only) return m;
    // | |r| - 1 | / eps; |r| above DBL_MAX gives inf, as the mpfr engine's rounding to double.
    const DD norm{scale(d.n.hi, d.k), scale(d.n.lo, d.k)};
    m.norm_err_ulp1 = std::isfinite(norm.hi) ? std::fabs(dd::to_double(dd::add(norm, -1.0))) / eps : INFINITY;
    if (op == Op::nlerp) {
        int s_nlerp = 1;
        m.angle_err_vs_nlerp_rad = angle_dd(d, *target_nlerp, s_nlerp);
    }

    // Component errors against s R: r_i is exact, so s R_i - r_i is one DW+FP.
    double max_ulp = 0, max_abs = 0;
    for (int i = 0; i < 4; i++) {
        const DD x = s > 0 ? (*target)[i] : dd::neg((*target)[i]);
        max_ulp = std::max(max_ulp, ulp_distance_dd(x, out[i], p, emin));
        max_abs = std::max(max_abs, std::fabs(dd::to_double(dd::add(x, -out[i]))));
    }
    m.ulp = max_ulp;
    m.ulp1 = max_abs / eps;
    return m;
}

// q with the low word of every component dropped (the negative control's damage).
DDQuat high_words(const DDQuat &q) {
    DDQuat h;
    for (int i = 0; i < 4; i++) h[i] = {q[i].hi, 0};
    return h;
}

}  // namespace

QC_FMA_CLONES double ulp_distance(DD x, double y, int p, int emin) { return ulp_distance_dd(x, y, p, emin); }

bool within_fast_bound(double fast, double mpfr, double rel, double abs) {
    if (std::isnan(fast) || std::isnan(mpfr)) return std::isnan(fast) && std::isnan(mpfr);
    if (std::isinf(fast) || std::isinf(mpfr)) {
        // Both overflowed alike, or the finite one is within rel of the overflow threshold.
        const double finite = std::isinf(fast) ? mpfr : fast, inf = std::isinf(fast) ? fast : mpfr;
        if (std::isinf(finite)) return finite == inf;
        return std::signbit(finite) == std::signbit(inf) && std::fabs(finite) >= DBL_MAX * (1 - rel);
    }
    return std::fabs(fast - mpfr) <= std::max(rel * std::fabs(mpfr), abs);
}

double fast_ulp_reference_slack(const DDQuat &target, int p, int emin) {
    double slack = 0;
    for (const DD &c : target) {
        const double a = std::fabs(c.hi);
        if (!(a < 0x1p-969)) continue;  // the low word is normal: rounding <= 2^-105 |R_i|, in the constants
        const int e = a == 0 ? emin : std::max(std::ilogb(a), emin);    // hi = 0: |R_i| <= 2^-1075
        slack = std::max(slack, std::ldexp(1.0, -1075 - (e - p + 1)));  // 2^-1075 / ulp(R_i)
    }
    return slack;
}

CaseMetrics MetricEngine::measure_fast(const double out[4], const SlerpReference &ref, Op op, bool angle_only) {
    if (damage_ == MetricDamage::drop_reference_low_word)
        return measure_dd(out, high_words(ref.R), high_words(ref.N), high_words(ref.R_other), high_words(ref.N_other),
                          ref.in_tie_band, op, precision_, angle_only);
    return measure_dd(out, ref.R, ref.N, ref.R_other, ref.N_other, ref.in_tie_band, op, precision_, angle_only);
}

namespace {
QC_FMA_CLONES double rotation_angle_dd(const double u[4], const DDQuat &unit_v) {
    for (int i = 0; i < 4; i++)
        if (!std::isfinite(u[i])) return NAN;
    Scaled d;
    if (!scale_output(u, d)) return NAN;  // no direction (the mpfr engine divides 0 by 0)
    int s = 1;
    return angle_dd(d, unit_v, s);
}
}  // namespace

double MetricEngine::rotation_angle_fast(const double u[4], const DDQuat &unit_v) const {
    return rotation_angle_dd(u, unit_v);
}

}  // namespace qc
