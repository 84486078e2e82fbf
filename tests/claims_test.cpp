// The claimed-* properties (harness/conform/claims.cpp): each passes an implementation that keeps the claim and
// fails one that breaks it (its negative control), runs only on the rows that declare the claim, and explains its
// counterexample with what the claim expects. The hello's `claim` record is parsed strictly.
#include "conform/conform.h"
#include "isolate/process_hello.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace qc;

namespace {

const Impl &named(const std::vector<Impl> &cat, const std::string &name) {
    auto it = std::find_if(cat.begin(), cat.end(), [&](const Impl &i) { return i.name == name; });
    if (it == cat.end()) throw std::runtime_error("no implementation " + name);
    return *it;
}

// The catalogue's implementation with a claim added.
Impl claiming(const Impl &base, Op op, const char *kind, double value) {
    Impl i = base;
    i.claims.push_back(Claim{to_string(op), kind, value, "a test's claim"});
    return i;
}

ConformRow run_one(const Impl &impl, Op op, const char *property, uint64_t cases = 300) {
    ConformOptions opt;
    opt.jobs = 1, opt.cases = cases, opt.properties = {property};
    auto rows = conform({ImplOp{&impl, op}}, opt);
    if (rows.size() != 1) throw std::runtime_error("expected one row");
    return rows.front();
}

// qc-slerp in f64 with t clamped to [0, 1] first: a routine that keeps a t-clamp claim.
const qc_impl_v1 *qc_slerp_table = nullptr;
void clamped_slerp(const double q0[4], const double q1[4], double t, double out[4]) {
    qc_slerp_table->slerp_f64(q0, q1, std::clamp(t, 0.0, 1.0), out);
}
const qc_impl_v1 kClamped = {"test-clamped", nullptr, nullptr, nullptr, nullptr,
                             clamped_slerp,  nullptr, nullptr, nullptr};

}  // namespace

TEST(Claims, RunOnlyOnTheRowsThatDeclareThem) {
    auto cat = load_catalogue({});
    ConformOptions opt;
    opt.jobs = 1, opt.cases = 20, opt.properties = {"claimed-accuracy", "claimed-threshold", "claimed-t-clamp"};
    EXPECT_TRUE(conform(select_impls(cat, {"qc-slerp"}, {Op::slerp}), opt).empty());
    const Impl with = claiming(named(cat, "qc-slerp.f64"), Op::slerp, "accuracy", 1e-12);
    auto rows = conform({ImplOp{&with, Op::slerp}, ImplOp{&with, Op::nlerp}}, opt);
    ASSERT_EQ(rows.size(), 1u);  // the slerp claim only: no nlerp row, no other claimed-* row
    EXPECT_EQ(rows[0].property->name, "claimed-accuracy");
}

TEST(Claims, AccuracyPassesAnAccurateSlerpAndCatchesNlerpPassedOffAsSlerp) {
    auto cat = load_catalogue({});
    const Impl good = claiming(named(cat, "qc-slerp.f64"), Op::slerp, "accuracy", 1e-15);
    ConformRow r = run_one(good, Op::slerp, "claimed-accuracy");
    EXPECT_EQ(r.verdict, Verdict::pass) << r.worst.measured;
    EXPECT_LE(r.worst.measured, 1e-15);
    // Negative control: nlerp timing is off by up to about 0.02 in a component over the uniform arcs.
    const Impl bad = claiming(named(cat, "broken-nlerp-as-slerp.f64"), Op::slerp, "accuracy", 1e-6);
    r = run_one(bad, Op::slerp, "claimed-accuracy");
    ASSERT_EQ(r.verdict, Verdict::fail);
    EXPECT_GT(r.worst.measured, 1e-6);
    ASSERT_EQ(r.calls.size(), 1u);  // explained: the call, its component error and the claimed figure
    EXPECT_EQ(r.calls[0].unit, "abs");
    EXPECT_EQ(r.calls[0].tol, 1e-6);
    EXPECT_TRUE(r.calls[0].failed());
    // The same figure claimed in f32 by an f32 routine that is only float-accurate fails a 1e-9 claim.
    const Impl f32 = claiming(named(cat, "qc-slerp.f32"), Op::slerp, "accuracy", 1e-9);
    EXPECT_EQ(run_one(f32, Op::slerp, "claimed-accuracy").verdict, Verdict::fail);
}

