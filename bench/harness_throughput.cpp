// The harness's own cost per case: BM_Reference (ReferenceEngine, validation included at its natural rate)
// beside BM_MpfrFloor (the same formula as bare MPFR calls on preallocated variables at the same working
// precision, no validation), and BM_Metric (MetricEngine::measure of one implementation output). Per case
// the runner does one reference and one metric evaluation per implementation of that precision.
#include "bench/suites.h"
#include "metrics/metrics.h"
#include "reference/fast_reference.h"
#include "reference/reference.h"
#include "run/runner.h"
#include "pipeline/pipeline.h"
#include "reference/fast_reference.h"
#include "sweep/sweep.h"

#include <fmt/format.h>
#include <mpfr.h>

#include <array>
#include <memory>
#include <optional>
#include <mutex>

namespace qc::bench {
namespace {

// The reference formula (README "The reference") written out once more as plain MPFR calls: no Boost
// wrapper, no precision checks, no validation, no statistics. It is the floor the engine is compared to.
class MpfrFloor {
public:
    explicit MpfrFloor(int bits, double tie_band) : tie_band_(tie_band) {
        for (int i = 0; i < 4; i++) {
            mpfr_init2(prod_[i], 128);
            for (mpfr_t *v : {&a_[i], &b_[i], &v_[i], &R_[i], &N_[i], &Ro_[i], &No_[i]}) mpfr_init2(*v, bits);
        }
        mpfr_init2(exact_dot_, 64);
        for (mpfr_t *v : {&n0_, &n1_, &tmp_, &diff_, &sum_, &W_, &sW_, &s0_, &s1_, &omt_, &tt_, &dot_})
            mpfr_init2(*v, bits);
    }
    ~MpfrFloor() {
        for (int i = 0; i < 4; i++) {
            mpfr_clear(prod_[i]);
            for (mpfr_t *v : {&a_[i], &b_[i], &v_[i], &R_[i], &N_[i], &Ro_[i], &No_[i]}) mpfr_clear(*v);
        }
        mpfr_clear(exact_dot_);
        for (mpfr_t *v : {&n0_, &n1_, &tmp_, &diff_, &sum_, &W_, &sW_, &s0_, &s1_, &omt_, &tt_, &dot_}) mpfr_clear(*v);
    }
    MpfrFloor(const MpfrFloor &) = delete;
    MpfrFloor &operator=(const MpfrFloor &) = delete;

