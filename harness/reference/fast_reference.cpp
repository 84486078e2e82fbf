// The fast reference (fast_reference.h): the formula of reference.h in double-double with a running bound.
//
// Error analysis, step by step (every DB operation adds the published double-word bound of dd.h and
// propagates its operands' bounds to first and second order; see dd.h):
//  1. sign of q0.q1: the eight doubles of the four exact products (TwoProd) are summed by repeated
//     error-free TwoSum passes (VecSum, Ogita-Rump-Oishi 2005); the sign is the sign of the leading term
//     once it exceeds the sum of the magnitudes of the others (or every term is zero: a tie). Exact.
//  2. a = q0/|q0|, b = +-q1/|q1|: squares by TwoProd, sums, sqrt and division in DB.
//  3. W = 2 atan(|a - b| / |a + b|), the ratio in [0, 1]: atan(z) = atan(k/256) + atan(u),
//     u = (z - k/256)/(1 + z k/256), |u| <= 2^-9, atan(k/256) from a table computed with MPFR at start-up
//     (rounded to double-double, error <= 2^-105 relative), atan(u) by its Taylor series through u^11;
//     remainder <= |u|^13/13 (alternating series with decreasing terms).
//  4. s1 = sin(tW)/sin W and s0 = sin((1-t)W)/sin W = cos(tW) - cos W s1, evaluated at the computed W'
//     (taken as exact) with sin x = sin(k/256) cos r + cos(k/256) sin r, cos x = cos(k/256) cos r -
//     sin(k/256) sin r, r = x - k/256 (exact), |r| <= 2^-9, tables from MPFR, series through r^9 and r^8
//     (remainders |r|^11/11!, |r|^10/10!); the terms from r^5 and r^6 on in double (see sincos_db). The error of W' itself,
//     |W - W'| <= eW, enters through the derivative of g_t(W) = sin(tW)/sin W: g'/g = t cot(tW) - cot W
//     = sum_k c_k (1 - t^2k) W^(2k-1) with c_k > 0 (the Laurent series of cot), so 0 <= g' <= 1/W - cot W
//     <= 0.41 W for W <= 1.6 (the ratio (1/W - cot W)/W increases with W; 0.4089 at 1.6), times
//     max g <= 1/sin(1.6) < 1.0005 there (0.4089 x 1.0005 < 0.42): |g(W) - g(W')| <= 0.42 (W' + eW) eW.
//     (A numerical scan of t in [0, 1], W in (0, 1.6] finds max |g'|/W = 0.233.) At W' < 2^-300 the limit g_t(0) = t
//     is used, within 0.42 (W' + eW)^2.
//  5. R = s0 a + s1 b, N = ((1-t) a + t b)/|(1-t) a + t b| in DB.
//  6. a.b and W rounded to double only where the bound proves the rounding (else: ill_conditioned).
// Range: input components 0 or in [2^-400, 2^400] (smaller ones are zeroed with a Lipschitz bound),
// normalised components 0 or in [2^-300, 2], t in [0, 1] (t < 2^-300 is evaluated at 0 with a bound of 4t);
// with W' >= 2^-300 every intermediate stays above 2^-969, where TwoProd is exact.
#include "reference/fast_reference.h"
#include "reference/pair_memo.h"
#include "reference/fast_reference_internal.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <bit>
#include <cstdint>

