// MRPT adapter (mrpt-math, mrpt/math/slerp.h, a header template), f64 through mrpt::math::CQuaternionDouble:
//   mrpt   mrpt::math::slerp(q0, q1, t, q)   -> slerp
// The keys are built the way MRPT's users build them, with the constructor CQuaternion(r, x, y, z) (r = w). That
// constructor makes the real part non-negative (ensurePositiveRealPart: "Adhere to the convention of w>=0") and
// throws when the squared norm is off 1 by 1e-3 or more ("Initialization data for quaternion is not
// normalized"); the adapter turns that exception into a NaN output (the slot has no other way to fail).
// Documented (slerp.h, https://docs.mrpt.org/reference/2.5.8/group_geometry_grp.html): "SLERP interpolation
// between two quaternions", t "in the range [0,1]" (checked only in Debug builds). The code returns q0 when
// |q0.q1| >= 1 and an unnormalised component lerp when the half-angle's sine is below 0.001.
// Layout: CQuaternion stores (r, x, y, z) = (w, x, y, z); operator[] and r() x() y() z() read it.
#include <mrpt/math/CQuaternion.h>
#include <mrpt/math/slerp.h>
#include <mrpt/version.h>

#include "quatcheck/registry.h"
#include "adapter.h"

#include <exception>
#include <limits>
#include <string>

namespace {

// MRPT_version_str is "MRPT 2.5.8".
const std::string kVersion = std::string(MRPT_version_str).substr(std::string(MRPT_version_str).rfind(' ') + 1);

void slerp(const double q0[4], const double q1[4], double t, double out[4]) {
    try {
        const mrpt::math::CQuaternionDouble a(q0[0], q0[1], q0[2], q0[3]), b(q1[0], q1[1], q1[2], q1[3]);
        mrpt::math::CQuaternionDouble r;
        mrpt::math::slerp(a, b, t, r);
        out[0] = r.r();
        out[1] = r.x();
        out[2] = r.y();
        out[3] = r.z();
    } catch (const std::exception &) {
        for (int i = 0; i < 4; i++) out[i] = std::numeric_limits<double>::quiet_NaN();
    }
}

const qc_impl_v1 table = qc::engines::slerp_table("mrpt", nullptr, slerp);

}  // namespace

QC_REGISTER_IMPL_EX(
    table, "engine",
    "mrpt::math::slerp(q0, q1, t, q) on CQuaternionDouble (keys built by CQuaternion(r, x, y, z), which "
    "makes r >= 0 and refuses a norm off by 1e-3): documented SLERP, t in [0, 1]",
    kVersion, {});
