// Coin3D 4 (Open Inventor) adapter: SbRotation::slerp(rot0, rot1, t) -> slerp, f32 only (SbRotation holds a float
// quaternion, SbVec4f; libCoin computes in float with double sin and acos).
//   coin  SbRotation(x, y, z, w) for each key; SbRotation::slerp(rot0, rot1, t); getValue(x, y, z, w)
// The routine lives in libCoin (src/base/SbRotation.cpp, not installed); its header declares it only
// (/usr/include/Inventor/SbRotation.h:75, "static SbRotation slerp(const SbRotation & rot0, ..."); the version is
// COIN_VERSION of /usr/include/Inventor/C/basic.h:217.
// What the library does, from its source (https://github.com/coin3d/coin/blob/Coin-4.0.0/src/base/SbRotation.cpp),
// line numbers of that tag, all part of what is measured:
//   - the constructor SbRotation(q0, q1, q2, q3) calls setValue (222-229), which normalises the quaternion
//     (SbVec4f::normalize, SbVec4f.cpp:203-212, leaves it alone when its length is within 2^-24 of 1), so keys
//     and output are renormalised in float;
//   - slerp (646-697) negates the second key when the dot product is negative (676; documented "Interpolates
//     along the shortest path", 648), and keeps the weights 1 - t and t (a lerp, renormalised by the constructor
//     of the result) when 1 - dot <= FLT_EPSILON or sin(angle) <= FLT_EPSILON (686, 689);
//   - t is clamped to [0, 1] (661-666) only under #if COIN_DEBUG, which Coin's build defines as $<CONFIG:Debug>
//     (src/CMakeLists.txt:19); Debian's libCoin is a RelWithDebInfo build, so it does not clamp: t = 1.5 returns
//     1.5 of the arc (probed on libcoin80c 4.0.0+ds-3). quatcheck measures t in [0, 1] only, where the clamp would
//     change nothing.
// Layout: SbRotation(q0, q1, q2, q3) and getValue(q0, q1, q2, q3) are (x, y, z, w): "q[0] = x, q[1] = y,
// q[2] = z and q[3] = w, where the quaternion is specified by q=w+xi+yj+zk" (SbRotation.cpp:126-128, SbRotation(const
// float q[4])).
#include <Inventor/C/basic.h>
#include <Inventor/SbRotation.h>

#include "quatcheck/registry.h"
#include "adapter.h"

namespace {

const char *const kVersion = COIN_VERSION;

SbRotation in(const float q[4]) { return SbRotation(q[1], q[2], q[3], q[0]); }

void put(const SbRotation &r, float out[4]) { r.getValue(out[1], out[2], out[3], out[0]); }

void slerp(const float q0[4], const float q1[4], float t, float out[4]) {
    put(SbRotation::slerp(in(q0), in(q1), t), out);
}

const qc_impl_v1 table = qc::engines::slerp_table("coin", slerp, nullptr);

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "SbRotation::slerp(rot0, rot1, t) on SbRotation(x, y, z, w) (float; the constructor normalises): "
                    "documented 'Interpolates along the shortest path between the two rotation positions', 't "
                    "should be in the interval [0, 1]'; t is clamped to [0, 1] only in a COIN_DEBUG (Debug) build, "
                    "not in Debian's libCoin, which extrapolates",
                    kVersion, {});