namespace qc {

using dd::DB;
using dd::DD;
using namespace fast_detail;

namespace {

std::atomic<int> g_damage{int(FastDamage::none)};  // set_fast_damage (the CLI: QC_DAMAGE_FAST_PATH)
std::atomic<bool> g_force_scalar{false};           // set_force_scalar (the CLI: QC_FORCE_SCALAR)

// A real computed by MPFR at 256 bits, rounded to double-double: error <= 2^-105 |hi| (+ MPFR's 2^-250).
DB from_mpfr(const Real &x) {
    DD v = round_to_dd(x);
    return {v, std::fabs(v.hi) * 0x1p-105 + 0x1p-1000};
}

Tables make_tables(bool damaged) {
    Tables T;
    Real x, y;
    ensure_bits(x, 256), ensure_bits(y, 256);
    for (int k = 0; k < kSinTable; k++) {
        mpfr_set_si(mp(x), k, MPFR_RNDN);
        mpfr_div_ui(mp(x), mp(x), kSteps, MPFR_RNDN);  // exact
        mpfr_sin(mp(y), mp(x), MPFR_RNDN), T.sin_k[k] = from_mpfr(y);
        mpfr_cos(mp(y), mp(x), MPFR_RNDN), T.cos_k[k] = from_mpfr(y);
        if (k < kAtanTable) mpfr_atan(mp(y), mp(x), MPFR_RNDN), T.atan_k[k] = from_mpfr(y);
    }
    // 1/n! and 1/(2n+1)
    auto inv_factorial = [&](int n, int sign) {
        mpfr_fac_ui(mp(x), unsigned(n), MPFR_RNDN);
        mpfr_ui_div(mp(y), 1, mp(x), MPFR_RNDN);
        if (sign < 0) mpfr_neg(mp(y), mp(y), MPFR_RNDN);
        return from_mpfr(y);
    };
    T.sin_c3 = inv_factorial(3, -1), T.sin_c5 = inv_factorial(5, 1);
    T.cos_c4 = inv_factorial(4, 1);
    for (int n = 3; n <= 4; n++) T.sin_t[n - 3] = inv_factorial(2 * n + 1, n % 2 ? -1 : 1).v.hi;
    for (int n = 3; n <= 4; n++) T.cos_t[n - 3] = inv_factorial(2 * n, n % 2 ? -1 : 1).v.hi;
    for (int n = 1; n <= 5; n++) {
        mpfr_set_si(mp(y), n % 2 ? -1 : 1, MPFR_RNDN);
        mpfr_div_ui(mp(y), mp(y), unsigned(2 * n + 1), MPFR_RNDN);
        if (n == 1) T.atan_c3 = from_mpfr(y);
        else T.atan_t[n - 2] = from_mpfr(y).v.hi;
    }
    if (damaged) T.sin_c5.v = dd::mul(T.sin_c5.v, 1 + 0x1p-30);  // r^5/5!: a wrong constant, same bound
    mpfr_free_cache();
    return T;
}

}  // namespace

const Tables &fast_detail::tables() {
    static const Tables good = make_tables(false);
    static const Tables damaged = make_tables(true);
    return fast_damage() == FastDamage::sine_coefficient ? damaged : good;
}

namespace {

// An upper bound on |x| for a bounded value.
inline double upper(const DB &x) { return (std::fabs(x.v.hi) + std::fabs(x.v.lo) + x.err) * (1 + 0x1p-50); }

// kTailRel (fast_reference_internal.h), the relative error bound of the double-evaluated series tails below:
// at most 10 roundings of 2^-53 each (the coefficient, the Horner steps, r^2 and the leading power taken from a
// double-double's high word, the final products), with room to spare: 2^-48 > 10 x 2^-53 (1 + 2^-40).

// sin(x) and cos(x) for x in [0, 1.61] (x's bound propagates through r: |sin'|, |cos'| <= 1).
// x = k/256 + r, |r| <= 2^-9: sin x = S_k cos r + C_k sin r, cos x = C_k cos r - S_k sin r, with
//   sin r = r - r^3/3! + r^5/5! + r^7 (-1/7! + r^2/9!),  remainder |r|^11/11!,
//   cos r = 1 - r^2/2 + r^4/4! + r^6 (-1/6! + r^2/8!),  remainder |r|^10/10!,
// the tails in parentheses evaluated in double at y = RN(r^2): |r^7 tail| <= 2^-63/7! and |r^6 tail| <= 2^-54/6!,
// so their relative error kTailRel costs at most 2^-123 and 2^-111 absolute. The sine's error must stay small
// relative to sin x itself (s1 divides by sin W, which can be as small as 2^-9 with k >= 1): 2^-123 is; a
// double r^5 term (2^-48 x 2^-45/5!, about 2^-100) was not. r is taken as exact (the double-double value)
// through the series, and r's own bound x.err is added at the end (|sin'|, |cos'| <= 1).
void sincos_db(const DB &x, DB &sin_x, DB &cos_x) {
    const Tables &T = tables();
    const double xh = x.v.hi;
    if (!(xh >= 0) || xh > 1.61) {
        sin_x = cos_x = {x.v, INFINITY};
        return;
    }
    const DB one = dd::exact(1.0);
    if (xh < 0x1p-60) {  // sin x = x - x^3/6 + ..., cos x = 1 - x^2/2 + ...
        const double m = upper(x);
        sin_x = {x.v, dd::up(x.err + m * m * m / 6)};
        cos_x = {one.v, dd::up(m * m / 2)};
        return;
    }
    const int k = int(std::nearbyint(xh * kSteps));
    const DB r = dd::exact(dd::two_sum(xh - double(k) / kSteps, x.v.lo));  // xh - k/256 exact (Sterbenz)
    const DB r2 = r * r, r3 = r2 * r, r4 = r2 * r2, r5 = r3 * r2;
    const double y = r2.v.hi;
    const double ts = r5.v.hi * y * (T.sin_t[0] + y * T.sin_t[1]);
    const double tc = r4.v.hi * y * (T.cos_t[0] + y * T.cos_t[1]);
    const double rm = upper(r);
    const double r2m = rm * rm, r4m = r2m * r2m, r10 = r4m * r4m * r2m * (1 + 0x1p-40);
    DB sr = r + r3 * T.sin_c3 + r5 * T.sin_c5 + DB{{ts, 0}, 0};
    sr = dd::widen(sr, std::fabs(ts) * kTailRel + r10 * rm / 39916800.0 + x.err);  // tail, |r|^11/11!, x's bound
    DB cr = one + r2 * -0.5 + r4 * T.cos_c4 + DB{{tc, 0}, 0};
    cr = dd::widen(cr, std::fabs(tc) * kTailRel + r10 / 3628800.0 + x.err);  // tail, |r|^10/10!, x's bound
    sin_x = T.sin_k[k] * cr + T.cos_k[k] * sr;
    cos_x = T.cos_k[k] * cr - T.sin_k[k] * sr;
}

// atan(z) for z in [0, 1.01]: atan(k/256) + atan(u), atan u = u - u^3/3 + u^5 (1/5 - u^2/7 + u^4/9 - u^6/11),
// remainder |u|^13/13, the tail in parentheses in double (|u^5 tail| <= 2^-45/5; relative error kTailRel).
DB atan_db(const DB &z) {
    const Tables &T = tables();
    const double zh = z.v.hi;
    if (!(zh >= 0) || zh > 1.01) return {z.v, INFINITY};
    const int k = int(std::nearbyint(zh * kSteps));
    const double c = double(k) / kSteps;
    const DB num{dd::two_sum(zh - c, z.v.lo), z.err};  // z - c, exactly up to z's own bound
    const DB den = dd::exact(1.0) + z * c;
    const DB u = num / den;
    const double um = upper(u);
    const DB u2 = u * u, u3 = u2 * u;
    const double y = u2.v.hi;
    const double ta = u3.v.hi * y * (T.atan_t[0] + y * (T.atan_t[1] + y * (T.atan_t[2] + y * T.atan_t[3])));
    DB au = u + u3 * T.atan_c3 + DB{{ta, 0}, 0};
    const double u2m = um * um, u4m = u2m * u2m, u12m = u4m * u4m * u4m;
    // The tail's rounding, and the series' remainder. u's own bound propagates through u, u^2 and u^3 above;
    // the tail's dependence on it, |d(u^5/5 - u^7/7 + ...)/du| <= u^4 (1 + 2^-17) <= 2^-35, adds 2^-35 u.err.
    au = dd::widen(au, std::fabs(ta) * kTailRel + u12m * um * (1 + 0x1p-40) / 13 + 0x1p-35 * u.err);
    return T.atan_k[k] + au;
}

// The sign of the exact sum of n doubles by error-free VecSum passes: +1, -1, 0 (exact zero), or 2 when a
// few passes do not decide it. On return x holds the same exact sum, x[n-1] its leading term.
int exact_sign(double *x, int n) {
    for (int pass = 0; pass < 6; pass++) {
        for (int i = 1; i < n; i++) {
            DD s = dd::two_sum(x[i], x[i - 1]);
            x[i] = s.hi, x[i - 1] = s.lo;
        }
        double rest = 0;
        for (int i = 0; i < n - 1; i++) rest += std::fabs(x[i]);
        rest *= 1 + 0x1p-48;
        if (x[n - 1] == 0 && rest == 0) return 0;
        if (std::fabs(x[n - 1]) > rest) return x[n - 1] > 0 ? 1 : -1;
    }
    return 2;
}

}  // namespace

// The double nearest the bounded value, when the bound proves it; false otherwise.
bool fast_detail::certain_rounding(const DB &x, double &out) {
    const double h = x.v.hi, l = x.v.lo, e = x.err * (1 + 0x1p-50);
    if (!std::isfinite(e)) return false;
    if (h == 0) {
        if (l == 0 && e == 0) return out = 0, true;
        return false;
    }
    // The neighbours of h (finite, nonzero) from its bit pattern: one step up or down in magnitude (what
    // std::nextafter computes, without the libm call; h = +-DBL_MAX has no finite neighbour above: no rounding
    // is proved there).
    const uint64_t bits = std::bit_cast<uint64_t>(std::fabs(h));
    if (bits >= 0x7fefffffffffffffull) return false;
    const double away = std::copysign(std::bit_cast<double>(bits + 1), h);
    const double toward = std::copysign(std::bit_cast<double>(bits - 1), h);
    const double up_n = h > 0 ? away : toward, down_n = h > 0 ? toward : away;
    const double gu = (up_n - h) * 0.5 * (1 - 0x1p-50);
    const double gd = (h - down_n) * 0.5 * (1 - 0x1p-50);
    if (l + e < gu && l - e > -gd) return out = h, true;
    return false;
}

namespace {

bool in_range(double v) {
    const double a = std::fabs(v);
    return a == 0 || (a >= 0x1p-400 && a <= 0x1p400);
}

// A component of a normalised key within the range the analysis assumes: 0 or in [2^-300, 2].
bool unit_component_in_range(const DB &x) {
    const double a = std::fabs(x.v.hi);
    return a == 0 || (a >= 0x1p-300 && a <= 2);
}

// |v|^2 of a 4-vector of bounded values.
DB norm2(const DB v[4]) { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]; }
// |q|^2 of four doubles: the squares exact (TwoProd), their sum with its bound.
DB norm2(const double q[4]) {
    DB s = dd::exact(dd::two_prod(q[0], q[0]));
    for (int i = 1; i < 4; i++) s = s + dd::exact(dd::two_prod(q[i], q[i]));
    return s;
}

// sqrt of a bounded square that may be zero: |sqrt(x) - sqrt(x')| <= sqrt(err) when x' <= err.
DB sqrt_nonneg(const DB &x) {
    if (x.v.hi > 0 && x.v.hi > 4 * x.err) return dd::sqrt(x);
    const double m = upper(x);
    const double s = std::sqrt(m) * (1 + 0x1p-50);
    return {{0, 0}, s};  // the value lies in [0, sqrt(upper)]
}

struct Arc {
    DB R[4], N[4];
    DB W;  // W' with its bound
};

// R and N along the arc from a to b (a.b >= 0 assumed by the caller's choice of b).
bool arc(const DB a[4], const DB b[4], double t, bool same_ends, bool want_nlerp, Arc &out) {
    DB d[4], s[4];
    for (int i = 0; i < 4; i++) d[i] = a[i] - b[i], s[i] = a[i] + b[i];
    const DB nd = sqrt_nonneg(norm2(d));
    const DB ns2 = norm2(s);
    if (!(ns2.v.hi > 4 * ns2.err)) return false;
    const DB ns = dd::sqrt(ns2);
    const DB z = nd / ns;
    if (!std::isfinite(z.err)) return false;
    const DB theta = atan_db(z);
    out.W = same_ends ? dd::exact(0.0) : theta * 2.0;
    const double Wv = out.W.v.hi, eW = out.W.err;
    if (!std::isfinite(eW) || Wv + eW > 1.6) return false;
    const DD tt{t, 0};
    const DD omt = dd::two_sum(1.0, -t);  // exact
    DB s0, s1;
    const double drift = 0.42 * (Wv + eW) * eW * (1 + 0x1p-40);  // step 4: the error of W' itself
    if (t == 0 || t == 1) {
        // The ends exactly, as the MPFR path gives them (sin W / sin W = 1): R = a at t = 0 and b at t = 1.
        s0 = dd::exact(1.0 - t), s1 = dd::exact(t);
    } else if (Wv < 0x1p-300) {
        // the limit g_t(0) = t: |g_t(W) - t| <= 0.42 W^2 for every W up to Wv + eW
        const double limit = 0.42 * (Wv + eW) * (Wv + eW) * (1 + 0x1p-40);
        s0 = {omt, limit}, s1 = {tt, limit};
    } else {
        // s1 = sin(tW)/sin W, s0 = sin((1-t)W)/sin W = cos(tW) - cos W s1: two sincos instead of three sines
        const DB Wx = dd::exact(out.W.v);
        DB sW, cW, st, ct;
        sincos_db(Wx, sW, cW);
        sincos_db(dd::exact(tt) * Wx, st, ct);
        const DB q1 = st / sW;
        s1 = dd::widen(q1, drift);
        s0 = dd::widen(ct - cW * q1, drift);
    }
    for (int i = 0; i < 4; i++) out.R[i] = s0 * a[i] + s1 * b[i];
    if (!want_nlerp) {
        for (auto &n : out.N) n = {{NAN, NAN}, 0};
        return true;
    }
    DB l[4];
    for (int i = 0; i < 4; i++) l[i] = a[i] * dd::exact(omt) + b[i] * t;
    const DB nl2 = norm2(l);
    if (!(nl2.v.hi > 4 * nl2.err)) return false;
    const DB inv = dd::exact(1.0) / dd::sqrt(nl2);
    for (int i = 0; i < 4; i++) out.N[i] = l[i] * inv;
    return true;
}

}  // namespace

