// broken-euler-lerp (negative control): the first "obvious method" seed 003 warns about: convert both ends
// to Z-Y-X Euler angles (yaw, pitch, roll), lerp the three angles independently (no wrapping), convert back.
// The angles race each other and wrap the long way. Meant to be caught by `shortest-arc`.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

template <class T> void to_euler(const T q[4], T e[3]) {
    T w = q[0], x = q[1], y = q[2], z = q[3];
    e[0] = std::atan2(T(2) * (w * z + x * y), T(1) - T(2) * (y * y + z * z));  // yaw (z)
    T s = T(2) * (w * y - z * x);
    e[1] = std::asin(s > T(1) ? T(1) : s < T(-1) ? T(-1) : s);                 // pitch (y)
    e[2] = std::atan2(T(2) * (w * x + y * z), T(1) - T(2) * (x * x + y * y));  // roll (x)
}

template <class T> void from_euler(const T e[3], T q[4]) {
    T cy = std::cos(e[0] / 2), sy = std::sin(e[0] / 2), cp = std::cos(e[1] / 2), sp = std::sin(e[1] / 2),
      cr = std::cos(e[2] / 2), sr = std::sin(e[2] / 2);
    q[0] = cr * cp * cy + sr * sp * sy;
    q[1] = sr * cp * cy - cr * sp * sy;
    q[2] = cr * sp * cy + sr * cp * sy;
    q[3] = cr * cp * sy - sr * sp * cy;
}

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    T e0[3], e1[3], e[3];
    to_euler(q0, e0);
    to_euler(q1, e1);
    for (int i = 0; i < 3; i++) e[i] = e0[i] + t * (e1[i] - e0[i]);
    from_euler(e, out);
}

const qc_impl_v1 table = {"broken-euler-lerp", slerp<float>, nullptr, nullptr, nullptr,
                          slerp<double>,       nullptr,      nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: lerp of Z-Y-X Euler angles (caught by shortest-arc)");
