// The threshold study (harness/threshold): grid, sampler, tau* rule, determinism, agreement with the
// analytic nlerp timing error where the fallback dominates, the jump at tau, and the CLI's flag checks.
// No timing assertions: every study here runs with timing off (min_time_s = 0).
#include "threshold/study.h"

#include "run_binary.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

using namespace qc;

namespace {

// Rotation-angle timing error of the exact normalised lerp on an arc W (angle between the ends on S^3):
// 2 max over t of |atan2(t sin W, 1 - t + t cos W) - t W|. Computed here independently of the study, by a
// dense scan refined with golden-section search, in long double.
double analytic_nlerp_error(double W_in) {
    long double W = W_in;
    auto err = [W](long double t) { return std::fabs(std::atan2(t * std::sin(W), 1 - t + t * std::cos(W)) - t * W); };
    long double best_t = 0, best = 0;
    for (int k = 1; k < 2000; k++) {
        long double t = k / 2000.0L;
        if (err(t) > best) best = err(t), best_t = t;
    }
    long double lo = best_t - 1 / 2000.0L, hi = best_t + 1 / 2000.0L;
    const long double g = (std::sqrt(5.0L) - 1) / 2;
    for (int i = 0; i < 80; i++) {
        long double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (err(a) > err(b)) hi = b;
        else lo = a;
    }
    return double(2 * std::max(best, err((lo + hi) / 2)));
}

const ThresholdResult &small_study() {
    static const ThresholdResult r = [] {
        ThresholdOptions opt;
        opt.points = 40;
        opt.cases = 1500;
        opt.seed = 7;
        opt.jobs = 2;
        opt.min_time_s = 0;  // no timing in unit tests
        return run_threshold_study(opt);
    }();
    return r;
}

// The rows where the fallback dominates: its analytic error at the switch is 10x the arc's floor.
template <class F> int for_fallback_dominated(F f) {
    int n = 0;
    for (const ThresholdRow &row : small_study().rows) {
        double W = std::acos(row.tau);
        double analytic = analytic_nlerp_error(W);
        if (analytic < 10 * row.arc_floor_rad) continue;
        f(row, analytic);
        n++;
    }
    return n;
}

// The measured max is the analytic error at the switch, up to sampling (the largest sampled fallback arc
// and t come within a few per cent of the maximising ones) and rounding: the fallback's own rounding, at
// most 6 eps in rotation angle (measured: up to about 4 eps in f32).
double rounding_slack(Precision p) { return 6 * precision_eps(p); }
bool agrees(double measured, double analytic, double slack) {
    return measured <= analytic * 1.01 + slack && measured >= analytic * 0.95 - slack;
}

}  // namespace

TEST(Threshold, AnalyticNlerpErrorMatchesItsSmallArcExpansion) {
    // For small W, atan2(t sin W, 1 - t + t cos W) - t W = -(W^3 / 6) t (1 - t)(1 - 2t) + O(W^5), whose
    // maximum over t is at t = (3 - sqrt 3)/6 with value sqrt(3)/18: the rotation-angle error is
    // 2 (W^3 / 6) sqrt(3)/18 = (sqrt(3)/54) W^3.
    const double c = std::sqrt(3.0) / 54;
    EXPECT_NEAR(analytic_nlerp_error(1e-3) / 1e-9, c, 1e-6 * c);
    EXPECT_NEAR(analytic_nlerp_error(1e-2) / 1e-6, c, 1e-4 * c);
    EXPECT_GT(analytic_nlerp_error(0.45) / std::pow(0.45, 3), 1.005 * c);  // higher orders show on large arcs
}

TEST(Threshold, GridCoversOneTenthToThePrecisionLimit) {
    for (Precision p : {Precision::f32, Precision::f64}) {
        std::vector<double> g = threshold_grid(p, 40);
        ASSERT_GE(g.size(), 40u) << to_string(p);
        EXPECT_NEAR(g.front(), 0.1, 1e-7);
        EXPECT_EQ(g.back(), std::ldexp(1.0, -precision_bits(p)));
        for (size_t i = 1; i < g.size(); i++) EXPECT_GT(g[i - 1], g[i]);
        double seed = p == Precision::f32 ? 1.0 - double(float(0.9995)) : 1.0 - 0.9995;
        EXPECT_NE(std::find(g.begin(), g.end(), seed), g.end()) << "0.9995 is a grid point";
        for (double x : g) {  // every value is 1 - tau for a tau of the format
            double tau = 1.0 - x;
            if (p == Precision::f32) { EXPECT_EQ(double(float(tau)), tau); }
        }
    }
}

