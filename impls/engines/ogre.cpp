// OGRE adapters (OgreMain, Real = float in Debian's build): Ogre::Quaternion::Slerp, nlerp, Squad +
// Intermediate, each registered twice:
//   ogre-shortest    shortestPath = true
//   ogre-noshortest  shortestPath = false, the default argument in OgreQuaternion.h, i.e. what a caller who
//                    writes Quaternion::Slerp(t, p, q) gets
// OGRE documents (OgreQuaternion.h, https://ogrecave.github.io/ogre/api/1.12/class_ogre_1_1_quaternion.html):
//   Slerp: "Slerp has the proprieties of performing the interpolation at constant velocity, and being
//          torque-minimal (unless shortestPath=false). However, it's NOT commutative, which means
//          Slerp ( 0.75f, A, B ) != Slerp ( 0.25f, B, A )"
//   nlerp: "being torque-minimal (unless shortestPath=false). However, it's performing the interpolation at
//          non-constant velocity"
//   Squad: "Spherical quadratic interpolation"; Intermediate: "Setup for spherical quadratic interpolation".
// Argument orders: Slerp(fT, P, Q, shortestPath); nlerp(fT, P, Q, shortestPath);
// Squad(fT, P, A, B, Q, shortestPath) with P, Q the keys and A, B their control points;
// Intermediate(Q0, Q1, Q2, rkA, rkB) writes two points around Q1: rkA = Q1 exp(+arg) is the standard squad
// control point s_1 = Q1 exp(-(log(Q1^-1 Q2) + log(Q1^-1 Q0)) / 4), which is what squad_setup returns;
// rkB = Q1 exp(-arg) is discarded.
// Squad applies shortestPath only to its outer-keys Slerp; its other two Slerps use the default (false).
// Layout: Ogre::Quaternion(w, x, y, z) constructor and members w, x, y, z.
#include <OgreQuaternion.h>

#include "quatcheck/registry.h"
#include "adapter.h"

#include <string>

namespace {

const std::string kVersion = std::to_string(OGRE_VERSION_MAJOR) + "." + std::to_string(OGRE_VERSION_MINOR) + "." +
                             std::to_string(OGRE_VERSION_PATCH) + OGRE_VERSION_SUFFIX;

static_assert(sizeof(Ogre::Real) == sizeof(float), "this adapter expects OGRE built with OGRE_DOUBLE_PRECISION=0");

Ogre::Quaternion in(const float q[4]) { return Ogre::Quaternion(q[0], q[1], q[2], q[3]); }

void put(const Ogre::Quaternion &q, float out[4]) { qc::engines::put_wxyz_members(q, out); }

template <bool Shortest> void slerp(const float q0[4], const float q1[4], float t, float out[4]) {
    put(Ogre::Quaternion::Slerp(t, in(q0), in(q1), Shortest), out);
}
template <bool Shortest> void nlerp(const float q0[4], const float q1[4], float t, float out[4]) {
    put(Ogre::Quaternion::nlerp(t, in(q0), in(q1), Shortest), out);
}
template <bool Shortest>
void squad(const float q0[4], const float q1[4], const float s0[4], const float s1[4], float t, float out[4]) {
    put(Ogre::Quaternion::Squad(t, in(q0), in(s0), in(s1), in(q1), Shortest), out);
}
void squad_setup(const float prev[4], const float cur[4], const float next[4], float s[4]) {
    Ogre::Quaternion a, b;
    Ogre::Quaternion::Intermediate(in(prev), in(cur), in(next), a, b);
    put(a, s);
}

// The table of FAMILY: the routines with shortestPath = SHORTEST.
template <bool Shortest> constexpr qc_impl_v1 shortest_path_table(const char *family) {
    return {family, slerp<Shortest>, nlerp<Shortest>, squad<Shortest>, squad_setup, nullptr, nullptr, nullptr, nullptr};
}
const qc_impl_v1 shortest_table = shortest_path_table<true>("ogre-shortest");
const qc_impl_v1 noshortest_table = shortest_path_table<false>("ogre-noshortest");

const char *const kApi = "https://ogrecave.github.io/ogre/api/1.12/class_ogre_1_1_quaternion.html";
const std::string kSlerpDoc =
    std::string(
        "OgreQuaternion.h, Slerp: 'it's NOT commutative, which means Slerp ( 0.75f, A, B ) != Slerp ( 0.25f, "
        "B, A )' ") +
    kApi;
const std::string kNlerpDoc =
    std::string("OgreQuaternion.h, nlerp: 'it's performing the interpolation at non-constant velocity' ") + kApi;
const std::string kNoShortDoc =
    std::string(
        "OgreQuaternion.h, Slerp/nlerp: 'torque-minimal (unless shortestPath=false)'; shortestPath "
        "defaults to false ") +
    kApi;

}  // namespace

QC_REGISTER_IMPL_EX(shortest_table, "engine",
                    "Ogre::Quaternion::Slerp / nlerp / Squad(..., shortestPath=true) + Intermediate: documented "
                    "constant-velocity, torque-minimal slerp (not commutative); nlerp at non-constant velocity",
                    kVersion, {{"slerp", "symmetry", kSlerpDoc}, {"nlerp", "constant-speed", kNlerpDoc}});
QC_REGISTER_IMPL_EX(noshortest_table, "engine",
                    "Ogre::Quaternion::Slerp / nlerp / Squad(..., shortestPath=false, the header default) + "
                    "Intermediate: documented not torque-minimal with shortestPath=false",
                    kVersion,
                    {{"slerp", "symmetry", kSlerpDoc},
                     {"nlerp", "constant-speed", kNlerpDoc},
                     {"slerp", "shortest-arc", kNoShortDoc},
                     {"slerp", "sign-invariance", kNoShortDoc},
                     {"nlerp", "shortest-arc", kNoShortDoc},
                     {"nlerp", "sign-invariance", kNoShortDoc}});
