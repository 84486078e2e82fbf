// The reference against closed forms, and its validation/escalation.
#include "metrics/metrics.h"
#include "reference/reference.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace qc;

namespace {
const double kDeg = M_PI / 180;

// Rotation angle (radians) of a unit quaternion given in high precision: 2 atan2(|v|, |w|).
double rotation_of(const RealQuat &q) {
    double v = std::sqrt(to_double(q[1]) * to_double(q[1]) + to_double(q[2]) * to_double(q[2]) +
                         to_double(q[3]) * to_double(q[3]));
    return 2 * std::atan2(v, std::fabs(to_double(q[0])));
}
}  // namespace

TEST(Reference, SlerpHalfwayOnA90DegreeTurn) {
    // q0 = identity, q1 = 90 degrees about x: slerp at 1/2 is 45 degrees about x.
    ReferenceEngine ref(Precision::f64, ReferenceMode::mpfr);
    SlerpReference r;
    double q0[4] = {1, 0, 0, 0}, q1[4] = {std::cos(M_PI / 4), std::sin(M_PI / 4), 0, 0};
    ref.slerp_exact(q0, q1, 0.5, r, true);
    EXPECT_NEAR(to_double(r.R_mp[0]), 0.92387953251128674, 1e-15);
    EXPECT_NEAR(to_double(r.R_mp[1]), 0.38268343236508978, 1e-15);
    EXPECT_EQ(to_double(r.R_mp[2]), 0.0);
    EXPECT_EQ(to_double(r.R_mp[3]), 0.0);
    EXPECT_NEAR(r.arc_w, M_PI / 4, 1e-15);
    EXPECT_FALSE(r.tie);
}

TEST(Reference, NlerpLagsSlerpAtAQuarter) {
    // Seed 003's worked example: at t = 1/4 nlerp has turned 21.6 degrees, slerp 22.5.
    ReferenceEngine ref(Precision::f64, ReferenceMode::mpfr);
    SlerpReference r;
    double q0[4] = {1, 0, 0, 0}, q1[4] = {std::cos(M_PI / 4), std::sin(M_PI / 4), 0, 0};
    ref.slerp_exact(q0, q1, 0.25, r, false);
    EXPECT_NEAR(rotation_of(r.R_mp) / kDeg, 22.5, 1e-9);
    EXPECT_NEAR(rotation_of(r.N_mp) / kDeg, 21.6, 0.01);
}

// The worst angle between the exact nlerp and slerp over t, for a rotation of `rotation_deg`.
double nlerp_worst_deg(double rotation_deg) {
    ReferenceEngine ref(Precision::f64, ReferenceMode::mpfr);
    MetricEngine metric(Precision::f64, ReferenceMode::mpfr);
    SlerpReference r;
    double half = rotation_deg * kDeg / 2;
    double q0[4] = {1, 0, 0, 0}, q1[4] = {std::cos(half), 0, std::sin(half), 0};
    double worst = 0;
    for (int k = 0; k <= 2000; k++) {
        ref.slerp_exact(q0, q1, k / 2000.0, r, false);
        double n[4];
        for (int i = 0; i < 4; i++) n[i] = to_double(r.N_mp[i]);
        worst = std::max(worst, metric.rotation_angle(n, r.R_mp));
    }
    return worst / kDeg;
}

TEST(Reference, NlerpWorstTimingErrorOn180And90DegreeTurns) {
    EXPECT_NEAR(nlerp_worst_deg(180), 8.15, 0.01);
    EXPECT_NEAR(nlerp_worst_deg(90), 0.92, 0.01);
}

TEST(Reference, EndpointsAreExact) {
    ReferenceEngine ref(Precision::f32, ReferenceMode::mpfr);
    SlerpReference r;
    SlerpCase<float> c{{0.5f, 0.5f, 0.5f, 0.5f}, {0.0f, 0.6f, 0.0f, 0.8f}, 0.0f};
    ref.slerp(c, r, true);
    for (int i = 0; i < 4; i++) EXPECT_EQ(to_double(r.R_mp[i]), double(c.q0[i]));
    // At t = 1 the result is q1 normalised (0.6f and 0.8f are not exactly a unit pair).
    c.t = 1.0f;
    ref.slerp(c, r, true);
    double n = std::sqrt(double(c.q1[1]) * c.q1[1] + double(c.q1[3]) * c.q1[3]);
    for (int i = 0; i < 4; i++) EXPECT_NEAR(to_double(r.R_mp[i]), double(c.q1[i]) / n, 3e-16);
}

