// recipe-filament: Filament's math slerp (filament::math::details::TQuatFunctions::slerp), written by us
// from the published libs/math/include/math/TQuatHelpers.h (github.com/google/filament, file version at
// commit 0fbc665). Structure (both precisions):
//   d = p.q, absd = |d|, eps = 10 * machine epsilon
//   1 - absd < eps: normalize(lerp(p, q, t))      (no sign flip on this path)
//   a = acos(clamp(absd/sqrt(|p|^2 |q|^2), -1, 1)), sina = sin(a); sina < eps: normalize(lerp(p, q, t))
//   s0 = sin(a (1 - t))/sina, s1 = sin(a t)/sina; normalize(s0 p + (d < 0 ? -s1 : s1) q)
//   normalize(x) = |x| ? x/|x| : (1, 0, 0, 0).
#include "quatcheck/registry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

template <class T> T dot4(const T a[4], const T b[4]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }

template <class T> void normalize(const T v[4], T out[4]) {
    T len = std::sqrt(dot4(v, v));
    if (len != T(0)) {
        for (int i = 0; i < 4; i++) out[i] = v[i] / len;
    } else {
        out[0] = T(1);  // the scalar quaternion 1 (w = 1)
        out[1] = out[2] = out[3] = T(0);
    }
}

template <class T> void lerp_normalized(const T p[4], const T q[4], T t, T out[4]) {
    T v[4];
    for (int i = 0; i < 4; i++) v[i] = (1 - t) * p[i] + t * q[i];
    normalize(v, out);
}

template <class T> void filament_slerp(const T p[4], const T q[4], T t, T out[4]) {
    const T d = dot4(p, q);
    const T absd = std::abs(d);
    const T value_eps = T(10) * std::numeric_limits<T>::epsilon();
    if ((T(1) - absd) < value_eps) return lerp_normalized(p, q, t, out);
    const T npq = std::sqrt(dot4(p, p) * dot4(q, q));
    const T a = std::acos(std::clamp(absd / npq, T(-1), T(1)));
    const T a0 = a * (1 - t), a1 = a * t;
    const T sina = std::sin(a);
    if (sina < value_eps) return lerp_normalized(p, q, t, out);
    const T isina = 1 / sina;
    const T s0 = std::sin(a0) * isina, s1 = std::sin(a1) * isina;
    T v[4];
    for (int i = 0; i < 4; i++) v[i] = s0 * p[i] + (d < 0 ? -s1 : s1) * q[i];
    normalize(v, out);
}

const qc_impl_v1 table = {"recipe-filament",
                          filament_slerp<float>,
                          nullptr,
                          nullptr,
                          nullptr,
                          filament_slerp<double>,
                          nullptr,
                          nullptr,
                          nullptr};

}  // namespace

QC_REGISTER_IMPL_EX(table, "recipe",
                    "Filament math slerp as published (TQuatHelpers.h): short arc via the sign of s1, normalised lerp "
                    "WITHOUT sign flip when 1-|d| < 10 eps",
                    "Filament libs/math (0fbc665)", {});
