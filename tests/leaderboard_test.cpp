// The leaderboard: sorting, left-out groups, missing optional files, verdict compaction, timing picks,
// malformed input reported as FILE:LINE, and the files `quatcheck run` and `quatcheck leaderboard` write.
#include "leaderboard/leaderboard.h"
#include "report/report_dir.h"
#include "report/run_report.h"
#include "run/runner.h"
#include "pipeline/pipeline.h"

#include "run_binary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace qc;
namespace fs = std::filesystem;

namespace {

const char *kHeader =
    "impl,op,region,cases,nonfinite,branch_disagree,max_angle_err_rad,p99_angle_err_rad,max_ulp,max_ulp1,"
    "max_norm_err_ulp1,ties,max_angle_err_vs_exact_nlerp_rad\n";

std::string summary_row(const std::string &impl, const std::string &op, const std::string &region, double err,
                        double ulp1, int nonfinite = 0) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s,%s,%s,100,%d,0,%.9g,%.9g,1,%.9g,1,0,\n", impl.c_str(), op.c_str(),
                  region.c_str(), nonfinite, err, err / 2, ulp1);
    return buf;
}

const char *kRunJson = R"({"implementations": [
  {"impl": "good.f64", "op": "slerp", "group": "seed"},
  {"impl": "lib.f32", "op": "slerp", "group": "engine", "library_version": "1.2.3"},
  {"impl": "lib.f32", "op": "nlerp", "group": "engine", "library_version": "1.2.3"},
  {"impl": "nanny.f32", "op": "slerp", "group": "engine", "library_version": "0.1"},
  {"impl": "control.f32", "op": "slerp", "group": "broken"}
]})";

std::string standard_summary() {
    return std::string(kHeader) + summary_row("lib.f32", "slerp", "uniform", 1e-6, 8) +
           summary_row("lib.f32", "slerp", "near-0", 3e-4, 2) + summary_row("lib.f32", "nlerp", "uniform", 2e-5, 40) +
           summary_row("lib.f32", "nlerp", "near-0", 1e-7, 1) + summary_row("good.f64", "slerp", "uniform", 1e-15, 3) +
           summary_row("good.f64", "slerp", "near-0", 2e-15, 4) +
           // Tiny error, but non-finite outputs: it must rank last.
           summary_row("nanny.f32", "slerp", "uniform", 1e-9, 0.5) +
           summary_row("nanny.f32", "slerp", "near-0", 1e-9, 0.5, 3) +
           // A negative control: never on the leaderboard.
           summary_row("control.f32", "slerp", "uniform", 1.0, 1e6) +
           summary_row("control.f32", "slerp", "near-0", 2.0, 1e7);
}

ReportFiles memory(std::map<std::string, std::string> files) {
    return files_in("/nonexistent-quatcheck-dir", std::move(files));
}

// The leaderboard of the tables in `files`, named DIR/FILE in messages.
Leaderboard board(const ReportFiles &files, const std::filesystem::path &dir) {
    return build_leaderboard(read_report_tables(files, dir));
}

std::string error_of(const std::map<std::string, std::string> &files) {
    try {
        board(memory(files), "R");
    } catch (const InputError &e) { return e.what(); }
    return "(no error)";
}

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() /
               ("qc_leaderboard_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
    static int &counter() {
        static int c = 0;
        return c;
    }
    void put(const std::string &name, const std::string &content) const { std::ofstream(path / name) << content; }
    std::string get(const std::string &name) const {
        std::ifstream in(path / name);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
};

}  // namespace