void set_fast_damage(FastDamage d) { g_damage.store(int(d)); }

FastDamage fast_damage() { return FastDamage(g_damage.load(std::memory_order_relaxed)); }

// ---- the search screen's double-double estimate (fast_reference.h: estimate_slerp_dd) ----
// The formula of the certified path above, on the same tables and series, in plain double-double without a
// bound, and cheaper where the screen's needs allow (it claims 2^-88; search/screen.h):
//   - additions by add_abs (absolute error <= 3u^2 (|x| + |y|), no renormalising cancellation test): every
//     sum below is of terms of the size of its result or smaller, or of 1 and a correction;
//   - 1/|q| by 1 - e/2 + 3e^2/8 where |q|^2 = 1 + e, |e| <= 2^-40 (the remainder, 5e^3/16, is below 2^-121;
//     the f64 ends a search draws are unit doubles, |e| about 2^-52), else a double-double division;
//   - a = q0/|q0| and b = +-q1/|q1| never formed: a.b = (q0.q1)/(|q0||q1|) with the products exact, and
//     R = (s0/|q0|) q0 + (+-s1/|q1|) q1;
//   - tan(W/2)^2 = |a - b|^2 / |a + b|^2 = (1 - d)/(1 + d), d = a.b after the flip (a and b unit within
//     2^-100): 1 - d is exact to about 2^-104 absolute, which near W = 0 is a relative error of 2^-104/W^2 in
//     W^2, but R depends on W only through W^2 t (1 - t)/6 there, so R stays within 2^-100;
//   - the sign of a.b read off its double-double value.
// Measured against the certified path, the estimate is within 2^-100 on every region (tests/search_test.cpp).
namespace {

using dd::add_abs;

void sincos_dd(DD x, DD &sin_x, DD &cos_x) {
    const Tables &T = tables();
    const int k = int(std::nearbyint(x.hi * kSteps));
    const DD r = dd::two_sum(x.hi - double(k) / kSteps, x.lo);  // exact (Sterbenz), as sincos_db
    const DD r2 = dd::mul(r, r), r3 = dd::mul(r2, r), r4 = dd::mul(r2, r2);
    const double y = r2.hi, r5 = r3.hi * y;
    // sin r = r - r^3/3! + r^5 (1/5! - r^2/7! + r^4/9!), cos r = 1 - r^2/2 + r^4/4! + r^6 (-1/6! + r^2/8!):
    // the terms in double, r^5 (<= 2^-45/5!, relative to r) and r^6 (<= 2^-54/6!), cost below 2^-104 relative
    // to r and 2^-115 absolute (an r^4/4! term in double, 2^-94, was measured as the estimate's largest error).
    const double ts = r5 * (T.sin_c5.v.hi + y * (T.sin_t[0] + y * T.sin_t[1]));
    const double tc = r4.hi * y * (T.cos_t[0] + y * T.cos_t[1]);
    const DD sr = add_abs(add_abs(r, dd::mul(r3, T.sin_c3.v)), DD{ts, 0});
    const DD cr = add_abs(add_abs(add_abs(DD{1, 0}, dd::mul(r2, -0.5)), dd::mul(r4, T.cos_c4.v)), DD{tc, 0});
    if (k == 0) {
        sin_x = sr, cos_x = cr;
        return;
    }
    sin_x = add_abs(dd::mul(T.sin_k[k].v, cr), dd::mul(T.cos_k[k].v, sr));
    cos_x = add_abs(dd::mul(T.cos_k[k].v, cr), dd::neg(dd::mul(T.sin_k[k].v, sr)));
}

DD atan_dd(DD z) {
    const Tables &T = tables();
    const int k = int(std::nearbyint(z.hi * kSteps));
    const double c = double(k) / kSteps;
    const DD u = k == 0 ? z : dd::div(dd::two_sum(z.hi - c, z.lo), dd::add(dd::mul(z, c), 1.0));
    const DD u2 = dd::mul(u, u), u3 = dd::mul(u2, u);
    const double y = u2.hi;
    const double ta = u3.hi * y * (T.atan_t[0] + y * (T.atan_t[1] + y * (T.atan_t[2] + y * T.atan_t[3])));
    const DD au = add_abs(add_abs(u, dd::mul(u3, T.atan_c3.v)), DD{ta, 0});
    return k == 0 ? au : add_abs(T.atan_k[k].v, au);
}

inline DD sum4(const DD x[4]) { return add_abs(add_abs(x[0], x[1]), add_abs(x[2], x[3])); }

// 1/sqrt(n) for n = |q|^2 near 1.
inline DD inv_norm(DD n) {
    const DD e = dd::two_sum(n.hi - 1.0, n.lo);  // (n.hi - 1 exact near 1, Sterbenz)
    if (std::fabs(e.hi) <= 0x1p-40) return add_abs(DD{1, 0}, DD{e.hi * (-0.5 + 0.375 * e.hi), -0.5 * e.lo});
    return dd::div(DD{1, 0}, dd::sqrt(n));
}

}  // namespace

