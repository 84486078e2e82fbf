// Eigen adapter: Eigen::Quaternion<T>::slerp(t, other) -> slerp, float (Quaternionf) and double (Quaterniond).
// Eigen documents: "the spherical linear interpolation between the two quaternions *this and other at the
// parameter t in [0;1]. This represents an interpolation for a constant motion between *this and other"
// (Eigen/src/Geometry/Quaternion.h; https://eigen.tuxfamily.org/dox/classEigen_1_1QuaternionBase.html).
// Layout: Eigen stores coeffs() as (x, y, z, w) but its 4-scalar constructor is (w, x, y, z); the adapter
// uses that constructor and the named accessors. Note the member call order: q0.slerp(t, q1).
#include <Eigen/Geometry>

#include "quatcheck/registry.h"
#include "adapter.h"

namespace {

#define QC_EIGEN_STR2(x) #x
#define QC_EIGEN_STR(x) QC_EIGEN_STR2(x)
const char *const kVersion =
    QC_EIGEN_STR(EIGEN_WORLD_VERSION) "." QC_EIGEN_STR(EIGEN_MAJOR_VERSION) "." QC_EIGEN_STR(EIGEN_MINOR_VERSION);

template <class T> Eigen::Quaternion<T> in(const T q[4]) { return Eigen::Quaternion<T>(q[0], q[1], q[2], q[3]); }

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    qc::engines::put_wxyz_calls(in(q0).slerp(t, in(q1)), out);
}

const qc_impl_v1 table = qc::engines::slerp_table("eigen", slerp<float>, slerp<double>);

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "Eigen::QuaternionBase::slerp(t, other): documented spherical linear interpolation 'for a constant "
                    "motion'; takes the short arc, lerps (unnormalised) when |cos| >= 1 - epsilon",
                    kVersion, {});
