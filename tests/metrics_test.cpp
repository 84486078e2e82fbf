// Metrics against hand cases: ulp on binade crossings, zero and subnormals; angle, ulp1, norm, branch. The
// metric hand cases run in both engines (ReferenceMode mpfr and fast); ulp_distance in MPFR and in
// double-double.
#include "metrics/metrics.h"
#include "regions/regions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <ostream>

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
double ulp32(dd::DD x, float y) { return ulp_distance(x, y, 24, -126); }
double ulp64(dd::DD x, double y) { return ulp_distance(x, y, 53, -1022); }
dd::DD dd_of(double hi, double lo = 0) { return dd::fast_two_sum(hi, lo); }
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

TEST(Ulp, DoubleDoubleHandCases) {
    // The MPFR cases above, with the exact value as a double-double.
    EXPECT_EQ(ulp32(dd_of(1.0), 1.0f + 0x1p-23f), 1.0);
    EXPECT_EQ(ulp32(dd_of(1.0, 0x1p-24), 1.0f), 0.5);
    EXPECT_EQ(ulp64(dd_of(0.75), 0.75 + 3 * 0x1p-53), 3.0);
    EXPECT_EQ(ulp32(dd_of(-1.5), -1.5f), 0.0);
    EXPECT_EQ(ulp32(dd_of(1.0), 1.0f - 0x1p-24f), 1.0);
    EXPECT_EQ(ulp32(dd_of(1.0, 0x1p-23), 1.0f - 0x1p-24f), 2.0);
    EXPECT_EQ(ulp32(dd_of(1.0, -0x1p-24), 1.0f + 0x1p-23f), 2.0);
    EXPECT_EQ(ulp32(dd_of(2.0, -0x1p-23), 2.0f + 0x1p-22f), 2.0);
    const float tiny = std::numeric_limits<float>::denorm_min();
    EXPECT_EQ(ulp32(dd_of(0.0), tiny), 1.0);
    EXPECT_EQ(ulp32(dd_of(0.0), -tiny), 1.0);
    EXPECT_EQ(ulp32(dd_of(0x1p-140), 0x1p-140f + 3 * tiny), 3.0);
    EXPECT_EQ(ulp32(dd_of(0x1p-126, 0x1p-149), 0x1p-126f - 0x1p-149f), 2.0);
    EXPECT_EQ(ulp32(dd_of(2 * 0x1p-149), -2 * tiny), 4.0);
    EXPECT_EQ(ulp64(dd_of(0.0), std::numeric_limits<double>::denorm_min()), 1.0);
    EXPECT_EQ(ulp32(dd_of(0x1p-151), 0.0f), 0.25);
    // hi a power of two, lo negative: the value lies in the binade below.
    EXPECT_EQ(ulp64(dd_of(1.0, -0x1p-60), 1.0), 0x1p-7);
    EXPECT_EQ(ulp64(dd_of(1.0, -0x1p-60), 1.0 - 0x1p-53), 1.0 - 0x1p-7);
    // 1 + ulp/3, rounded up
    const double d = ulp32(dd_of(1.0, 0x1p-23 / 3), 1.0f);
    EXPECT_GE(d, 0x1p-23 / 3 / 0x1p-23);
    EXPECT_LE(d, 1.0 / 3 + 1e-15);
}

