// tf2 (ROS) adapter: tf2::Quaternion::slerp(q, t) (header-inline, tf2Scalar = double) -> slerp, f64.
// tf2 documents: "Return the quaternion which is the result of Spherical Linear Interpolation between this
// and the other quaternion ... If t = 0 the result is this, if t=1 the result is q. Slerp interpolates
// assuming constant velocity." (tf2/LinearMath/Quaternion.h)
// Layout: tf2::Quaternion(x, y, z, w) constructor and x() y() z() w() accessors.
// tf2's headers carry no version macro; the build passes the version of the tf2 package it found
// (pkg-config tf2) as QC_TF2_VERSION.
#include <tf2/LinearMath/Quaternion.h>

#include "quatcheck/registry.h"
#include "adapter.h"

#include <type_traits>

#ifndef QC_TF2_VERSION
#define QC_TF2_VERSION "unknown"
#endif

namespace {

static_assert(std::is_same_v<tf2Scalar, double>, "tf2Scalar is expected to be double");

void slerp(const double q0[4], const double q1[4], double t, double out[4]) {
    const auto a = qc::engines::from_wxyz_as_xyzw<tf2::Quaternion>(q0);
    qc::engines::put_wxyz_calls(a.slerp(qc::engines::from_wxyz_as_xyzw<tf2::Quaternion>(q1), t), out);
}

const qc_impl_v1 table = qc::engines::slerp_table("tf2", nullptr, slerp);

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "tf2::Quaternion::slerp(q, t): documented 'Spherical Linear Interpolation ... assuming constant "
                    "velocity'; short arc, returns *this when the half angle is exactly 0",
                    QC_TF2_VERSION " (pkg-config tf2)", {});
