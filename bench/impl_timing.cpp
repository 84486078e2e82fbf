// BM_Impl/<impl>/<op>/<region>/<mode>: the cost of one call of an implementation through the plugin
// interface (the same indirect call the runner makes), on 4,096 prepared cases of one region.
//
// throughput: independent calls over the batch; the processor may overlap them.
// latency:    the t of each call carries a data dependency on the previous call's output
//             (t's bits OR (output bits AND a zero the compiler cannot see)), so each call starts only
//             when the previous one has finished. The dependency costs a few cycles, the same for every
//             implementation: the `noop` implementation measures it together with the call itself.
#include "bench/suites.h"
#include "isolate/eval.h"
#include "run/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

namespace qc::bench {
namespace {

template <class T> struct Bits;
template <> struct Bits<float> { using type = uint32_t; };
template <> struct Bits<double> { using type = uint64_t; };

// A zero the optimiser cannot fold: read once from a volatile.
volatile uint64_t g_opaque_zero = 0;

template <class T> inline T depend(T t, T previous, typename Bits<T>::type zero) {
    typename Bits<T>::type a, b;
    std::memcpy(&a, &t, sizeof a);
    std::memcpy(&b, &previous, sizeof b);
    a |= b & zero;
    std::memcpy(&t, &a, sizeof a);
    return t;
}

// The prepared cases of one region: q0, q1, t from the region's generator; for squad also the control
// points s0 = setup(prev, q0, q1), s1 = setup(q0, q1, next), computed once by the implementation's own
// squad_setup with uniform neighbours prev and next.
template <class T> struct Batch {
    std::vector<Quat<T>> q0, q1, s0, s1;
    std::vector<T> t;
};

template <class T> std::shared_ptr<Batch<T>> make_batch(uint64_t seed, Region region) {
    auto b = std::make_shared<Batch<T>>();
    for (size_t i = 0; i < kBatch; i++) {
        SlerpCase<T> c = regenerate_case<T>(seed, region, i);
        b->q0.push_back(c.q0), b->q1.push_back(c.q1), b->t.push_back(c.t);
    }
    return b;
}

template <class T> using TwoKeyFn = void (*)(const T *, const T *, T, T *);
template <class T> using SquadFn = void (*)(const T *, const T *, const T *, const T *, T, T *);

template <class T> TwoKeyFn<T> two_key_fn(const Impl &impl, Op op) {
    if constexpr (std::is_same_v<T, float>) return op == Op::slerp ? impl.table->slerp_f32 : impl.table->nlerp_f32;
    else return op == Op::slerp ? impl.table->slerp_f64 : impl.table->nlerp_f64;
}

template <class T> void two_key_throughput(benchmark::State &st, TwoKeyFn<T> fn, std::shared_ptr<Batch<T>> b) {
    std::vector<Quat<T>> out(kBatch);
    for (auto _ : st) {
        for (size_t i = 0; i < kBatch; i++) fn(b->q0[i].data(), b->q1[i].data(), b->t[i], out[i].data());
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(out.data());
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(kBatch));
}

// An implementation in another process that times itself (a process plugin: EvalOutcome::self_ns): each
// iteration is one eval_batch of the 4,096 cases (one round trip) and counts the time the adapter measured
// around its library calls (manual time), not the pipe's.
template <class T> void two_key_self_timed(benchmark::State &st, const Impl *impl, Op op,
                                           std::shared_ptr<std::vector<SlerpCase<T>>> cases) {
    std::vector<Quat<T>> out(cases->size());
    for (auto _ : st) {
        EvalOutcome o = eval_batch(*impl, op, cases->data(), cases->size(), out.data());
        if (!o.ok() || !(o.self_ns > 0)) {
            st.SkipWithError(o.ok() ? "the implementation stopped reporting its own time"
                                    : (std::string(to_string(o.status)) + ": " + o.detail).c_str());
            break;
        }
        st.SetIterationTime(o.self_ns * 1e-9);
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(cases->size()));
}

template <class T> void two_key_latency(benchmark::State &st, TwoKeyFn<T> fn, std::shared_ptr<Batch<T>> b) {
    const auto zero = typename Bits<T>::type(g_opaque_zero);
    T out[4] = {0, 0, 0, 0};
    for (auto _ : st) {
        for (size_t i = 0; i < kBatch; i++) fn(b->q0[i].data(), b->q1[i].data(), depend(b->t[i], out[0], zero), out);
    }
    benchmark::DoNotOptimize(out[0]);
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(kBatch));
}

template <class T> void squad_throughput(benchmark::State &st, SquadFn<T> fn, std::shared_ptr<Batch<T>> b) {
    std::vector<Quat<T>> out(kBatch);
    for (auto _ : st) {
        for (size_t i = 0; i < kBatch; i++)
            fn(b->q0[i].data(), b->q1[i].data(), b->s0[i].data(), b->s1[i].data(), b->t[i], out[i].data());
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(out.data());
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(kBatch));
}

template <class T> void squad_latency(benchmark::State &st, SquadFn<T> fn, std::shared_ptr<Batch<T>> b) {
    const auto zero = typename Bits<T>::type(g_opaque_zero);
    T out[4] = {0, 0, 0, 0};
    for (auto _ : st) {
        for (size_t i = 0; i < kBatch; i++)
            fn(b->q0[i].data(), b->q1[i].data(), b->s0[i].data(), b->s1[i].data(), depend(b->t[i], out[0], zero), out);
    }
    benchmark::DoNotOptimize(out[0]);
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(kBatch));
}

