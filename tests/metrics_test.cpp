// Metrics against hand cases: ulp on binade crossings, zero and subnormals; angle, ulp1, norm, branch.
#include "metrics/metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace qc;

namespace {
Real exact(double x, int bits = 200) {
    Real r;
    ensure_bits(r, bits);
    mpfr_set_d(mp(r), x, MPFR_RNDN);
    return r;
}
double ulp32(const Real &x, float y) { return ulp_distance(x, y, 24, -126); }
double ulp64(const Real &x, double y) { return ulp_distance(x, y, 53, -1022); }
}  // namespace

TEST(Ulp, WithinOneBinade) {
    EXPECT_EQ(ulp32(exact(1.0), 1.0f + 0x1p-23f), 1.0);
    EXPECT_EQ(ulp32(exact(1.0 + 0x1p-24), 1.0f), 0.5);
    EXPECT_EQ(ulp64(exact(0.75), 0.75 + 3 * 0x1p-53), 3.0);
    EXPECT_EQ(ulp32(exact(-1.5), -1.5f), 0.0);
}

TEST(Ulp, BelowOneTheSpacingHalves) {
    // 1 - 2^-24 is the float just below 1: one ulp of the lower binade.
    EXPECT_EQ(ulp32(exact(1.0), 1.0f - 0x1p-24f), 1.0);
}

TEST(Ulp, BinadeCrossingIsSplitAtThePowerOfTwo) {
    // exact 1 + 2^-23 (upper binade, ulp 2^-23), output 1 - 2^-24 (lower binade, ulp 2^-24):
    // 1 ulp above 1 plus 1 ulp below = 2, not 1.5 as a single ulp(exact) would say.
    EXPECT_EQ(ulp32(exact(1.0 + 0x1p-23), 1.0f - 0x1p-24f), 2.0);
    EXPECT_EQ(ulp32(exact(1.0 - 0x1p-24), 1.0f + 0x1p-23f), 2.0);
    // exact 2 - 2^-23 (ulp 2^-23) against 2 + 2^-22 (ulp 2^-22): 1 + 1.
    EXPECT_EQ(ulp32(exact(2.0 - 0x1p-23), 2.0f + 0x1p-22f), 2.0);
}

TEST(Ulp, ZeroAndSubnormals) {
    const float tiny = std::numeric_limits<float>::denorm_min();  // 2^-149
    EXPECT_EQ(ulp32(exact(0.0), tiny), 1.0);
    EXPECT_EQ(ulp32(exact(0.0), -tiny), 1.0);
    EXPECT_EQ(ulp32(exact(0x1p-140), 0x1p-140f + 3 * tiny), 3.0);
    // Across the normal/subnormal boundary the spacing is the same 2^-149.
    EXPECT_EQ(ulp32(exact(0x1p-126 + 0x1p-149), 0x1p-126f - 0x1p-149f), 2.0);
    // Across zero: distance adds up on both sides.
    EXPECT_EQ(ulp32(exact(2 * 0x1p-149), -2 * tiny), 4.0);
    EXPECT_EQ(ulp64(exact(0.0), std::numeric_limits<double>::denorm_min()), 1.0);
    // A value below the subnormal spacing (not representable in f32) measured against 0.
    EXPECT_EQ(ulp32(exact(0x1p-151), 0.0f), 0.25);
}

TEST(Ulp, FractionsAreRoundedUp) {
    Real third = exact(1.0);
    Real ulp = exact(0x1p-23);
    mpfr_div_ui(mp(ulp), mp(ulp), 3, MPFR_RNDN);
    mpfr_add(mp(third), mp(third), mp(ulp), MPFR_RNDN);  // 1 + ulp/3
    double d = ulp32(third, 1.0f);
    EXPECT_GE(d, 1.0 / 3);
    EXPECT_LE(d, 1.0 / 3 + 1e-15);
    EXPECT_GT(d, 1.0 / 3 - 1e-17);
}

namespace {
SlerpReference reference_of(const double q0[4], const double q1[4], double t) {
    ReferenceEngine e(Precision::f64);
    SlerpReference r;
    e.slerp_exact(q0, q1, t, r, false);
    return r;
}
}  // namespace

