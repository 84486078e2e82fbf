// The fast metric engine (ReferenceMode::fast): the definitions of README "Metrics" evaluated in double-double
// arithmetic and error-free transformations (reference/dd.h) on the reference's double-double values, the
// final square roots, atan2 and divisions in double. No MPFR, no allocation. The structure follows the mpfr
// engine (metrics.cpp) step by step; the error analysis of every step, and the resulting bounds against the
// mpfr engine, are in metrics.h (FastMetricBounds).
#include "metrics/metrics.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <utility>

namespace qc {

using dd::DD;

namespace {

// a > b for normalised double-doubles.
inline bool greater(DD a, DD b) { return a.hi > b.hi || (a.hi == b.hi && a.lo > b.lo); }

// The direction of a finite, nonzero r: r^ = r/|r| in double-double, and |r| = 2^k n with n in [1, 4).
struct Direction {
    DD rhat[4];
    DD n;
    int k = 0;
};

// r^ and |r| in double-double: r is scaled by 2^-k (exact) so that max |r_i| is in [1, 2); |r|^2 by TwoProd
// and DW+DW, its square root, its reciprocal (DW/DW), and r^_i = r_i / |r| by DW*FP. False when r = 0.
bool normalise(const double r[4], Direction &d) {
    double mx = 0;
    for (int i = 0; i < 4; i++) mx = std::max(mx, std::fabs(r[i]));
    if (mx == 0) return false;
    d.k = std::ilogb(mx);
    double rs[4];
    for (int i = 0; i < 4; i++) rs[i] = std::ldexp(r[i], -d.k);
    DD n2 = dd::two_prod(rs[0], rs[0]);
    for (int i = 1; i < 4; i++) n2 = dd::add(n2, dd::two_prod(rs[i], rs[i]));
    d.n = dd::sqrt(n2);
    const DD inv = dd::div(DD{1, 0}, d.n);
    for (int i = 0; i < 4; i++) d.rhat[i] = dd::mul(inv, rs[i]);
    return true;
}

// Rotation angle between r^ and the unit quaternion v, 4 atan2(|r^ - s v|, |r^ + s v|), with the squared chords
// in double-double and the rest in double. s = sign(r^.v) is read off the chords (|r^ - v|^2 - |r^ + v|^2 =
// -4 r^.v): -1 where |r^ - v| is the longer, +1 on a tie, as the mpfr engine's sign of an exact zero.
double angle_dd(const DD rhat[4], const DDQuat &v, int &s) {
    DD um{0, 0}, up{0, 0};
    for (int i = 0; i < 4; i++) {
        const DD dm = dd::sub(rhat[i], v[i]);
        const DD dp = dd::add(rhat[i], v[i]);
        um = dd::add(um, dd::mul(dm, dm));
        up = dd::add(up, dd::mul(dp, dp));
    }
    s = greater(um, up) ? -1 : 1;
    if (s < 0) std::swap(um, up);
    return 4 * std::atan2(std::sqrt(dd::to_double(um)), std::sqrt(dd::to_double(up)));
}

// The binade of z >= 0 (normalised): e with 2^e <= z < 2^(e+1); below 2^emin, emin - 1 (the subnormal range
// [0, 2^emin) acts as one more binade, starting at 0, with the spacing of binade emin).
int binade(DD z, int emin) {
    if (z.hi == 0) return emin - 1;
    int e = std::ilogb(z.hi);
    if (z.lo < 0 && z.hi == std::ldexp(1.0, e)) e--;  // hi is a power of two and z lies just below it
    return std::max(e, emin - 1);
}

// (z - start of binade e) / spacing of binade e, exactly: the position of z in its binade, in ulps, in
// [0, 2^(p-1)]. z.hi - start is exact (Sterbenz: z.hi is in [2^e, 2^(e+1)], or start = 0); TwoSum adds z.lo
// exactly; the scaling is by a power of two.
DD offset(DD z, int e, int p, int emin) {
    const double start = e >= emin ? std::ldexp(1.0, e) : 0.0;
    const DD f = dd::two_sum(z.hi - start, z.lo);
    const int scale = p - 1 - std::max(e, emin);
    return {std::ldexp(f.hi, scale), std::ldexp(f.lo, scale)};
}

// The nonnegative double-double x rounded up to a double.
double round_up(DD x) {
    const DD s = dd::fast_two_sum(x.hi, x.lo);  // s.hi = RN(x), s.lo the exact remainder
    return s.lo > 0 ? std::nextafter(s.hi, INFINITY) : s.hi;
}

// Every metric of README "Metrics" in double-double against the given double-double reference.
CaseMetrics measure_dd(const double out[4], const DDQuat &R, const DDQuat &N, const DDQuat &R_other,
                       const DDQuat &N_other, bool in_tie_band, Op op, Precision precision) {
    CaseMetrics m;
    for (int i = 0; i < 4; i++)
        if (!std::isfinite(out[i])) { m.nonfinite = true; return m; }
    const int p = precision_bits(precision);
    const int emin = precision == Precision::f32 ? Format<float>::emin : Format<double>::emin;
    const double eps = precision_eps(precision);

    Direction d;
    if (!normalise(out, d)) {
        // A zero output has no direction: report the largest possible rotation error (as the mpfr engine).
        m.angle_err_rad = M_PI;
        m.norm_err_ulp1 = 1 / eps;
        m.ulp1 = 1 / eps;
        m.ulp = std::ldexp(1.0, p);
        return m;
    }
    // | |r| - 1 | / eps; |r| above DBL_MAX gives inf, as the mpfr engine's rounding to double.
    const DD norm{std::ldexp(d.n.hi, d.k), std::ldexp(d.n.lo, d.k)};
    m.norm_err_ulp1 = std::isfinite(norm.hi) ? std::fabs(dd::to_double(dd::add(norm, -1.0))) / eps : INFINITY;

    const DDQuat *target = &R, *target_nlerp = &N;
    int s = 1;
    m.angle_err_rad = angle_dd(d.rhat, R, s);
    if (in_tie_band) {
        int s_other = 1;
        const double other = angle_dd(d.rhat, R_other, s_other);
        if (other < m.angle_err_rad) {
            m.branch_disagree = true;
            m.angle_err_rad = other;
            s = s_other;
            target = &R_other;
            target_nlerp = &N_other;
        }
    }
    if (op == Op::nlerp) {
        int s_nlerp = 1;
        m.angle_err_vs_nlerp_rad = angle_dd(d.rhat, *target_nlerp, s_nlerp);
    }

    // Component errors against s R: r_i is exact, so s R_i - r_i is one DW+FP.
    double max_ulp = 0, max_abs = 0;
    for (int i = 0; i < 4; i++) {
        const DD x = s > 0 ? (*target)[i] : dd::neg((*target)[i]);
        max_ulp = std::max(max_ulp, ulp_distance(x, out[i], p, emin));
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

double ulp_distance(DD x, double y, int p, int emin) {
    const bool xneg = x.hi < 0, yneg = y < 0;
    const DD a = xneg ? dd::neg(x) : x;
    const DD b{std::fabs(y), 0};
    const int ea = binade(a, emin), eb = binade(b, emin);
    const double binade_steps = std::ldexp(1.0, p - 1);  // representable magnitudes per binade
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
        const int scale = p - 1 - std::max(ea, emin);
        dist = {std::ldexp(diff.hi, scale), std::ldexp(diff.lo, scale)};
    } else {
        // Split at the powers of two: N(high) - N(low) = offset(high) + (e_high - e_low) 2^(p-1) - offset(low).
        const bool a_high = ea > eb;
        const DD oh = a_high ? offset(a, ea, p, emin) : offset(b, eb, p, emin);
        const DD ol = a_high ? offset(b, eb, p, emin) : offset(a, ea, p, emin);
        dist = dd::sub(dd::add(oh, std::abs(ea - eb) * binade_steps), ol);
    }
    return round_up(dist);
}

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
        const int e = a == 0 ? emin : std::max(std::ilogb(a), emin);  // hi = 0: |R_i| <= 2^-1075
        slack = std::max(slack, std::ldexp(1.0, -1075 - (e - p + 1)));  // 2^-1075 / ulp(R_i)
    }
    return slack;
}

CaseMetrics MetricEngine::measure_fast(const double out[4], const SlerpReference &ref, Op op) {
    if (damage_ == MetricDamage::drop_reference_low_word)
        return measure_dd(out, high_words(ref.R), high_words(ref.N), high_words(ref.R_other),
                          high_words(ref.N_other), ref.in_tie_band, op, precision_);
    return measure_dd(out, ref.R, ref.N, ref.R_other, ref.N_other, ref.in_tie_band, op, precision_);
}

double MetricEngine::rotation_angle_fast(const double u[4], const DDQuat &unit_v) const {
    for (int i = 0; i < 4; i++)
        if (!std::isfinite(u[i])) return NAN;
    Direction d;
    if (!normalise(u, d)) return NAN;  // no direction (the mpfr engine divides 0 by 0)
    int s = 1;
    return angle_dd(d.rhat, unit_v, s);
}

}  // namespace qc
