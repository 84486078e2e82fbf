// The worst-case search: same reference budget as sampling, deterministic, and it finds larger errors than
// sampling where the seeds' errors peak (the threshold and near-0 regions).
#include "tables/rows.h"
#include "report/run_report.h"
#include "run/runner.h"
#include "search/search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

using namespace qc;

TEST(Search, BeatsSamplingOnTheSeedsThresholdAndNear0Regions) {
    auto cat = load_catalogue({});
    RunOptions o;  // default budget
    o.impl_filters = {"seed-c", "seed-ts", "lusine", "cached"};
    o.regions = {Region::threshold, Region::near_0};
    o.jobs = 2;
    RunResult r = run(o, cat);
    ASSERT_EQ(r.rows.size(), 2u * 6u);
    for (const auto &row : r.rows) {
        EXPECT_GT(row.max_angle_err_search_rad, row.max_angle_err_rad)
            << row.impl->name << " " << to_string(row.region) << ": search " << row.max_angle_err_search_rad
            << " vs sampling " << row.max_angle_err_rad;
        EXPECT_FALSE(row.search_worst.empty());
        EXPECT_EQ(row.search_worst.front().angle_err_rad, row.max_angle_err_search_rad);
    }
}

TEST(Search, SpendsExactlyTheSamplingBudgetOfReferenceEvaluations) {
    auto cat = load_catalogue({});
    const Impl *impl = nullptr;
    for (const auto &i : cat)
        if (i.name == "seed-c.f64") impl = &i;
    ASSERT_NE(impl, nullptr);
    std::vector<double> sampled(1000, 1e-16);  // the runner's per-case errors (values irrelevant here)
    SearchOutcome s = search_row<double>(*impl, Op::slerp, Region::threshold, 3, ReferenceMode::fast, sampled, 5);
    EXPECT_EQ(s.evaluations, 1000u);
    // Half reused from sampling, half spent climbing: a new reference per step, except where the mutant is
    // already in the pool (its error is known).
    EXPECT_EQ(s.reference.cases + s.pool_repeats, 500u);
    EXPECT_LT(s.pool_repeats, 250u);
    EXPECT_EQ(s.worst.size(), 5u);
    SearchOutcome again = search_row<double>(*impl, Op::slerp, Region::threshold, 3, ReferenceMode::fast, sampled, 5);
    EXPECT_EQ(again.max_angle_err_rad, s.max_angle_err_rad);
}

TEST(Search, OutputIsByteIdenticalForAnyJobCountAndItsCasesReplay) {
    auto cat = load_catalogue({});
    RunOptions o;
    o.impl_filters = {"seed-c", "nlerp"};
    o.cases = 400;
    o.seed = 11;
    o.jobs = 1;
    RunResult a = run(o, cat);
    o.jobs = 2;
    RunResult b = run(o, cat);
    EXPECT_EQ(summary_csv(summary_rows(a)), summary_csv(summary_rows(b)));
    std::string wa = worst_cases_csv(worst_case_rows(a));
    EXPECT_EQ(wa, worst_cases_csv(worst_case_rows(b)));
    EXPECT_NE(wa.find(",search\n"), std::string::npos);
    EXPECT_NE(summary_csv(summary_rows(a)).find("max_angle_err_sampling_rad,max_angle_err_search_rad"), std::string::npos);
    // The search's cases are written as numbers and reproduce their error.
    auto dir = std::filesystem::temp_directory_path() / ("qc_search_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    write_file_atomic(dir / "worst_cases.csv", wa);
    std::string cmd = std::string(QC_BINARY_DIR) + "/quatcheck replay --strict " + (dir / "worst_cases.csv").string() + " >/dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    std::filesystem::remove_all(dir);
}

TEST(Search, MutantsStayInsideTheParameterRange) {
    // Ulp nudges of t must not leave [0, 1]: an implementation is judged only on its domain (a regression:
    // nudged t of 1.89 once made Qt's documented t >= 1 clamp look like a 1.7 rad error).
    auto cat = load_catalogue({});
    RunOptions o;
    o.impl_filters = {"seed-c", "nlerp", "expmap"};
    o.cases = 600;
    o.seed = 5;
    RunResult r = run(o, cat);
    size_t seen = 0;
    for (const auto &row : r.rows)
        for (const auto &f : row.search_worst) {
            EXPECT_GE(f.t, 0.0) << row.impl->name << " " << to_string(row.region);
            EXPECT_LE(f.t, 1.0) << row.impl->name << " " << to_string(row.region);
            seen++;
        }
    EXPECT_GT(seen, 0u);
}