bool estimate_slerp_dd(const double q0[4], const double q1[4], double t, DDQuat &R, double *abs_dot, bool other_arc) {
    if (!(t >= 0 && t <= 1)) return false;
    DD sq0[4], sq1[4];
    for (int i = 0; i < 4; i++) {
        if (!(std::fabs(q0[i]) <= 0x1p300) || !(std::fabs(q1[i]) <= 0x1p300)) return false;  // (NaN too)
        sq0[i] = dd::two_prod(q0[i], q0[i]), sq1[i] = dd::two_prod(q1[i], q1[i]);
    }
    const DD n0 = sum4(sq0), n1 = sum4(sq1);
    if (!(n0.hi >= 0x1p-600) || !(n1.hi >= 0x1p-600)) return false;  // off the unit scale (and underflow)
    const DD inv0 = inv_norm(n0), inv1 = inv_norm(n1);
    DD pr[4];
    for (int i = 0; i < 4; i++) pr[i] = dd::two_prod(q0[i], q1[i]);
    // The short arc's side from the sign of the double-double a.b (error about 2^-100). Where |a.b| is too small
    // for that sign to be certain, a.b is also far inside the tie band of both formats (4 eps >= 2^-50), where
    // the metrics measure against the nearer of the two arcs: either arc's estimate then bounds the error from
    // above, which is all the screen asks of it.
    DD dot = dd::mul(sum4(pr), dd::mul(inv0, inv1));
    double sign1 = 1;
    if ((dot.hi < 0) != other_arc) sign1 = -1, dot = dd::neg(dot);
    if (abs_dot) *abs_dot = std::fabs(dot.hi + dot.lo);
    DD s0{1 - t, 0}, s1{t, 0};  // the ends exactly, and the limit at W = 0 (1 - t is exact for t in [1/2, 1];
    if (t < 0.5) s0 = dd::two_sum(1.0, -t);         // below, its double-double)
    const DD nm = add_abs(DD{1, 0}, dd::neg(dot));  // |a - b|^2 / 2
    if (nm.hi > 0 && t > 0 && t < 1) {
        const DD W = dd::mul(atan_dd(dd::sqrt(dd::div(nm, add_abs(DD{1, 0}, dot)))), 2.0);
        if (!(W.hi <= 1.6)) return false;
        if (W.hi > 0x1p-300) {
            DD sW, cW, st, ct;
            sincos_dd(W, sW, cW);
            sincos_dd(dd::mul(W, t), st, ct);
            s1 = dd::div(st, sW);
            s0 = add_abs(ct, dd::neg(dd::mul(cW, s1)));
        }
    }
    const DD c0 = dd::mul(s0, inv0), c1 = dd::mul(dd::mul(s1, inv1), sign1);
    for (int i = 0; i < 4; i++) R[size_t(i)] = add_abs(dd::mul(c0, q0[i]), dd::mul(c1, q1[i]));
    return true;
}

