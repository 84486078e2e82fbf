// OpenSceneGraph adapter: osg::Quat::slerp(t, from, to) -> slerp, f64 (osg::Quat::value_type is double
// unless OSG was built with OSG_USE_FLOAT_QUAT, which Debian's is not).
// OSG documents: "Spherical Linear Interpolation. As t goes from 0 to 1, the Quat object goes from "from"
// to "to"." (osg/Quat)
// Layout: osg::Quat(x, y, z, w) constructor and x() y() z() w() accessors; slerp is a member that assigns
// to *this.
#include <osg/Quat>
#include <osg/Version>

#include "quatcheck/registry.h"
#include "adapter.h"

#include <type_traits>

namespace {

#define QC_OSG_STR2(x) #x
#define QC_OSG_STR(x) QC_OSG_STR2(x)
const char *const kVersion = QC_OSG_STR(OPENSCENEGRAPH_MAJOR_VERSION) "." QC_OSG_STR(
    OPENSCENEGRAPH_MINOR_VERSION) "." QC_OSG_STR(OPENSCENEGRAPH_PATCH_VERSION);

static_assert(std::is_same_v<osg::Quat::value_type, double>, "OSG built with OSG_USE_FLOAT_QUAT: adapt the slot");

void slerp(const double q0[4], const double q1[4], double t, double out[4]) {
    osg::Quat r;
    r.slerp(t, qc::engines::from_wxyz_as_xyzw<osg::Quat>(q0), qc::engines::from_wxyz_as_xyzw<osg::Quat>(q1));
    qc::engines::put_wxyz_calls(r, out);
}

const qc_impl_v1 table = qc::engines::slerp_table("osg", nullptr, slerp);

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "osg::Quat::slerp(t, from, to): documented 'Spherical Linear Interpolation. As t goes from 0 to 1, "
                    "the Quat object goes from from to to' (libosg)",
                    kVersion, {});
