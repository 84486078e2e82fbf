// quatcheck compare: the regression rules (ratio, rounding floor, nonfinite, fail verdicts), rows on one
// side only, timing, reading errors, and the JUnit shape. End to end with a worsened plugin:
// tests/report_compare.test.sh.
#include "compare/compare.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>

using namespace qc;

namespace {

SummaryRow row(std::string impl, std::string region, double angle, double ulp1, uint64_t nonfinite = 0) {
    SummaryRow r;
    r.impl = impl;
    r.op = "slerp";
    r.region = region;
    r.cases = 1000;
    r.nonfinite = nonfinite;
    r.max_angle_err_rad = angle;
    r.max_ulp1 = ulp1;
    return r;
}

ReportData report(std::vector<SummaryRow> rows) {
    ReportData d;
    d.dir = "dir";
    d.summary = std::move(rows);
    return d;
}

const Finding *find(const Comparison &c, Change ch, const std::string &metric) {
    for (const auto &f : c.findings)
        if (f.change == ch && f.metric == metric) return &f;
    return nullptr;
}

}  // namespace

TEST(Compare, IdenticalReportsPass) {
    auto a = report({row("x.f64", "uniform", 1e-15, 3), row("x.f32", "near-0", 1e-6, 4)});
    Comparison c = compare_reports(a, a, {});
    EXPECT_FALSE(c.failed);
    EXPECT_TRUE(c.findings.empty());
    EXPECT_EQ(c.matched_rows, 2u);
    EXPECT_EQ(c.cases.size(), 2u);
}

TEST(Compare, TwiceTheErrorAboveTheFloorIsARegression) {
    // f64 angle floor = 8 eps = 1.78e-15 rad.
    EXPECT_DOUBLE_EQ(angle_floor_rad("x.f64", {}), 8 * 0x1p-52);
    EXPECT_DOUBLE_EQ(angle_floor_rad("x.f32", {}), 8 * 0x1p-23);
    auto base = report({row("x.f64", "uniform", 1e-14, 1)});
    auto worse = report({row("x.f64", "uniform", 2.1e-14, 1)});
    Comparison c = compare_reports(base, worse, {});
    EXPECT_TRUE(c.failed);
    ASSERT_NE(find(c, Change::regression, "max_angle_err_rad"), nullptr);
    ASSERT_EQ(c.cases.size(), 1u);
    EXPECT_TRUE(c.cases[0].failed);
    // Just under twice: not a regression.
    auto slightly = report({row("x.f64", "uniform", 1.9e-14, 1)});
    EXPECT_FALSE(compare_reports(base, slightly, {}).failed);
    // The reverse direction is an improvement, never a failure.
    Comparison back = compare_reports(worse, base, {});
    EXPECT_FALSE(back.failed);
    EXPECT_NE(find(back, Change::improvement, "max_angle_err_rad"), nullptr);
}

TEST(Compare, DoublingBelowTheRoundingFloorIsNotARegression) {
    // 1 eps -> 3 eps of angle and 0.5 -> 1.5 ulp1: three times worse, but below 8 eps and 2 ulp1.
    auto base = report({row("x.f64", "uniform", 0x1p-52, 0.5)});
    auto cur = report({row("x.f64", "uniform", 3 * 0x1p-52, 1.5)});
    EXPECT_FALSE(compare_reports(base, cur, {}).failed);
    // The same figures for an f32 implementation in f64 units are far below its floor too; but an f32 ulp1
    // regression above 2 ulp1 fails on ulp1 alone.
    auto b32 = report({row("x.f32", "uniform", 1e-7, 1)});
    auto c32 = report({row("x.f32", "uniform", 1e-7, 2.5)});
    Comparison c = compare_reports(b32, c32, {});
    EXPECT_TRUE(c.failed);
    EXPECT_NE(find(c, Change::regression, "max_ulp1"), nullptr);
    EXPECT_EQ(find(c, Change::regression, "max_angle_err_rad"), nullptr);
    // A looser ratio accepts it.
    CompareOptions loose;
    loose.ratio = 3;
    EXPECT_FALSE(compare_reports(b32, c32, loose).failed);
}

