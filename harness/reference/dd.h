// Double-double ("double-word") arithmetic with error-free transformations, and a bounded variant that
// carries a rigorous bound on its absolute error through every operation.
//
// Sources (formulas and proven bounds; the code is ours):
//   - Dekker (1971), Knuth TAOCP vol. 2 §4.2.2: TwoSum, Fast2Sum; the FMA form of TwoProd.
//   - M. Joldes, J.-M. Muller, V. Popescu, "Tight and rigorous error bounds for basic building blocks of
//     double-word arithmetic", ACM TOMS 44(2), 2017: the algorithms below are their Alg. 6
//     (AccurateDWPlusDW, relative error <= 3u^2 + 13u^3), Alg. 12 (DWTimesDW3, <= 4u^2), Alg. 9
//     (DWTimesFP3, <= 2u^2), Alg. 18 (DWDivDW3, <= 9.8u^2); u = 2^-53.
//   - M. Lefevre, J.-M. Muller et al. "Formalization of double-word arithmetic, and comments on 'Tight and
//     rigorous error bounds...'", ACM TOMS 2022: square root of a double-word (<= 25/8 u^2).
// Every bound assumes no underflow or overflow. Bounded values (DB) are only built from inputs checked by
// the caller to keep every intermediate in [2^-900, 2^900] or exactly zero (fast_reference.cpp does so);
// the per-operation constants below are the published ones rounded up to a power of two:
//   add 2^-104 (>= 3u^2 + 13u^3),  mul 2^-103 (>= 5u^2, the 2017 paper's bound for Alg. 12; 4u^2 was
//   proved later),  div 2^-102 (>= 9.8u^2),  sqrt 2^-103 (>= 3.125u^2),
// each taken relative to |hi| of the result times (1 + 2^-50) (|exact| <= |hi| (1 + u)(1 + 16u^2)).
// The bound arithmetic itself rounds to nearest in double; every bound is multiplied by up() =
// (1 + 2^-48), which covers the at most ~10 roundings (each <= u) inside one bound update.
#pragma once

#include <cmath>