TEST(Reference, ShortArcFlipAndExactTie) {
    ReferenceEngine ref(Precision::f64, ReferenceMode::mpfr);
    SlerpReference r;
    // q1 = -(slightly rotated q0): the reference must flip b and take the short arc.
    double q0[4] = {1, 0, 0, 0}, q1[4] = {-std::cos(0.1), -std::sin(0.1), 0, 0};
    ref.slerp_exact(q0, q1, 0.5, r, false);
    EXPECT_NEAR(r.arc_w, 0.1, 1e-15);
    EXPECT_NEAR(to_double(r.R_mp[0]), std::cos(0.05), 1e-15);
    EXPECT_NEAR(to_double(r.R_mp[1]), std::sin(0.05), 1e-15);  // toward -q1 = (cos .1, sin .1, 0, 0)
    EXPECT_FALSE(r.tie);
    // a.b = 0 exactly: a tie, b kept, the other arc computed too.
    double p1[4] = {0, 1, 0, 0};
    ref.slerp_exact(q0, p1, 0.5, r, false);
    EXPECT_TRUE(r.tie);
    EXPECT_TRUE(r.in_tie_band);
    EXPECT_NEAR(to_double(r.R_mp[1]), std::sqrt(0.5), 1e-15);
    EXPECT_NEAR(to_double(r.R_other_mp[1]), -std::sqrt(0.5), 1e-15);
}

TEST(Reference, NearlyEqualEndsKeepFullPrecision) {
    // W = 1e-12: the atan2 form resolves the arc where acos(a.b) would return 0.
    ReferenceEngine ref(Precision::f64, ReferenceMode::mpfr);
    SlerpReference r;
    double w = 1e-12;
    double q0[4] = {1, 0, 0, 0}, q1[4] = {std::cos(w), std::sin(w), 0, 0};
    ref.slerp_exact(q0, q1, 0.25, r, false);
    EXPECT_NEAR(r.arc_w / w, 1.0, 1e-12);
    EXPECT_NEAR(to_double(r.R_mp[1]) / std::sin(0.25 * w), 1.0, 1e-12);
}

TEST(Reference, ValidationEscalatesUntilTwoEvaluationsAgree) {
    // Started at 20 bits, the first comparison (20 vs 40 bits) cannot agree within 2^-69: the engine
    // must double the precision until it does, count it, and end with the value a 1000-bit evaluation gives.
    ReferenceEngine low(Precision::f64, ReferenceMode::mpfr, 20);
    ReferenceEngine exact(Precision::f64, ReferenceMode::mpfr, 1000);
    SlerpReference r, e;
    double q0[4] = {0.5, 0.5, 0.5, 0.5}, q1[4] = {0.1, 0.7, 0.7, 0.1};
    low.slerp_exact(q0, q1, 0.3, r, true);
    exact.slerp_exact(q0, q1, 0.3, e, false);
    EXPECT_EQ(low.stats().recomputed, 1u);
    EXPECT_EQ(low.stats().disagreements, 1u);
    EXPECT_GE(low.stats().escalations, 2u);
    EXPECT_GE(low.stats().max_bits, 80);
    for (int i = 0; i < 4; i++) {
        Real d = r.R_mp[i] - e.R_mp[i];
        EXPECT_LE(std::fabs(to_double(d)), low.tolerance()) << "component " << i;
    }
    // At the default working precision the same case needs no escalation.
    ReferenceEngine normal(Precision::f64, ReferenceMode::mpfr);
    normal.slerp_exact(q0, q1, 0.3, r, true);
    EXPECT_EQ(normal.stats().escalations, 0u);
}