TEST(Threshold, SamplerIsDeterministicAndConcentratedAroundTau) {
    const double tau = 1.0 - 1e-4;
    int below = 0, above = 0, n = 4000;
    for (int k = 0; k < n; k++) {
        SlerpCase<double> a = sample_threshold_case<double>(3, tau, uint64_t(k));
        SlerpCase<double> b = sample_threshold_case<double>(3, tau, uint64_t(k));
        ASSERT_EQ(a.q0, b.q0);
        ASSERT_EQ(a.q1, b.q1);
        ASSERT_EQ(a.t, b.t);
        double d = std::fabs(a.q0[0] * a.q1[0] + a.q0[1] * a.q1[1] + a.q0[2] * a.q1[2] + a.q0[3] * a.q1[3]);
        EXPECT_GE(1 - d, 1e-4 / 16 * 0.99);
        EXPECT_LE(1 - d, 16e-4 * 1.01);
        (d > tau ? above : below)++;
    }
    EXPECT_GT(below, n / 2);  // 60 % arc side + part of the exact neighbours
    EXPECT_GT(above, n / 4);  // 30 % fallback side + part of the exact neighbours
    SlerpCase<double> other = sample_threshold_case<double>(4, tau, 0);
    EXPECT_NE(other.q0, sample_threshold_case<double>(3, tau, 0).q0) << "the seed matters";
}

TEST(Threshold, RecommendationIsTheLargestOneMinusTauWithinTheFloorBelowWhichAllStayWithin) {
    auto row = [](double omt, double err, double floor) {
        ThresholdRow r;
        r.one_minus_tau = omt;
        r.tau = 1 - omt;
        r.max_angle_err_rad = err;
        r.arc_floor_rad = floor;
        return r;
    };
    // 1e-1 fails, 1e-2 passes, 1e-3 fails, then everything below passes: tau* = 1e-4, not 1e-2.
    std::vector<ThresholdRow> rows = {row(1e-1, 5, 1), row(1e-2, 1.5, 1), row(1e-3, 3, 1), row(1e-4, 2, 1),
                                      row(1e-5, 1, 1)};
    ThresholdSummaryRow s = recommend_threshold(rows, 2);
    ASSERT_TRUE(s.found);
    EXPECT_EQ(s.one_minus_tau, 1e-4);
    EXPECT_EQ(s.max_angle_err_rad, 2);
    // A non-finite output disqualifies a row.
    rows[4].nonfinite = 1;
    EXPECT_FALSE(recommend_threshold(rows, 2).found);
    // A larger factor admits more.
    rows[4].nonfinite = 0;
    EXPECT_EQ(recommend_threshold(rows, 5).one_minus_tau, 1e-1);
}

TEST(Threshold, MaxErrorAgreesWithAnalyticNlerpTimingErrorWhereTheFallbackDominates) {
    int rows32 = 0, rows64 = 0, controls = 0;
    for_fallback_dominated([&](const ThresholdRow &row, double analytic) {
        double slack = rounding_slack(row.precision);
        (row.precision == Precision::f32 ? rows32 : rows64)++;
        EXPECT_TRUE(agrees(row.max_angle_err_rad, analytic, slack))
            << to_string(row.precision) << " " << to_string(row.family) << " 1-tau=" << row.one_minus_tau
            << " measured " << row.max_angle_err_rad << " analytic " << analytic;
        // Negative control, where rounding is under a tenth of the error: the comparison would catch a
        // fallback switching at a 10 % larger arc (33 % larger timing error) or a 10 % smaller one.
        if (analytic < 10 * slack) return;
        controls++;
        double W = std::acos(row.tau);
        EXPECT_FALSE(agrees(row.max_angle_err_rad, analytic_nlerp_error(1.1 * W), slack)) << row.one_minus_tau;
        EXPECT_FALSE(agrees(row.max_angle_err_rad, analytic_nlerp_error(0.9 * W), slack)) << row.one_minus_tau;
    });
    EXPECT_GE(rows32, 3 * 8) << "f32: at least 8 grid points per family where the fallback dominates";
    EXPECT_GE(rows64, 3 * 20) << "f64: at least 20 grid points per family where the fallback dominates";
    EXPECT_GE(controls, 3 * 20);
}

