// The angular-velocity curves against closed forms: nlerp's phi(t) and speed, slerp's constant speed.
#include "curves/velocity.h"
#include "plugins/impls.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <tuple>

using namespace qc;

namespace {
std::vector<CurveRow> curves(const std::vector<Impl> &catalogue, const std::string &impl, Op op, int points = 201) {
    CurveOptions opt;
    opt.impl_filters = {impl};
    opt.ops = {op};
    opt.points = points;
    return velocity_curves(opt, catalogue);
}
}  // namespace

TEST(Curves, NlerpAgreesWithTheClosedForm) {
    // nlerp of keys W apart on the sphere reaches the sphere angle atan2(t sin W, 1 - t + t cos W), i.e. the
    // rotation angle phi = 2 atan2(...) with W = Theta / 2; its speed is 2 sin W / (x^2 + y^2).
    std::vector<Impl> catalogue = load_catalogue({});
    std::vector<CurveRow> rows = curves(catalogue, "nlerp.f64", Op::nlerp);
    ASSERT_EQ(rows.size(), 201 * curve_arcs_deg().size());
    std::map<double, double> theta;  // arc -> Theta (phi_ideal at t = 1)
    for (const auto &r : rows)
        if (r.t == 1) theta[r.arc_deg] = r.phi_ideal_rad;
    double worst_phi = 0, worst_speed = 0, biggest_speedup = 0;
    for (const auto &r : rows) {
        const double W = theta.at(r.arc_deg) / 2, x = 1 - r.t + r.t * std::cos(W), y = r.t * std::sin(W);
        worst_phi = std::max(worst_phi, std::fabs(r.phi_rad - 2 * std::atan2(y, x)));
        if (r.t > 0 && r.t < 1) {  // central differences: O(dt^2) from the closed form's derivative
            const double speed_rel = std::sin(W) / ((x * x + y * y) * W) - 1;
            worst_speed = std::max(worst_speed, std::fabs(r.speed_rel_err - speed_rel));
        }
        if (r.arc_deg == 179 && r.t == 0.5) biggest_speedup = r.speed_rel_err;
    }
    EXPECT_LT(worst_phi, 1e-14);
    EXPECT_LT(worst_speed, 1e-3);
    // At 179 degrees nlerp's midpoint speed exceeds slerp's by tan(W/2)/(W/2) - 1 (about 27 %).
    const double W = theta.at(179) / 2;
    EXPECT_NEAR(biggest_speedup, std::tan(W / 2) / (W / 2) - 1, 1e-3);
}

TEST(Curves, SlerpIsConstantSpeedAndTheFallbackShows) {
    std::vector<Impl> catalogue = load_catalogue({});
    std::vector<CurveRow> rows = curves(catalogue, "seed-c.f64", Op::slerp);
    double wide = 0, one_degree = 0;
    for (const auto &r : rows) {
        if (r.arc_deg >= 10) wide = std::max(wide, std::fabs(r.timing_err));
        if (r.arc_deg == 1) one_degree = std::max(one_degree, std::fabs(r.timing_err));
    }
    EXPECT_LT(wide, 1e-14);
    // Below the 0.9995 threshold the seed routine is an nlerp: a timing error of order W^2 / 100.
    EXPECT_GT(one_degree, 1e-8);
    EXPECT_LT(one_degree, 1e-5);
}

TEST(Curves, SquadCurvesCoverArcsAndTracks) {
    std::vector<Impl> catalogue = load_catalogue({});
    std::vector<CurveRow> rows = curves(catalogue, "seed-squad.f64", Op::squad, 101);
    EXPECT_EQ(rows.size(), 101 * (curve_arcs_deg().size() + curve_tracks().size()));
    double upto90 = 0, at135 = 0;
    for (const auto &r : rows) {
        if (r.track.empty() && r.arc_deg <= 90) upto90 = std::max(upto90, std::fabs(r.timing_err));
        if (r.track.empty() && r.arc_deg == 135) at135 = std::max(at135, std::fabs(r.timing_err));
    }
    // Up to 90 degrees the seed squad follows Shoemake's curve but for its inner slerps' nlerp fallback
    // (control points within 3.6 degrees): errors of order 1e-6. At 135 degrees the control points
    // s_0 = q_0 exp(-L/4), s_1 = q_1 exp(L/4) are 1.5 x 67.5 > 90 degrees apart on the sphere, the seed's
    // inner slerp takes the other (short) arc, and the curve leaves Shoemake's: the curve must show it.
    EXPECT_LT(upto90, 1e-5);
    EXPECT_GT(upto90, 1e-8);
    EXPECT_GT(at135, 0.1);
    std::string csv = velocity_curve_csv(rows);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "impl,op,arc_deg,t,phi_rad,phi_ideal_rad,timing_err,speed_rel_err,track");
}

TEST(Curves, BadOptions) {
    std::vector<Impl> catalogue = load_catalogue({});
    CurveOptions opt;
    opt.points = 2;
    EXPECT_THROW(velocity_curves(opt, catalogue), UsageError);
    opt.points = 11;
    opt.impl_filters = {"nothing-like-this"};
    EXPECT_THROW(velocity_curves(opt, catalogue), UsageError);
}

// Each implementation's curves are one work item and the rows are joined in the selection's order, so the
// table does not depend on the thread count; the ideal curves, computed once per precision, kind and keys,
// are the ones every implementation's rows carry.
TEST(Curves, SameRowsForAnyJobCount) {
    std::vector<Impl> catalogue = load_catalogue({});
    CurveOptions opt;
    opt.impl_filters = {"seed-*", "broken-*"};
    opt.points = 51;
    opt.jobs = 1;
    const std::string one = velocity_curve_csv(velocity_curves(opt, catalogue));
    opt.jobs = 3;
    std::vector<CurveRow> rows = velocity_curves(opt, catalogue);
    EXPECT_EQ(velocity_curve_csv(rows), one);
    ASSERT_GT(rows.size(), 51u * curve_arcs_deg().size() * 4);
    // the ideal of slerp and of nlerp on one arc and precision is one curve: the same phi_ideal at each t
    std::map<std::tuple<bool, double, double>, double> ideal;  // (f32, arc, t) -> phi_ideal of slerp/nlerp rows
    size_t shared = 0;
    for (const auto &r : rows) {
        if (r.op == Op::squad) continue;
        auto [it, fresh] =
            ideal.emplace(std::make_tuple(r.impl->precision == Precision::f32, r.arc_deg, r.t), r.phi_ideal_rad);
        if (fresh) continue;
        EXPECT_EQ(it->second, r.phi_ideal_rad) << r.impl->name << " " << r.arc_deg << " " << r.t;
        shared++;
    }
    EXPECT_GT(shared, 0u);
}
