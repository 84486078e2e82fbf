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
#include <type_traits>

namespace qc::dd {

// The operations the double-word algorithms below need besides +, -, * and /: fma and sqrt, correctly rounded.
// For double, std::fma and std::sqrt. The algorithms are templates over the lane type V so that the AVX2 batch
// of the fast reference (fast_reference_lanes.h) runs the very same code on four or eight lanes: it specialises
// Lane for its vector type (IEEE operations are correctly rounded per lane, so each lane gets the scalar bits).
template <class V> struct Lane {
    static V fma(V a, V b, V c) { return std::fma(a, b, c); }
    static V sqrt(V a) { return std::sqrt(a); }
    static V splat(double x) { return x; }  // x in every lane
};

template <class V> struct Word { V hi{}, lo{}; };
using DD = Word<double>;

// s + e = a + b exactly (Knuth's TwoSum, 6 flops, any order of magnitude).
template <class V> inline Word<V> two_sum(V a, V b) {
    V s = a + b;
    V bb = s - a;
    V e = (a - (s - bb)) + (b - bb);
    return {s, e};
}
// s + e = a + b exactly, provided |a| >= |b| or a = 0 (Fast2Sum).
template <class V> inline Word<V> fast_two_sum(V a, V b) {
    V s = a + b;
    V e = b - (s - a);
    return {s, e};
}
// p + e = a b exactly (FMA), barring underflow.
template <class V> inline Word<V> two_prod(V a, V b) {
    V p = a * b;
    V e = Lane<V>::fma(a, b, -p);
    return {p, e};
}

template <class V> inline Word<V> neg(Word<V> x) { return {-x.hi, -x.lo}; }
inline double to_double(DD x) { return x.hi + x.lo; }

// AccurateDWPlusDW (JMP 2017, Alg. 6).
template <class V> inline Word<V> add(Word<V> x, Word<V> y) {
    Word<V> s = two_sum(x.hi, y.hi);
    Word<V> t = two_sum(x.lo, y.lo);
    V c = s.lo + t.hi;
    Word<V> v = fast_two_sum(s.hi, c);
    V w = t.lo + v.lo;
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
template <class V> inline Word<V> add(Word<V> x, std::type_identity_t<V> y) {
    Word<V> s = two_sum(x.hi, y);
    V v = x.lo + s.lo;
    return fast_two_sum(s.hi, v);
}
// DWTimesFP3 (JMP 2017, Alg. 9).
template <class V> inline Word<V> mul(Word<V> x, std::type_identity_t<V> y) {
    Word<V> c = two_prod(x.hi, y);
    V cl3 = Lane<V>::fma(x.lo, y, c.lo);
    return fast_two_sum(c.hi, cl3);
}
// DWTimesDW3 (JMP 2017, Alg. 12).
template <class V> inline Word<V> mul(Word<V> x, Word<V> y) {
    Word<V> c = two_prod(x.hi, y.hi);
    V tl0 = x.lo * y.lo;
    V tl1 = Lane<V>::fma(x.hi, y.lo, tl0);
    V cl2 = Lane<V>::fma(x.lo, y.hi, tl1);
    V cl3 = c.lo + cl2;
    return fast_two_sum(c.hi, cl3);
}
// DWDivDW3 (JMP 2017, Alg. 18).
template <class V> inline Word<V> div(Word<V> x, Word<V> y) {
    const V one = Lane<V>::splat(1.0);
    V th = one / y.hi;
    V rh = Lane<V>::fma(-y.hi, th, one);
    V rl = -(y.lo * th);
    Word<V> e = fast_two_sum(rh, rl);
    Word<V> delta = mul(e, th);
    Word<V> m = add(delta, th);  // 1/y
    return mul(x, m);
}
// Square root of a double-word (Lefevre-Muller: SQRTDWtoDW), x > 0.
template <class V> inline Word<V> sqrt(Word<V> x) {
    V sh = Lane<V>::sqrt(x.hi);
    V rho0 = Lane<V>::fma(-sh, sh, x.hi);
    V rho1 = x.lo + rho0;
    V sl = rho1 / (Lane<V>::splat(2) * sh);
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
