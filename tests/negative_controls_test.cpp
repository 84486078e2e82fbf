// Negative controls: every deliberately broken implementation (impls/broken) is flagged by the property
// meant to catch it, with the default conform budget; the planted needles also stand out in the worst cases
// of a default `quatcheck run`.
#include "conform/conform.h"
#include "run/runner.h"
#include "pipeline/pipeline.h"

#include <gtest/gtest.h>

#include <map>

using namespace qc;

namespace {

struct Control {
    const char *family, *property;
};

// The property meant to catch each control (docs/conformance.md, "Negative controls").
const Control kControls[] = {
    {"broken-noflip", "shortest-arc"},
    {"broken-acos-unclamped", "finite"},
    {"broken-swapped-weights", "endpoints"},
    {"broken-end-noflip", "endpoints"},  // only at t = 1 (tests/conform_explain.test.sh)
    {"broken-unnormalised-fallback", "unit"},
    {"broken-nlerp-as-slerp", "constant-speed"},
    {"broken-single-arc", "constant-speed"},
    {"broken-euler-lerp", "shortest-arc"},
    {"broken-matrix-lerp", "unit"},
    {"broken-needle-threshold", "threshold-continuity"},
    {"broken-needle-zero", "threshold-continuity"},
    {"broken-needle-antipode", "threshold-continuity"},
    {"broken-needle-one", "threshold-continuity"},
    {"broken-needle-dot", "threshold-continuity"},  // also in every sweep's branch map (tests/sweep.test.sh)
};

}  // namespace

TEST(NegativeControls, EachIsFlaggedByItsPropertyWithTheDefaultBudget) {
    auto cat = load_catalogue({});
    ConformOptions opt;  // default seed and case count, as `quatcheck conform` runs
    opt.jobs = 2;
    for (const Control &c : kControls) {
        opt.properties = {c.property};
        auto rows = conform(select_impls(cat, {c.family}, {Op::slerp}), opt);
        ASSERT_FALSE(rows.empty()) << c.family;
        for (const auto &r : rows) {
            EXPECT_EQ(r.verdict, Verdict::fail) << r.impl->name << " should fail " << c.property << " (worst "
                                                << r.worst.measured << ", tolerance " << r.worst.tolerance << ")";
            EXPECT_FALSE(r.counterexample.empty());
            EXPECT_GT(r.worst.measured, r.worst.tolerance);
        }
    }
}

TEST(NegativeControls, EveryBrokenImplementationIsListedAsAControl) {
    for (const auto &i : load_catalogue({})) {
        if (i.group != "broken" || i.family.rfind("broken-", 0) != 0) continue;
        if (i.family.find("squad") != std::string::npos) continue;  // squad's own controls (issue 4)
        // broken-needle-t (impls/broken/needles_anywhere.cpp) sits at a t no region or property looks at: its
        // control is `quatcheck sweep --over t`'s branch map (tests/sweep.test.sh).
        bool listed = i.family == "broken-needle-t";
        for (const Control &c : kControls) listed = listed || i.family == c.family;
        EXPECT_TRUE(listed) << i.family << " has no property assigned to catch it";
    }
}

TEST(NegativeControls, NeedlesStandOutInTheWorstCasesOfADefaultRun) {
    // Each needle is wrong (2e-6 rad) only inside a window 4e-6 wide in a.b; the default run must list a case
    // inside it among the worst cases of the region that holds the window, far above every other row.
    const std::map<std::string, Region> window_region = {
        {"broken-needle-threshold.f64", Region::threshold},
        {"broken-needle-zero.f64", Region::near_half_pi},
        {"broken-needle-antipode.f64", Region::near_pi},
        {"broken-needle-one.f64", Region::near_0},
    };
    auto cat = load_catalogue({});
    RunOptions o;  // default cases per region
    o.impl_filters = {"broken-needle-*"};
    o.jobs = 2;
    RunOutput r = run(o, cat);
    for (const auto &[name, region] : window_region) {
        double inside = 0, elsewhere = 0;
        for (size_t k = 0; k < r.rows.size(); k++) {
            const Row &row = r.rows[k];
            if (row.impl->name != name) continue;
            if (row.region == region) {
                ASSERT_FALSE(row.worst.empty());
                inside = row.worst.front().angle_err_rad;
                EXPECT_GE(r.search_of(k).max_angle_err_rad, 1e-6) << name;
            } else {
                elsewhere = std::max(elsewhere, row.max_angle_err_rad);
            }
        }
        EXPECT_GE(inside, 1.9e-6) << name << ": no case inside the window was sampled";
        EXPECT_GT(inside, 1000 * elsewhere) << name << ": the needle does not stand out";
    }
}
