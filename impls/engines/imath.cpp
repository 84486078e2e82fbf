// Imath 3 adapters (Imath::Quat<T>, header-inline in Imath/ImathQuat.h; the quaternion library of OpenEXR and
// USD), float and double through Imath's own template (Quatf, Quatd).
//   imath               Imath::slerp(q1, q2, t) -> slerp; Imath::squad(q1, qa, qb, q2, t) with
//                       Imath::intermediate(q0, q1, q2) as the control point of q1 -> squad
//   imath-shortestarc   Imath::slerpShortestArc(q1, q2, t) -> slerp
//   imath-spline        Imath::spline(q0, q1, q2, q3, t) over a key track (a KeyCurve, as opencv-spline: the four
//                       keys around each segment, the end keys doubled); its squad + squad_setup (the refcp column
//                       of `quatcheck squad`) are the two calls spline makes itself: intermediate and squad
// Argument order: the declaration of squad in ImathQuat.h names its parameters (q1, q2, qa, qb, t), the definition
// (q1, qa, qb, q2, t); the definition is what runs (slerp(q1, q2, t) of its first and fourth arguments), so the
// adapter passes (key, control, control, key, t) as Imath::spline does.
// Layout: Imath::Quat(s, i, j, k), scalar r and vector v members.
// Doc lines quoted below: /usr/include/Imath/ImathQuat.h of Imath 3.1.6,
// https://github.com/AcademySoftwareFoundation/Imath/blob/v3.1.6/src/Imath/ImathQuat.h
#include <Imath/ImathConfig.h>
#include <Imath/ImathQuat.h>

#include "quatcheck/registry.h"
#include "adapter.h"

#include <algorithm>
#include <cstddef>

namespace {

const char *const kVersion = IMATH_VERSION_STRING;

template <class T> Imath::Quat<T> in(const T q[4]) { return Imath::Quat<T>(q[0], q[1], q[2], q[3]); }

template <class T> void put(const Imath::Quat<T> &q, T out[4]) {
    out[0] = q.r;
    out[1] = q.v.x;
    out[2] = q.v.y;
    out[3] = q.v.z;
}

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    put(Imath::slerp(in(q0), in(q1), t), out);
}
template <class T> void shortest(const T q0[4], const T q1[4], T t, T out[4]) {
    put(Imath::slerpShortestArc(in(q0), in(q1), t), out);
}
// squad(q1, qa, qb, q2, t) as defined: keys first and last, their control points between.
template <class T> void squad(const T q0[4], const T q1[4], const T s0[4], const T s1[4], T t, T out[4]) {
    put(Imath::squad(in(q0), in(s0), in(s1), in(q1), t), out);
}
// intermediate(q0, q1, q2): the control point of q1.
template <class T> void intermediate(const T prev[4], const T cur[4], const T next[4], T s[4]) {
    put(Imath::intermediate(in(prev), in(cur), in(next)), s);
}
// spline over the track: the four keys around segment k, the end keys standing in for missing neighbours.
template <class T> void spline(const T *keys, size_t n, size_t k, T t, T out[4]) {
    auto key = [&](size_t i) { return in(keys + 4 * i); };
    const size_t before = k == 0 ? 0 : k - 1, after = std::min(k + 2, n - 1);
    put(Imath::spline(key(before), key(k), key(k + 1), key(after), t), out);
}

const qc_impl_v1 slerp_table = {
    "imath",       slerp<float>, nullptr,       squad<float>,         intermediate<float>,
    slerp<double>, nullptr,      squad<double>, intermediate<double>,
};
const qc_impl_v1 shortest_table = qc::engines::slerp_table("imath-shortestarc", shortest<float>, shortest<double>);
const qc_impl_v1 spline_table = {
    "imath-spline", nullptr, nullptr,       squad<float>,         intermediate<float>,
    nullptr,        nullptr, squad<double>, intermediate<double>,
};
const qc::KeyCurve spline_curve{spline<float>, spline<double>};

const char *const kSlerpDoc =
    "ImathQuat.h, slerp: 'This method does *not* interpolate along the shortest arc between q1 and q2. If you "
    "desire interpolation along the shortest arc, and q1^q2 is negative, then consider calling slerpShortestArc(), "
    "below, or flipping the second quaternion explicitly.' "
    "https://github.com/AcademySoftwareFoundation/Imath/blob/v3.1.6/src/Imath/ImathQuat.h";

}  // namespace

QC_REGISTER_IMPL_EX(slerp_table, "engine",
                    "Imath::slerp(q1, q2, t) (documented: 'Assumes q1 and q2 are normalized and that q1 != -q2', "
                    "not the shortest arc; Don Hatch's angle4D form) and Imath::squad(q1, qa, qb, q2, t) with "
                    "Imath::intermediate(q0, q1, q2) (Watt and Watt; built on that slerp, 'without the automatic "
                    "flipping')",
                    kVersion, {{"slerp", "shortest-arc", kSlerpDoc}, {"slerp", "sign-invariance", kSlerpDoc}});
QC_REGISTER_IMPL_EX(shortest_table, "engine",
                    "Imath::slerpShortestArc(q1, q2, t): documented 'Spherical linear interpolation along the "
                    "shortest arc from q1 to either q2 or -q2, whichever is closer. Assumes q1 and q2 are unit "
                    "quaternions.'",
                    kVersion, {});
QC_REGISTER_CURVE(spline_table, spline_curve, "engine",
                  "Imath::spline(q0, q1, q2, q3, t) over the track (end keys doubled): documented 'Spherical Cubic "
                  "Spline Interpolation', intermediate points that 'guarantee the continuity of tangents across "
                  "adjacent cubic segments'",
                  kVersion, {});