TEST(Reference, IllConditionedCasesAreAlwaysValidated) {
    ReferenceEngine ref(Precision::f32, ReferenceMode::mpfr);
    SlerpReference r;
    double q0[4] = {1, 0, 0, 0}, q1[4] = {std::cos(1e-5), std::sin(1e-5), 0, 0};
    ref.slerp_exact(q0, q1, 0.5, r, false);  // W < 2^-10
    EXPECT_TRUE(r.ill_conditioned);
    EXPECT_EQ(ref.stats().recomputed, 1u);
    double p1[4] = {0.6, 0.8, 0, 0};
    ref.slerp_exact(q0, p1, 0.5, r, false);  // well-conditioned, not sampled
    EXPECT_FALSE(r.ill_conditioned);
    EXPECT_EQ(ref.stats().recomputed, 1u);
}

TEST(Reference, RejectsNonFiniteAndZeroInputs) {
    ReferenceEngine ref(Precision::f64, ReferenceMode::mpfr);
    SlerpReference r;
    double q0[4] = {1, 0, 0, 0}, z[4] = {0, 0, 0, 0}, n[4] = {NAN, 0, 0, 0};
    EXPECT_THROW(ref.slerp_exact(q0, z, 0.5, r, false), InputError);
    EXPECT_THROW(ref.slerp_exact(q0, n, 0.5, r, false), InputError);
}

// Issue 45: the fast path's validation rate. The smallest rate, at most 1 in 1024, that expects 1,500 checks per
// precision (so at least 1,000 but for a chance below 10^-36); --paranoid keeps 1 in 64 whatever the count.
TEST(Reference, FastCheckRateExpects1500ChecksAndStopsAt1In1024) {
    EXPECT_EQ(fast_check_rate_log2(1000, false), 0);  // a small run checks every certified case
    EXPECT_EQ(fast_check_rate_log2(2999, false), 0);
    EXPECT_EQ(fast_check_rate_log2(3000, false), 1);
    EXPECT_EQ(fast_check_rate_log2(50000, false), 5);  // scripts/run's floor: 10,000 cases in 5 regions
    EXPECT_EQ(fast_check_rate_log2(310000, false), 7);
    EXPECT_EQ(fast_check_rate_log2(uint64_t(1) << 40, false), 10);
    for (uint64_t n : {uint64_t(1000), uint64_t(310000), uint64_t(1) << 40})
        EXPECT_EQ(fast_check_rate_log2(n, true), 6);
    for (uint64_t n = 1500; n < (uint64_t(1) << 30); n = n * 3 / 2) {
        const int k = fast_check_rate_log2(n, false);
        EXPECT_GE(double(n) / double(uint64_t(1) << k), kFastChecksWanted) << n;  // the expectation is met
        if (k < 10) {
            EXPECT_LT(double(n) / double(uint64_t(1) << (k + 1)), kFastChecksWanted) << n;  // and no more
        }
    }
}

// The sample by inputs takes 1 case in 2^k (within 5 standard deviations over 2^20 cases), depends on the seed,
// and a larger k takes a subset of a smaller one's cases.
TEST(Reference, SampleByInputsHasItsRate) {
    for (int k : {0, 3, 6, 10}) {
        uint64_t hits = 0, subset = 0, other_seed = 0;
        const uint64_t n = 1 << 20;
        for (uint64_t i = 0; i < n; i++) {
            const double q0[4] = {1.0, double(i), 0.5, -0.25}, q1[4] = {0.5, 0.25, double(i % 977), 1.0};
            const double t = double(i) / double(n);
            const bool in = sampled_by_inputs(7, q0, q1, t, k);
            hits += in;
            subset += in && !sampled_by_inputs(7, q0, q1, t, k > 0 ? k - 1 : 0);
            other_seed += in != sampled_by_inputs(8, q0, q1, t, k);
        }
        const double want = double(n) / double(uint64_t(1) << k), sd = std::sqrt(want);
        EXPECT_NEAR(double(hits), want, 5 * sd + 1e-9) << k;
        EXPECT_EQ(subset, 0u) << k;
        if (k > 0) { EXPECT_GT(other_seed, 0u) << k; }
    }
}