TEST(Leaderboard, SortsByWorstRegionErrorWithNonFiniteLastAndLeavesOutBroken) {
    Leaderboard b = board(memory({{"summary.csv", standard_summary()}, {"run.json", kRunJson}}), "R");
    ASSERT_EQ(b.rows.size(), 4u);
    EXPECT_EQ(b.rows[0].impl, "good.f64");
    EXPECT_EQ(b.rows[1].impl + " " + b.rows[1].op, "lib.f32 nlerp");  // worst 2e-5 (uniform)
    EXPECT_EQ(b.rows[2].impl + " " + b.rows[2].op, "lib.f32 slerp");  // worst 3e-4 (near-0)
    EXPECT_EQ(b.rows[3].impl, "nanny.f32");
    EXPECT_EQ(b.rows[1].worst_region, "uniform");
    EXPECT_EQ(b.rows[2].worst_region, "near-0");
    EXPECT_DOUBLE_EQ(b.rows[2].worst_angle_err_rad, 3e-4);
    EXPECT_EQ(b.rows[2].worst_ulp1, 8.0);  // the largest ulp1 over regions, from another region
    EXPECT_EQ(b.rows[3].nonfinite, 3u);
    EXPECT_EQ(b.rows[2].library_version, "1.2.3");
    EXPECT_EQ(b.rows[2].group, "engine");
    EXPECT_EQ(b.regions, (std::vector<std::string>{"uniform", "near-0"}));
    for (const auto &r : b.rows) EXPECT_NE(r.group, "broken");
    std::string csv = leaderboard_csv(b);
    EXPECT_EQ(csv.find("control.f32"), std::string::npos);
    EXPECT_NE(csv.find("rank,impl,op,group,library_version,cases,nonfinite,status,worst_region,worst_max_angle_err_rad,"
                       "worst_max_ulp1,uniform_max_angle_err_rad,uniform_max_ulp1,near-0_max_angle_err_rad,"
                       "near-0_max_ulp1,conformance,conformance_fail,ns_per_call_throughput,ns_per_call_latency\n"),
              std::string::npos);
    EXPECT_NE(csv.find("\n3,lib.f32,slerp,engine,1.2.3,200,0,ok,near-0,0.0003,8,1e-06,8,0.0003,2,not run,,,\n"),
              std::string::npos)
        << csv;
}

TEST(Leaderboard, WithoutRunJsonGroupsAndVersionsComeFromTheBuiltInRegistrations) {
    std::string s = std::string(kHeader) + summary_row("seed-c.f32", "slerp", "uniform", 1e-6, 1) +
                    summary_row("broken-noflip.f32", "slerp", "uniform", 1, 1e6) +
                    summary_row("someplugin.f32", "slerp", "uniform", 1e-5, 1);
    Leaderboard b = board(memory({{"summary.csv", s}}), "R");
    ASSERT_EQ(b.rows.size(), 2u);  // broken-noflip is in the broken group
    EXPECT_EQ(b.rows[0].impl, "seed-c.f32");
    EXPECT_EQ(b.rows[0].group, "seed");
    EXPECT_EQ(b.rows[1].impl, "someplugin.f32");
    EXPECT_EQ(b.rows[1].group, "");  // neither listed nor built in: kept, group unknown
    EXPECT_FALSE(b.have_run_json);
}

TEST(Leaderboard, MissingOptionalFilesLeaveBlanksAndSaySo) {
    Leaderboard b = board(memory({{"summary.csv", standard_summary()}, {"run.json", kRunJson}}), "R");
    EXPECT_FALSE(b.have_conformance);
    EXPECT_FALSE(b.have_timing);
    for (const auto &r : b.rows) {
        EXPECT_EQ(compact_verdicts(r), "not run");
        EXPECT_FALSE(r.ns_per_call_throughput);
    }
    std::string md = leaderboard_md(b);
    EXPECT_NE(md.find("Conformance: not run"), std::string::npos);
    EXPECT_NE(md.find("ns/call: not measured"), std::string::npos);
    EXPECT_NE(md.find("lower bounds"), std::string::npos);
    EXPECT_NE(md.find("100 sampled cases per region"), std::string::npos);
    // Without any summary there is nothing to rank.
    EXPECT_NE(error_of({{"run.json", kRunJson}}).find("R: no summary.csv or squad_summary.csv"), std::string::npos);
}

