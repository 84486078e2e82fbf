// Irrlicht adapters (irr::core::quaternion, f32 only, header-inline):
//   irrlicht        quaternion::slerp(q1, q2, time) with its default threshold = .05f  -> slerp
//   irrlicht-lerp   quaternion::lerp(q1, q2, time)                                      -> nlerp slot
// Irrlicht documents (irrlicht/quaternion.h):
//   slerp: "Set this quaternion to the result of the spherical interpolation between two quaternions ...
//          threshold To avoid inaccuracies at the end (time=1) the interpolation switches to linear
//          interpolation at some point. This value defines how much of the remaining interpolation will be
//          calculated with lerp. Everything from 1-threshold up will be linear interpolation."
//          What the code compares with 1 - threshold is the dot product q1.q2, not time: every pair closer
//          than acos(0.95) (about 18.2 degrees on the sphere, 36.4 degrees of rotation) is interpolated with
//          lerp, which does not normalise. Since the documented rule is about time, no deviation is declared.
//   lerp:  "Set this quaternion to the linear interpolation between two quaternions" -- a plain component
//          lerp q1 (1 - time) + q2 time: no normalisation, no sign flip. Irrlicht has no nlerp; lerp is its
//          linear-interpolation routine, so it sits in the nlerp slot (the op it stands in for) with its
//          documented non-normalisation declared.
// Layout: irr::core::quaternion(x, y, z, w) constructor and members X, Y, Z, W. Both are member functions
// that assign to *this.
#include <irrlicht/quaternion.h>
#include <irrlicht/IrrCompileConfig.h>

#include "quatcheck/registry.h"
#include "adapter.h"

namespace {

using irr::core::quaternion;

quaternion in(const float q[4]) { return quaternion(q[1], q[2], q[3], q[0]); }

void put(const quaternion &q, float out[4]) {
    out[0] = q.W;
    out[1] = q.X;
    out[2] = q.Y;
    out[3] = q.Z;
}

void slerp(const float q0[4], const float q1[4], float t, float out[4]) {
    quaternion r;
    r.slerp(in(q0), in(q1), t);  // threshold left at its default
    put(r, out);
}

void lerp(const float q0[4], const float q1[4], float t, float out[4]) {
    quaternion r;
    r.lerp(in(q0), in(q1), t);
    put(r, out);
}

const qc_impl_v1 slerp_table = qc::engines::slerp_table("irrlicht", slerp, nullptr);
const qc_impl_v1 lerp_table = qc::engines::nlerp_table("irrlicht-lerp", lerp, nullptr);

const char *const kLerpDoc =
    "irrlicht/quaternion.h, lerp: 'Set this quaternion to the linear interpolation between two quaternions' "
    "(linear, not normalised) https://irrlicht.sourceforge.io/docu/classirr_1_1core_1_1quaternion.html";

}  // namespace

QC_REGISTER_IMPL_EX(slerp_table, "engine",
                    "irr::core::quaternion::slerp(q1, q2, time, threshold = .05f): documented spherical interpolation "
                    "that 'switches to linear interpolation' near the end; the switch is on dot(q1, q2) > 0.95",
                    IRRLICHT_SDK_VERSION, {});
QC_REGISTER_IMPL_EX(lerp_table, "engine",
                    "irr::core::quaternion::lerp(q1, q2, time): documented 'linear interpolation between two "
                    "quaternions'; no normalisation, no sign flip (Irrlicht has no nlerp)",
                    IRRLICHT_SDK_VERSION, {{"nlerp", "unit", kLerpDoc}, {"nlerp", "constant-speed", kLerpDoc}});
