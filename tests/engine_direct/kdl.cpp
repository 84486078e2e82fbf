// Orocos KDL called directly (Rotation::Quaternion, RotationalInterpolation_SingleAxis SetStartEnd, Angle, Pos,
// Rotation::GetQuaternion) against the adapter kdl-singleaxis (impls/engines/kdl.cpp): bit-identical on 100
// cases, f64 (KDL computes in double), with the negative controls of direct.h.
#include "direct.h"

#include <kdl/config.h>
#include <kdl/frames.hpp>
#include <kdl/rotational_interpolation_sa.hpp>

namespace {

using qc::direct::Case;

// KDL's rotation of key K: its quaternion maker takes (x, y, z, w).
KDL::Rotation key(const Case<double> &c, int k) {
    return KDL::Rotation::Quaternion(c.q[k][1], c.q[k][2], c.q[k][3], c.q[k][0]);
}

}  // namespace

TEST(EngineDirect, Kdl) {
    QC_DIRECT_ENGINE(e, "kdl-singleaxis");
    EXPECT_EQ(e->version, KDL_VERSION_STRING);
    EXPECT_EQ(e->table->slerp_f32, nullptr);
    ASSERT_NE(e->table->slerp_f64, nullptr);
    qc::direct::expect_identical<double>(
        "kdl-singleaxis.f64 slerp",
        [&](const Case<double> &c, double o[4]) { e->table->slerp_f64(c.q[0].data(), c.q[1].data(), c.t, o); },
        [](const Case<double> &c, double o[4]) {
            KDL::RotationalInterpolation_SingleAxis path;
            path.SetStartEnd(key(c, 0), key(c, 1));
            const double angle = path.Angle();
            path.Pos(c.t * angle).GetQuaternion(o[1], o[2], o[3], o[0]);
        });
}
