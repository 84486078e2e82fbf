// Containment and interruption (issue 9): misbehaving plugins are reported with the case that triggered
// them while the run completes for the others; malformed plugins are refused with a reason; an isolated
// built-in measures exactly as in process; an interrupted run returns a partial, consistent result.
#include "isolate/eval.h"
#include "isolate/interrupt.h"
#include "report/run_report.h"
#include "run/runner.h"
#include "search/search.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

using namespace qc;

namespace {
// Workers are `quatcheck worker` processes: point at the tool (this binary is the test runner).
const bool worker_set = [] {
    isolation_settings().worker_exe = QC_BINARY_DIR "/quatcheck";
    return true;
}();

std::string bad(const char *name) { return std::string(QC_BINARY_DIR "/bad_plugins/bad_") + name + ".so"; }

const RowResult *find_row(const RunResult &r, const std::string &impl, Region region) {
    for (const auto &row : r.rows)
        if (row.impl->name == impl && row.region == region) return &row;
    return nullptr;
}

struct TimeoutScope {
    double saved = isolation_settings().batch_timeout_s;
    explicit TimeoutScope(double s) { isolation_settings().batch_timeout_s = s; }
    ~TimeoutScope() { isolation_settings().batch_timeout_s = saved; }
};
}  // namespace

TEST(Robust, MisbehavingPluginsAreReportedAndTheRunCompletesForTheOthers) {
    ASSERT_TRUE(worker_set);
    TimeoutScope timeout(1.0);
    std::vector<Impl> cat = load_catalogue({QC_EXAMPLE_PLUGIN, bad("crash"), bad("abort"), bad("hang"), bad("scribble")});
    RunOptions opt;
    opt.impl_filters = {"bad-*", "example-slerp.f64"};
    opt.ops = {Op::slerp};
    opt.regions = {Region::uniform, Region::near_0};
    opt.cases = 300;
    opt.seed = 3;
    opt.jobs = 2;
    RunResult r = run(opt, cat);
    ASSERT_EQ(r.rows.size(), 5u * 2u);
    struct Want {
        const char *impl;
        EvalStatus status;
        const char *detail;
    };
    for (Want w : {Want{"bad-crash.f64", EvalStatus::crashed, ""}, Want{"bad-abort.f64", EvalStatus::crashed, ""},
                   Want{"bad-hang.f64", EvalStatus::timeout, "no answer within 1 s"},
                   Want{"bad-scribble.f64", EvalStatus::out_of_bounds, "outside out[0..3]"}}) {
        for (Region g : opt.regions) {
            const RowResult *row = find_row(r, w.impl, g);
            ASSERT_NE(row, nullptr) << w.impl;
            EXPECT_EQ(row->status, w.status) << w.impl << " " << row->status_detail;
            EXPECT_NE(row->status_detail.find(w.detail), std::string::npos) << row->status_detail;
            // The reported case is the first one that triggers the misbehaviour (t in (0.9, 1)), and the
            // row covers exactly the cases before it.
            SlerpCase<double> c = regenerate_case<double>(opt.seed, g, row->failed_index);
            EXPECT_TRUE(c.t > 0.9 && c.t < 1.0) << w.impl << " failed on t=" << c.t;
            for (uint64_t i = 0; i < row->failed_index; i++) {
                double t = regenerate_case<double>(opt.seed, g, i).t;
                EXPECT_FALSE(t > 0.9 && t < 1.0) << "case " << i << " should have triggered first";
            }
            EXPECT_EQ(row->cases, row->failed_index);
            EXPECT_NE(row->failed_case.find("t=" + hexfloat(c.t)), std::string::npos) << row->failed_case;
            EXPECT_LT(row->max_angle_err_rad, 1e-12) << w.impl << ": the cases before the failure are measured";
        }
    }
    const RowResult *crash = find_row(r, "bad-crash.f64", Region::uniform);
#if !defined(__SANITIZE_ADDRESS__)
    EXPECT_NE(crash->status_detail.find("SIGSEGV"), std::string::npos) << crash->status_detail;
    EXPECT_NE(find_row(r, "bad-abort.f64", Region::uniform)->status_detail.find("SIGABRT"), std::string::npos);
#endif
    EXPECT_GT(crash->cases + find_row(r, "bad-crash.f64", Region::near_0)->cases, 0u);
    for (Region g : opt.regions) {
        const RowResult *ok = find_row(r, "example-slerp.f64", g);
        EXPECT_EQ(ok->status, EvalStatus::ok);
        EXPECT_EQ(ok->cases, 300u);
        EXPECT_EQ(ok->status_detail, "");
    }
    // summary.csv carries the status and the reproducer.
    std::string csv = summary_csv(summary_rows(r));
    EXPECT_NE(csv.find(",status,status_detail,failed_case"), std::string::npos);
    EXPECT_NE(csv.find(",crashed,"), std::string::npos);
    EXPECT_NE(csv.find(",timeout,no answer within 1 s at case "), std::string::npos);
    EXPECT_NE(csv.find(",out-of-bounds,"), std::string::npos);
    EXPECT_NE(csv.find(crash->failed_case), std::string::npos);
}

