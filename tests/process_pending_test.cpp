// The two halves of a batch to a process plugin (PendingBatch, harness/isolate/eval.h): the runner sends its
// batches to adapters first and collects them after its own work. An adapter serving an unfinished batch
// must never serve another one (its answer is still in the pipe), overlapping batches from one thread get
// adapters of their own, and the cost counters add up.
#include "isolate/eval.h"
#include "isolate/process_plugin.h"
#include "plugins/impls.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace qc;

namespace {
std::vector<SlerpCase<double>> some_cases(size_t n, double shift) {
    std::vector<SlerpCase<double>> cs(n);
    for (size_t i = 0; i < n; i++) {
        const double a = 0.001 * double(i) + shift, b = std::sqrt(1 - a * a);
        cs[i].q0 = {1, 0, 0, 0};
        cs[i].q1 = {b, a, 0, 0};
        cs[i].t = 0.25 + 0.5 * double(i % 2);  // t <= 0.75: the c_adapter's trigger is never hit
    }
    return cs;
}

struct AdapterImpl {
    std::vector<Impl> impls;
    const Impl *slerp64 = nullptr;
    AdapterImpl() {
        RunContext ctx;
        ctx.timeout_s = 10;
        impls = load_catalogue({PluginSpec::command(QC_BINARY_DIR "/process/c_adapter")}, ctx);
        for (const auto &i : impls)
            if (i.name == "proc-seed-c.f64") slerp64 = &i;
    }
};
}  // namespace

TEST(ProcessPending, AnUnfinishedBatchsAdapterNeverServesAgain) {
    AdapterImpl a;
    ASSERT_NE(a.slerp64, nullptr);
    const auto cs = some_cases(100, 0.01), other = some_cases(100, 0.3);
    std::vector<Quat<double>> want(cs.size()), got(cs.size()), lost(other.size());
    ASSERT_TRUE(eval_batch(*a.slerp64, Op::slerp, cs.data(), cs.size(), want.data()).ok());
    {
        PendingBatch<double> abandoned;  // takes the one adapter; its answer is never read
        abandoned.start(*a.slerp64, Op::slerp, other.data(), other.size(), lost.data());
    }
    // Given back with an unread answer, the adapter would answer this batch with the abandoned one's outputs
    // and sequence number (an out-of-bounds protocol violation); stopped, a new adapter serves it.
    PendingBatch<double> next;
    next.start(*a.slerp64, Op::slerp, cs.data(), cs.size(), got.data());
    const EvalOutcome o = next.finish();
    ASSERT_TRUE(o.ok()) << o.detail;
    EXPECT_EQ(o.done, cs.size());
    EXPECT_EQ(got, want);
    const BackendCounters c = a.slerp64->backend->counters();
    EXPECT_EQ(c.adapters_started, 1u);
    EXPECT_EQ(c.round_trips, 2u);  // the abandoned batch was never counted
}

TEST(ProcessPending, OverlappingBatchesOfOneThreadEachGetTheirAnswer) {
    AdapterImpl a;
    ASSERT_NE(a.slerp64, nullptr);
    const auto c1 = some_cases(300, 0.02), c2 = some_cases(200, 0.4);
    std::vector<Quat<double>> w1(c1.size()), w2(c2.size()), g1(c1.size()), g2(c2.size());
    ASSERT_TRUE(eval_batch(*a.slerp64, Op::slerp, c1.data(), c1.size(), w1.data()).ok());
    ASSERT_TRUE(eval_batch(*a.slerp64, Op::slerp, c2.data(), c2.size(), w2.data()).ok());
    EXPECT_NE(w1[0], w2[0]);  // (the two batches' answers differ, so a swap would show)
    PendingBatch<double> p1, p2;
    p1.start(*a.slerp64, Op::slerp, c1.data(), c1.size(), g1.data());
    p2.start(*a.slerp64, Op::slerp, c2.data(), c2.size(), g2.data());
    const EvalOutcome o2 = p2.finish(), o1 = p1.finish();  // collected in the other order
    ASSERT_TRUE(o1.ok() && o2.ok()) << o1.detail << o2.detail;
    EXPECT_EQ(g1, w1);
    EXPECT_EQ(g2, w2);
    const BackendCounters c = a.slerp64->backend->counters();
    EXPECT_EQ(c.round_trips, 4u);
    EXPECT_EQ(c.adapters_started, 1u);               // the second adapter, for the batch sent while the first was busy
    EXPECT_GE(c.round_trip_s, c.wait_s - 1e-9 * 4);  // waiting is part of a round trip's span (ns rounding)
    EXPECT_LE(c.wait_overhead_s, c.wait_s + 1e-9 * 4);
    EXPECT_LE(c.adapter_overhead_s, c.adapter_cpu_s + 1e-9 * 4);
    EXPECT_GT(c.adapter_cpu_s, 0.0);  // the adapter's CPU clock was read
}

TEST(ProcessPending, InProcessBatchesAreEvaluatedAtStart) {
    const std::vector<Impl> all = load_catalogue({});
    const Impl *seed = nullptr;
    for (const auto &i : all)
        if (i.name == "seed-c.f64") seed = &i;
    ASSERT_NE(seed, nullptr);
    const auto cs = some_cases(50, 0.05);
    std::vector<Quat<double>> want(cs.size()), got(cs.size());
    ASSERT_TRUE(eval_batch(*seed, Op::slerp, cs.data(), cs.size(), want.data()).ok());
    PendingBatch<double> p;
    p.start(*seed, Op::slerp, cs.data(), cs.size(), got.data());
    EXPECT_EQ(got, want);  // before finish(): nothing was deferred
    EXPECT_EQ(p.finish().done, cs.size());
}
