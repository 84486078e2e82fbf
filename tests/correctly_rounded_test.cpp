// The informative `correctly-rounded` property (harness/conform/properties.cpp) and its reference
// (harness/reference/rounded.h): qc-slerp-cr passes it in both precisions; routines that are accurate but not
// correctly rounded fail it, and so does qc-slerp-cr moved by one ulp in one component (negative controls); the
// reference's stated bound 2^(24 - P) holds against a 4096-bit evaluation. (The leaderboard's
// counts: tests/leaderboard_test.cpp.)
#include "conform/conform.h"
#include "isolate/eval.h"
#include "reference/rounded.h"
#include "regions/regions.h"
#include "tables/schemas.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace qc;

namespace {

// The catalogue's implementation of that exact name (one precision), through the CLI's own selection.
const Impl &named(const std::vector<Impl> &cat, const std::string &name) {
    const auto sel = select_impls(cat, {name}, {Op::slerp});
    if (sel.size() != 1) throw std::runtime_error("expected one implementation " + name);
    return *sel.front().impl;
}

ConformRow run_one(const Impl &impl, uint64_t cases = 300) {
    ConformOptions opt;
    opt.jobs = 1, opt.cases = cases, opt.properties = {"correctly-rounded"};
    auto rows = conform({ImplOp{&impl, Op::slerp}}, opt);
    if (rows.size() != 1) throw std::runtime_error("expected one row");
    return rows.front();
}

// qc-slerp-cr.f64 with the last component moved one step up: the negative control of the property itself.
const qc_impl_v1 *cr_table = nullptr;
void one_ulp_off(const double q0[4], const double q1[4], double t, double out[4]) {
    cr_table->slerp_f64(q0, q1, t, out);
    out[3] = std::nextafter(out[3], std::numeric_limits<double>::infinity());
}
const qc_impl_v1 kOneUlpOff = {"test-cr-one-ulp-off", nullptr, nullptr, nullptr, nullptr,
                               one_ulp_off,           nullptr, nullptr, nullptr};

}  // namespace

TEST(CorrectlyRounded, IsInformativeAndSlerpOnly) {
    const Property *p = find_property("correctly-rounded");
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(p->informative);
    EXPECT_TRUE(p->applies(Op::slerp));
    EXPECT_FALSE(p->applies(Op::nlerp));
    for (const Property &q : properties())  // the one list decides, for the C++ side and schema.json alike
        EXPECT_EQ(q.informative, tables::is_informative_property(q.name)) << q.name;
    EXPECT_EQ(tables::to_json()["conformance.csv"]["informative_properties"], nlohmann::json({"correctly-rounded"}));
}

TEST(CorrectlyRounded, QcSlerpCrPassesBothPrecisions) {
    auto cat = load_catalogue({});
    for (const char *name : {"qc-slerp-cr.f32", "qc-slerp-cr.f64"}) {
        const ConformRow r = run_one(named(cat, name));
        EXPECT_EQ(r.verdict, Verdict::pass) << name << " worst " << r.worst.measured;
        EXPECT_EQ(r.worst.measured, 0) << name;
    }
}

// Accurate routines that do not round correctly fail it, with a counterexample explained component by component.
TEST(CorrectlyRounded, NegativeControlsFail) {
    auto cat = load_catalogue({});
    const ConformRow qs = run_one(named(cat, "qc-slerp.f64"));  // at most 2 ulp1: accurate, not correctly rounded
    ASSERT_EQ(qs.verdict, Verdict::fail);
    EXPECT_GE(qs.worst.measured, 1);
    ASSERT_EQ(qs.calls.size(), 1u);
    EXPECT_EQ(qs.calls[0].unit, "ulp");
    EXPECT_EQ(qs.calls[0].tol, 0);
    EXPECT_TRUE(qs.calls[0].failed());
    EXPECT_EQ(run_one(named(cat, "seed-c.f32")).verdict, Verdict::fail);  // the seed slerp, in float
    cr_table = named(cat, "qc-slerp-cr.f64").table;
    Impl off = named(cat, "qc-slerp-cr.f64");
    off.name = "test-cr-one-ulp-off.f64", off.family = "test-cr-one-ulp-off", off.table = &kOneUlpOff;
    off.backend = in_process_backend(&kOneUlpOff);
    const ConformRow r = run_one(off, 50);
    ASSERT_EQ(r.verdict, Verdict::fail);
    EXPECT_EQ(r.worst.measured, 1);  // exactly the one step planted
}

TEST(CorrectlyRounded, StepsApart) {
    EXPECT_EQ(format_steps_apart(Precision::f64, 0.0, -0.0), 0);
    EXPECT_EQ(format_steps_apart(Precision::f64, 1.0, std::nextafter(1.0, 2.0)), 1);
    EXPECT_EQ(format_steps_apart(Precision::f64, 0x1p-1074, -0x1p-1074), 2);
    EXPECT_EQ(format_steps_apart(Precision::f32, 1.0, double(std::nextafter(1.0f, 0.0f))), 1);
    EXPECT_EQ(format_steps_apart(Precision::f32, 0x1p-149, -0.0), 1);
    EXPECT_EQ(format_steps_apart(Precision::f64, 1.0, NAN), INFINITY);
}

// The reference's stated bound: the 256-bit evaluation within 2^(24 - 256) = 2^-232 of a 4096-bit one, per
// component, on 200 cases of every region (the largest ratio to the bound is printed).
TEST(CorrectlyRounded, ReferenceBoundHolds) {
    double worst = 0;
    for (Region r : all_regions())
        for (uint64_t k = 0; k < 200; k++) {
            Rng rng = case_rng(45, Precision::f64, r, k);
            const SlerpCase<double> c = sample_case<double>(r, rng);
            RealQuat lo, hi;
            ideal_slerp_mp(256, c.q0.data(), c.q1.data(), c.t, lo);
            ideal_slerp_mp(4096, c.q0.data(), c.q1.data(), c.t, hi);
            Real d;
            ensure_bits(d, 4096);
            for (int i = 0; i < 4; i++) {
                mpfr_sub(mp(d), mp(hi[size_t(i)]), mp(lo[size_t(i)]), MPFR_RNDN);
                mpfr_mul_2si(mp(d), mp(d), 232, MPFR_RNDN);  // in units of the bound
                worst = std::max(worst, std::fabs(mpfr_get_d(mp(d), MPFR_RNDN)));
            }
        }
    std::printf("correctly-rounded reference: largest |R(256) - R(4096)| = %.3g x 2^-232 (bound 1)\n", worst);
    EXPECT_LT(worst, 1);
}