namespace {
std::atomic<int> g_lanes_limit{8};  // set_fast_batch_lanes_limit
}  // namespace

int fast_batch_lanes() {
#if defined(__x86_64__) || defined(__i386__)
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    static const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
    constexpr bool avx2 = false, avx512 = false;
#endif
    if (g_force_scalar.load(std::memory_order_relaxed)) return 0;
    const int limit = g_lanes_limit.load(std::memory_order_relaxed);
    return avx512 && limit >= 8 ? 8 : avx2 && limit >= 4 ? 4 : 0;
}

bool fast_batch_vectorised() { return fast_batch_lanes() > 0; }

void set_fast_batch_lanes_limit(int lanes) { g_lanes_limit.store(lanes); }

void set_force_scalar(bool scalar) { g_force_scalar.store(scalar); }

bool force_scalar() { return g_force_scalar.load(std::memory_order_relaxed); }

// (pair_memo.h; defined here, with the fast path, so that libquatcheck_slerp_cr.so, which holds the AVX2 batch but
// not reference.cpp, has it too)
namespace {
std::atomic<bool> g_pair_memo{true};
}  // namespace

void set_reference_pair_memo(bool on) { g_pair_memo.store(on); }

bool reference_pair_memo() { return g_pair_memo.load(std::memory_order_relaxed); }

