// BM_SlerpCr/<impl>/slerp/<region> (`quatcheck bench --suite slerp-cr`, docs/slerp-cr.md "Speed"): the correctly
// rounded slerp beside a textbook slerp of the same precision (seed-c: seed document 000's C routine, f32 computed
// in float, f64 in double) and beside qc-slerp (the recommended slerp), on the same 4,096 cases of each region,
// registered region by region so that the three run one after the other in the same run. Each benchmark is the
// throughput mode of BM_Impl (independent calls through the implementation's table, the runner's indirect call).
//
// measure_slerp_cr_cases adds what the timing loops cannot say, outside them: the second phase's rate on those
// cases (qc_slerp_cr_get_stats: phase2_calls / calls, per region and precision) and the slowest single call.
#include "bench/suites.h"
#include "run/runner.h"

#include "quatcheck/slerp_cr.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

namespace qc::bench {
namespace {

template <class T> struct Cases {
    std::vector<Quat<T>> q0, q1;
    std::vector<T> t;
};

// The cases of BM_Impl's batch for (seed, region): the runner's stream of the region, cases 0 to kBatch - 1.
template <class T> std::shared_ptr<Cases<T>> make_cases(uint64_t seed, Region region) {
    auto c = std::make_shared<Cases<T>>();
    for (size_t i = 0; i < kBatch; i++) {
        SlerpCase<T> s = regenerate_case<T>(seed, region, i);
        c->q0.push_back(s.q0), c->q1.push_back(s.q1), c->t.push_back(s.t);
    }
    return c;
}

template <class T> using SlerpFn = void (*)(const T *, const T *, T, T *);

template <class T> void slerp_throughput(benchmark::State &st, SlerpFn<T> fn, std::shared_ptr<Cases<T>> c) {
    std::vector<Quat<T>> out(kBatch);
    for (auto _ : st) {
        for (size_t i = 0; i < kBatch; i++) fn(c->q0[i].data(), c->q1[i].data(), c->t[i], out[i].data());
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(out.data());
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(kBatch));
}

const Impl &find_impl(const std::vector<Impl> &catalogue, const std::string &name) {
    for (const Impl &i : catalogue)
        if (i.name == name) return i;
    throw InputError(fmt::format("bench: --suite slerp-cr: the catalogue has no {} (a build without it?)", name));
}

template <class T> void register_one(const Impl &impl, Region region, std::shared_ptr<Cases<T>> cases,
                                     const BenchOptions &o, std::vector<std::pair<std::string, BenchKey>> &keys) {
    SlerpFn<T> fn;
    if constexpr (std::is_same_v<T, float>) fn = impl.table->slerp_f32;
    else fn = impl.table->slerp_f64;
    if (!fn || !impl.backend->in_process())
        throw InputError(fmt::format("bench: --suite slerp-cr: {} has no in-process slerp to time", impl.name));
    const std::string name = fmt::format("BM_SlerpCr/{}/slerp/{}", impl.name, to_string(region));
    benchmark::RegisterBenchmark(name.c_str(), slerp_throughput<T>, fn, cases)
        ->MinTime(o.min_time_s)
        ->Repetitions(o.repetitions)
        ->ReportAggregatesOnly(true)
        ->Unit(benchmark::kNanosecond);
    keys.push_back(
        {name,
         {"slerp_cr", impl.name, "slerp", to_string(impl.precision), to_string(region), "throughput", double(kBatch)}});
}

// One call of the correctly rounded slerp, timed alone (steady_clock around it: its own cost plus the clock's,
// about 20 ns, small beside a call of the routine).
template <class T> double time_call(const T *q0, const T *q1, T t) {
    T out[4];
    const auto t0 = std::chrono::steady_clock::now();
    quatcheck::slerp_cr(q0, q1, t, out);
    const auto t1 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(out[0]);
    return std::chrono::duration<double, std::nano>(t1 - t0).count();
}

struct Candidate {
    double ns;
    Region region;
    size_t index;
};

constexpr size_t kCandidates = 8;  // slowest single calls kept per precision, then timed again
constexpr int kRetimes = 5;        // each candidate's figure: the least of this many further calls

template <class T> SlerpCrSlowest slowest(const std::vector<Candidate> &found,
                                          const std::vector<std::shared_ptr<Cases<T>>> &cases,
                                          const std::vector<Region> &regions) {
    SlerpCrSlowest best;
    best.precision = std::is_same_v<T, float> ? "f32" : "f64";
    for (const Candidate &c : found) {
        const size_t r = size_t(std::find(regions.begin(), regions.end(), c.region) - regions.begin());
        const Cases<T> &k = *cases[r];
        double least = c.ns;
        for (int i = 0; i < kRetimes; i++)
            least = std::min(least, time_call(k.q0[c.index].data(), k.q1[c.index].data(), k.t[c.index]));
        if (least <= best.ns) continue;
        best.ns = least, best.first_ns = c.ns, best.region = to_string(c.region), best.index = c.index;
        for (int j = 0; j < 4; j++) best.q0[j] = double(k.q0[c.index][j]), best.q1[j] = double(k.q1[c.index][j]);
        best.t = double(k.t[c.index]);
        qc_slerp_cr_reset_stats();  // which phases this one case takes
        T out[4];
        best.status = [&] {
            if constexpr (std::is_same_v<T, float>)
                return qc_slerp_cr_f32_status(k.q0[c.index].data(), k.q1[c.index].data(), k.t[c.index], out);
            else return qc_slerp_cr_f64_status(k.q0[c.index].data(), k.q1[c.index].data(), k.t[c.index], out);
        }();
        qc_slerp_cr_get_stats(&best.stats);
    }
    return best;
}

// Every case of every region once, each call timed: the phase counters per region, and the slowest calls.
template <class T>
void measure_precision(const BenchOptions &o, const std::vector<Region> &regions, SlerpCrCases &result) {
    std::vector<std::shared_ptr<Cases<T>>> cases;
    std::vector<Candidate> found;
    for (Region region : regions) {
        cases.push_back(make_cases<T>(o.seed, region));
        const Cases<T> &k = *cases.back();
        qc_slerp_cr_reset_stats();
        for (size_t i = 0; i < kBatch; i++) {
            const double ns = time_call(k.q0[i].data(), k.q1[i].data(), k.t[i]);
            if (found.size() < kCandidates || ns > found.back().ns) {
                if (found.size() == kCandidates) found.pop_back();
                found.push_back({ns, region, i});
                std::sort(found.begin(), found.end(),
                          [](const Candidate &a, const Candidate &b) { return a.ns > b.ns; });
            }
        }
        SlerpCrPhases p;
        p.precision = std::is_same_v<T, float> ? "f32" : "f64";
        p.region = to_string(region);
        qc_slerp_cr_get_stats(&p.stats);
        result.phases.push_back(p);
    }
    result.slowest.push_back(slowest<T>(found, cases, regions));
}

}  // namespace

const std::vector<std::string> &slerp_cr_families() {
    static const std::vector<std::string> f = {"qc-slerp-cr", "seed-c", "qc-slerp"};
    return f;
}

void register_slerp_cr_benchmarks(const std::vector<Impl> &catalogue, const BenchOptions &o,
                                  std::vector<std::pair<std::string, BenchKey>> &keys) {
    const std::vector<Region> regions = o.regions.empty() ? all_regions() : o.regions;
    for (Region region : regions) {
        auto f32 = make_cases<float>(o.seed, region);
        auto f64 = make_cases<double>(o.seed, region);
        for (const std::string &family : slerp_cr_families()) {
            register_one<float>(find_impl(catalogue, family + ".f32"), region, f32, o, keys);
            register_one<double>(find_impl(catalogue, family + ".f64"), region, f64, o, keys);
        }
    }
}

SlerpCrCases measure_slerp_cr_cases(const BenchOptions &o) {
    const std::vector<Region> regions = o.regions.empty() ? all_regions() : o.regions;
    SlerpCrCases result;
    measure_precision<float>(o, regions, result);
    measure_precision<double>(o, regions, result);
    qc_slerp_cr_reset_stats();
    return result;
}

}  // namespace qc::bench
