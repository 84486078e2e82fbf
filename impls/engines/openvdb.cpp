// OpenVDB 10 adapter: openvdb::math::slerp(q1, q2, t, tolerance) of openvdb::math::Quat<T> (header-inline in
// openvdb/math/Quat.h), float and double through the library's own template (Quat<float>, Quat<double>).
//   openvdb  math::slerp(q1, q2, t) with the header's default tolerance = 0.00001 -> slerp
// There is no Quat::slerp member: the class befriends the free function ("friend Quat slerp<>(...)", line 541),
// and the header's other slerp (lines 556-570) takes Mat3 rotations, converted to quaternions and back.
// What the routine does (Quat.h of OpenVDB 10.0.1, lines 25-75), all part of what is measured:
//   - documented only as "Linear interpolation between the two quaternions" (line 25);
//   - no sign test: the keys are interpolated as given, over the long arc where q1.q2 < 0;
//   - angle = acos(q1.q2) (0 when |q1.q2| >= 1), and "linear interpolation is used but we normalize to guarantee
//     unit length" when sin(angle) <= tolerance (lines 41-47): close keys and nearly opposite ones;
//   - there, when the lerp's squared length is <= tolerance^2 ("two close to antipodal quaternions were blended"),
//     it returns q1 for t < 0.5 and q2 otherwise (lines 52-61).
// Layout: Quat(x, y, z, w) constructor and x() y() z() w() accessors.
// https://github.com/AcademySoftwareFoundation/openvdb/blob/v10.0.1/openvdb/openvdb/math/Quat.h
#include <openvdb/math/Quat.h>
#include <openvdb/version.h>

#include "quatcheck/registry.h"
#include "adapter.h"

namespace {

const char *const kVersion = OPENVDB_LIBRARY_VERSION_STRING;

template <class T> using Q = openvdb::math::Quat<T>;

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    const Q<T> r =
        openvdb::math::slerp(qc::engines::from_wxyz_as_xyzw<Q<T>>(q0), qc::engines::from_wxyz_as_xyzw<Q<T>>(q1), t);
    qc::engines::put_wxyz_calls(r, out);
}

const qc_impl_v1 table = qc::engines::slerp_table("openvdb", slerp<float>, slerp<double>);

const char *const kNoShortDoc =
    "openvdb/math/Quat.h, slerp: documented only as 'Linear interpolation between the two quaternions', with no "
    "test of the sign of q1.dot(q2): the keys are interpolated as given "
    "https://github.com/AcademySoftwareFoundation/openvdb/blob/v10.0.1/openvdb/openvdb/math/Quat.h";

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "openvdb::math::slerp(q1, q2, t, tolerance = 0.00001) of Quat<T>(x, y, z, w): documented 'Linear "
                    "interpolation between the two quaternions'; no short-arc flip; a normalised lerp where "
                    "sin(angle) <= tolerance, and q1 or q2 (t < 0.5 or not) where that lerp's length is <= tolerance",
                    kVersion, {{"slerp", "shortest-arc", kNoShortDoc}, {"slerp", "sign-invariance", kNoShortDoc}});
