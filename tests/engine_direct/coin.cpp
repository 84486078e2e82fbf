// Coin3D called directly (SbRotation(x, y, z, w), SbRotation::slerp, getValue) against the adapter coin
// (impls/engines/coin.cpp): bit-identical on 100 cases, f32 (SbRotation is float), with the negative controls of
// direct.h.
#include "direct.h"

#include <Inventor/C/basic.h>
#include <Inventor/SbRotation.h>

namespace {

using qc::direct::Case;

// Coin's rotation of key K: its quaternion constructor takes (x, y, z, w).
SbRotation key(const Case<float> &c, int k) { return SbRotation(c.q[k][1], c.q[k][2], c.q[k][3], c.q[k][0]); }

}  // namespace

TEST(EngineDirect, Coin) {
    QC_DIRECT_ENGINE(e, "coin");
    EXPECT_EQ(e->version, COIN_VERSION);
    EXPECT_EQ(e->table->slerp_f64, nullptr);
    ASSERT_NE(e->table->slerp_f32, nullptr);
    qc::direct::expect_identical<float>(
        "coin.f32 slerp",
        [&](const Case<float> &c, float o[4]) { e->table->slerp_f32(c.q[0].data(), c.q[1].data(), c.t, o); },
        [](const Case<float> &c, float o[4]) {
            SbRotation::slerp(key(c, 0), key(c, 1), c.t).getValue(o[1], o[2], o[3], o[0]);
        });
}

// The release build Debian ships does not clamp t (the clamp is under COIN_DEBUG): the library and the adapter
// both extrapolate to 1.5 of the arc at t = 1.5, a quarter turn about z from the identity giving 135 degrees.
TEST(EngineDirect, CoinTOutsideUnitInterval) {
    QC_DIRECT_ENGINE(e, "coin");
    const float s = 0.70710678f, q0[4] = {1, 0, 0, 0}, q1[4] = {s, 0, 0, s};
    float out[4], x, y, z, w;
    e->table->slerp_f32(q0, q1, 1.5f, out);
    SbRotation::slerp(SbRotation(0, 0, 0, 1), SbRotation(0, 0, s, s), 1.5f).getValue(x, y, z, w);
    EXPECT_EQ(out[0], w);
    EXPECT_EQ(out[3], z);
    EXPECT_NEAR(2 * std::atan2(out[3], out[0]), 3 * 3.14159265358979 / 4, 1e-5) << "t = 1.5 was clamped";
}
