// recipe-magnum-slerp, recipe-magnum-slerpsp: Magnum Math::slerp and Math::slerpShortestPath for
// quaternions, written by us from the published src/Magnum/Math/Quaternion.h (and the epsilons of
// Math/TypeTraits.h: 1e-5 for float, 1e-14 for double) of Magnum after v2020.06
// (github.com/mosra/magnum, commit 5a74246). Structure:
//   slerp: d = A.B; |d| > 1 - eps/2: (1 - t) (d < 0 ? -A : A) + t B (linear, not normalised);
//          otherwise a = acos(d) (no shortest-path flip), (sin((1 - t) a) A + sin(t a) B)/sin(a).
//   slerpShortestPath: A' = d < 0 ? -A : A; |d| >= 1 - eps: (1 - t) A' + t B;
//          otherwise a = acos(|d|), (sin((1 - t) a) A' + sin(t a) B)/sin(a).
// Magnum documents that slerp() does not take the shortest path; its test here is expected to show
// the long arc for d < 0.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

template <class T> constexpr T eps() { return sizeof(T) == 4 ? T(1.0e-5f) : T(1.0e-14); }
template <class T> T dot4(const T a[4], const T b[4]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }

template <class T> void slerp(const T A[4], const T B[4], T t, T out[4]) {
    const T d = dot4(A, B);
    if (std::abs(d) > T(1) - T(0.5) * eps<T>()) {
        for (int i = 0; i < 4; i++) out[i] = (T(1) - t) * (d < 0 ? -A[i] : A[i]) + t * B[i];
        return;
    }
    const T a = std::acos(d);
    const T s0 = std::sin((T(1) - t) * a), s1 = std::sin(t * a), sa = std::sin(a);
    for (int i = 0; i < 4; i++) out[i] = (s0 * A[i] + s1 * B[i]) / sa;
}

template <class T> void slerp_shortest(const T A[4], const T B[4], T t, T out[4]) {
    const T d = dot4(A, B);
    T a2[4];
    for (int i = 0; i < 4; i++) a2[i] = d < 0 ? -A[i] : A[i];
    if (std::abs(d) >= T(1) - eps<T>()) {
        for (int i = 0; i < 4; i++) out[i] = (T(1) - t) * a2[i] + t * B[i];
        return;
    }
    const T a = std::acos(std::abs(d));
    const T s0 = std::sin((T(1) - t) * a), s1 = std::sin(t * a), sa = std::sin(a);
    for (int i = 0; i < 4; i++) out[i] = (s0 * a2[i] + s1 * B[i]) / sa;
}

const qc_impl_v1 slerp_table = {"recipe-magnum-slerp", slerp<float>, nullptr, nullptr, nullptr,
                                slerp<double>,         nullptr,      nullptr, nullptr};
const qc_impl_v1 sp_table = {"recipe-magnum-slerpsp",
                             slerp_shortest<float>,
                             nullptr,
                             nullptr,
                             nullptr,
                             slerp_shortest<double>,
                             nullptr,
                             nullptr,
                             nullptr};

}  // namespace

QC_REGISTER_IMPL_EX(
    slerp_table, "recipe",
    "Magnum Math::slerp as published (Quaternion.h): documented NOT shortest path, unnormalised lerp above |d| 1-eps/2",
    "Magnum 2020.06+ (5a74246)",
    {{"slerp", "shortest-arc",
      "Magnum docs: 'this function does not check for shortest path interpolation, see slerpShortestPath()'"}});
QC_REGISTER_IMPL_EX(sp_table, "recipe",
                    "Magnum Math::slerpShortestPath as published (Quaternion.h): negates A for d < 0, unnormalised "
                    "lerp above |d| 1-eps",
                    "Magnum 2020.06+ (5a74246)", {});