TEST(Claims, ThresholdHoldsTheSeedToItsOwnSwitchAndCatchesAnotherOne) {
    auto cat = load_catalogue({});
    // seed-c: slerp below a.b = 0.9995, the nlerp fallback from it on (impls/seed, the seed documents).
    const Impl seed = claiming(named(cat, "seed-c.f64"), Op::slerp, "threshold", 0.9995);
    ConformRow r = run_one(seed, Op::slerp, "claimed-threshold");
    EXPECT_EQ(r.verdict, Verdict::pass) << r.worst.measured << " > " << r.worst.tolerance;
    // Negative controls: the same routine claimed to switch at 0.95 (between 0.95 and 0.9995 it is the slerp,
    // whose timing differs from nlerp's by far more than A(W)), and a slerp that never switches.
    const Impl wrong = claiming(named(cat, "seed-c.f64"), Op::slerp, "threshold", 0.95);
    r = run_one(wrong, Op::slerp, "claimed-threshold");
    ASSERT_EQ(r.verdict, Verdict::fail);
    ASSERT_EQ(r.calls.size(), 1u);
    EXPECT_EQ(r.calls[0].unit, "rad");
    const Impl never = claiming(named(cat, "qc-slerp.f64"), Op::slerp, "threshold", 0.95);
    EXPECT_EQ(run_one(never, Op::slerp, "claimed-threshold").verdict, Verdict::fail);
    // And a long-arc fallback: broken-noflip does not flip b where a.b < 0, so above |a.b| = 0.9995 with a
    // negative dot product its output is on the long arc.
    const Impl noflip = claiming(named(cat, "broken-noflip.f64"), Op::slerp, "threshold", 0.9995);
    EXPECT_EQ(run_one(noflip, Op::slerp, "claimed-threshold").verdict, Verdict::fail);
}

TEST(Claims, TClampPassesAClampingRoutineAndCatchesExtrapolation) {
    auto cat = load_catalogue({});
    const Impl &qc = named(cat, "qc-slerp.f64");
    qc_slerp_table = qc.table;
    Impl clamped = claiming(qc, Op::slerp, "t-clamp", 0);
    clamped.name = "test-clamped.f64", clamped.family = "test-clamped", clamped.table = &kClamped;
    clamped.backend = in_process_backend(&kClamped);
    ConformRow r = run_one(clamped, Op::slerp, "claimed-t-clamp");
    EXPECT_EQ(r.verdict, Verdict::pass) << r.worst.measured;
    EXPECT_EQ(r.cases, 300u);
    // Negative control: qc-slerp extrapolates outside [0, 1].
    const Impl extrapolates = claiming(qc, Op::slerp, "t-clamp", 0);
    r = run_one(extrapolates, Op::slerp, "claimed-t-clamp");
    ASSERT_EQ(r.verdict, Verdict::fail);
    const TwoKeyCase c = TwoKeyCase::of(r.counterexample);
    EXPECT_TRUE(c.t < 0 || c.t > 1) << c.t;
    ASSERT_EQ(r.calls.size(), 2u);  // the call outside [0, 1] against the routine's own output at the end
    EXPECT_TRUE(r.calls[0].failed());
    EXPECT_EQ(r.calls[1].t, c.t < 0 ? 0.0 : 1.0);
    EXPECT_FALSE(r.calls[1].failed());
    const auto calls = property_calls(*find_property("claimed-t-clamp"), r.counterexample, Precision::f64);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[1].label, c.t < 0 ? "op(q0,q1,0)" : "op(q0,q1,1)");
}

TEST(Claims, TheHelloRecordIsParsedStrictly) {
    auto parse = [](const std::string &claim, ProcessHello &h) {
        return parse_process_hello("quatcheck-plugin 1\nlibrary lib 1.0\nfamily f slerp.f64\n" + claim + "end\n", h);
    };
    ProcessHello h;
    ASSERT_EQ(parse("claim f slerp accuracy 1e-06 accurate up to 10^-6, it says\n", h), "");
    ASSERT_EQ(h.families.size(), 1u);
    ASSERT_EQ(h.families[0].claims.size(), 1u);
    const Claim &c = h.families[0].claims[0];
    EXPECT_EQ(c.op, "slerp");
    EXPECT_EQ(c.kind, "accuracy");
    EXPECT_EQ(c.value, 1e-6);
    EXPECT_EQ(c.why, "accurate up to 10^-6, it says");
    for (const char *bad :
         {"claim f slerp accuracy 0 why\n", "claim f slerp accuracy 1e-6x why\n", "claim f slerp accuracy nan why\n",
          "claim f slerp threshold 1 why\n", "claim f slerp t-clamp 0.5 why\n", "claim f slerp speed 1 why\n",
          "claim f squad t-clamp 0 why\n", "claim g slerp t-clamp 0 why\n", "claim f slerp t-clamp 0\n"}) {
        ProcessHello k;
        EXPECT_NE(parse(bad, k), "") << bad;
    }
}