TEST(Leaderboard, CompactsVerdictsWorstFirstPerProperty) {
    std::string conf =
        "impl,op,property,verdict,cases,tolerance,worst,counterexample,reproduce\n"
        "lib.f32,slerp,finite,pass,10,0,0,,\n"
        "lib.f32,slerp,shortest-arc,fail,10,0,1,\"q0=(1, 0, 0, 0)\",quatcheck replay x\n"
        "lib.f32,slerp,unit,fail,10,0,0,,\n"
        "lib.f32,slerp,unit,pass,10,0,0,,\n"  // a second row for one property: fail still wins
        "lib.f32,slerp,constant-speed,known,10,0,0,,\n"
        "lib.f32,slerp,threshold-continuity,skip,0,0,0,,\n"
        "good.f64,slerp,finite,pass,10,0,0,,\n"
        "absent.f32,slerp,finite,fail,10,0,0,,\n";  // not in the accuracy run: no row to annotate
    // "untested": a squad c1 property without a judged key (squad_report.cpp's c1_verdict); not judged
    std::string squad_conf = "impl,op,property,verdict\nlib.f32,nlerp,c1,known\nlib.f32,nlerp,c1-sign-flip,untested\n";
    Leaderboard b = board(memory({{"summary.csv", standard_summary()},
                                  {"run.json", kRunJson},
                                  {"conformance.csv", conf},
                                  {"squad_conformance.csv", squad_conf}}),
                          "R");
    std::map<std::string, std::string> by;
    for (const auto &r : b.rows) by[r.impl + " " + r.op] = compact_verdicts(r);
    EXPECT_EQ(by["lib.f32 slerp"],
              "1/4 pass; fail: shortest-arc unit; known: constant-speed; skip: threshold-continuity");
    EXPECT_EQ(by["good.f64 slerp"], "1/1 pass");
    EXPECT_EQ(by["lib.f32 nlerp"], "0/1 pass; known: c1; untested: c1-sign-flip");
    EXPECT_EQ(by["nanny.f32 slerp"], "not run");
    EXPECT_EQ(by.count("absent.f32 slerp"), 0u);
    std::string csv = leaderboard_csv(b);
    EXPECT_NE(csv.find(",1/4 pass; fail: shortest-arc unit; known: constant-speed; skip: threshold-continuity,2,"),
              std::string::npos);
    EXPECT_NE(leaderboard_md(b).find("**1/4 pass; fail: shortest-arc unit"), std::string::npos);
}

TEST(Leaderboard, TimingPrefersTheUniformRegionElseTheSlowest) {
    std::string timing =
        "impl,op,region,mode,ns_per_call,cv,repetitions\n"
        "lib.f32,slerp,near-0,throughput,9,0.01,5\n"
        "lib.f32,slerp,uniform,throughput,12.5,0.01,5\n"
        "lib.f32,slerp,uniform,latency,30,0.01,5\n"
        "good.f64,slerp,near-0,throughput,7,0.01,5\n"
        "good.f64,slerp,threshold,throughput,11,0.01,5\n";
    Leaderboard b =
        board(memory({{"summary.csv", standard_summary()}, {"run.json", kRunJson}, {"timing.csv", timing}}), "R");
    for (const auto &r : b.rows) {
        if (r.impl == "lib.f32" && r.op == "slerp") {
            EXPECT_EQ(r.ns_per_call_throughput, 12.5);
            EXPECT_EQ(r.ns_per_call_latency, 30);
        } else if (r.impl == "good.f64") {
            EXPECT_EQ(r.ns_per_call_throughput, 11);
            EXPECT_FALSE(r.ns_per_call_latency);
        } else {
            EXPECT_FALSE(r.ns_per_call_throughput);
        }
    }
    EXPECT_NE(leaderboard_md(b).find("| ns/call |"), std::string::npos);
}