TEST(Compare, NewNonfiniteIsARegressionEvenWithSmallerErrors) {
    auto base = report({row("x.f32", "near-pi", 5e-7, 1.5, 0)});
    auto cur = report({row("x.f32", "near-pi", 4e-7, 1, 3)});  // smaller errors, but non-finite outputs
    Comparison c = compare_reports(base, cur, {});
    EXPECT_TRUE(c.failed);
    EXPECT_NE(find(c, Change::regression, "nonfinite"), nullptr);
    EXPECT_FALSE(compare_reports(cur, base, {}).failed);
}

TEST(Compare, RowsOnOneSideAreReportedNotDropped) {
    auto base = report({row("x.f64", "uniform", 1e-15, 1), row("gone.f64", "uniform", 1e-15, 1)});
    auto cur = report({row("x.f64", "uniform", 1e-15, 1), row("new.f64", "near-0", 1e-15, 1)});
    CompareOptions allow;
    allow.allow_missing = true;
    Comparison c = compare_reports(base, cur, allow);
    EXPECT_FALSE(c.failed);
    EXPECT_EQ(c.count(Change::only_baseline), 1u);
    EXPECT_EQ(c.count(Change::only_current), 1u);
    EXPECT_EQ(c.cases.size(), 3u);
    std::string text = comparison_text(c);
    EXPECT_NE(text.find("gone.f64"), std::string::npos);
    EXPECT_NE(text.find("new.f64"), std::string::npos);
    std::string xml = comparison_junit(c);
    EXPECT_NE(xml.find("<skipped message=\"row only in the baseline"), std::string::npos);
}

// Issue 28 (5): by default a row or table of the baseline that the current run lacks fails the comparison.
TEST(Compare, MissingRowsAndTablesFailByDefault) {
    auto base = report({row("x.f64", "uniform", 1e-15, 1), row("gone.f64", "uniform", 1e-15, 1)});
    auto cur = report({row("x.f64", "uniform", 1e-15, 1)});
    Comparison c = compare_reports(base, cur, {});
    EXPECT_TRUE(c.failed);
    EXPECT_EQ(c.missing, 1u);
    EXPECT_NE(comparison_junit(c).find("<failure message=\"row only in the baseline"), std::string::npos);
    EXPECT_NE(comparison_text(c).find("FAIL"), std::string::npos);
    // Negative control: nothing missing, nothing fails.
    EXPECT_FALSE(compare_reports(cur, cur, {}).failed);
    // A whole conformance.csv missing from the current run.
    auto with_table = cur;
    with_table.conformance = std::vector<ConformanceRow>{{2, "x.f64", "slerp", "endpoints", "pass", "", ""}};
    Comparison t = compare_reports(with_table, cur, {});
    EXPECT_TRUE(t.failed);
    EXPECT_NE(comparison_text(t).find("no conformance.csv"), std::string::npos);
    CompareOptions allow;
    allow.allow_missing = true;
    EXPECT_FALSE(compare_reports(with_table, cur, allow).failed);
    EXPECT_FALSE(compare_reports(base, cur, allow).failed);
}

TEST(Compare, NewFailVerdictIsARegression) {
    auto base = report({row("x.f64", "uniform", 1e-15, 1)});
    auto cur = base;
    base.conformance = std::vector<ConformanceRow>{{2, "x.f64", "slerp", "endpoints", "pass", "", ""},
                                                   {3, "x.f64", "slerp", "unit-norm", "fail", "cx1", "r1"}};
    cur.conformance =
        std::vector<ConformanceRow>{{2, "x.f64", "slerp", "endpoints", "fail", "q0=(0x1p+0 0 0 0)", "quatcheck ..."},
                                    {3, "x.f64", "slerp", "unit-norm", "pass", "", ""}};
    Comparison c = compare_reports(base, cur, {});
    EXPECT_TRUE(c.failed);
    EXPECT_EQ(c.count(Change::regression), 1u);
    EXPECT_EQ(c.count(Change::improvement), 1u);
    std::string xml = comparison_junit(c);
    EXPECT_NE(xml.find("q0=(0x1p+0 0 0 0)"), std::string::npos);  // the failure carries the counterexample
    // An unchanged fail is not new.
    EXPECT_FALSE(compare_reports(base, base, {}).failed);
}

