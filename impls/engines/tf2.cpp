// tf2 (ROS) adapter: tf2::Quaternion::slerp(q, t) (header-inline, tf2Scalar = double) -> slerp, f64.
// tf2 documents: "Return the quaternion which is the result of Spherical Linear Interpolation between this
// and the other quaternion ... If t = 0 the result is this, if t=1 the result is q. Slerp interpolates
// assuming constant velocity." (tf2/LinearMath/Quaternion.h)
// Layout: tf2::Quaternion(x, y, z, w) constructor and x() y() z() w() accessors.
// tf2's headers carry no version macro; the build passes the version of the tf2 package it found
// (pkg-config tf2) as QC_TF2_VERSION.
#include <tf2/LinearMath/Quaternion.h>

#include "quatcheck/registry.h"

#include <type_traits>

#ifndef QC_TF2_VERSION
#define QC_TF2_VERSION "unknown"
#endif

namespace {

static_assert(std::is_same_v<tf2Scalar, double>, "tf2Scalar is expected to be double");

void slerp(const double q0[4], const double q1[4], double t, double out[4]) {
    const tf2::Quaternion a(q0[1], q0[2], q0[3], q0[0]);
    const tf2::Quaternion b(q1[1], q1[2], q1[3], q1[0]);
    const tf2::Quaternion r = a.slerp(b, t);
    out[0] = r.w();
    out[1] = r.x();
    out[2] = r.y();
    out[3] = r.z();
}

const qc_impl_v1 table = {
    "tf2", nullptr, nullptr, nullptr, nullptr, slerp, nullptr, nullptr, nullptr,
};

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "tf2::Quaternion::slerp(q, t): documented 'Spherical Linear Interpolation ... assuming constant "
                    "velocity'; short arc, returns *this when the half angle is exactly 0",
                    QC_TF2_VERSION " (pkg-config tf2)", {});