static_assert(fast_detail::kArcBound == kFastArcBound);

fast_detail::KernelArgs fast_detail::kernel_args(Precision p, bool want_nlerp) {
    KernelArgs args;
    args.tolerance = fast_tolerance(p);
    args.band = tie_band(p);
    args.want_nlerp = want_nlerp;
    args.pair_memo = reference_pair_memo();
    return args;
}

namespace {

// A lane the kernel certified, written as fast_slerp_reference writes a certified case; `lane` is its position in
// the kernel's vector (the batch_lane damage of the negative control perturbs lane 1 of every width).
void write_lane(const fast_detail::LaneOut &o, double t, int lane, SlerpReference &r) {
    for (size_t i = 0; i < 4; i++) r.R[i] = o.R[i], r.N[i] = o.N[i];
    if (o.in_tie_band)
        for (size_t i = 0; i < 4; i++) r.R_other[i] = o.R_other[i], r.N_other[i] = o.N_other[i];
    r.tie = o.tie;
    r.dot = o.dot;
    r.in_tie_band = o.in_tie_band;
    r.arc_w = o.arc_w;
    r.fast_bound = o.bound;
    r.bits = 0;
    r.ill_conditioned = ill_conditioned_case(r.arc_w, t);
    const FastDamage damage = fast_damage();
    if (damage == FastDamage::bound_too_small) r.fast_bound *= 0x1p-20;
    if (damage == FastDamage::batch_lane && lane == 1) r.R[0] = dd::mul(r.R[0], 1 + 0x1p-20);
}

// Cases i to i + L - 1 through the L-lane kernel; false where the build has no code for that width.
template <int L, class Kernel> bool kernel_block(Kernel kernel, const double (*q0)[4], const double (*q1)[4],
                                                 const double *t, size_t i, const fast_detail::KernelArgs &args,
                                                 Precision p, SlerpReference *out, FastOutcome *outcomes) {
    const double *a[L], *b[L];
    for (size_t l = 0; l < L; l++) a[l] = q0[i + l], b[l] = q1[i + l];
    fast_detail::LaneOut lanes[L];
    bool certified[L] = {};
    if (!kernel(a, b, t + i, args, lanes, certified)) return false;
    for (size_t l = 0; l < L; l++) {
        if (certified[l]) {
            write_lane(lanes[l], t[i + l], int(l), out[i + l]);
            outcomes[i + l] = FastOutcome::certified;
        } else {
            outcomes[i + l] = fast_slerp_reference(q0[i + l], q1[i + l], t[i + l], p, out[i + l], args.want_nlerp);
        }
    }
    return true;
}

}  // namespace

void fast_slerp_reference_batch(const double (*q0)[4], const double (*q1)[4], const double *t, size_t n, Precision p,
                                SlerpReference *out, FastOutcome *outcomes, bool want_nlerp) {
    size_t i = 0;
    const int lanes = fast_batch_lanes();
    if (lanes > 0) {
        const fast_detail::KernelArgs args = fast_detail::kernel_args(p, want_nlerp);
        if (lanes >= 8)
            while (i + 8 <= n && kernel_block<8>(fast_detail::slerp8_avx512, q0, q1, t, i, args, p, out, outcomes))
                i += 8;
        while (i + 4 <= n && kernel_block<4>(fast_detail::slerp4_avx2, q0, q1, t, i, args, p, out, outcomes)) i += 4;
    }
    for (; i < n; i++) outcomes[i] = fast_slerp_reference(q0[i], q1[i], t[i], p, out[i], want_nlerp);
}