template <class T> void register_impl(const Impl &impl, Op op, Region region, std::shared_ptr<Batch<T>> batch,
                                      const BenchOptions &o, std::vector<std::pair<std::string, BenchKey>> &keys) {
    for (const char *mode : {"throughput", "latency"}) {
        std::string name = fmt::format("BM_Impl/{}/{}/{}/{}", impl.name, to_string(op), to_string(region), mode);
        bool latency = std::string(mode) == "latency";
        benchmark::internal::Benchmark *b = nullptr;
        if (op == Op::squad) {
            SquadFn<T> fn;
            if constexpr (std::is_same_v<T, float>) fn = impl.table->squad_f32;
            else fn = impl.table->squad_f64;
            b = latency ? benchmark::RegisterBenchmark(name.c_str(), squad_latency<T>, fn, batch)
                        : benchmark::RegisterBenchmark(name.c_str(), squad_throughput<T>, fn, batch);
        } else {
            TwoKeyFn<T> fn = two_key_fn<T>(impl, op);
            b = latency ? benchmark::RegisterBenchmark(name.c_str(), two_key_latency<T>, fn, batch)
                        : benchmark::RegisterBenchmark(name.c_str(), two_key_throughput<T>, fn, batch);
        }
        b->MinTime(o.min_time_s)->Repetitions(o.repetitions)->ReportAggregatesOnly(true)->Unit(benchmark::kNanosecond);
        keys.push_back(
            {name,
             {"impl", impl.name, to_string(op), to_string(impl.precision), to_string(region), mode, double(kBatch)}});
    }
}

// A process plugin's op, timed by the adapter itself (throughput mode only: the adapter's loop makes
// independent calls). Registered only when a first batch comes back with the adapter's own time; a probe
// batch that fails (crash, timeout, protocol violation) throws InputError naming the implementation.
// The adapter's clock decides the figure, not how long the benchmark runs: each repetition is as many
// batches as the probe's round trip (wall time) fits into min_time_s, so an adapter that under-reports its
// time cannot stretch the run (Google Benchmark would add batches until their reported time reached it).
template <class T> bool register_self_timed(const Impl &impl, Op op, Region region, const Batch<T> &batch,
                                            const BenchOptions &o,
                                            std::vector<std::pair<std::string, BenchKey>> &keys) {
    auto cases = std::make_shared<std::vector<SlerpCase<T>>>(kBatch);
    for (size_t i = 0; i < kBatch; i++) (*cases)[i] = {batch.q0[i], batch.q1[i], batch.t[i]};
    std::vector<Quat<T>> out(kBatch);
    const auto t0 = std::chrono::steady_clock::now();
    EvalOutcome probe = eval_batch(impl, op, cases->data(), kBatch, out.data());
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!probe.ok() && probe.status != EvalStatus::interrupted)
        throw InputError(fmt::format("bench: {} {} ({}): {} ({}); not timed", impl.name, to_string(op),
                                     to_string(region), to_string(probe.status), probe.detail));
    if (!probe.ok()) return false;  // interrupted: the command stops
    if (!(probe.self_ns > 0)) {
        std::fprintf(stderr,
                     "quatcheck bench: %s %s: not timed: its process reports no time of its own (shared-library "
                     "plugins never do; an adapter that answers 0 ns)\n",
                     impl.name.c_str(), to_string(op));
        return false;
    }
    const auto batches =
        benchmark::IterationCount(std::clamp(std::ceil(o.min_time_s / std::max(wall_s, 1e-9)), 1.0, 1e6));
    std::string name = fmt::format("BM_Impl/{}/{}/{}/throughput", impl.name, to_string(op), to_string(region));
    benchmark::RegisterBenchmark(name.c_str(), two_key_self_timed<T>, &impl, op, cases)
        ->UseManualTime()
        ->Iterations(batches)
        ->Repetitions(o.repetitions)
        ->ReportAggregatesOnly(true)
        ->Unit(benchmark::kNanosecond);
    BenchKey key{"impl",       impl.name,     to_string(op), to_string(impl.precision), to_string(region),
                 "throughput", double(kBatch)};
    key.self_timed = true;
    keys.push_back({name, key});
    return true;
}