TEST(Threshold, JumpAtTauIsTheFallbackErrorWhereTheFallbackDominates) {
    // At the switch the arc side is accurate and the fallback side carries its timing error; the t grid
    // k/64 comes within 1 % of the maximising t.
    for_fallback_dominated([&](const ThresholdRow &row, double analytic) {
        double slack = row.ideal_step_rad + rounding_slack(row.precision);
        EXPECT_LE(row.jump_rad, analytic * 1.01 + slack) << row.one_minus_tau;
        EXPECT_GE(row.jump_rad, analytic * 0.97 - slack) << row.one_minus_tau;
    });
}

TEST(Threshold, SeedThresholdAndRecommendationAreReported) {
    const ThresholdResult &r = small_study();
    ASSERT_EQ(r.summary.size(), 6u);
    for (const ThresholdSummaryRow &s : r.summary) {
        double W = std::acos(s.precision == Precision::f32 ? double(float(0.9995)) : 0.9995);
        // At 0.9995 the fallback's timing error (1.0e-6 rad) dominates in both precisions.
        EXPECT_TRUE(agrees(s.max_angle_err_at_0_9995_rad, analytic_nlerp_error(W), rounding_slack(s.precision)))
            << to_string(s.family);
        EXPECT_GT(s.max_angle_err_at_0_9995_rad, 0);
        ASSERT_TRUE(s.found) << to_string(s.precision) << " " << to_string(s.family);
        EXPECT_LE(s.max_angle_err_rad, r.options.floor_factor * s.arc_floor_rad);
    }
    // The f64 atan2 arc has no acos loss, so its tau* is much closer to 1 than 0.9995.
    for (const ThresholdSummaryRow &s : r.summary)
        if (s.precision == Precision::f64) { EXPECT_LT(s.one_minus_tau, 1e-6) << to_string(s.family); }
}

TEST(Threshold, ReportIsDeterministicWhateverTheThreads) {
    ThresholdOptions opt;
    opt.precisions = {Precision::f32};
    opt.points = 40;
    opt.cases = 150;
    opt.min_time_s = 0;
    opt.jobs = 1;
    ThresholdResult a = run_threshold_study(opt);
    opt.jobs = 2;
    ThresholdResult b = run_threshold_study(opt);
    EXPECT_EQ(threshold_csv(a), threshold_csv(b));
    EXPECT_EQ(threshold_summary_csv(a), threshold_summary_csv(b));
    EXPECT_NE(threshold_csv(a).find("f32,acos+lerp,"), std::string::npos);
    opt.seed = 2;
    EXPECT_NE(threshold_csv(a), threshold_csv(run_threshold_study(opt)));
}

using qc::test::quatcheck_err;

TEST(Threshold, CommandRejectsBadNumbersWithOneLineAndStatus2) {
    std::filesystem::path out =
        std::filesystem::temp_directory_path() / ("qc_threshold_cli_" + std::to_string(::getpid()));
    const char *bad[] = {"--points 39",        "--points abc",       "--cases 0",       "--cases -5",
                         "--jobs -1",          "--min-time -1",      "--min-time nan",  "--min-time 1e9",
                         "--floor-factor 0.5", "--floor-factor inf", "--precision f16", "--seed x"};
    for (const char *b : bad) {
        auto [status, err] = quatcheck_err("threshold --out " + out.string() + " " + b);
        EXPECT_EQ(status, 2) << b << ": " << err;
        EXPECT_EQ(err.rfind("quatcheck: ", 0), 0u) << b << ": " << err;
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << b << ": " << err;
        EXPECT_FALSE(std::filesystem::exists(out / "threshold.csv")) << b;
    }
    // A tiny valid run writes both CSVs (timing off to keep it short).
    auto [status, err] =
        quatcheck_err("threshold --precision f32 --points 40 --cases 20 --min-time 0 --out " + out.string());
    EXPECT_EQ(status, 0) << err;
    EXPECT_TRUE(std::filesystem::exists(out / "threshold.csv"));
    EXPECT_TRUE(std::filesystem::exists(out / "threshold_summary.csv"));
    std::filesystem::remove_all(out);
}