TEST(Ulp, DoubleDoubleAgreesWithMpfr) {
    // Random double-doubles across binades, subnormals, zero and both signs, against outputs a few ulps away,
    // across a power of two, across zero and far away: within the bound of metrics.h (relative 2u + 7.1u^2,
    // absolute u^2 2^p; both round up; here with a factor 2 of margin).
    Rng rng(99);
    Real x;
    ensure_bits(x, 2200);
    for (int n = 0; n < 200000; n++) {
        const bool f32 = n & 1;
        const int p = f32 ? 24 : 53, emin = f32 ? -126 : -1022;
        const int e = int(rng.below(f32 ? 160 : 1100)) - (f32 ? 150 : 1075) + int(rng.below(3));
        double hi = std::ldexp(1 + rng.uniform(), e);
        if (rng.below(8) == 0) hi = std::ldexp(1.0, e);  // a power of two
        if (f32) hi = double(float(hi));
        double lo = hi == 0 ? 0 : std::ldexp(rng.uniform() - 0.5, std::ilogb(hi) - 53);
        if (rng.below(4) == 0) lo = 0;
        if (rng.below(50) == 0) hi = 0, lo = 0;
        if (rng.below(2)) hi = -hi, lo = -lo;
        const dd::DD xd = dd::fast_two_sum(hi, lo);
        double y = hi;
        switch (rng.below(5)) {
            case 0:
                break;
            case 1:
            case 2: {
                const int k = int(rng.below(9)) - 4;
                const double dir = k > 0 ? INFINITY : -INFINITY;
                for (int i = 0; i < std::abs(k); i++)
                    y = f32 ? double(std::nextafter(float(y), float(dir))) : std::nextafter(y, dir);
                break;
            }
            case 3:
                y = -y;
                break;
            default:
                y = std::ldexp(rng.uniform() - 0.5, int(rng.below(40)) - 20);
                if (f32) y = double(float(y));
        }
        mpfr_set_d(mp(x), xd.hi, MPFR_RNDN);
        mpfr_add_d(mp(x), mp(x), xd.lo, MPFR_RNDN);
        const double want = ulp_distance(x, y, p, emin), got = ulp_distance(xd, y, p, emin);
        ASSERT_LE(std::fabs(got - want), 0x1p-51 * want + std::ldexp(1.0, p - 105))
            << "x = " << xd.hi << " + " << xd.lo << ", y = " << y << ", p = " << p;
    }
}

namespace {
SlerpReference reference_of(const double q0[4], const double q1[4], double t) {
    ReferenceEngine e(Precision::f64, ReferenceMode::mpfr);
    SlerpReference r;
    e.slerp_exact(q0, q1, t, r, false);
    return r;
}
// The hand cases below run with either metric engine.
class Metrics : public ::testing::TestWithParam<ReferenceMode> {};
}  // namespace

namespace qc {
// The engine's name in test names and messages (ctest lists "... # GetParam() = fast").
inline void PrintTo(ReferenceMode m, std::ostream *os) { *os << to_string(m); }
}  // namespace qc

TEST_P(Metrics, AngleErrorOfAKnownRotation) {
    double q0[4] = {1, 0, 0, 0}, q1[4] = {std::cos(0.4), 0, 0, std::sin(0.4)};
    SlerpReference r = reference_of(q0, q1, 0.5);  // rotation 0.4 rad about z
    MetricEngine m(Precision::f64, GetParam());
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

TEST_P(Metrics, Ulp1AndNormError) {
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0.6, 0.8, 0, 0};
    SlerpReference r = reference_of(q0, q1, 0.0);  // R = q0 exactly
    MetricEngine m(Precision::f64, GetParam());
    double out[4] = {1, 3 * 0x1p-52, 0, 0};
    CaseMetrics c = m.measure(out, r, Op::slerp);
    EXPECT_DOUBLE_EQ(c.ulp1, 3.0);
    EXPECT_NEAR(c.norm_err_ulp1, 0.0, 1e-10);
    EXPECT_GT(c.ulp, 4e18);  // 3 eps where the exact value is 0: every float between 0 and 3 eps counts
}

TEST_P(Metrics, NonFiniteIsCountedNotMeasured) {
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0.6, 0.8, 0, 0};
    SlerpReference r = reference_of(q0, q1, 0.5);
    MetricEngine m(Precision::f64, GetParam());
    double out[4] = {NAN, 0, 0, 0};
    EXPECT_TRUE(m.measure(out, r, Op::slerp).nonfinite);
    double inf[4] = {1, INFINITY, 0, 0};
    EXPECT_TRUE(m.measure(inf, r, Op::slerp).nonfinite);
}

TEST_P(Metrics, BranchDisagreementOnlyInsideTheTieBand) {
    MetricEngine m(Precision::f64, GetParam());
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

TEST_P(Metrics, NlerpIsAlsoMeasuredAgainstTheExactNormalisedLerp) {
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0, 1, 0, 0.0001};
    SlerpReference r = reference_of(q0, q1, 0.25);
    MetricEngine m(Precision::f64, GetParam());
    double n[4];
    for (int i = 0; i < 4; i++) n[i] = to_double(r.N[i]);
    CaseMetrics c = m.measure(n, r, Op::nlerp);
    EXPECT_GT(c.angle_err_rad, 0.01);            // timing error against slerp
    EXPECT_LT(c.angle_err_vs_nlerp_rad, 1e-15);  // but exact as an nlerp
}

