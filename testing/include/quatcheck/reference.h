// quatcheck::testing: the tool's reference and metrics in your own tests (docs/testing-api.md). C++17.
//
//   qc::reference::slerp(q0, q1, t), nlerp(q0, q1, t)   the ideal result as the tool defines it
//       (docs/reference.md: the ends normalised, the short arc, R = (sin((1-t)W) a + sin(tW) b) / sin W;
//       nlerp: the exact normalised lerp on the same arc), from the certified double-double fast path with
//       the MPFR fallback, as `quatcheck run` computes it. An Ideal<T>: the value rounded to T, and the
//       double-double value the metrics use.
//   qc::error::ulp1(got, ideal), angle_rad(got, ideal), norm_error(got)   the metrics the tool prints
//       (docs/metrics.md: ulp1, angle_err_rad, norm_err_ulp1), measured against the double-double ideal.
//
// Quaternions are std::array<T, 4> in (w, x, y, z) order, T float or double, or your own type through the
// customization point to_wxyz (below). Every function is reentrant: no global state, any thread.
// Bad input (a non-finite component, a zero quaternion) throws std::invalid_argument with one line.
#pragma once

#include "quatcheck/case.h"

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#define QC_TESTING_API __attribute__((visibility("default")))

namespace qc {

// ---- customization points ----
// to_wxyz(q) -> std::array<T, 4> in (w, x, y, z), found by argument-dependent lookup, like GoogleTest's
// PrintTo: declare it in your quaternion's namespace. For an (x, y, z, w) type:
//     namespace mylib { inline std::array<double, 4> to_wxyz(const Quat &q) { return {q.w, q.x, q.y, q.z}; } }
// from_wxyz(wxyz, qc::type<Quat>{}) -> Quat, the other way (only QC_SLERP_PROPERTY_TESTS_FOR needs it):
//     namespace mylib { inline Quat from_wxyz(const std::array<double, 4> &q, qc::type<Quat>) { return {q[1], q[2], q[3], q[0]}; } }
template <class T> std::array<T, 4> to_wxyz(const std::array<T, 4> &q) { return q; }
template <class Q> struct type {};
template <class T> std::array<T, 4> from_wxyz(const std::array<T, 4> &q, type<std::array<T, 4>>) { return q; }

namespace detail {
using qc::from_wxyz;
using qc::to_wxyz;
template <class Q> auto wxyz(const Q &q) -> decltype(to_wxyz(q)) { return to_wxyz(q); }
template <class Q, class T> Q make(const std::array<T, 4> &q) { return from_wxyz(q, type<Q>{}); }
template <class Q> using wxyz_t = std::decay_t<decltype(wxyz(std::declval<const Q &>()))>;
template <class T> struct identity { using type = T; };
template <class Q> struct is_array4 : std::false_type {};
template <class T> struct is_array4<std::array<T, 4>> : std::true_type {};
// Your own quaternion type (not a std::array, which has its own overloads).
template <class Q> using if_user_type = std::enable_if_t<!is_array4<Q>::value, int>;
}  // namespace detail

// The scalar of a quaternion type: the value_type of what to_wxyz returns (float or double).
template <class Q> using scalar_t = typename detail::wxyz_t<Q>::value_type;

// The ideal result of one call, as the tool computes it.
template <class T> struct Ideal {
    std::array<T, 4> value{};                      // the ideal rounded to T (to nearest), (w, x, y, z)
    std::array<double, 4> hi{}, lo{};              // the ideal as unevaluated sums hi + lo (|error| <= 2^-105)
    std::array<double, 4> other_hi{}, other_lo{};  // along the other arc; only where in_tie_band
    bool in_tie_band = false;  // |a.b| <= 4 eps: rounding may pick either arc, the metrics take the nearer
    double arc = 0;            // W in [0, pi/2], the angle between the normalised ends on the sphere
    double dot = 0;            // a.b of the normalised ends before the short-arc flip, rounded to double
    operator std::array<T, 4>() const { return value; }
};

// ---- what the compiled library exports (libquatcheck_testing.so; C++17 types only) ----
namespace detail {
enum class OpKind { slerp, nlerp };
struct IdealData {
    double value[4], hi[4], lo[4], other_hi[4], other_lo[4];
    bool in_tie_band;
    double arc, dot;
};
struct ErrorData {
    double ulp1, angle_rad, norm_ulp1, ulp;
    bool nonfinite, other_arc;
};
// f32: the case is in float (every value exactly a float); otherwise double.
QC_TESTING_API void ideal(OpKind op, bool f32, const double q0[4], const double q1[4], double t, IdealData &out);
QC_TESTING_API void measure(bool f32, const double got[4], const IdealData &ideal, ErrorData &out);
QC_TESTING_API const char *region_name(Region r);
// The regions the case lies in (qc::in_region of harness/regions: its bounds), most specific first, as a
// bit set (1 << Region); uniform holds every case with t in [0, 1].
QC_TESTING_API unsigned regions_of(bool f32, const double q0[4], const double q1[4], double t);

template <class T> void to_doubles(const std::array<T, 4> &q, double out[4]) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "quatcheck: T must be float or double");
    for (int i = 0; i < 4; i++) out[i] = double(q[size_t(i)]);
}
template <class T> Ideal<T> from_data(const IdealData &d) {
    Ideal<T> r;
    for (size_t i = 0; i < 4; i++) {
        r.value[i] = T(d.value[i]);
        r.hi[i] = d.hi[i], r.lo[i] = d.lo[i], r.other_hi[i] = d.other_hi[i], r.other_lo[i] = d.other_lo[i];
    }
    r.in_tie_band = d.in_tie_band, r.arc = d.arc, r.dot = d.dot;
    return r;
}
template <class T> IdealData to_data(const Ideal<T> &r) {
    IdealData d{};
    for (size_t i = 0; i < 4; i++) {
        d.value[i] = double(r.value[i]);
        d.hi[i] = r.hi[i], d.lo[i] = r.lo[i], d.other_hi[i] = r.other_hi[i], d.other_lo[i] = r.other_lo[i];
    }
    d.in_tie_band = r.in_tie_band, d.arc = r.arc, d.dot = r.dot;
    return d;
}
// A plain array taken as an exact ideal (no other arc).
template <class T> IdealData to_data(const std::array<T, 4> &r) {
    IdealData d{};
    for (size_t i = 0; i < 4; i++) d.value[i] = d.hi[i] = double(r[i]), d.lo[i] = 0;
    return d;
}
template <class T> Ideal<T> compute(OpKind op, const std::array<T, 4> &q0, const std::array<T, 4> &q1, T t) {
    double a[4], b[4];
    to_doubles(q0, a), to_doubles(q1, b);
    IdealData d;
    ideal(op, std::is_same_v<T, float>, a, b, double(t), d);
    return from_data<T>(d);
}
}  // namespace detail

