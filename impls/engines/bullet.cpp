// Bullet adapter: btQuaternion::slerp(q, t) (LinearMath, header-inline) -> slerp.
// Bullet documents: "Return the quaternion which is the result of Spherical Linear Interpolation between
// this and the other quaternion ... If t = 0 the result is this, if t=1 the result is q. Slerp interpolates
// assuming constant velocity." (LinearMath/btQuaternion.h)
// Layout: btQuaternion's constructor and storage are (x, y, z, w); the adapter reads x() y() z() w().
//
// This file is compiled twice:
//   - as itself, in Bullet's default single-precision configuration (btScalar = float): family "bullet",
//     listed as bullet.f32;
//   - through bullet_double.cpp, with BT_USE_DOUBLE_PRECISION (btScalar = double), the configuration of
//     Debian's libLinearMath-float64 / pkg-config bullet-float64: family "bullet-double", listed as
//     bullet-double.f64.
// btQuaternion is the same class name in both configurations with a different layout, so the double
// build wraps Bullet's headers in a private namespace (QC_BULLET_NS) to keep the two sets of inline
// functions apart at link time. The routine under test is header-inline, so no Bullet library is linked.
#ifndef QC_BULLET_DOUBLE
#define QC_BULLET_NS
#define QC_BULLET_FAMILY "bullet"
#include <LinearMath/btQuaternion.h>
#else
// Everything Bullet's LinearMath headers include from the system, included first at global scope so that
// the nested includes inside the namespace below are no-ops.
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <new>
#if defined(__SSE__) || defined(__SSE2__) || defined(__x86_64__)
#include <emmintrin.h>
#include <pmmintrin.h>
#include <xmmintrin.h>
#endif
#include <assert.h>
#include <stdio.h>
#define QC_BULLET_NS qc_bullet_f64::
#define QC_BULLET_FAMILY "bullet-double"
namespace qc_bullet_f64 {
#include <LinearMath/btQuaternion.h>
}  // namespace qc_bullet_f64
#endif

#include "quatcheck/registry.h"
#include "adapter.h"

#include <string>

namespace {

using Scalar = QC_BULLET_NS btScalar;
using Quat = QC_BULLET_NS btQuaternion;

std::string version() {
    // BT_BULLET_VERSION is major * 100 + minor (324 = 3.24).
    std::string v = std::to_string(BT_BULLET_VERSION / 100) + "." + std::to_string(BT_BULLET_VERSION % 100);
#ifdef BT_USE_DOUBLE_PRECISION
    return v + " (BT_USE_DOUBLE_PRECISION, btScalar = double)";
#else
    return v + " (single precision, btScalar = float)";
#endif
}

void slerp(const Scalar q0[4], const Scalar q1[4], Scalar t, Scalar out[4]) {
    const Quat a = qc::engines::from_wxyz_as_xyzw<Quat>(q0);
    qc::engines::put_wxyz_calls(a.slerp(qc::engines::from_wxyz_as_xyzw<Quat>(q1), t), out);
}

#ifdef BT_USE_DOUBLE_PRECISION
const qc_impl_v1 table = qc::engines::slerp_table(QC_BULLET_FAMILY, nullptr, slerp);
#else
const qc_impl_v1 table = qc::engines::slerp_table(QC_BULLET_FAMILY, slerp, nullptr);
#endif

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "btQuaternion::slerp(q, t): documented 'Spherical Linear Interpolation ... assuming constant "
                    "velocity'; short arc via a sign on sin(t theta); returns *this unchanged when |cos| >= 1 - "
                    "SIMD_EPSILON",
                    version(), {});
