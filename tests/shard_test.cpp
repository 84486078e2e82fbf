// Sharded runs: --shard validation, the slices of K/N, and sharded-and-merged equals unsharded, byte for
// byte, through shard.bin on disk (with negative controls: a changed shard changes the merge, a missing or
// foreign shard is refused). Also the progress line's text and noop's exclusion from accuracy runs.
#include "report/run_report.h"
#include "base/progress.h"
#include "quatcheck/registry.h"
#include "run/shard_file.h"
#include "pipeline/pipeline.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace qc;
namespace fs = std::filesystem;

namespace {
RunOptions options(Shard shard) {
    RunOptions o;
    o.impl_filters = {"seed-c", "nlerp", "lusine"};
    // An engine row too where the build has it (glm-mix: not in a core-only build, -DQC_ENGINES=off).
    for (const auto &b : builtin_impls())
        if (std::strcmp(b.table->family, "glm-mix") == 0) {
            o.impl_filters.push_back("glm-mix");
            break;
        }
    o.cases = 203;  // not a multiple of the shard count: uneven slices
    o.seed = 11;
    o.jobs = 2;
    o.shard = shard;
    return o;
}

std::string write_shard(const RunResult &r, const std::string &name) {
    fs::path dir = fs::path(testing::TempDir()) / ("qc_shard_test_" + name);
    fs::create_directories(dir);
    std::ofstream(dir / "shard.bin", std::ios::binary) << shard_file(r);
    return dir.string();
}

std::string report(const RunOutput &r) {
    return summary_csv(summary_rows(r)) + worst_cases_csv(worst_case_rows(r)) + error_curve_csv(r);
}
}  // namespace

TEST(Shard, ParseAcceptsOnlyKOfN) {
    Shard s = parse_shard("2/3");
    EXPECT_EQ(s.index, 2);
    EXPECT_EQ(s.count, 3);
    for (const char *bad : {"3/2", "0/2", "a/b", "1/0", "2", "", "/", "1/", "-1/2", "1/2x", " 1/2", "1//2"})
        EXPECT_THROW(parse_shard(bad), UsageError) << bad;
}

TEST(Shard, SlicesPartitionTheCases) {
    for (uint64_t n : {0ull, 1ull, 7ull, 203ull, 20000ull})
        for (int count : {1, 2, 3, 8}) {
            uint64_t expect = 0;
            for (int k = 1; k <= count; k++) {
                auto [b, e] = shard_range({k, count}, n);
                EXPECT_EQ(b, expect);
                EXPECT_LE(e - b, n / uint64_t(count) + 1);
                expect = e;
            }
            EXPECT_EQ(expect, n);
        }
}

TEST(Shard, ShardedAndMergedEqualsUnsharded) {
    auto cat = load_catalogue({});
    RunOutput whole = run(options({1, 1}), cat);
    std::vector<std::string> dirs;
    for (int k = 3; k >= 1; k--) {  // any order
        RunOutput part = run(options({k, 3}), cat);
        EXPECT_LT(part.rows.front().cases, whole.rows.front().cases);
        dirs.push_back(write_shard(part, "s" + std::to_string(k)));
    }
    RunOutput merged = merge_shards(dirs, cat, 2);
    EXPECT_EQ(merged.rows.size(), whole.rows.size());
    EXPECT_TRUE(summary_csv(summary_rows(merged)) == summary_csv(summary_rows(whole))) << "summary_csv differs";
    EXPECT_TRUE(worst_cases_csv(worst_case_rows(merged)) == worst_cases_csv(worst_case_rows(whole)))
        << "worst_cases_csv differs";
    EXPECT_TRUE(error_curve_csv(merged) == error_curve_csv(whole)) << "error_curve_csv differs";
    EXPECT_EQ(merged.reference_f32.cases, whole.reference_f32.cases);  // sampling plus search, in total
    EXPECT_EQ(merged.reference_f64.recomputed, whole.reference_f64.recomputed);

    // Negative control: one case's error changed in one shard changes the merged report.
    RunOutput part = run(options({2, 3}), cat);
    double &a = part.parts.front().rows.front().angle_err_rad.front();
    a = 10.0;  // above any rotation angle error (at most pi): the row's maximum must change
    std::vector<std::string> changed = dirs;
    changed[1] = write_shard(part, "changed");
    EXPECT_TRUE(report(merge_shards(changed, cat, 2)) != report(whole));

    // Missing, repeated and foreign shards are refused.
    EXPECT_THROW(merge_shards({dirs[0], dirs[1]}, cat, 1), InputError);
    EXPECT_THROW(merge_shards({dirs[0], dirs[1], dirs[1]}, cat, 1), InputError);
    RunOptions other = options({1, 3});
    other.seed = 12;
    std::vector<std::string> foreign = dirs;
    foreign[2] = write_shard(run(other, cat), "foreign");
    EXPECT_THROW(merge_shards(foreign, cat, 1), InputError);
}

TEST(Shard, TruncatedShardFileIsRefused) {
    auto cat = load_catalogue({});
    RunOptions o = options({1, 1});
    o.cases = 20;
    std::string bin = shard_file(run(o, cat));
    fs::path dir = fs::path(testing::TempDir()) / "qc_shard_test_truncated";
    fs::create_directories(dir);
    for (size_t keep : {size_t(0), size_t(7), size_t(20), bin.size() / 2, bin.size() - 1}) {
        std::ofstream(dir / "shard.bin", std::ios::binary | std::ios::trunc) << bin.substr(0, keep);
        EXPECT_THROW(merge_shards({dir.string()}, cat, 1), InputError) << keep;
    }
    std::ofstream(dir / "shard.bin", std::ios::binary | std::ios::trunc) << bin;
    EXPECT_NO_THROW(merge_shards({dir.string()}, cat, 1));
}

TEST(Progress, LineShowsDoneRateAndTimeLeft) {
    EXPECT_EQ(ProgressLine::format("run", 0, 1000, 0.0), "run: 0/1000 cases (0%)");
    EXPECT_EQ(ProgressLine::format("run", 250, 1000, 5.0), "run: 250/1000 cases (25%), 50 cases/s, 15 s left");
    EXPECT_EQ(ProgressLine::format("run", 100, 10000, 1.0), "run: 100/10000 cases (1%), 100 cases/s, 1 min 39 s left");
}

TEST(Noop, TimedButNotSelectedForAccuracyRuns) {
    auto cat = load_catalogue({});
    bool listed = false;
    for (const auto &i : cat) listed |= i.family == "noop" && i.group == "bench";
    EXPECT_TRUE(listed);
    for (const auto &io : select_impls(cat, {}, {})) EXPECT_NE(io.impl->family, "noop");
    EXPECT_FALSE(select_impls(cat, {"noop"}, {}).empty());  // selectable by name
}