namespace reference {

// slerp<double>(q0, q1, t) on arrays, or slerp(a, b, t) on any type with to_wxyz.
template <class T>
Ideal<T> slerp(const std::array<T, 4> &q0, const std::array<T, 4> &q1, typename detail::identity<T>::type t) {
    return detail::compute(detail::OpKind::slerp, q0, q1, t);
}
template <class T>
Ideal<T> nlerp(const std::array<T, 4> &q0, const std::array<T, 4> &q1, typename detail::identity<T>::type t) {
    return detail::compute(detail::OpKind::nlerp, q0, q1, t);
}
template <class Q, class T = scalar_t<Q>, detail::if_user_type<Q> = 0>
Ideal<T> slerp(const Q &q0, const Q &q1, typename detail::identity<T>::type t) {
    return detail::compute(detail::OpKind::slerp, detail::wxyz(q0), detail::wxyz(q1), t);
}
template <class Q, class T = scalar_t<Q>, detail::if_user_type<Q> = 0>
Ideal<T> nlerp(const Q &q0, const Q &q1, typename detail::identity<T>::type t) {
    return detail::compute(detail::OpKind::nlerp, detail::wxyz(q0), detail::wxyz(q1), t);
}

}  // namespace reference

namespace error {

// Every metric of one output against an ideal (a qc::Ideal, or a std::array<T, 4> taken as exact).
// A non-finite output: nonfinite, and +inf in every figure.
struct Errors {
    double ulp1 = 0;       // max_i |r_i - s R_i| / eps, s = sign(r.R)   (eps = 2^-23 for float, 2^-52 for double)
    double angle_rad = 0;  // 3-D rotation angle between r/|r| and R
    double norm = 0;       // | |r| - 1 | / eps  (norm_err_ulp1)
    double ulp = 0;        // max_i |r_i - s R_i| in ulps of s R_i
    bool nonfinite = false;
    bool other_arc = false;  // in the tie band, r is nearer the other arc's ideal and was measured against it
};

template <class Q, class I> Errors measure(const Q &got, const I &ideal) {
    using T = scalar_t<Q>;
    double g[4];
    detail::to_doubles(detail::wxyz(got), g);
    detail::ErrorData e;
    detail::measure(std::is_same_v<T, float>, g, detail::to_data(ideal), e);
    Errors r;
    r.ulp1 = e.ulp1, r.angle_rad = e.angle_rad, r.norm = e.norm_ulp1, r.ulp = e.ulp;
    r.nonfinite = e.nonfinite, r.other_arc = e.other_arc;
    return r;
}
template <class Q, class I> double ulp1(const Q &got, const I &ideal) { return measure(got, ideal).ulp1; }
template <class Q, class I> double angle_rad(const Q &got, const I &ideal) { return measure(got, ideal).angle_rad; }
// The same with the scalar named: ulp1<double>(got, ideal) on arrays.
template <class T> double ulp1(const std::array<T, 4> &got, const Ideal<T> &ideal) { return measure(got, ideal).ulp1; }
template <class T> double angle_rad(const std::array<T, 4> &got, const Ideal<T> &ideal) {
    return measure(got, ideal).angle_rad;
}
// | |r| - 1 | / eps in ulp1 (the spacing of the format at 1), computed exactly enough for every figure printed.
template <class Q> double norm_error(const Q &got) {
    using T = scalar_t<Q>;
    const std::array<T, 4> unit{T(1), T(0), T(0), T(0)};
    return measure(got, unit).norm;
}

}  // namespace error

// The name of a region as the tool prints it ("near-pi"), and the regions a case lies in.
inline const char *region_name(Region r) { return detail::region_name(r); }
template <class T> unsigned regions_of(const SlerpCase<T> &c) {
    double a[4], b[4];
    detail::to_doubles(c.q0, a), detail::to_doubles(c.q1, b);
    return detail::regions_of(std::is_same_v<T, float>, a, b, double(c.t));
}
template <class T> bool case_in_region(Region r, const SlerpCase<T> &c) { return (regions_of(c) >> unsigned(r)) & 1u; }

}  // namespace qc