    void slerp(const double q0[4], const double q1[4], double t) {
        mpfr_ptr ptrs[4];
        for (int i = 0; i < 4; i++) {
            mpfr_set_d(prod_[i], q0[i], MPFR_RNDN);
            mpfr_mul_d(prod_[i], prod_[i], q1[i], MPFR_RNDN);
            ptrs[i] = prod_[i];
        }
        mpfr_sum(exact_dot_, ptrs, 4, MPFR_RNDN);
        int dot_sign = mpfr_sgn(exact_dot_);
        for (int i = 0; i < 4; i++) mpfr_set_d(a_[i], q0[i], MPFR_RNDN), mpfr_set_d(b_[i], q1[i], MPFR_RNDN);
        norm4(n0_, a_);
        norm4(n1_, b_);
        for (int i = 0; i < 4; i++) mpfr_div(a_[i], a_[i], n0_, MPFR_RNDN), mpfr_div(b_[i], b_[i], n1_, MPFR_RNDN);
        mpfr_div(dot_, exact_dot_, n0_, MPFR_RNDN);
        mpfr_div(dot_, dot_, n1_, MPFR_RNDN);
        bool in_tie_band = std::fabs(mpfr_get_d(dot_, MPFR_RNDN)) <= tie_band_;
        if (dot_sign < 0)
            for (auto &x : b_) mpfr_neg(x, x, MPFR_RNDN);
        mpfr_set_d(tt_, t, MPFR_RNDN);
        mpfr_ui_sub(omt_, 1, tt_, MPFR_RNDN);
        arc(R_);
        normalised_lerp(N_);
        if (in_tie_band) {
            for (auto &x : b_) mpfr_neg(x, x, MPFR_RNDN);
            arc(Ro_);
            normalised_lerp(No_);
        }
    }
    double r0() const { return mpfr_get_d(R_[0], MPFR_RNDN); }

private:
    void norm4(mpfr_t x, mpfr_t v[4]) {
        mpfr_sqr(x, v[0], MPFR_RNDN);
        for (int i = 1; i < 4; i++) mpfr_sqr(tmp_, v[i], MPFR_RNDN), mpfr_add(x, x, tmp_, MPFR_RNDN);
        mpfr_sqrt(x, x, MPFR_RNDN);
    }
    void arc(mpfr_t R[4]) {
        for (int i = 0; i < 4; i++) mpfr_sub(v_[i], a_[i], b_[i], MPFR_RNDN);
        norm4(diff_, v_);
        for (int i = 0; i < 4; i++) mpfr_add(v_[i], a_[i], b_[i], MPFR_RNDN);
        norm4(sum_, v_);
        mpfr_atan2(W_, diff_, sum_, MPFR_RNDN);
        mpfr_mul_2ui(W_, W_, 1, MPFR_RNDN);
        if (mpfr_zero_p(W_)) {
            for (int i = 0; i < 4; i++) mpfr_set(R[i], a_[i], MPFR_RNDN);
            return;
        }
        mpfr_sin(sW_, W_, MPFR_RNDN);
        mpfr_mul(s0_, omt_, W_, MPFR_RNDN);
        mpfr_sin(s0_, s0_, MPFR_RNDN);
        mpfr_mul(s1_, tt_, W_, MPFR_RNDN);
        mpfr_sin(s1_, s1_, MPFR_RNDN);
        mpfr_div(s0_, s0_, sW_, MPFR_RNDN);
        mpfr_div(s1_, s1_, sW_, MPFR_RNDN);
        for (int i = 0; i < 4; i++) {
            mpfr_mul(R[i], s0_, a_[i], MPFR_RNDN);
            mpfr_mul(tmp_, s1_, b_[i], MPFR_RNDN);
            mpfr_add(R[i], R[i], tmp_, MPFR_RNDN);
        }
    }
    void normalised_lerp(mpfr_t N[4]) {
        for (int i = 0; i < 4; i++) {
            mpfr_mul(N[i], omt_, a_[i], MPFR_RNDN);
            mpfr_mul(tmp_, tt_, b_[i], MPFR_RNDN);
            mpfr_add(N[i], N[i], tmp_, MPFR_RNDN);
        }
        norm4(n0_, N);
        if (mpfr_zero_p(n0_)) return;
        for (int i = 0; i < 4; i++) mpfr_div(N[i], N[i], n0_, MPFR_RNDN);
    }