TEST(Leaderboard, SquadRowsGetTheirOwnRegionsAndTable) {
    // squad_summary.csv as `quatcheck squad` writes it: the error with the implementation's own control
    // points is what a caller gets; there is no ulp1 column.
    std::string squad =
        "impl,op,region,tracks,cases,nonfinite,max_angle_err_own_rad,p99_angle_err_own_rad,max_angle_err_refcp_rad,"
        "p99_angle_err_refcp_rad,max_c1_jump_impl,max_c1_jump_ref,c1_keys,c1_failures\n"
        "lib.f32,squad,random,10,100,0,5e-06,1e-06,9,9,0,0,1,0\n"
        "lib.f32,squad,sign-flip,10,100,0,0.002,1e-06,9,9,0,0,1,0\n"
        "broken-squad.f32,squad,random,10,100,0,0.5,0.1,9,9,0,0,1,0\n";
    Leaderboard b =
        board(memory({{"summary.csv", standard_summary()}, {"run.json", kRunJson}, {"squad_summary.csv", squad}}), "R");
    ASSERT_EQ(b.rows.size(), 5u);  // broken-squad (not in run.json) is known as broken by its registration
    EXPECT_EQ(b.squad_regions, (std::vector<std::string>{"random", "sign-flip"}));
    EXPECT_EQ(b.rows[3].op, "squad");  // 2e-3 ranks after lib.f32 slerp's 3e-4, before the non-finite row
    EXPECT_EQ(b.rows[3].worst_region, "sign-flip");
    EXPECT_DOUBLE_EQ(b.rows[3].worst_angle_err_rad, 2e-3);  // the own-control-point error, not refcp's 9
    EXPECT_FALSE(b.rows[3].worst_ulp1);
    std::string md = leaderboard_md(b);
    EXPECT_NE(md.find("| random | sign-flip |"), std::string::npos);
    EXPECT_NE(md.find(" 5.00e-06 |"), std::string::npos) << md;
    std::string csv = leaderboard_csv(b);
    EXPECT_NE(csv.find(",sign-flip_max_angle_err_rad,sign-flip_max_ulp1,"), std::string::npos);
    EXPECT_NE(csv.find("\n4,lib.f32,squad,engine,1.2.3,200,0,ok,sign-flip,0.002,,,,,,5e-06,,0.002,,not run,,,\n"),
              std::string::npos)
        << csv;
    EXPECT_EQ(csv.find("broken-squad"), std::string::npos);
}

TEST(Leaderboard, SearchMaximaCountAndFailedImplementationsRankLast) {
    // summary.csv as a run with the worst-case search and containment writes it.
    std::string s =
        "impl,op,region,cases,nonfinite,max_angle_err_rad,max_ulp1,status,status_detail,failed_case,"
        "max_angle_err_sampling_rad,max_angle_err_search_rad\n"
        "a.f32,slerp,uniform,100,0,1e-07,1,ok,,,1e-07,\n"         // the search did not run: blank
        "a.f32,slerp,threshold,100,0,2e-07,1,ok,,,2e-07,5e-06\n"  // the search found more
        "b.f32,slerp,uniform,100,0,3e-06,1,ok,,,3e-06,1e-06\n"    // the search found less
        "c.f32,slerp,uniform,40,0,1e-09,1,crashed,killed by SIGSEGV,0x1p+0 ...,1e-09,\n"
        "d.f32,slerp,uniform,100,2,1e-08,1,ok,,,1e-08,\n";
    Leaderboard b = board(memory({{"summary.csv", s}}), "R");
    ASSERT_EQ(b.rows.size(), 4u);
    EXPECT_TRUE(b.have_search);
    EXPECT_EQ(b.rows[0].impl, "b.f32");
    EXPECT_DOUBLE_EQ(b.rows[0].worst_angle_err_rad, 3e-6);
    EXPECT_EQ(b.rows[1].impl, "a.f32");
    EXPECT_DOUBLE_EQ(b.rows[1].worst_angle_err_rad, 5e-6);
    EXPECT_EQ(b.rows[1].worst_region, "threshold");
    EXPECT_EQ(b.rows[2].impl, "d.f32");  // non-finite outputs
    EXPECT_EQ(b.rows[3].impl, "c.f32");  // crashed: after everything else, however small its error
    EXPECT_EQ(b.rows[3].status, "crashed in uniform");
    std::string md = leaderboard_md(b);
    EXPECT_NE(md.find("| **crashed in uniform** |"), std::string::npos) << md;
    EXPECT_NE(md.find("(and the worst-case search, where it ran)"), std::string::npos);
}

