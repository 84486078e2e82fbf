// Orocos KDL 1.5 adapter (liborocos-kdl): KDL interpolates rotations, not quaternions, so the adapter converts
// with KDL's own routines both ways and says so in its data:
//   kdl-singleaxis  q0, q1 -> KDL::Rotation::Quaternion(x, y, z, w) (rotation matrices R0, R1);
//                   KDL::RotationalInterpolation_SingleAxis ri; ri.SetStartEnd(R0, R1); ri.Pos(t * ri.Angle())
//                   -> Rotation::GetQuaternion(x, y, z, w) -> slerp (f64: KDL computes in double)
// Pos takes an angle (0 at the start, Angle() at the end: "Returns the rotation matrix at angle theta"), so the
// fraction t of the path is t * Angle(). Both conversions are part of what is measured: a rotation matrix has two
// quaternions, q and -q, and GetQuaternion picks one by its own rule, so the output's sign does not follow q0 or
// q1; Rotation::Quaternion builds the matrix from the components without normalising them.
// Layout: Rotation::Quaternion and GetQuaternion take (x, y, z, w).
// Doc lines quoted below: /usr/include/kdl/rotational_interpolation_sa.hpp and rotational_interpolation.hpp of
// KDL 1.5.1, https://github.com/orocos/orocos_kinematics_dynamics/blob/v1.5.1/orocos_kdl/src/rotational_interpolation_sa.hpp
#include <kdl/config.h>
#include <kdl/frames.hpp>
#include <kdl/rotational_interpolation_sa.hpp>

#include "quatcheck/registry.h"
#include "adapter.h"

namespace {

const char *const kVersion = KDL_VERSION_STRING;

KDL::Rotation in(const double q[4]) { return KDL::Rotation::Quaternion(q[1], q[2], q[3], q[0]); }

void put(const KDL::Rotation &r, double out[4]) { r.GetQuaternion(out[1], out[2], out[3], out[0]); }

void slerp(const double q0[4], const double q1[4], double t, double out[4]) {
    KDL::RotationalInterpolation_SingleAxis ri;
    ri.SetStartEnd(in(q0), in(q1));
    put(ri.Pos(t * ri.Angle()), out);
}

const qc_impl_v1 table = qc::engines::slerp_table("kdl-singleaxis", nullptr, slerp);

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "KDL::RotationalInterpolation_SingleAxis: SetStartEnd(R0, R1), Pos(t * Angle()), on rotation "
                    "matrices converted with KDL's Rotation::Quaternion(x, y, z, w) and back with GetQuaternion "
                    "(the output's sign is GetQuaternion's choice); documented 'rotates a frame over the existing "
                    "single rotation axis formed by start and end rotation', 'not recommended to try to interpolate "
                    "a 180 degrees rotation'",
                    kVersion, {});