TEST_P(Metrics, AngleOnlyMeasureAgreesWithTheFullOne) {
    // measure_angle (the worst-case search's) gives exactly measure's nonfinite, angle and branch fields: on a
    // plain case, an output on the other arc of a tie, a zero and a non-finite output.
    MetricEngine m(Precision::f64, GetParam());
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0.6, 0.8, 0, 0}, tie1[4] = {0, 1, 0, 0};
    SlerpReference plain = reference_of(q0, q1, 0.3), tie = reference_of(q0, tie1, 0.5);
    const double s = std::sqrt(0.5);
    struct Case {
        const SlerpReference *ref;
        double out[4];
    };
    const Case cases[] = {
        {&plain, {0.95, 0.31, 1e-9, 0}}, {&tie, {s, -s, 0, 0}}, {&plain, {0, 0, 0, 0}}, {&plain, {NAN, 0, 0, 0}}};
    for (const Case &c : cases) {
        const CaseMetrics full = m.measure(c.out, *c.ref, Op::nlerp), angle = m.measure_angle(c.out, *c.ref);
        EXPECT_EQ(angle.nonfinite, full.nonfinite);
        EXPECT_EQ(angle.branch_disagree, full.branch_disagree);
        if (!full.nonfinite) { EXPECT_EQ(angle.angle_err_rad, full.angle_err_rad); }
    }
    EXPECT_TRUE(m.measure_angle(cases[1].out, tie).branch_disagree);  // the tie case does exercise the other arc
}

TEST_P(Metrics, ZeroAndHugeOutputs) {
    double q0[4] = {1, 0, 0, 0}, q1[4] = {0.6, 0.8, 0, 0};
    SlerpReference r = reference_of(q0, q1, 0.5);
    MetricEngine m(Precision::f64, GetParam());
    double zero[4] = {0, 0, 0, 0};
    CaseMetrics z = m.measure(zero, r, Op::nlerp);
    EXPECT_EQ(z.angle_err_rad, M_PI);
    EXPECT_EQ(z.ulp, 0x1p53);
    EXPECT_EQ(z.ulp1, 0x1p52);
    EXPECT_EQ(z.norm_err_ulp1, 0x1p52);
    EXPECT_TRUE(std::isnan(z.angle_err_vs_nlerp_rad));
    // Components near the top of the range: the direction is still measured; the norm error overflows.
    double huge[4];
    for (int i = 0; i < 4; i++) huge[i] = std::ldexp(to_double(r.R[i]), 1020);
    CaseMetrics h = m.measure(huge, r, Op::slerp);
    EXPECT_LT(h.angle_err_rad, 1e-15);
    EXPECT_TRUE(std::isinf(h.norm_err_ulp1));
    // Subnormal components only: the direction is still that of R to within the rounding.
    double tiny[4];
    for (int i = 0; i < 4; i++) tiny[i] = std::ldexp(to_double(r.R[i]), -1040);
    EXPECT_LT(m.measure(tiny, r, Op::slerp).angle_err_rad, 1e-9);
}

TEST_P(Metrics, ReferenceWithoutMpfrValues) {
    // A reference the fast reference path decided carries no MPFR values: the mpfr engine converts the
    // double-double ones exactly, the fast engine never reads them.
    double q0[4] = {1, 0, 0, 0}, q1[4] = {std::cos(0.4), 0, 0, std::sin(0.4)};
    SlerpReference r = reference_of(q0, q1, 0.3);
    MetricEngine m(Precision::f64, GetParam());
    double out[4] = {std::cos(0.12 + 1e-9), 0, 0, std::sin(0.12 + 1e-9)};
    CaseMetrics with = m.measure(out, r, Op::slerp);
    r.mpfr_evaluated = false;
    for (auto &x : r.R_mp) mpfr_set_ui(mp(x), 7, MPFR_RNDN);  // must not be read
    CaseMetrics without = m.measure(out, r, Op::slerp);
    const FastMetricBounds &b = fast_metric_bounds(Precision::f64);
    EXPECT_TRUE(within_fast_bound(without.angle_err_rad, with.angle_err_rad, b.angle_rel, b.angle_abs));
    EXPECT_TRUE(within_fast_bound(without.ulp, with.ulp, b.ulp_rel, b.ulp_abs));
    EXPECT_NEAR(without.angle_err_rad, 2e-9, 1e-15);
}

INSTANTIATE_TEST_SUITE_P(BothEngines, Metrics, ::testing::Values(ReferenceMode::mpfr, ReferenceMode::fast),
                         [](const auto &info) { return std::string(to_string(info.param)); });