TEST(Leaderboard, MalformedInputIsAnInputErrorNamingFileAndLine) {
    std::string bad_number = std::string(kHeader) + summary_row("a.f32", "slerp", "uniform", 1e-6, 1) +
                             "a.f32,slerp,near-0,100,0,0,zero,0,1,1,1,0,\n";
    EXPECT_EQ(error_of({{"summary.csv", bad_number}})
                  .rfind("R/summary.csv:3: column max_angle_err_rad: 'zero' is not a number", 0),
              0u)
        << error_of({{"summary.csv", bad_number}});
    std::string missing_column = "impl,op,region,cases,nonfinite,max_angle_err_rad\na.f32,slerp,uniform,1,0,0\n";
    EXPECT_EQ(error_of({{"summary.csv", missing_column}}), "R/summary.csv:1: missing column 'max_ulp1'");
    std::string truncated = std::string(kHeader) + "a.f32,slerp,uniform,100,0,0,1e-6,1e-6,1,1,1,0,";
    EXPECT_EQ(error_of({{"summary.csv", truncated}}), "R/summary.csv:2: the last line is truncated (no final newline)");
    std::string duplicate = std::string(kHeader) + summary_row("a.f32", "slerp", "uniform", 1e-6, 1) +
                            summary_row("a.f32", "slerp", "uniform", 2e-6, 1);
    EXPECT_EQ(error_of({{"summary.csv", duplicate}}),
              "R/summary.csv:3: second row for a.f32 slerp uniform (the first is line 2)");
    std::string too_many_nonfinite = std::string(kHeader) + summary_row("a.f32", "slerp", "uniform", 1e-6, 1, 101);
    EXPECT_EQ(error_of({{"summary.csv", too_many_nonfinite}}), "R/summary.csv:2: nonfinite 101 exceeds cases 100");
    EXPECT_EQ(error_of({{"summary.csv", ""}}), "R/summary.csv:1: the file is empty");
    std::string ragged = std::string(kHeader) + "a.f32,slerp,uniform,100\n";
    EXPECT_EQ(error_of({{"summary.csv", ragged}}).rfind("R/summary.csv:2: ", 0), 0u)
        << error_of({{"summary.csv", ragged}});

    std::string conf = "impl,op,property,verdict\na.f32,slerp,finite,pass\na.f32,slerp,unit,maybe\n";
    EXPECT_EQ(error_of({{"summary.csv", standard_summary()}, {"conformance.csv", conf}}),
              "R/conformance.csv:3: column verdict: 'maybe' is not pass, fail, known or skip");
    std::string timing = "impl,op,region,mode,ns_per_call\na.f32,slerp,uniform,throughput,-3\n";
    EXPECT_EQ(error_of({{"summary.csv", standard_summary()}, {"timing.csv", timing}}),
              "R/timing.csv:2: column ns_per_call: '-3' is negative");
    timing = "impl,op,region,mode,ns_per_call\na.f32,slerp,uniform,warm,3\n";
    EXPECT_EQ(error_of({{"summary.csv", standard_summary()}, {"timing.csv", timing}}),
              "R/timing.csv:2: column mode: 'warm' is not latency or throughput");
    std::string json = "{\n  \"implementations\": [\n    {\"impl\": \"a\",, }\n]}\n";
    EXPECT_EQ(error_of({{"summary.csv", standard_summary()}, {"run.json", json}}).rfind("R/run.json:3: ", 0), 0u)
        << error_of({{"summary.csv", standard_summary()}, {"run.json", json}});
}