TEST(Metrics, AngleErrorOfAKnownRotation) {
    double q0[4] = {1, 0, 0, 0}, q1[4] = {std::cos(0.4), 0, 0, std::sin(0.4)};
    SlerpReference r = reference_of(q0, q1, 0.5);  // rotation 0.4 rad about z
    MetricEngine m(Precision::f64);
    // An output rotated 0.4 + 1e-6 rad about z is 1e-6 rad of rotation away.
    double out[4] = {std::cos(0.2 + 0.5e-6), 0, 0, std::sin(0.2 + 0.5e-6)};
    CaseMetrics c = m.measure(out, r, Op::slerp);
    EXPECT_NEAR(c.angle_err_rad, 1e-6, 1e-15);
    EXPECT_FALSE(c.nonfinite);
    // -q is the same rotation: same angle, same ulp1.
    double neg[4] = {-out[0], -out[1], -out[2], -out[3]};
    CaseMetrics n = m.measure(neg, r, Op::slerp);
    EXPECT_EQ(n.angle_err_rad, c.angle_err_rad);
    EXPECT_EQ(n.ulp1, c.ulp1);
    // A scaled output has the same direction but a norm error.
    double big[4] = {2 * out[0], 2 * out[1], 2 * out[2], 2 * out[3]};
    CaseMetrics b = m.measure(big, r, Op::slerp);
    EXPECT_NEAR(b.angle_err_rad, 1e-6, 1e-15);
    EXPECT_NEAR(b.norm_err_ulp1, 1.0 / 0x1p-52, 1.0);
}

TEST(Metrics, Ulp1AndNormError) {
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0.6, 0.8, 0, 0};
    SlerpReference r = reference_of(q0, q1, 0.0);  // R = q0 exactly
    MetricEngine m(Precision::f64);
    double out[4] = {1, 3 * 0x1p-52, 0, 0};
    CaseMetrics c = m.measure(out, r, Op::slerp);
    EXPECT_DOUBLE_EQ(c.ulp1, 3.0);
    EXPECT_NEAR(c.norm_err_ulp1, 0.0, 1e-10);
    EXPECT_GT(c.ulp, 4e18);  // 3 eps where the exact value is 0: every float between 0 and 3 eps counts
}

TEST(Metrics, NonFiniteIsCountedNotMeasured) {
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0.6, 0.8, 0, 0};
    SlerpReference r = reference_of(q0, q1, 0.5);
    MetricEngine m(Precision::f64);
    double out[4] = {NAN, 0, 0, 0};
    EXPECT_TRUE(m.measure(out, r, Op::slerp).nonfinite);
    double inf[4] = {1, INFINITY, 0, 0};
    EXPECT_TRUE(m.measure(inf, r, Op::slerp).nonfinite);
}

TEST(Metrics, BranchDisagreementOnlyInsideTheTieBand) {
    MetricEngine m(Precision::f64);
    // a.b = 0 exactly: the reference keeps b; an output on the other arc (toward -b) is legitimate.
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0, 1, 0, 0};
    SlerpReference r = reference_of(q0, q1, 0.5);
    double other[4] = {std::sqrt(0.5), -std::sqrt(0.5), 0, 0};
    CaseMetrics c = m.measure(other, r, Op::slerp);
    EXPECT_TRUE(c.branch_disagree);
    EXPECT_LT(c.angle_err_rad, 1e-15);
    // Outside the band (a.b = 0.01) the same mistake is a plain error of about 90 degrees.
    double p1[4] = {0.01, std::sqrt(1 - 1e-4), 0, 0};
    SlerpReference far = reference_of(q0, p1, 0.5);
    double wrong[4] = {std::sqrt(0.5), -std::sqrt(0.5), 0, 0};
    CaseMetrics w = m.measure(wrong, far, Op::slerp);
    EXPECT_FALSE(w.branch_disagree);
    EXPECT_GT(w.angle_err_rad, 1.5);
}

TEST(Metrics, NlerpIsAlsoMeasuredAgainstTheExactNormalisedLerp) {
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0, 1, 0, 0.0001};
    SlerpReference r = reference_of(q0, q1, 0.25);
    MetricEngine m(Precision::f64);
    double n[4];
    for (int i = 0; i < 4; i++) n[i] = to_double(r.N[i]);
    CaseMetrics c = m.measure(n, r, Op::nlerp);
    EXPECT_GT(c.angle_err_rad, 0.01);             // timing error against slerp
    EXPECT_LT(c.angle_err_vs_nlerp_rad, 1e-15);   // but exact as an nlerp
}