TEST(Robust, FailureReportsDoNotDependOnTheThreadCount) {
    TimeoutScope timeout(1.0);
    std::vector<Impl> cat = load_catalogue({bad("crash"), bad("scribble")});
    RunOptions opt;
    opt.impl_filters = {"bad-*"};
    opt.regions = {Region::uniform, Region::near_pi};
    opt.cases = 400;
    opt.jobs = 1;
    std::string one = summary_csv(summary_rows(run(opt, cat)));
    opt.jobs = 2;
    EXPECT_EQ(one, summary_csv(summary_rows(run(opt, cat))));
    opt.jobs = 3;
    EXPECT_EQ(one, summary_csv(summary_rows(run(opt, cat))));
}

TEST(Robust, MalformedPluginsAreRefusedWithTheFileAndTheReason) {
    struct Want {
        const char *plugin, *reason;
    };
    for (Want w : {Want{"no_entry", "no qc_plugin_v1 entry point"}, Want{"null_table", "NULL table"},
                   Want{"bad_family", "not [A-Za-z0-9_-]{1,64}"}, Want{"dup_family", "declared twice"},
                   Want{"load_crash", "crashed while loading"}}) {
        try {
            load_catalogue({bad(w.plugin)});
            ADD_FAILURE() << w.plugin << " accepted";
        } catch (const InputError &e) {
            std::string m = e.what();
            EXPECT_EQ(m.rfind(bad(w.plugin) + ": ", 0), 0u) << m;
            EXPECT_NE(m.find(w.reason), std::string::npos) << m;
            EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        }
    }
}

TEST(Robust, IsolatedBuiltinsMeasureExactlyAsInProcess) {
    std::vector<Impl> in_process = load_catalogue({});
    std::vector<Impl> isolated = load_catalogue({});
    isolate_builtins(isolated);
    RunOptions opt;
    opt.impl_filters = {"seed-c", "nlerp", "lusine"};
    opt.cases = 200;
    opt.jobs = 2;
    RunResult a = run(opt, in_process), b = run(opt, isolated);
    EXPECT_EQ(summary_csv(summary_rows(a)), summary_csv(summary_rows(b)));
    EXPECT_EQ(worst_cases_csv(worst_case_rows(a)), worst_cases_csv(worst_case_rows(b)));  // the worst-case writer re-evaluates through the worker
    EXPECT_EQ(error_curve_csv(a), error_curve_csv(b));
    for (const auto &row : b.rows) EXPECT_EQ(row.status, EvalStatus::ok);
}

TEST(Robust, AnInterruptedRunReturnsAConsistentPartialResult) {
    std::vector<Impl> cat = load_catalogue({});
    RunOptions opt;
    opt.impl_filters = {"seed-c.f64"};
    opt.ops = {Op::slerp};
    opt.cases = 2000000;  // far more than can finish before the interruption
    opt.jobs = 2;
    std::atomic<uint64_t> done{0};
    opt.cases_done = &done;
    // The signal comes once sampling is well under way (4096 cases done), not after a fixed delay: on a
    // loaded machine 300 ms could pass before the first chunk was finished, and an interruption before the
    // first chunk is rightly an empty result (no row). The latency is measured from the signal.
    std::atomic<bool> raised{false};
    std::chrono::steady_clock::time_point signal_at;
    std::thread stopper([&] {
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (done.load() < 4096 && std::chrono::steady_clock::now() < give_up)
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        signal_at = std::chrono::steady_clock::now();
        request_interrupt_for_test(SIGTERM);
        raised.store(true);
    });
    RunResult r = run(opt, cat);
    const auto returned = std::chrono::steady_clock::now();
    stopper.join();
    ASSERT_TRUE(raised.load());
    double stop_s = std::chrono::duration<double>(returned - signal_at).count();
    EXPECT_TRUE(interrupt_requested());
    EXPECT_EQ(interrupt_signal(), SIGTERM);
    reset_interrupt_for_test();
    EXPECT_TRUE(r.partial);
    EXPECT_LT(stop_s, 1.0);  // stops within a second of the signal
    ASSERT_EQ(r.rows.size(), 1u);  // only the first region was reached
    EXPECT_GE(r.rows[0].cases, 32u);
    EXPECT_LT(r.rows[0].cases, opt.cases);
    EXPECT_EQ(r.rows[0].cases % 32, 0u);  // whole leading chunks only
    EXPECT_EQ(run_json(r)["partial"], true);
}