TEST(Leaderboard, RunWritesTheLeaderboardOfItsOwnSummary) {
    TempDir tmp;
    auto cat = load_catalogue({});
    RunOptions o;
    o.impl_filters = {"seed-c", "nlerp"};
    o.regions = {Region::uniform, Region::near_pi};
    o.cases = 200;
    o.jobs = 2;
    RunOutput r = run(o, cat);
    {
        ReportDir dir(tmp.path);
        write_run_report(r, dir);
        dir.commit();
    }
    std::string csv = tmp.get("leaderboard.csv");
    ASSERT_FALSE(csv.empty());
    EXPECT_NE(tmp.get("leaderboard.md").find("| # | implementation |"), std::string::npos);
    Leaderboard b = board(files_in(tmp.path), tmp.path);
    EXPECT_EQ(b.rows.size(), r.plan.selected.size());
    EXPECT_EQ(csv, leaderboard_csv(b));  // `quatcheck leaderboard` on the folder regenerates the same CSV
    for (const auto &row : b.rows) {
        double worst = 0;
        for (size_t k = 0; k < r.rows.size(); k++) {
            const Row &rr = r.rows[k];
            if (rr.impl->name == row.impl && to_string(rr.op) == row.op) {
                worst = std::max(worst, rr.max_angle_err_rad);
                const double found = r.search_of(k).max_angle_err_rad;
                if (!std::isnan(found)) worst = std::max(worst, found);
            }
        }
        EXPECT_EQ(num(row.worst_angle_err_rad), num(worst)) << row.impl;
    }
    for (size_t i = 1; i < b.rows.size(); i++)
        EXPECT_LE(b.rows[i - 1].worst_angle_err_rad, b.rows[i].worst_angle_err_rad);
}

using qc::test::quatcheck_err;

TEST(Leaderboard, CommandRegeneratesFilesAndRejectsBadInputWithStatus2) {
    TempDir tmp;
    tmp.put("summary.csv", standard_summary());
    tmp.put("run.json", kRunJson);
    auto [ok, ok_err] = quatcheck_err("leaderboard " + tmp.path.string());
    EXPECT_EQ(ok, 0) << ok_err;
    EXPECT_NE(tmp.get("leaderboard.csv").find("\n1,good.f64,slerp,seed,"), std::string::npos);
    std::string before = tmp.get("leaderboard.csv");

    tmp.put("conformance.csv", "impl,op,property,verdict\ngood.f64,slerp,finite,passed\n");
    auto [bad, bad_err] = quatcheck_err("leaderboard " + tmp.path.string());
    EXPECT_EQ(bad, 2);
    EXPECT_EQ(bad_err, "quatcheck: " + (tmp.path / "conformance.csv").string() +
                           ":2: column verdict: 'passed' is not pass, fail, known or skip\n");
    EXPECT_EQ(tmp.get("leaderboard.csv"), before);  // the previous files are left as they were

    auto [none, none_err] = quatcheck_err("leaderboard " + (tmp.path / "missing").string());
    EXPECT_EQ(none, 2);
    EXPECT_NE(none_err.find("not a folder"), std::string::npos);
}

// The informative correctly-rounded property (docs/conformance.md) is shown apart, outside the pass and fail counts.
TEST(Leaderboard, InformativePropertyOutsideTheCounts) {
    LeaderboardRow row;
    row.conformance_run = true;
    row.verdicts = {{"unit", "pass"}, {"endpoints", "fail"}, {"correctly-rounded", "fail"}};
    EXPECT_EQ(compact_verdicts(row), "1/2 pass; fail: endpoints; informative: correctly-rounded fail");
    row.verdicts = {{"unit", "pass"}, {"correctly-rounded", "pass"}};
    EXPECT_EQ(compact_verdicts(row), "1/1 pass; informative: correctly-rounded pass");
}