    double tie_band_;
    mpfr_t prod_[4], exact_dot_, a_[4], b_[4], v_[4], R_[4], N_[4], Ro_[4], No_[4];
    mpfr_t n0_, n1_, tmp_, diff_, sum_, W_, sW_, s0_, s1_, omt_, tt_, dot_;
};

// Cases as the default run draws them: region by region (or every region in turn for "all"), with the
// run's validation sample.
template <class T> struct Cases {
    std::vector<SlerpCase<T>> cases;
    std::vector<bool> validate;
};

template <class T> std::shared_ptr<Cases<T>> make_cases(uint64_t seed, const std::vector<Region> &regions) {
    auto c = std::make_shared<Cases<T>>();
    for (size_t i = 0; i < kBatch; i++) {
        uint64_t index = i / regions.size();
        c->cases.push_back(regenerate_case<T>(seed, regions[i % regions.size()], index));
        c->validate.push_back(sampled_for_validation(seed, index));
    }
    return c;
}

template <class T> void reference_case(benchmark::State &st, ReferenceMode mode, std::shared_ptr<Cases<T>> c) {
    ReferenceEngine engine(Format<T>::precision, mode);
    SlerpReference ref;
    engine.slerp(c->cases[0], ref, false);  // start-up (the fast path's MPFR tables) outside the timing
    size_t i = 0;
    for (auto _ : st) {
        engine.slerp(c->cases[i], ref, c->validate[i]);
        if (++i == c->cases.size()) i = 0;
    }
    benchmark::DoNotOptimize(ref.arc_w);
    const ReferenceStats &s = engine.stats();
    st.counters["recomputed_fraction"] = double(s.recomputed) / double(s.cases);
    if (mode == ReferenceMode::fast) st.counters["fallback_fraction"] = double(s.fallbacks()) / double(s.cases);
}

// BM_FastReference: the certified fast reference as the runner asks for it, ReferenceEngine::slerp_batch over
// blocks of kRefBlock cases (the widest lane kernel the CPU has: eight AVX-512 lanes, else four AVX2 lanes;
// validation samples and MPFR fallbacks included); one iteration is one block, BenchKey::calls_per_iteration =
// kRefBlock makes the figure per case. Its validation is the run's at its default size: the 1-in-64 sample a run
// of up to 96,000 cases per precision checks (runner.cpp, fast_check_rate_log2: at least 1,500 checks expected).
// BM_FastReferenceRate1024: the same at 1 in 1,024, the default rate's floor, which runs from 1.5 million cases per
// precision use (issue 45's item 2), chosen by the inputs' hash as the runner does. In the same run, for the
// ratios: BM_FastReferenceFourLanes, at 1 in 1,024 with the four-lane AVX2 kernel (set_fast_batch_lanes_limit),
// and BM_FastReferenceScalar, at 1 in 64 with the scalar path forced (set_force_scalar, as QC_FORCE_SCALAR=1).
constexpr size_t kRefBlock = 32;  // the runner's chunk
enum class RefPath { widest, four_lanes, scalar };
template <class T>
void fast_reference_case(benchmark::State &st, RefPath path, int check_log2, std::shared_ptr<Cases<T>> c) {
    ReferenceEngine engine(Format<T>::precision, ReferenceMode::fast);
    std::vector<SlerpReference> refs(kRefBlock);
    const size_t n = c->cases.size() / kRefBlock * kRefBlock;
    std::unique_ptr<bool[]> validate(new bool[n]);
    for (size_t i = 0; i < n; i++) validate[i] = check_log2 < 0 && c->validate[i];
    if (check_log2 >= 0) engine.set_fast_check_rate(check_log2, 1);
    engine.slerp(c->cases[0], refs[0], false);  // start-up (the fast path's MPFR tables) outside the timing
    const bool forced = force_scalar();
    set_force_scalar(path == RefPath::scalar || forced);
    if (path == RefPath::four_lanes) set_fast_batch_lanes_limit(4);
    size_t i = 0;
    for (auto _ : st) {
        engine.slerp_batch(&c->cases[i], kRefBlock, refs.data(), &validate[i]);
        if ((i += kRefBlock) == n) i = 0;
    }
    set_force_scalar(forced);
    set_fast_batch_lanes_limit(8);
    benchmark::DoNotOptimize(refs[0].arc_w);
    const ReferenceStats &s = engine.stats();
    st.counters["recomputed_fraction"] = double(s.recomputed) / double(s.cases);
    st.counters["fallback_fraction"] = double(s.fallbacks()) / double(s.cases);
}

template <class T> void floor_case(benchmark::State &st, std::shared_ptr<Cases<T>> c) {
    MpfrFloor floor(2 * Format<T>::p + 32, 4.0 * Format<T>::eps);
    size_t i = 0;
    for (auto _ : st) {
        const SlerpCase<T> &k = c->cases[i];
        double q0[4], q1[4];
        for (int j = 0; j < 4; j++) q0[j] = k.q0[j], q1[j] = k.q1[j];
        floor.slerp(q0, q1, k.t);
        if (++i == c->cases.size()) i = 0;
    }
    double r = floor.r0();
    benchmark::DoNotOptimize(r);
}

// MetricEngine::measure on the outputs of the seed slerp (op slerp) or nlerp (op nlerp, which also
// measures against the exact normalised lerp) over the mixed cases. Mode fast with the engine's default kernel
// (AVX2 where the CPU has it, as the runner), or with the scalar kernel forced (BM_MetricFastScalar).
template <class T>
void metric_case(benchmark::State &st, Op op, ReferenceMode mode, bool scalar_kernel, std::shared_ptr<Cases<T>> c) {
    const std::vector<Impl> catalogue = load_catalogue({});
    const Impl *impl = nullptr;
    for (const auto &i : catalogue)
        if (i.family == (op == Op::slerp ? "seed-c" : "nlerp") && i.precision == Format<T>::precision) impl = &i;
    if (!impl) {
        st.SkipWithError("no seed implementation for the metric benchmark");
        return;
    }
    const size_t n = 512;  // references are large: a smaller batch, still every region
    std::vector<SlerpReference> refs(n);
    std::vector<Quat<T>> outs(n);
    ReferenceEngine engine(Format<T>::precision, mode);
    for (size_t i = 0; i < n; i++) {
        engine.slerp(c->cases[i], refs[i], c->validate[i]);
        impl->call(op, c->cases[i].q0.data(), c->cases[i].q1.data(), c->cases[i].t, outs[i].data());
    }
    MetricEngine metric(Format<T>::precision, mode);
    if (scalar_kernel) metric.set_kernel(MetricKernel::scalar);
    size_t i = 0;
    for (auto _ : st) {
        CaseMetrics m = metric.measure(outs[i].data(), refs[i], op);
        benchmark::DoNotOptimize(m);
        if (++i == n) i = 0;
    }
}

// MetricEngine::measure_batch as the runner calls it: per case, the outputs of kBatchImpls built-in implementations
// of the op (the first in the catalogue, not broken-* or noop; taken again in turn where there are fewer) in one call against the case's reference (mode fast, the default kernel). Time per output.
// batch: the engine's default (BM_MetricFastBatch: eight outputs at a time in AVX-512 lanes where the CPU has it, else
// four in AVX2 lanes, as the runner), or, for comparison in the same run, the four-output AVX2 kernel
// (BM_MetricFastBatchFourLanes) and the AVX2 batch before issue 45, one output at a time with its components in the
// lanes (BM_MetricFastBatchComponents).
constexpr size_t kBatchImpls = 8;
template <class T>
void metric_batch_case(benchmark::State &st, Op op, std::optional<MetricBatch> batch, std::shared_ptr<Cases<T>> c) {
    const std::vector<Impl> catalogue = load_catalogue({});
    std::vector<const Impl *> impls;
    for (const auto &i : catalogue)
        if (i.precision == Format<T>::precision && i.backend->in_process() && i.supports(op) && i.group != "broken" &&
            i.family != "noop" && impls.size() < kBatchImpls)
            impls.push_back(&i);
    if (impls.empty()) {
        st.SkipWithError("no built-in implementation of the op for the metric batch benchmark");
        return;
    }
    const size_t n = 512;
    std::vector<SlerpReference> refs(n);
    std::vector<std::array<double, 4>> outs(n * kBatchImpls);
    ReferenceEngine engine(Format<T>::precision, ReferenceMode::fast);
    for (size_t i = 0; i < n; i++) {
        engine.slerp(c->cases[i], refs[i], c->validate[i]);
        for (size_t j = 0; j < kBatchImpls; j++) {
            T o[4];
            impls[j % impls.size()]->call(op, c->cases[i].q0.data(), c->cases[i].q1.data(), c->cases[i].t, o);
            for (int k = 0; k < 4; k++) outs[i * kBatchImpls + j][size_t(k)] = double(o[k]);
        }
    }
    const std::vector<Op> ops(kBatchImpls, op);
    MetricEngine metric(Format<T>::precision, ReferenceMode::fast);
    if (batch) metric.set_batch(*batch);
    CaseMetrics m[kBatchImpls];
    size_t i = 0;
    for (auto _ : st) {
        metric.measure_batch(reinterpret_cast<const double(*)[4]>(outs[i * kBatchImpls].data()), ops.data(),
                             kBatchImpls, refs[i], m);
        benchmark::DoNotOptimize(m);
        if (++i == n) i = 0;
    }
}

template <class T> void register_precision(const BenchOptions &o, std::vector<std::pair<std::string, BenchKey>> &keys) {
    const char *prec = Format<T>::name;
    auto add = [&](const std::string &name, benchmark::internal::Benchmark *b, BenchKey key) {
        b->MinTime(o.min_time_s)->Repetitions(o.repetitions)->ReportAggregatesOnly(true)->Unit(benchmark::kNanosecond);
        keys.push_back({name, std::move(key)});
    };
    std::vector<Region> all = o.regions.empty() ? all_regions() : o.regions;
    auto mixed = make_cases<T>(o.seed, all);
    std::vector<std::pair<std::string, std::shared_ptr<Cases<T>>>> sets = {{"all", mixed}};
    for (Region r : all) sets.push_back({to_string(r), make_cases<T>(o.seed, {r})});
    for (const auto &[region, cases] : sets) {
        std::string suffix = region == "all" ? std::string() : "/" + region;
        std::string ref = fmt::format("BM_Reference/slerp/{}{}", prec, suffix);
        add(ref, benchmark::RegisterBenchmark(ref.c_str(), reference_case<T>, ReferenceMode::mpfr, cases),
            {"reference", "", "slerp", prec, region, "case", 1});
        std::string fast = fmt::format("BM_FastReference/slerp/{}{}", prec, suffix);
        add(fast, benchmark::RegisterBenchmark(fast.c_str(), fast_reference_case<T>, RefPath::widest, -1, cases),
            {"fast_reference", "", "slerp", prec, region, "case", double(kRefBlock)});
        if (region == "all") {
            std::string rate = fmt::format("BM_FastReferenceRate1024/slerp/{}", prec);
            add(rate, benchmark::RegisterBenchmark(rate.c_str(), fast_reference_case<T>, RefPath::widest, 10, cases),
                {"fast_reference_rate1024", "", "slerp", prec, region, "case", double(kRefBlock)});
            std::string four = fmt::format("BM_FastReferenceFourLanes/slerp/{}", prec);
            add(four,
                benchmark::RegisterBenchmark(four.c_str(), fast_reference_case<T>, RefPath::four_lanes, 10, cases),
                {"fast_reference_four_lanes", "", "slerp", prec, region, "case", double(kRefBlock)});
        }
        std::string scalar = fmt::format("BM_FastReferenceScalar/slerp/{}{}", prec, suffix);
        add(scalar, benchmark::RegisterBenchmark(scalar.c_str(), fast_reference_case<T>, RefPath::scalar, -1, cases),
            {"fast_reference_scalar", "", "slerp", prec, region, "case", double(kRefBlock)});
        std::string floor = fmt::format("BM_MpfrFloor/slerp/{}{}", prec, suffix);
        add(floor, benchmark::RegisterBenchmark(floor.c_str(), floor_case<T>, cases),
            {"floor", "", "slerp", prec, region, "case", 1});
    }
    for (Op op : {Op::slerp, Op::nlerp}) {
        std::string name = fmt::format("BM_Metric/{}/{}", to_string(op), prec);
        add(name, benchmark::RegisterBenchmark(name.c_str(), metric_case<T>, op, ReferenceMode::mpfr, false, mixed),
            {"metric", "", to_string(op), prec, "all", "case", 1});
        std::string fast = fmt::format("BM_MetricFast/{}/{}", to_string(op), prec);
        add(fast, benchmark::RegisterBenchmark(fast.c_str(), metric_case<T>, op, ReferenceMode::fast, false, mixed),
            {"metric_fast", "", to_string(op), prec, "all", "case", 1});
        std::string scalar = fmt::format("BM_MetricFastScalar/{}/{}", to_string(op), prec);
        add(scalar, benchmark::RegisterBenchmark(scalar.c_str(), metric_case<T>, op, ReferenceMode::fast, true, mixed),
            {"metric_fast_scalar", "", to_string(op), prec, "all", "case", 1});
        std::string batch = fmt::format("BM_MetricFastBatch/{}/{}", to_string(op), prec);
        add(batch, benchmark::RegisterBenchmark(batch.c_str(), metric_batch_case<T>, op, std::nullopt, mixed),
            {"metric_fast_batch", "", to_string(op), prec, "all", "case", double(kBatchImpls)});
        std::string four = fmt::format("BM_MetricFastBatchFourLanes/{}/{}", to_string(op), prec);
        add(four, benchmark::RegisterBenchmark(four.c_str(), metric_batch_case<T>, op, MetricBatch::four_lanes, mixed),
            {"metric_fast_batch_four_lanes", "", to_string(op), prec, "all", "case", double(kBatchImpls)});
        std::string components = fmt::format("BM_MetricFastBatchComponents/{}/{}", to_string(op), prec);
        add(components,
            benchmark::RegisterBenchmark(components.c_str(), metric_batch_case<T>, op, MetricBatch::per_output, mixed),
            {"metric_fast_batch_components", "", to_string(op), prec, "all", "case", double(kBatchImpls)});
    }
}

}  // namespace

// The whole runner on the default selection (every built-in implementation but broken-* and noop, both ops,
// both precisions, every region), one job, worst-case search included: the same cases with --reference fast and
// --reference mpfr. Time per case of one region and precision (a reference, every implementation of that
// precision, its metrics).
constexpr uint64_t kRunnerCases = 1000;  // per region and precision, per iteration
// before = true: --reference fast with the reference and the metrics on their scalar paths (what QC_FORCE_SCALAR=1
// selects: the code of the fast path before issue 29, one case and one output at a time, with the same figures),
// for the speed-up of BM_Runner/fast over BM_Runner/fast_before in one run: issue 45's "whole runner against the
// scalar path of today's search". Both search by steps, the default in process (generations follow the same path
// and cost a few per cent more there: docs/worst-case-search.md).
void runner_case(benchmark::State &st, ReferenceMode mode, bool before, std::shared_ptr<std::vector<Impl>> catalogue,
                 BenchOptions o) {
    RunOptions opt;
    opt.impl_filters = o.impl_filters;
    opt.regions = o.regions;
    opt.cases = kRunnerCases;
    opt.seed = o.seed;
    opt.jobs = 1;
    opt.reference = mode;
    const SearchSettings search;
    uint64_t rows = 0;
    // Untimed: the fast path's tables are built once per process (MPFR, at first use); without this the first
    // repetition of whichever mode runs first would carry that cost.
    {
        ReferenceEngine warm(Precision::f64, ReferenceMode::fast);
        SlerpReference r;
        const double a[4] = {1, 0, 0, 0}, b[4] = {0.6, 0.8, 0, 0};
        warm.slerp_exact(a, b, 0.5, r, false);
    }
    // Untimed, once per mode and process: one whole run first, so that what is timed is the steady state of a
    // long run (the heap grown, the pages touched, every lazy symbol bound), in either mode alike; without it
    // the first repetition measured 10-20 % slower than the others, and by how much depended on what ran before.
    const bool saved_reference = force_scalar(), saved_metric = metric_force_scalar();
    if (before) set_force_scalar(true), set_metric_force_scalar(true);
    static std::once_flag warmed[3];
    std::call_once(warmed[before                        ? 2
                          : mode == ReferenceMode::fast ? 0
                                                        : 1],
                   [&] { RunOutput w = run(opt, *catalogue, {}, search); });
    for (auto _ : st) {
        RunOutput r = run(opt, *catalogue, {}, search);
        rows = r.rows.size();
        benchmark::DoNotOptimize(r);
    }
    set_force_scalar(saved_reference), set_metric_force_scalar(saved_metric);
    st.counters["rows"] = double(rows);
}

// An exhaustive f32 t slice of the default sweep selection (sweep --over t, the pair a.b = 0.7, every representable
// t in [0, 1]): CPU seconds per point as the sweep itself measures them for its printed estimate
// (seconds_per_point: 2048 points spread evenly over the slice, reference, every implementation, metrics),
// reported as manual time per 2048 points.
constexpr double kSweepProbePoints = 2048;
void sweep_point_case(benchmark::State &st, std::shared_ptr<std::vector<Impl>> catalogue, BenchOptions o) {
    SweepOptions opt;
    opt.over = SweepOver::t;
    opt.pair_dots = {0.7};
    opt.impl_filters = o.impl_filters;
    const std::vector<ImplOp> sel = select_sweep_impls(*catalogue, opt);
    SliceSpec spec;
    bool found = false;
    for (SliceSpec &s : plan_slices(opt, sel))
        if (s.precision == Precision::f32 && !found) spec = s, found = true;
    if (!found) {
        st.SkipWithError("no f32 implementation in the sweep selection");
        return;
    }
    spec.exhaustive = true;
    spec.lo = 0, spec.hi = 1;
    // Untimed, once per process: two probes first, as the sweep's own probe runs after its slices. The first two
    // probes of a process measured about 3x the later ones (10-11 us against 3.5 us per point): their blocks' buffers
    // are fresh pages (glibc serves large blocks by mmap until a freed one raises its threshold), which a sweep
    // pays once, not per point.
    static std::once_flag warmed;
    std::call_once(warmed, [&] {
        for (int k = 0; k < 2; k++) seconds_per_point(opt, sel, spec);
    });
    for (auto _ : st) st.SetIterationTime(seconds_per_point(opt, sel, spec) * kSweepProbePoints);
}

std::vector<double> peer_cases_f64(const BenchOptions &o) {
    const auto c = make_cases<double>(o.seed, o.regions.empty() ? all_regions() : o.regions);
    std::vector<double> flat;
    flat.reserve(c->cases.size() * 9);
    for (const auto &k : c->cases) {
        flat.insert(flat.end(), k.q0.begin(), k.q0.end());
        flat.insert(flat.end(), k.q1.begin(), k.q1.end());
        flat.push_back(k.t);
    }
    return flat;
}

void register_harness_benchmarks(const BenchOptions &o, std::vector<std::pair<std::string, BenchKey>> &keys) {
    // The whole runner first: a run of quatcheck starts in a fresh process, and the reference and metric
    // benchmarks before it (their case sets, MPFR's caches) were measured to slow its fast mode by 5-15 %.
    auto catalogue = std::make_shared<std::vector<Impl>>(load_catalogue({}));
    const double cases = double(kRunnerCases * 2 * (o.regions.empty() ? all_regions().size() : o.regions.size()));
    for (auto [mode, before] : {std::pair{ReferenceMode::fast, false}, std::pair{ReferenceMode::fast, true},
                                std::pair{ReferenceMode::mpfr, false}}) {
        const std::string label = std::string(to_string(mode)) + (before ? "_before" : "");
        std::string name = "BM_Runner/" + label;
        auto *b = benchmark::RegisterBenchmark(name.c_str(), runner_case, mode, before, catalogue, o);
        b->Iterations(1)->Repetitions(o.repetitions)->ReportAggregatesOnly(true)->Unit(benchmark::kNanosecond);
        keys.push_back({name, {"runner_" + label, "", "slerp+nlerp", "both", "all", "case", cases}});
    }
    {
        const char *name = "BM_SweepPoint/t/f32";
        auto *b = benchmark::RegisterBenchmark(name, sweep_point_case, catalogue, o);
        b->Iterations(1)
            ->Repetitions(o.repetitions)
            ->ReportAggregatesOnly(true)
            ->UseManualTime()
            ->Unit(benchmark::kNanosecond);
        keys.push_back({name, {"sweep_t_point", "", "slerp", "f32", "all", "point", kSweepProbePoints, true}});
    }
    register_precision<float>(o, keys);
    register_precision<double>(o, keys);
}

}  // namespace qc::bench
