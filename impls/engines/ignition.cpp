// Gazebo ignition-math 6 adapters (ignition::math::Quaternion<T>, header-inline in ignition/math/Quaternion.hh),
// float and double through the library's own template (Quaternionf, Quaterniond).
//   ignition           Quaternion<T>::Slerp(t, p, q) and Squad(t, p, a, b, q) with shortestPath = false (the header
//                      default) -> slerp, squad
//   ignition-shortest  the same with shortestPath = true -> slerp, squad
// Squad's control points: ignition-math has no Intermediate (OGRE's Squad, which it follows, has one). The
// squad_setup slot composes Shoemake's control point of the middle key from the library's own public operations,
// cur * Exp(-(Log(cur^-1 next) + Log(cur^-1 prev)) / 4), with Inverse(), operator*, operator+, Log() and Exp() of
// Quaternion<T>: the point a caller of Squad would have to compute with this library.
// Squad passes shortestPath to its key-to-key Slerp only; its other two Slerps take the default false.
// Layout: Quaternion(w, x, y, z), accessors W() X() Y() Z().
// Doc lines quoted below: /usr/include/ignition/math6/ignition/math/Quaternion.hh of ignition-math 6.10.0,
// https://github.com/gazebosim/gz-math/blob/ignition-math6_6.10.0/include/ignition/math/Quaternion.hh
#include <ignition/math/Quaternion.hh>
#include <ignition/math/config.hh>

#include "quatcheck/registry.h"
#include "adapter.h"

namespace {

const char *const kVersion = IGNITION_MATH_VERSION_FULL;

template <class T> using Q = ignition::math::Quaternion<T>;

template <class T> Q<T> in(const T q[4]) { return Q<T>(q[0], q[1], q[2], q[3]); }

template <class T> void put(const Q<T> &q, T out[4]) {
    out[0] = q.W();
    out[1] = q.X();
    out[2] = q.Y();
    out[3] = q.Z();
}

template <class T, bool Shortest> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    put(Q<T>::Slerp(t, in(q0), in(q1), Shortest), out);
}
// Squad(t, p, a, b, q, shortestPath): the parameter first, then key, control, control, key.
template <class T, bool Shortest>
void squad(const T q0[4], const T q1[4], const T s0[4], const T s1[4], T t, T out[4]) {
    put(Q<T>::Squad(t, in(q0), in(s0), in(s1), in(q1), Shortest), out);
}
// The control point of cur, from the library's own Inverse, product, Log and Exp.
template <class T> void control_point(const T prev[4], const T cur[4], const T next[4], T s[4]) {
    const Q<T> c = in(cur), inv = c.Inverse();
    const Q<T> sum = (inv * in(next)).Log() + (inv * in(prev)).Log();
    put(c * (sum * T(-0.25)).Exp(), s);
}

template <bool Shortest> constexpr qc_impl_v1 table(const char *family) {
    return {family,
            slerp<float, Shortest>,
            nullptr,
            squad<float, Shortest>,
            control_point<float>,
            slerp<double, Shortest>,
            nullptr,
            squad<double, Shortest>,
            control_point<double>};
}
const qc_impl_v1 default_table = table<false>("ignition");
const qc_impl_v1 shortest_table = table<true>("ignition-shortest");

const char *const kShortestDoc =
    "Quaternion.hh, Slerp: '_shortestPath when true, the rotation may be inverted to get to minimize rotation' "
    "(the default is false) "
    "https://github.com/gazebosim/gz-math/blob/ignition-math6_6.10.0/include/ignition/math/Quaternion.hh";

}  // namespace

QC_REGISTER_IMPL_EX(default_table, "engine",
                    "ignition::math::Quaternion<T>::Slerp(t, p, q) and Squad(t, p, a, b, q) with shortestPath = false "
                    "(the default); Squad's control points from the library's Inverse, Log and Exp (it has no "
                    "Intermediate)",
                    kVersion, {{"slerp", "shortest-arc", kShortestDoc}, {"slerp", "sign-invariance", kShortestDoc}});
QC_REGISTER_IMPL_EX(shortest_table, "engine",
                    "ignition::math::Quaternion<T>::Slerp and Squad with shortestPath = true ('the rotation may be "
                    "inverted to get to minimize rotation'); Squad's control points from Inverse, Log and Exp",
                    kVersion, {});