namespace qc::dd {

struct DD {
    double hi = 0, lo = 0;
};

// s + e = a + b exactly (Knuth's TwoSum, 6 flops, any order of magnitude).
inline DD two_sum(double a, double b) {
    double s = a + b;
    double bb = s - a;
    double e = (a - (s - bb)) + (b - bb);
    return {s, e};
}
// s + e = a + b exactly, provided |a| >= |b| or a = 0 (Fast2Sum).
inline DD fast_two_sum(double a, double b) {
    double s = a + b;
    double e = b - (s - a);
    return {s, e};
}
// p + e = a b exactly (FMA), barring underflow.
inline DD two_prod(double a, double b) {
    double p = a * b;
    double e = std::fma(a, b, -p);
    return {p, e};
}

inline DD neg(DD x) { return {-x.hi, -x.lo}; }
inline double to_double(DD x) { return x.hi + x.lo; }

// AccurateDWPlusDW (JMP 2017, Alg. 6).
inline DD add(DD x, DD y) {
    DD s = two_sum(x.hi, y.hi);
    DD t = two_sum(x.lo, y.lo);
    double c = s.lo + t.hi;
    DD v = fast_two_sum(s.hi, c);
    double w = t.lo + v.lo;
    return fast_two_sum(v.hi, w);
}
inline DD sub(DD x, DD y) { return add(x, neg(y)); }
// x + y, absolute error <= 3u^2 (1 + u) (|x.hi| + |y.hi|): JMP 2017 Alg. 5 (SloppyDWPlusDW) with TwoSum in
// place of its final Fast2Sum, so that the renormalisation is exact and only the two roundings v and w err
// (|v err| <= u |x.lo + y.lo| <= u^2 (|x.hi| + |y.hi|), |w err| <= u (|s.lo| + |v|)). Cheaper and shorter
// than Alg. 6, whose relative bound is not needed where the error budget is absolute (the fast metrics, the
// search screen's estimate).
inline DD add_abs(DD x, DD y) {
    const DD s = two_sum(x.hi, y.hi);
    const double v = x.lo + y.lo;
    const double w = s.lo + v;
    return two_sum(s.hi, w);
}
// DWPlusFP (JMP 2017, Alg. 4, <= 2u^2).
inline DD add(DD x, double y) {
    DD s = two_sum(x.hi, y);
    double v = x.lo + s.lo;
    return fast_two_sum(s.hi, v);
}
// DWTimesFP3 (JMP 2017, Alg. 9).
inline DD mul(DD x, double y) {
    DD c = two_prod(x.hi, y);
    double cl3 = std::fma(x.lo, y, c.lo);
    return fast_two_sum(c.hi, cl3);
}
// DWTimesDW3 (JMP 2017, Alg. 12).
inline DD mul(DD x, DD y) {
    DD c = two_prod(x.hi, y.hi);
    double tl0 = x.lo * y.lo;
    double tl1 = std::fma(x.hi, y.lo, tl0);
    double cl2 = std::fma(x.lo, y.hi, tl1);
    double cl3 = c.lo + cl2;
    return fast_two_sum(c.hi, cl3);
}
// DWDivDW3 (JMP 2017, Alg. 18).
inline DD div(DD x, DD y) {
    double th = 1.0 / y.hi;
    double rh = std::fma(-y.hi, th, 1.0);
    double rl = -(y.lo * th);
    DD e = fast_two_sum(rh, rl);
    DD delta = mul(e, th);
    DD m = add(delta, th);  // 1/y
    return mul(x, m);
}
// Square root of a double-word (Lefevre-Muller: SQRTDWtoDW), x > 0.
inline DD sqrt(DD x) {
    double sh = std::sqrt(x.hi);
    double rho0 = std::fma(-sh, sh, x.hi);
    double rho1 = x.lo + rho0;
    double sl = rho1 / (2 * sh);
    return fast_two_sum(sh, sl);
}

// ---- bounded values: |exact - (v.hi + v.lo)| <= err ----
constexpr double kUp = 1 + 0x1p-48;
inline double up(double x) { return x * kUp; }
constexpr double kAddRel = 0x1p-104 * (1 + 0x1p-50);
constexpr double kMulRel = 0x1p-103 * (1 + 0x1p-50);
constexpr double kDivRel = 0x1p-102 * (1 + 0x1p-50);
constexpr double kSqrtRel = 0x1p-103 * (1 + 0x1p-50);

struct DB {
    DD v;
    double err = 0;
};

inline DB exact(double x) { return {{x, 0}, 0}; }
inline DB exact(DD x) { return {x, 0}; }
inline double mag(const DB &x) { return std::fabs(x.v.hi) * (1 + 0x1p-52); }  // >= |hi + lo|

inline DB operator-(const DB &x) { return {neg(x.v), x.err}; }
inline DB operator+(const DB &x, const DB &y) {
    DD s = add(x.v, y.v);
    return {s, up(x.err + y.err + kAddRel * std::fabs(s.hi))};
}
inline DB operator-(const DB &x, const DB &y) { return x + (-y); }
inline DB operator*(const DB &x, const DB &y) {
    DD p = mul(x.v, y.v);
    return {p, up(mag(x) * y.err + mag(y) * x.err + x.err * y.err + kMulRel * std::fabs(p.hi))};
}
// Multiplication by an exact double.
inline DB operator*(const DB &x, double y) {
    DD p = mul(x.v, y);
    return {p, up(std::fabs(y) * x.err + kMulRel * std::fabs(p.hi))};
}
// x / y; the caller checks that |y| > y.err (else the bound is infinite).
inline DB operator/(const DB &x, const DB &y) {
    DD q = div(x.v, y.v);
    double margin = std::fabs(y.v.hi) * (1 - 0x1p-52) - y.err;  // <= |y exact|
    if (!(margin > 0)) return {q, INFINITY};
    double qm = std::fabs(q.hi) * (1 + 0x1p-52);
    // |x/y - x'/y'| <= (|x - x'| + |x'/y'| |y - y'|) / |y|, plus the division's own rounding
    return {q, up((x.err + qm * y.err) / margin * kUp + kDivRel * std::fabs(q.hi))};
}
// sqrt(x) for x > 0: |sqrt(x) - sqrt(x')| = |x - x'| / (sqrt(x) + sqrt(x')) <= err / sqrt(x').
inline DB sqrt(const DB &x) {
    if (!(x.v.hi > 0)) return {{0, 0}, INFINITY};
    DD s = sqrt(x.v);
    return {s, up(x.err / (std::fabs(s.hi) * (1 - 0x1p-50)) + kSqrtRel * std::fabs(s.hi))};
}
// Adds a known bound (e.g. a series' truncation remainder or a propagated input error).
inline DB widen(DB x, double e) { return {x.v, up(x.err + e)}; }

}  // namespace qc::dd