double fast_tolerance(Precision p) { return std::ldexp(1.0, -(precision_bits(p) + 40)); }

namespace {

// Components below 2^-400 (zeros nudged by a few ulps, subnormals) set to zero in q0 and q1, their magnitudes
// summed in e0 and e1 (fast_slerp_reference accounts for them). False where a component is out of range.
inline bool flush_tiny_components(const double q0_in[4], const double q1_in[4], double q0[4], double q1[4], double &e0,
                                  double &e1) {
    for (int i = 0; i < 4; i++) {
        q0[i] = q0_in[i], q1[i] = q1_in[i];
        if (q0[i] != 0 && std::fabs(q0[i]) < 0x1p-400) e0 += std::fabs(q0[i]), q0[i] = 0;
        if (q1[i] != 0 && std::fabs(q1[i]) < 0x1p-400) e1 += std::fabs(q1[i]), q1[i] = 0;
        if (!in_range(q0[i]) || !in_range(q1[i])) return false;
    }
    return true;
}

// The eight terms whose exact sum is q0.q1: every product split exactly into its low and high words.
inline void dot_terms(const double q0[4], const double q1[4], double terms[8]) {
    for (int i = 0; i < 4; i++) {
        DD pr = dd::two_prod(q0[i], q1[i]);
        terms[2 * i] = pr.lo, terms[2 * i + 1] = pr.hi;
    }
}

// An arc's R and N as the reference's values, their error bounds taken into bound (N's only with want_nlerp):
// a NaN-propagating maximum, so that a NaN value or bound anywhere makes the case ill-conditioned (certify).
inline void take_arc(const Arc &from, bool want_nlerp, DDQuat &R, DDQuat &N, double &bound) {
    auto take = [&bound](const DB &x) {
        if (!(x.err <= bound)) bound = x.err;
        if (!std::isfinite(x.v.hi)) bound = NAN;
    };
    for (int i = 0; i < 4; i++) {
        R[i] = from.R[i].v, N[i] = from.N[i].v;
        take(from.R[i]);
        if (want_nlerp) take(from.N[i]);
    }
}

// The case certified with its total bound, unless the bound is not finite or wider than fast_tolerance; the
// cases near the ends of the W and t ranges flagged as ill-conditioned (they are also sampled by MPFR).
inline FastOutcome certify(double bound, double t, Precision p, SlerpReference &out) {
    if (!std::isfinite(bound)) return FastOutcome::ill_conditioned;
    if (bound > fast_tolerance(p)) return FastOutcome::bound_too_wide;
    if (fast_damage() == FastDamage::bound_too_small) bound *= 0x1p-20;
    out.fast_bound = bound;
    out.bits = 0;
    out.ill_conditioned = ill_conditioned_case(out.arc_w, t);
    return FastOutcome::certified;
}

}  // namespace