TEST(Compare, TimingUsesItsOwnRatioAndFailsOnlyWhenAsked) {
    auto base = report({row("x.f64", "uniform", 1e-15, 1)});
    auto cur = base;
    base.timing = std::vector<TimingRow>{{2, "x.f64", "slerp", "uniform", "latency", 10.0}};
    cur.timing = std::vector<TimingRow>{{2, "x.f64", "slerp", "uniform", "latency", 16.0}};
    Comparison c = compare_reports(base, cur, {});
    EXPECT_FALSE(c.failed);
    EXPECT_EQ(c.count(Change::timing_slower), 1u);
    CompareOptions strict;
    strict.fail_on_timing = true;
    EXPECT_TRUE(compare_reports(base, cur, strict).failed);
    strict.timing_ratio = 2;
    EXPECT_FALSE(compare_reports(base, cur, strict).failed);
}

TEST(Compare, JunitHasTheUsualShape) {
    auto base = report({row("a.f64", "uniform", 1e-14, 1), row("b.f64", "uniform", 1e-14, 1)});
    auto cur = report({row("a.f64", "uniform", 1e-12, 100), row("b.f64", "uniform", 1e-14, 1)});
    cur.dir = "cur<&>";
    Comparison c = compare_reports(base, cur, {});
    std::string xml = comparison_junit(c);
    EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 0), 0u);
    EXPECT_NE(xml.find("<testsuites name=\"quatcheck compare\" tests=\"2\" failures=\"1\""), std::string::npos);
    EXPECT_NE(xml.find("<testsuite name=\"accuracy\" tests=\"2\" failures=\"1\""), std::string::npos);
    EXPECT_NE(xml.find("<testcase classname=\"quatcheck.accuracy\" name=\"a.f64 slerp uniform\">"), std::string::npos);
    EXPECT_NE(xml.find("<testcase classname=\"quatcheck.accuracy\" name=\"b.f64 slerp uniform\"/>"), std::string::npos);
    EXPECT_NE(xml.find("<failure message=\"max_angle_err_rad 1e-14 -&gt; 1e-12"), std::string::npos);
    EXPECT_EQ(xml.find("cur<&>"), std::string::npos);  // escaped
    EXPECT_EQ(std::count(xml.begin(), xml.end(), '<') - std::count(xml.begin(), xml.end(), '>'), 0);
    EXPECT_EQ(xml_escape("a<b&\"c\x01"), "a&lt;b&amp;&quot;c?");
}

