#include "metrics/comparison.h"
#include "threshold/study.h"
#include "base/parallel.h"
#include "isolate/eval.h"
#include "plugins/impls.h"

#include "metrics/metrics.h"
#include "regions/regions.h"
#include "base/build_info.h"
#include "tables/schemas.h"
#include "reference/stats_json.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

namespace qc {

namespace {

constexpr size_t kTimingBatch = 256;
constexpr int kTimingRepetitions = 3;  // ns = the fastest of 3 repetitions
constexpr int kJumpTSteps = 64;

template <class T> T tau_in_format(double one_minus_tau) { return T(1.0 - one_minus_tau); }

uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Ends along two basis axes so that the dot product computed in the format is exactly d:
// q0 = sign e_i, q1 = sign d e_i + sqrt(1 - d^2) e_j.
template <class T> void exact_dot_case(int i, int j, T sign, T d, SlerpCase<T> &c) {
    c.q0 = {0, 0, 0, 0};
    c.q1 = {0, 0, 0, 0};
    c.q0[i] = sign;
    c.q1[i] = sign * d;
    c.q1[j] = T(std::sqrt((1 - double(d)) * (1 + double(d))));
}

template <class T> T step_from(T x, int steps) {
    for (int s = 0; s < std::abs(steps); s++) x = std::nextafter(x, steps > 0 ? T(1) : T(0));
    return std::min(x, T(1));
}

// One routine under study: a family of families.h (impl = nullptr), or an implementation's slerp_tau
// (qc_impl_v2 / protocol 2), evaluated through harness/isolate in batches.
struct Routine {
    std::string name;
    ThresholdFamily family = ThresholdFamily::acos_nlerp;
    const Impl *impl = nullptr;
};

template <class T> std::vector<Routine> routines_for(const ThresholdOptions &opt) {
    std::vector<Routine> r;
    if (opt.impls.empty()) {
        for (ThresholdFamily f : all_threshold_families()) r.push_back({to_string(f), f, nullptr});
    } else {
        for (const Impl *i : opt.impls)
            if (i->precision == Format<T>::precision) r.push_back({i->name, ThresholdFamily::acos_nlerp, i});
    }
    return r;
}

std::string quat_hex(const float *q) { return fmt::format("({:a}, {:a}, {:a}, {:a})", q[0], q[1], q[2], q[3]); }
std::string quat_hex(const double *q) { return fmt::format("({:a}, {:a}, {:a}, {:a})", q[0], q[1], q[2], q[3]); }

// The routine at threshold tau on every case (one batch: one round trip for a routine in another process).
template <class T> void eval_routine(const Routine &r, const std::vector<SlerpCase<T>> &cases, T tau,
                                     std::vector<Quat<T>> &out, const StopToken &stop) {
    out.assign(cases.size(), Quat<T>{});
    if (!r.impl) {
        auto routine = threshold_routine<T>(r.family);
        for (size_t k = 0; k < cases.size(); k++)
            routine(cases[k].q0.data(), cases[k].q1.data(), cases[k].t, tau, out[k].data());
        return;
    }
    EvalOutcome o = eval_batch_tau(*r.impl, cases.data(), cases.size(), tau, out.data());
    if (o.ok()) return;
    if (o.status == EvalStatus::interrupted) stop.throw_if_requested();
    const SlerpCase<T> &c = cases[std::min(o.done, cases.size() - 1)];
    throw InputError(fmt::format("{}: slerp_tau {} at tau = {:a}, q0 = {}, q1 = {}, t = {:a}: {}", r.name,
                                 to_string(o.status), tau, quat_hex(c.q0.data()), quat_hex(c.q1.data()), c.t,
                                 o.detail));
}

// Per grid point (precision, tau) and routine: what the accuracy pass found.
struct FamilyStats {
    uint64_t nonfinite = 0;
    double max_angle = 0, p99_angle = 0, max_ulp1 = 0, max_norm = 0, arc_floor = 0, jump = 0;
    bool tau_effect = false;
};

struct PointResult {
    double one_minus_tau = 0, tau = 0, ideal_step = 0;
    uint64_t cases = 0;
    std::vector<FamilyStats> family;  // per routine
    std::vector<double> ns_arc, ns_fallback;
};

template <class T> struct PrecisionWork {
    std::vector<Routine> routines;
    std::vector<char> timed;  // per routine: its benchmarks were registered (register_timings)
    std::vector<double> grid;
    std::vector<PointResult> points;
    std::vector<std::vector<SlerpCase<T>>> timing_cases;  // per point: the first kTimingBatch cases
};

// The jump of every routine at tau: q0 = e_0, q1 = d e_0 + sqrt(1 - d^2) e_1 with d = tau_T (arc side) and
// next(tau_T) (fallback side), t = k/64. Any axis pair gives the same arithmetic, so one pair is enough. Also the
// ideal step there (the reference's own jump between the two sides), into res.
template <class T> void measure_jump(const std::vector<Routine> &routines, T tau, ReferenceEngine &reference,
                                     MetricEngine &metric, const StopToken &stop, PointResult &res) {
    const size_t nr = routines.size();
    const T d_arc = tau, d_fallback = step_from(tau, 1);
    std::vector<SlerpCase<T>> below(kJumpTSteps + 1), above(kJumpTSteps + 1);
    for (int k = 0; k <= kJumpTSteps; k++) {
        exact_dot_case<T>(0, 1, T(1), d_arc, below[size_t(k)]);
        exact_dot_case<T>(0, 1, T(1), d_fallback, above[size_t(k)]);
        below[size_t(k)].t = above[size_t(k)].t = T(k) / T(kJumpTSteps);
    }
    std::vector<std::vector<Quat<T>>> out_below(nr), out_above(nr);
    for (size_t f = 0; f < nr; f++) {
        eval_routine(routines[f], below, tau, out_below[f], stop);
        eval_routine(routines[f], above, tau, out_above[f], stop);
    }
    SlerpReference ref_below, ref_above;
    const int bits = 2 * precision_bits(Format<T>::precision) + 32;
    RealQuat unit;
    Real norm;
    for (auto &x : unit) ensure_bits(x, bits);
    ensure_bits(norm, bits);
    for (int k = 0; k <= kJumpTSteps; k++) {
        reference.slerp(below[size_t(k)], ref_below, true);
        reference.slerp(above[size_t(k)], ref_above, true);
        double r_below[4];
        for (int i = 0; i < 4; i++) r_below[i] = to_double(ref_below.R[i]);
        res.ideal_step = std::max(res.ideal_step, metric.rotation_angle(r_below, ref_above.R));
        for (size_t f = 0; f < nr; f++) {
            const Quat<T> &ob = out_below[f][size_t(k)], &oa = out_above[f][size_t(k)];
            // The fallback side's output, normalised exactly, is the unit quaternion to measure against.
            mpfr_set_ui(mp(norm), 0, MPFR_RNDN);
            for (int i = 0; i < 4; i++) {
                mpfr_set_d(mp(unit[i]), double(oa[size_t(i)]), MPFR_RNDN);
                mpfr_fma(mp(norm), mp(unit[i]), mp(unit[i]), mp(norm), MPFR_RNDN);
            }
            mpfr_sqrt(mp(norm), mp(norm), MPFR_RNDN);
            for (int i = 0; i < 4; i++) mpfr_div(mp(unit[i]), mp(unit[i]), mp(norm), MPFR_RNDN);
            double u[4];
            for (int i = 0; i < 4; i++) u[i] = double(ob[size_t(i)]);
            double j = metric.rotation_angle(u, unit);
            res.family[f].jump = std::max(res.family[f].jump, std::isfinite(j) ? j : INFINITY);
        }
    }
}

template <class T> void measure_point(const ThresholdOptions &opt, const StopToken &stop,
                                      const std::vector<Routine> &routines, uint64_t point_index, double one_minus_tau,
                                      ReferenceEngine &reference, MetricEngine &metric, PointResult &res,
                                      std::vector<SlerpCase<T>> &timing_cases) {
    const T tau = tau_in_format<T>(one_minus_tau);
    const size_t nr = routines.size();
    res.one_minus_tau = 1.0 - double(tau);
    res.tau = double(tau);
    res.cases = opt.cases;
    res.family.assign(nr, FamilyStats{});
    res.ns_arc.assign(nr, std::nan(""));
    res.ns_fallback.assign(nr, std::nan(""));
    std::vector<SlerpCase<T>> cases(opt.cases);
    for (uint64_t k = 0; k < opt.cases; k++) cases[k] = sample_threshold_case<T>(opt.seed, tau, k);
    timing_cases.assign(cases.begin(), cases.begin() + long(std::min<uint64_t>(kTimingBatch, opt.cases)));
    // Every routine on every case: at tau, with the arc forced (tau = 2) and the fallback forced (tau = -1).
    std::vector<std::vector<Quat<T>>> at_tau(nr), arc(nr);
    for (size_t f = 0; f < nr; f++) {
        std::vector<Quat<T>> fallback;
        eval_routine(routines[f], cases, tau, at_tau[f], stop);
        eval_routine(routines[f], cases, T(2), arc[f], stop);
        eval_routine(routines[f], cases, T(-1), fallback, stop);
        res.family[f].tau_effect = std::memcmp(arc[f].data(), fallback.data(), fallback.size() * sizeof(Quat<T>)) != 0;
    }
    std::vector<std::vector<double>> angles(nr);
    for (auto &a : angles) a.reserve(opt.cases);
    SlerpReference ref;
    for (uint64_t k = 0; k < opt.cases; k++) {
        stop.throw_if_requested();  // SIGINT/SIGTERM: threshold ends with 128 + sig, --out untouched
        bool validate = sampled_for_validation(mix(opt.seed ^ (point_index << 40)), k);
        reference.slerp(cases[k], ref, validate);
        for (size_t f = 0; f < nr; f++) {
            FamilyStats &s = res.family[f];
            const T *out = at_tau[f][k].data(), *arc_out = arc[f][k].data();
            CaseMetrics m = metric.measure(out, ref, Op::slerp);
            if (m.nonfinite) {
                s.nonfinite++;
            } else {
                s.max_angle = std::max(s.max_angle, m.angle_err_rad);
                s.max_ulp1 = std::max(s.max_ulp1, m.ulp1);
                s.max_norm = std::max(s.max_norm, m.norm_err_ulp1);
                angles[f].push_back(m.angle_err_rad);
            }
            CaseMetrics a =
                std::memcmp(out, arc_out, sizeof(Quat<T>)) == 0 ? m : metric.measure(arc_out, ref, Op::slerp);
            if (!a.nonfinite) s.arc_floor = std::max(s.arc_floor, a.angle_err_rad);
        }
    }
    for (size_t f = 0; f < nr; f++) res.family[f].p99_angle = percentile(angles[f], 0.99);

    measure_jump<T>(routines, tau, reference, metric, stop, res);
}

template <class T> void accuracy_pass(const ThresholdOptions &opt, const StopToken &stop, int jobs,
                                      PrecisionWork<T> &work, ReferenceStats &stats) {
    work.grid = threshold_grid(Format<T>::precision, opt.points);
    size_t n = work.grid.size();
    work.points.assign(n, PointResult{});
    work.timing_cases.assign(n, {});
    std::atomic<size_t> next{0};
    std::mutex stats_mutex;
    auto worker = [&] {
        Comparator cmp(Format<T>::precision, opt.reference);
        auto &[reference, metric] = cmp;
        for (size_t i; (i = next.fetch_add(1)) < n;)
            measure_point<T>(opt, stop, work.routines, i, work.grid[i], reference, metric, work.points[i],
                             work.timing_cases[i]);
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.add(reference.stats());
    };
    run_workers(
        std::min<int>(jobs, int(n)), [&](int) { worker(); }, [&] { next.store(n); });
}

// Collects Google Benchmark's results by the registered name (benchmark_name() would append /min_time:...).
class CollectingReporter : public benchmark::BenchmarkReporter {
public:
    explicit CollectingReporter(const StopToken &stop) : stop_(stop) {}
    std::map<std::string, double> ns_per_iteration;
    std::string error;
    bool ReportContext(const Context &) override { return true; }
    void ReportRuns(const std::vector<Run> &runs) override {
        stop_.throw_if_requested();  // the timing pass stops after the benchmark that was running
        for (const Run &r : runs) {
            if (r.error_occurred) error = r.benchmark_name() + ": " + r.error_message;
            else if (r.run_type == Run::RT_Iteration && r.iterations > 0) {
                // The fastest repetition: the one least disturbed by other work on the machine.
                double ns = r.real_accumulated_time * 1e9 / double(r.iterations);
                auto [it, fresh] = ns_per_iteration.emplace(r.run_name.function_name, ns);
                if (!fresh) it->second = std::min(it->second, ns);
            }
        }
    }

private:
    StopToken stop_;
};

template <class T>
void register_timings(const ThresholdOptions &opt, PrecisionWork<T> &work, std::vector<std::string> &names) {
    // A routine in another process is timed only if it times itself (a process plugin's adapter reports
    // the nanoseconds of its own batch, EvalOutcome::self_ns): one eval_batch_tau of the point's timing
    // cases per iteration, counted with that time (manual time), as `quatcheck bench` does. Others: nan.
    work.timed.assign(work.routines.size(), 0);
    for (size_t f = 0; f < work.routines.size(); f++) {
        const Routine &r = work.routines[f];
        work.timed[f] = 1;
        if (!r.impl || work.points.empty()) continue;
        std::vector<Quat<T>> probe(work.timing_cases[0].size());
        EvalOutcome o = eval_batch_tau(*r.impl, work.timing_cases[0].data(), probe.size(), T(2), probe.data());
        work.timed[f] = o.ok() && o.self_ns > 0;
    }
    for (size_t i = 0; i < work.points.size(); i++) {
        const std::vector<SlerpCase<T>> *batch = &work.timing_cases[i];
        for (size_t f = 0; f < work.routines.size(); f++) {
            const Routine &r = work.routines[f];
            if (!work.timed[f]) continue;
            if (r.impl) {
                for (int branch = 0; branch < 2; branch++) {
                    const T forced = branch == 0 ? T(2) : T(-1);
                    std::string name =
                        fmt::format("{}/{}/{}/{}", Format<T>::name, r.name, i, branch == 0 ? "arc" : "fallback");
                    names.push_back(name);
                    const Impl *impl = r.impl;
                    benchmark::RegisterBenchmark(
                        name.c_str(),
                        [batch, impl, forced](benchmark::State &state) {
                            std::vector<Quat<T>> out(batch->size());
                            for (auto _ : state) {
                                EvalOutcome o = eval_batch_tau(*impl, batch->data(), batch->size(), forced, out.data());
                                if (!o.ok() || !(o.self_ns > 0)) {
                                    state.SkipWithError(o.ok() ? "the routine stopped reporting its own time"
                                                               : o.detail.c_str());
                                    break;
                                }
                                state.SetIterationTime(o.self_ns * 1e-9);
                            }
                        })
                        ->UseManualTime()
                        ->MinTime(opt.min_time_s)
                        ->Repetitions(kTimingRepetitions)
                        ->Unit(benchmark::kNanosecond);
                }
                continue;
            }
            auto routine = threshold_routine<T>(r.family);
            for (int branch = 0; branch < 2; branch++) {
                // tau = 2: d > tau never holds, the arc runs; tau = -1: the fallback always runs.
                const T forced = branch == 0 ? T(2) : T(-1);
                std::string name =
                    fmt::format("{}/{}/{}/{}", Format<T>::name, r.name, i, branch == 0 ? "arc" : "fallback");
                names.push_back(name);
                benchmark::RegisterBenchmark(name.c_str(),
                                             [batch, routine, forced](benchmark::State &state) {
                                                 T out[4];
                                                 for (auto _ : state) {
                                                     for (const SlerpCase<T> &c : *batch) {
                                                         routine(c.q0.data(), c.q1.data(), c.t, forced, out);
                                                         benchmark::DoNotOptimize(out);
                                                     }
                                                     benchmark::ClobberMemory();
                                                 }
                                             })
                    ->MinTime(opt.min_time_s)
                    ->Repetitions(kTimingRepetitions)
                    ->Unit(benchmark::kNanosecond);
            }
        }
    }
}

template <class T> void collect_timings(const CollectingReporter &rep, PrecisionWork<T> &work) {
    for (size_t i = 0; i < work.points.size(); i++) {
        double batch = double(work.timing_cases[i].size());
        for (size_t f = 0; f < work.routines.size(); f++) {
            if (!work.timed[f]) continue;
            for (int branch = 0; branch < 2; branch++) {
                std::string name = fmt::format("{}/{}/{}/{}", Format<T>::name, work.routines[f].name, i,
                                               branch == 0 ? "arc" : "fallback");
                auto it = rep.ns_per_iteration.find(name);
                if (it == rep.ns_per_iteration.end()) throw std::runtime_error("benchmark " + name + " did not report");
                (branch == 0 ? work.points[i].ns_arc[f] : work.points[i].ns_fallback[f]) = it->second / batch;
            }
        }
    }
}

template <class T> void append_rows(const PrecisionWork<T> &work, ThresholdResult &r) {
    for (size_t f = 0; f < work.routines.size(); f++) {
        for (const PointResult &p : work.points) {
            ThresholdRow row;
            row.precision = Format<T>::precision;
            row.family = work.routines[f].family;
            row.routine = work.routines[f].name;
            row.tau_effect = p.family[f].tau_effect;
            row.one_minus_tau = p.one_minus_tau;
            row.tau = p.tau;
            row.cases = p.cases;
            const FamilyStats &s = p.family[f];
            row.nonfinite = s.nonfinite;
            row.max_angle_err_rad = s.max_angle;
            row.p99_angle_err_rad = s.p99_angle;
            row.max_ulp1 = s.max_ulp1;
            row.max_norm_err_ulp1 = s.max_norm;
            row.arc_floor_rad = s.arc_floor;
            row.jump_rad = s.jump;
            row.ideal_step_rad = p.ideal_step;
            row.ns_arc = p.ns_arc[f];
            row.ns_fallback = p.ns_fallback[f];
            r.rows.push_back(row);
        }
    }
}

std::string tau_decimal(Precision p, double tau) {
    return p == Precision::f32 ? fmt::format("{:.9g}", tau) : fmt::format("{:.17g}", tau);
}

}  // namespace

std::vector<double> threshold_grid(Precision p, int points) {
    if (points < 2) throw UsageError(fmt::format("--points: must be at least 2, got {}", points));
    const int bits = precision_bits(p);
    const double hi = 1e-1, lo = std::ldexp(1.0, -bits);  // 1 - tau_T >= 2^-p: tau_T = 1 - 2^-p is the last below 1
    std::vector<double> grid;
    auto add = [&](double omt) {
        double tau = p == Precision::f32 ? double(float(1.0 - omt)) : 1.0 - omt;
        if (tau >= 1.0) tau = p == Precision::f32 ? double(std::nextafter(1.0f, 0.0f)) : std::nextafter(1.0, 0.0);
        grid.push_back(1.0 - tau);
    };
    for (int k = 0; k < points; k++) add(std::exp(std::log(hi) + (std::log(lo) - std::log(hi)) * k / (points - 1)));
    add(1.0 - kSeedThreshold);
    std::sort(grid.begin(), grid.end(), std::greater<double>());
    grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
    return grid;
}

template <class T> SlerpCase<T> sample_threshold_case(uint64_t seed, T tau, uint64_t index) {
    uint64_t tau_bits = 0;
    double tau_d = double(tau);
    std::memcpy(&tau_bits, &tau_d, sizeof tau_bits);
    Rng rng(mix(mix(seed ^ uint64_t(Format<T>::p)) ^ tau_bits) ^ mix(index));
    SlerpCase<T> c;
    const double omt = 1.0 - double(tau);
    uint64_t kind = rng.below(10);
    if (kind == 0) {
        int i = int(rng.below(4)), j = int((i + 1 + rng.below(3)) % 4);
        T sign = rng.below(2) ? T(1) : T(-1);
        exact_dot_case<T>(i, j, sign, step_from(tau, int(rng.below(9)) - 4), c);
    } else {
        double x = kind <= 6 ? rng.log_uniform(omt, std::min(1.0, 16 * omt)) : rng.log_uniform(omt / 16, omt);
        double W = 2 * std::asin(std::sqrt(x / 2));  // 1 - cos W = x, without cancellation
        double q0[4], v[4], q1[4];
        random_unit(rng, q0);
        random_orthogonal(rng, q0, v);
        double cw = std::cos(W), sw = std::sin(W);
        for (int i = 0; i < 4; i++) q1[i] = cw * q0[i] + sw * v[i];
        for (int i = 0; i < 4; i++) c.q0[i] = T(q0[i]), c.q1[i] = T(q1[i]);
        if (rng.below(2))
            for (T &e : c.q1) e = -e;  // both signs of the dot product
    }
    c.t = sample_t<T>(rng);
    return c;
}

template SlerpCase<float> sample_threshold_case<float>(uint64_t, float, uint64_t);
template SlerpCase<double> sample_threshold_case<double>(uint64_t, double, uint64_t);

ThresholdSummaryRow recommend_threshold(const std::vector<ThresholdRow> &rows, double floor_factor) {
    ThresholdSummaryRow s;
    if (rows.empty()) return s;
    s.precision = rows.front().precision;
    s.family = rows.front().family;
    s.routine = rows.front().routine;
    s.tau_effect = std::any_of(rows.begin(), rows.end(), [](const ThresholdRow &r) { return r.tau_effect; });
    // Walk up from the smallest 1 - tau while the routine stays within floor_factor times the arc floor.
    for (size_t k = s.tau_effect ? rows.size() : 0; k-- > 0;) {
        const ThresholdRow &r = rows[k];
        bool within = r.nonfinite == 0 && r.max_angle_err_rad <= floor_factor * r.arc_floor_rad;
        if (!within) break;
        s.found = true;
        s.one_minus_tau = r.one_minus_tau;
        s.tau = r.tau;
        s.max_angle_err_rad = r.max_angle_err_rad;
        s.arc_floor_rad = r.arc_floor_rad;
    }
    double seed_tau = s.precision == Precision::f32 ? double(float(kSeedThreshold)) : kSeedThreshold;
    for (const ThresholdRow &r : rows) {
        if (r.tau == seed_tau) {
            s.max_angle_err_at_0_9995_rad = r.max_angle_err_rad;
            s.arc_floor_at_0_9995_rad = r.arc_floor_rad;
        }
    }
    return s;
}

ThresholdResult run_threshold_study(const ThresholdOptions &opt, const RunContext &ctx) {
    if (opt.points < 40) throw UsageError(fmt::format("--points: must be at least 40, got {}", opt.points));
    if (opt.cases == 0) throw UsageError("--cases: must be a positive count, got 0");
    if (!(opt.min_time_s >= 0) || !std::isfinite(opt.min_time_s))
        throw UsageError(fmt::format("--min-time: must be a finite number of seconds >= 0, got {}", opt.min_time_s));
    if (!(opt.floor_factor >= 1) || !std::isfinite(opt.floor_factor))
        throw UsageError(fmt::format("--floor-factor: must be a finite number >= 1, got {}", opt.floor_factor));
    auto start = std::chrono::steady_clock::now();
    ThresholdResult r;
    r.options = opt;
    r.jobs = resolve_jobs(opt.jobs);
    bool want32 = std::count(opt.precisions.begin(), opt.precisions.end(), Precision::f32) > 0;
    bool want64 = std::count(opt.precisions.begin(), opt.precisions.end(), Precision::f64) > 0;
    PrecisionWork<float> w32;
    PrecisionWork<double> w64;
    w32.routines = routines_for<float>(opt);
    w64.routines = routines_for<double>(opt);
    want32 = want32 && !w32.routines.empty();
    want64 = want64 && !w64.routines.empty();
    for (const Impl *i : opt.impls)
        if (!i->supports_slerp_tau())
            throw UsageError(fmt::format(
                "--impl {}: has no slerp_tau (a qc_impl_v2 plugin or a protocol-2 adapter offers one)", i->name));
    if (want32) accuracy_pass<float>(opt, ctx.stop, r.jobs, w32, r.reference_f32);
    if (want64) accuracy_pass<double>(opt, ctx.stop, r.jobs, w64, r.reference_f64);

    if (opt.min_time_s > 0) {
        // Every branch of every family and grid point in one Google Benchmark run, on one thread, after the
        // accuracy pass: the figures are side by side under the same conditions.
        auto timing_start = std::chrono::steady_clock::now();
        // Only the study's benchmarks run: anything registered statically in this process is cleared first.
        benchmark::ClearRegisteredBenchmarks();
        std::vector<std::string> names;
        if (want32) register_timings<float>(opt, w32, names);
        if (want64) register_timings<double>(opt, w64, names);
        CollectingReporter rep(ctx.stop);
        if (!names.empty()) benchmark::RunSpecifiedBenchmarks(&rep, ".");
        benchmark::ClearRegisteredBenchmarks();
        if (!rep.error.empty()) throw std::runtime_error("benchmark failed: " + rep.error);
        if (want32) collect_timings<float>(rep, w32);
        if (want64) collect_timings<double>(rep, w64);
        r.timing_wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - timing_start).count();
    }
    if (want32) append_rows(w32, r);
    if (want64) append_rows(w64, r);
    for (size_t b = 0; b < r.rows.size();) {
        size_t e = b;
        while (e < r.rows.size() && r.rows[e].precision == r.rows[b].precision &&
               r.rows[e].routine == r.rows[b].routine)
            e++;
        r.summary.push_back(
            recommend_threshold({r.rows.begin() + long(b), r.rows.begin() + long(e)}, opt.floor_factor));
        b = e;
    }
    r.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

std::string threshold_csv(const ThresholdResult &r) {
    CsvWriter w(tables::threshold);
    for (const ThresholdRow &row : r.rows)
        w.row({std::string(to_string(row.precision)), row.routine, row.one_minus_tau, row.max_angle_err_rad,
               row.p99_angle_err_rad, row.max_ulp1, row.max_norm_err_ulp1, row.jump_rad, row.ns_arc, row.ns_fallback,
               tau_decimal(row.precision, row.tau), row.arc_floor_rad, row.ideal_step_rad, row.cases, row.nonfinite});
    return w.text();
}

std::string threshold_summary_csv(const ThresholdResult &r) {
    CsvWriter w(tables::threshold_summary);
    for (const ThresholdSummaryRow &row : r.summary) {
        auto found = [&](Cell c) { return row.found ? c : Cell(); };
        w.row({std::string(to_string(row.precision)), row.routine, found(row.one_minus_tau),
               found(tau_decimal(row.precision, row.tau)), found(row.max_angle_err_rad), found(row.arc_floor_rad),
               row.max_angle_err_at_0_9995_rad, row.arc_floor_at_0_9995_rad, r.options.floor_factor,
               std::string(row.tau_effect ? "yes" : "no")});
    }
    return w.text();
}

std::string threshold_json(const ThresholdResult &r) {
    using nlohmann::json;
    json j;
    j["seed"] = r.options.seed;
    j["cases_per_tau"] = r.options.cases;
    j["grid_points_requested"] = r.options.points;
    j["floor_factor"] = r.options.floor_factor;
    j["benchmark_min_time_s"] = r.options.min_time_s;
    j["timing_batch"] = kTimingBatch;
    j["timing_repetitions"] = kTimingRepetitions;
    j["jobs"] = r.jobs;
    j["reference"] = {
        {"mode", to_string(r.options.reference)},
        {"f32", r.reference_f32},
        {"f64", r.reference_f64},
        {"fast_bound_violations", r.reference_f32.fast_bound_violations + r.reference_f64.fast_bound_violations}};
    j["wall_time_s"] = r.wall_time_s;
    j["timing_wall_time_s"] = r.timing_wall_time_s;
    j["build"] = build_info();
    if (!r.options.impls.empty()) {  // --impl: the user routines swept (their ns columns are nan)
        json impls = json::array();
        for (const Impl *i : r.options.impls)
            impls.push_back(
                {{"impl", i->name}, {"origin", i->origin}, {"library_version", i->version}, {"summary", i->summary}});
        j["impls"] = impls;
    }
    return j.dump(2) + "\n";
}

}  // namespace qc