FastOutcome fast_slerp_reference(const double q0_in[4], const double q1_in[4], double t, Precision p,
                                 SlerpReference &out, bool want_nlerp) {
    // Components below 2^-400 (zeros nudged by a few ulps, subnormals) are set to zero and accounted for:
    // with |q| >= 2^-200 they move a = q/|q| by at most 2 sum|e_i|/|q| <= 2^-199, and (R, N) is Lipschitz
    // in (a, b) with a constant below 4 on a.b >= 0 (|s0|, |s1| <= sqrt 2, |s'| <= 0.66, |dW| <= sqrt 2 |d(a-b)|,
    // |(1-t)a + tb| >= 0.7), so every component moves by less than 16 (e0/|q0| + e1/|q1|).
    double q0[4], q1[4], e0 = 0, e1 = 0;
    if (!flush_tiny_components(q0_in, q1_in, q0, q1, e0, e1)) return FastOutcome::ill_conditioned;
    if (!(t >= 0 && t <= 1)) return FastOutcome::ill_conditioned;
    // 0 < t < 2^-300: evaluate at t = 0; |dR/dt| <= W <= pi/2 and |dN/dt| <= |b - a|/|(1-t)a + tb| <= 2/0.7,
    // so every component moves by less than 4t <= 2^-298.
    double t_shift = 0;
    if (t > 0 && t < 0x1p-300) t_shift = 4 * t, t = 0;
    // q1 = q0 or q1 = -q0: W = 0 exactly, b = a after the flip
    const bool same_ends = std::equal(q0_in, q0_in + 4, q1_in) ||
                           std::equal(q0_in, q0_in + 4, q1_in, [](double x, double y) { return x == -y; });

    // 1. exact sign of q0.q1
    double terms[8];
    dot_terms(q0, q1, terms);
    const int sign = exact_sign(terms, 8);
    if (sign == 2) return FastOutcome::undecided_sign;
    if (sign == 0 && (e0 > 0 || e1 > 0)) return FastOutcome::undecided_sign;  // zero only up to the zeroed parts
    DB exact_dot = dd::exact(terms[0]);  // the same exact sum, to double-double with a bound
    for (int i = 1; i < 8; i++) exact_dot = exact_dot + dd::exact(terms[i]);
    out.tie = sign == 0;

    // 2. a, b
    DB a[4], b[4];
    const DB n0 = sqrt_nonneg(norm2(q0)), n1 = sqrt_nonneg(norm2(q1));
    if (!(n0.v.hi > 4 * n0.err) || !(n1.v.hi > 4 * n1.err)) return FastOutcome::ill_conditioned;
    double shift = 0;  // the zeroed components' effect on every component of R and N
    if (e0 > 0 || e1 > 0) {
        if (n0.v.hi < 0x1p-200 || n1.v.hi < 0x1p-200) return FastOutcome::ill_conditioned;
        // |q0.q1 - q0'.q1'| <= e0 |q1| + e1 |q0| + e0 e1: the sign of the zeroed dot must stand clear of it
        const double moved = (e0 * upper(n1) + e1 * upper(n0) + e0 * e1) * (1 + 0x1p-40);
        if (!(std::fabs(exact_dot.v.hi) * (1 - 0x1p-40) - exact_dot.err > moved)) return FastOutcome::undecided_sign;
        exact_dot = dd::widen(exact_dot, moved);
        shift = 16 * (e0 / n0.v.hi + e1 / n1.v.hi) * (1 + 0x1p-40);
    }
    const DB inv0 = dd::exact(1.0) / n0, inv1 = dd::exact(1.0) / n1;
    for (int i = 0; i < 4; i++) {
        a[i] = inv0 * q0[i], b[i] = inv1 * q1[i];  // (exact doubles: DWTimesFP)
        if (!unit_component_in_range(a[i]) || !unit_component_in_range(b[i])) return FastOutcome::ill_conditioned;
    }
    const DB dot = exact_dot / (n0 * n1);
    if (!certain_rounding(dot, out.dot)) return FastOutcome::ill_conditioned;
    out.in_tie_band = std::fabs(out.dot) <= tie_band(p);
    if (sign < 0)
        for (auto &x : b) x = -x;

    // 3-5. the short arc, and the other arc in the tie band
    Arc main_arc, other_arc;
    if (!arc(a, b, t, same_ends, want_nlerp, main_arc)) return FastOutcome::ill_conditioned;
    // W to double: the nearest double of the double-double W. Where its bound (about 2^-103 absolute)
    // cannot prove the rounding (W below about 2^-50, where the MPFR path's own 2^-(2p+32) cannot either),
    // arc_w is within that bound of W: it only places the case in a log-spaced W bin and sizes tolerances.
    if (!certain_rounding(main_arc.W, out.arc_w)) {
        if (!(main_arc.W.err <= kFastArcBound)) return FastOutcome::ill_conditioned;
        out.arc_w = main_arc.W.v.hi;
    }
    double bound = 0;
    take_arc(main_arc, want_nlerp, out.R, out.N, bound);
    if (out.in_tie_band) {
        for (auto &x : b) x = -x;
        if (!arc(a, b, t, false, want_nlerp, other_arc)) return FastOutcome::ill_conditioned;
        take_arc(other_arc, want_nlerp, out.R_other, out.N_other, bound);
    }
    return certify(dd::up(bound + t_shift + shift + kEpsFloor), t, p, out);
}

bool fast_slerp_components(const double q0[4], const double q1[4], double t, DB R[4], bool &tie) {
    for (int i = 0; i < 4; i++)
        if (!in_range(q0[i]) || !in_range(q1[i])) return false;  // tiny, huge or not finite: MPFR decides
    if (!(t >= 0 && t <= 1)) return false;
    double t_shift = 0;  // 0 < t < 2^-300: evaluated at 0, every component within 4t (as fast_slerp_reference)
    if (t > 0 && t < 0x1p-300) t_shift = 4 * t, t = 0;
    const bool same_ends =
        std::equal(q0, q0 + 4, q1) || std::equal(q0, q0 + 4, q1, [](double x, double y) { return x == -y; });
    double terms[8];
    dot_terms(q0, q1, terms);
    const int sign = exact_sign(terms, 8);
    if (sign == 2) return false;
    tie = sign == 0;
    const DB n0 = sqrt_nonneg(norm2(q0)), n1 = sqrt_nonneg(norm2(q1));
    if (!(n0.v.hi > 4 * n0.err) || !(n1.v.hi > 4 * n1.err)) return false;
    const DB inv0 = dd::exact(1.0) / n0, inv1 = dd::exact(1.0) / n1;
    DB a[4], b[4];
    for (int i = 0; i < 4; i++) {
        a[i] = inv0 * q0[i], b[i] = inv1 * q1[i];
        if (!unit_component_in_range(a[i]) || !unit_component_in_range(b[i])) return false;
        if (sign < 0) b[i] = -b[i];
    }
    Arc main_arc;
    if (!arc(a, b, t, same_ends, false, main_arc)) return false;
    for (int i = 0; i < 4; i++) {
        R[i] = dd::widen(main_arc.R[i], dd::up(t_shift + kEpsFloor));
        if (!std::isfinite(R[i].err) || !std::isfinite(R[i].v.hi)) return false;
    }
    return true;
}

}  // namespace qc