TEST(Compare, MalformedCsvIsReportedWithFileAndLine) {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("qc_compare_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    auto write = [&](const std::string &name, const std::string &text) { std::ofstream(dir / name) << text; };
    std::string header =
        "impl,op,region,cases,nonfinite,branch_disagree,max_angle_err_rad,p99_angle_err_rad,max_ulp,max_ulp1,"
        "max_norm_err_ulp1,ties,max_angle_err_vs_exact_nlerp_rad\n";
    write("summary.csv",
          header + "a.f64,slerp,uniform,10,0,0,1e-16,1e-16,1,1,1,0,\na.f64,slerp,near-0,10,0,0,x,1,1,1,1,0,\n");
    try {
        read_report_folder(dir.string());
        ADD_FAILURE() << "no error";
    } catch (const InputError &e) {
        EXPECT_EQ(std::string(e.what()),
                  (dir / "summary.csv").string() + ":3: column max_angle_err_rad: 'x' is not a number");
    }
    write(
        "summary.csv",
        header + "a.f64,slerp,uniform,10,0,0,1e-16,1e-16,1,1,1,0,\na.f64,slerp,uniform,10,0,0,1e-16,1e-16,1,1,1,0,\n");
    EXPECT_THROW(read_report_folder(dir.string()), InputError);  // duplicate row
    write("summary.csv", "impl,op\na,b\n");
    try {
        read_report_folder(dir.string());
        ADD_FAILURE() << "no error";
    } catch (const InputError &e) {
        EXPECT_EQ(std::string(e.what()).rfind((dir / "summary.csv").string() + ":", 0), 0u) << e.what();
    }
    write("summary.csv", header + "a.f64,slerp,uniform,10,0,0,1e-16,1e-16,1,1,1,0,\n");
    EXPECT_NO_THROW(read_report_folder(dir.string()));
    write("conformance.csv",
          "impl,op,property,verdict,cases,tolerance,worst,counterexample,reproduce\n"
          "a.f64,slerp,endpoints,pass,10,0,0,\"x, y\",\"quatcheck replay f\"\n");
    ReportData d = read_report_folder(dir.string());
    ASSERT_TRUE(d.conformance);
    ASSERT_EQ(d.conformance->size(), 1u);
    EXPECT_EQ((*d.conformance)[0].counterexample, "x, y");
    EXPECT_THROW(read_report_folder((dir / "nope").string()), InputError);
    fs::remove_all(dir);
}

// The text report prints every failed case with its figures and the commands that reproduce it; the plugin
// option comes from run.json's origin of the row's implementation (a .so: --plugin, else --plugin-cmd, quoted
// for a shell), the seed and case count from run.json too. A passing comparison prints no FAIL block.
TEST(Compare, TextNamesEachFailedRowWithAReproduceCommand) {
    auto base = report({row("lib.f64", "near-0", 1e-14, 1), row("proc.f64", "uniform", 1e-14, 1),
                        row("seed-c.f64", "threshold", 1e-14, 1)});
    auto cur = report({row("lib.f64", "near-0", 1e-10, 1), row("proc.f64", "uniform", 1e-10, 1),
                       row("seed-c.f64", "threshold", 1e-10, 1)});
    cur.seed = 7;
    cur.cases_per_region = 1000;
    cur.implementations["lib.f64"] = {"plugin", "", "/opt/my lib/lib.so"};
    cur.implementations["proc.f64"] = {"plugin", "1.0", "node adapter.js"};
    cur.implementations["seed-c.f64"] = {"seed", "", "builtin"};
    const std::string text = comparison_text(compare_reports(base, cur, {}));
    EXPECT_NE(text.find("FAIL accuracy lib.f64 slerp near-0: max_angle_err_rad 1e-14 -> 1e-10"), std::string::npos)
        << text;
    EXPECT_NE(text.find("    reproduce the row: quatcheck run --plugin '/opt/my lib/lib.so' --impl lib.f64 --op slerp "
                        "--region near-0 --cases 1000 --seed 7 --no-leaderboard --out reproduce"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("reproduce the row: quatcheck run --plugin-cmd 'node adapter.js' --impl proc.f64 --op slerp "
                        "--region uniform"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("reproduce the row: quatcheck run --impl seed-c.f64 --op slerp --region threshold"),
              std::string::npos)
        << text;
    // Negative control: the same folders the other way round improve, and nothing is printed as failed.
    const std::string better = comparison_text(compare_reports(cur, base, {}));
    EXPECT_EQ(better.find("FAIL "), std::string::npos) << better;
    EXPECT_EQ(better.find("reproduce the row"), std::string::npos) << better;
}

// A row capped by run --cases-for (ok, fewer cases than the run's) is reproduced at its own count, which gives the
// same row; a row that failed on fewer cases keeps the run's count, so the rerun reaches the failing case.
TEST(Compare, ACappedRowIsReproducedAtItsOwnCount) {
    ReportData d = report({});
    d.seed = 7;
    d.cases_per_region = 1000;
    SummaryRow capped = row("slow.f64", "uniform", 1e-14, 1);
    capped.cases = 250;
    EXPECT_NE(reproduce_row_command(d, capped).find(" --cases 250 --seed 7"), std::string::npos)
        << reproduce_row_command(d, capped);
    SummaryRow failed = capped;
    failed.status = "crashed";
    EXPECT_NE(reproduce_row_command(d, failed).find(" --cases 1000 --seed 7"), std::string::npos)
        << reproduce_row_command(d, failed);
    EXPECT_NE(reproduce_row_command(d, row("fast.f64", "uniform", 1e-14, 1)).find(" --cases 1000 "), std::string::npos);
}

// Issue 44 (16): a baseline run with another seed is noted like different case counts (the exit status as it
// was); the same seed, or a folder whose run.json names none, is not.
TEST(Compare, AnotherSeedIsNotedNotFailed) {
    auto base = report({row("x.f64", "uniform", 1e-15, 1)});
    auto cur = base;
    base.seed = 1;
    cur.seed = 2;
    Comparison c = compare_reports(base, cur, {});
    EXPECT_FALSE(c.failed);
    ASSERT_EQ(c.notes.size(), 1u);
    EXPECT_EQ(c.notes[0].rfind("the baseline ran with --seed 1 and the current run with --seed 2: the gate compares "
                               "maxima over different cases",
                               0),
              0u)
        << c.notes[0];
    EXPECT_NE(comparison_text(c).find("note: the baseline ran with --seed 1"), std::string::npos);
    EXPECT_NE(comparison_markdown(c).find("> note: the baseline ran with --seed 1"), std::string::npos);
    cur.seed = 1;
    EXPECT_TRUE(compare_reports(base, cur, {}).notes.empty());
    cur.seed.reset();
    EXPECT_TRUE(compare_reports(base, cur, {}).notes.empty());
}

// Issue 44 (8): rows are matched through a hash index; what it finds is what a scan from the top found: the
// first of two rows sharing an identity (a ReportData built in code may have them), every row of the current
// run once, in its order, and a baseline row missing only when no current row has its identity.
TEST(Compare, HashedMatchFindsWhatTheScanFound) {
    auto base = report({row("x.f64", "uniform", 1e-14, 1), row("x.f64", "uniform", 1e-10, 1),
                        row("y.f64", "near-0", 1e-14, 1), row("y.f64", "near-0", 1e-14, 1)});
    auto cur =
        report({row("y.f64", "near-0", 1e-14, 1), row("x.f64", "uniform", 1e-12, 1), row("x.f64", "near-0", 1e-14, 1)});
    Comparison c = compare_reports(base, cur, {});
    ASSERT_EQ(c.cases.size(), 3u);
    EXPECT_EQ(c.cases[0].name, "y.f64 slerp near-0");
    EXPECT_EQ(c.cases[1].name, "x.f64 slerp uniform");
    EXPECT_TRUE(c.cases[1].failed);  // against the first baseline row (1e-14), not the second (1e-10)
    EXPECT_EQ(c.cases[2].name, "x.f64 slerp near-0");
    EXPECT_EQ(c.count(Change::only_current), 1u);
    EXPECT_EQ(c.count(Change::only_baseline), 0u);
    EXPECT_EQ(c.matched_rows, 2u);
}

// Issue 44 (9): a stop request ends the comparison and each output with Interrupted, not with a result.
TEST(Compare, StopRequestInterruptsMatchingAndOutputs) {
    auto base = report({row("x.f64", "uniform", 1e-14, 1)});
    auto cur = report({row("x.f64", "uniform", 1e-12, 1)});
    StopSource stop;
    Comparison c = compare_reports(base, cur, {}, stop.token());  // not requested: a result
    EXPECT_TRUE(c.failed);
    stop.request(SIGTERM);
    try {
        compare_reports(base, cur, {}, stop.token());
        ADD_FAILURE() << "compare_reports did not stop";
    } catch (const Interrupted &e) {
        EXPECT_EQ(e.sig, SIGTERM);
        EXPECT_STREQ(e.what(), "interrupted by SIGTERM");
    }
    EXPECT_THROW(comparison_text(c, stop.token()), Interrupted);
    EXPECT_THROW(comparison_markdown(c, stop.token()), Interrupted);
    EXPECT_THROW(comparison_junit(c, stop.token()), Interrupted);
}

// The informative correctly-rounded property (docs/conformance.md): a fail on a row the baseline lacks (a baseline
// written before the property existed) is a new measurement, not a regression; pass -> fail on a row the baseline
// has is one.
TEST(Compare, AnInformativeRowNewToTheRunIsNotANewFail) {
    auto base = report({row("x.f64", "uniform", 1e-15, 1)});
    auto cur = base;
    base.conformance = std::vector<ConformanceRow>{{2, "x.f64", "slerp", "endpoints", "pass", "", ""}};
    cur.conformance = std::vector<ConformanceRow>{{2, "x.f64", "slerp", "endpoints", "pass", "", ""},
                                                  {3, "x.f64", "slerp", "correctly-rounded", "fail", "cx", "r"}};
    Comparison c = compare_reports(base, cur, {});
    EXPECT_FALSE(c.failed);
    EXPECT_EQ(c.count(Change::only_current), 1u);
    // Negative control: the same row passing in the baseline, failing now.
    base.conformance->push_back({3, "x.f64", "slerp", "correctly-rounded", "pass", "", ""});
    c = compare_reports(base, cur, {});
    EXPECT_TRUE(c.failed);
    EXPECT_EQ(c.count(Change::regression), 1u);
    // A promise's row new to the run still fails (unchanged rule).
    cur.conformance->push_back({4, "x.f64", "slerp", "unit", "fail", "cx", "r"});
    base.conformance->pop_back();
    c = compare_reports(base, cur, {});
    EXPECT_EQ(c.count(Change::regression), 1u);
}