template <class T> void add_squad_controls(const Impl &impl, uint64_t seed, Batch<T> &b) {
    auto setup = [&] {
        if constexpr (std::is_same_v<T, float>) return impl.table->squad_setup_f32;
        else return impl.table->squad_setup_f64;
    }();
    Rng rng(seed ^ 0x5157'4144ull);  // "SQAD": neighbours of the segment
    b.s0.resize(kBatch), b.s1.resize(kBatch);
    for (size_t i = 0; i < kBatch; i++) {
        double p[4], n[4];
        random_unit(rng, p), random_unit(rng, n);
        T prev[4], next[4];
        for (int k = 0; k < 4; k++) prev[k] = T(p[k]), next[k] = T(n[k]);
        setup(prev, b.q0[i].data(), b.q1[i].data(), b.s0[i].data());
        setup(b.q0[i].data(), b.q1[i].data(), next, b.s1[i].data());
    }
}

}  // namespace

void register_impl_benchmarks(const std::vector<Impl> &catalogue, const BenchOptions &o,
                              std::vector<std::pair<std::string, BenchKey>> &keys) {
    std::vector<Op> ops = {Op::slerp, Op::nlerp, Op::squad};
    std::vector<const Impl *> impls;
    if (o.impl_filters.empty()) {
        for (const auto &i : catalogue)
            if (i.group != "broken") impls.push_back(&i);  // noop (group bench) is timed: it is the call overhead
    } else {
        for (const auto &io : select_impls(catalogue, o.impl_filters, ops))
            if (std::find(impls.begin(), impls.end(), io.impl) == impls.end()) impls.push_back(io.impl);
    }
    std::vector<Region> regions = o.regions.empty() ? all_regions() : o.regions;
    std::vector<std::shared_ptr<Batch<float>>> f32;
    std::vector<std::shared_ptr<Batch<double>>> f64;
    for (Region region : regions)
        f32.push_back(make_batch<float>(o.seed, region)), f64.push_back(make_batch<double>(o.seed, region));
    for (const Impl *impl : impls)
        for (Op op : ops) {
            // An isolated implementation (a plugin, or --isolate) lives in a worker process: its table cannot
            // be called here, and timing it through the pipe would measure the pipe. A process plugin's
            // adapter times its own batches: those are registered (register_self_timed).
            if (!impl->supports(op)) continue;
            if (!impl->backend->in_process()) {
                if (op == Op::squad) continue;
                for (size_t r = 0; r < regions.size(); r++) {
                    bool timed = impl->precision == Precision::f32
                                     ? register_self_timed<float>(*impl, op, regions[r], *f32[r], o, keys)
                                     : register_self_timed<double>(*impl, op, regions[r], *f64[r], o, keys);
                    if (!timed) break;  // a worker process (or an adapter that reports 0): not timed, and said so
                }
                continue;
            }
            for (size_t r = 0; r < regions.size(); r++) {
                if (impl->precision == Precision::f32) {
                    auto b = f32[r];
                    if (op == Op::squad) b = std::make_shared<Batch<float>>(*b), add_squad_controls(*impl, o.seed, *b);
                    register_impl<float>(*impl, op, regions[r], b, o, keys);
                } else {
                    auto b = f64[r];
                    if (op == Op::squad) b = std::make_shared<Batch<double>>(*b), add_squad_controls(*impl, o.seed, *b);
                    register_impl<double>(*impl, op, regions[r], b, o, keys);
                }
            }
        }
}

namespace {
// The runner's call path (harness/run/runner.cpp): eval_batch() on chunks of 32 cases through the
// implementation's backend. Beside BM_Impl/<impl>/slerp/uniform/throughput (the bare indirect call), the
// difference is what the harness's dispatch costs per case.
template <class T> void eval_batch_throughput(benchmark::State &st, const Impl *impl, std::shared_ptr<Batch<T>> b) {
    std::vector<SlerpCase<T>> cases(kBatch);
    for (size_t i = 0; i < kBatch; i++) cases[i].q0 = b->q0[i], cases[i].q1 = b->q1[i], cases[i].t = b->t[i];
    std::vector<Quat<T>> out(kBatch);
    constexpr size_t kChunk = 32;
    for (auto _ : st) {
        for (size_t i = 0; i < kBatch; i += kChunk) eval_batch(*impl, Op::slerp, &cases[i], kChunk, &out[i]);
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(out.data());
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(kBatch));
}
}  // namespace

void register_eval_benchmarks(const std::vector<Impl> &catalogue, const BenchOptions &o) {
    auto f32 = make_batch<float>(o.seed, Region::uniform);
    auto f64 = make_batch<double>(o.seed, Region::uniform);
    for (const Impl &impl : catalogue) {
        if ((impl.family != "noop" && impl.family != "seed-c") || !impl.supports(Op::slerp)) continue;
        std::string name = fmt::format("BM_EvalBatch/{}/slerp", impl.name);
        auto *b = impl.precision == Precision::f32
                      ? benchmark::RegisterBenchmark(name.c_str(), eval_batch_throughput<float>, &impl, f32)
                      : benchmark::RegisterBenchmark(name.c_str(), eval_batch_throughput<double>, &impl, f64);
        b->MinTime(o.min_time_s)->Repetitions(o.repetitions)->ReportAggregatesOnly(true)->Unit(benchmark::kNanosecond);
    }
}

}  // namespace qc::bench
