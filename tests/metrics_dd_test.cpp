// The fast (double-double) metric engine against the mpfr metric engine: every metric within its stated bound
// (FastMetricBounds, metrics.h) on cases of every region and both precisions, for the outputs of the built-in
// implementations and of synthetic outputs (the reference rounded and perturbed by a few ulps, zero, non-finite,
// tiny and huge, both arcs of the tie band and their midpoint, half-turns away), and a damaged fast engine
// caught by the same comparison.
//
// ctest runs 10^5 cases (10^4 per region and precision) over two threads. Benchmark mode:
//   QC_METRICS_DD_CASES=10000000 QC_METRICS_DD_THREADS=8 ./qc_tests --gtest_filter='MetricsDD.*'
#include "metrics/metrics.h"
#include "plugins/impls.h"
#include "regions/regions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace qc;

namespace {

constexpr uint64_t kSeed = 12;

uint64_t env_u64(const char *name, uint64_t fallback) {
    const char *v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// Counts of one run of the comparison, and its violations.
struct Tally {
    uint64_t cases = 0, outputs = 0, nonfinite = 0, tie_band_outputs = 0;
    uint64_t branch_ties = 0;  // the engines took different arcs, the two angles within the bound
    uint64_t sign_band = 0;    // |r^.R| <= sign_band: ulp and ulp1 not compared
    uint64_t ulp_slack = 0;    // ulp comparisons where fast_ulp_reference_slack() exceeds ulp_abs
    uint64_t violations = 0;
    uint64_t violations_by_precision[2] = {};  // f32, f64
    double worst[5] = {};                      // largest |fast - mpfr| / allowed: angle, ulp, ulp1, norm, nlerp angle
    std::string worst_case[5];                 // ... and where
    std::vector<std::string> examples;

    void add(const Tally &o) {
        cases += o.cases, outputs += o.outputs, nonfinite += o.nonfinite, branch_ties += o.branch_ties;
        tie_band_outputs += o.tie_band_outputs;
        sign_band += o.sign_band, ulp_slack += o.ulp_slack, violations += o.violations;
        for (int i = 0; i < 2; i++) violations_by_precision[i] += o.violations_by_precision[i];
        for (int i = 0; i < 5; i++)
            if (o.worst[i] > worst[i]) worst[i] = o.worst[i], worst_case[i] = o.worst_case[i];
        for (const auto &e : o.examples)
            if (examples.size() < 12) examples.push_back(e);
    }
};

const char *kMetricNames[5] = {"angle_err_rad", "ulp", "ulp1", "norm_err_ulp1", "angle_err_vs_nlerp_rad"};

// r^.v for the output r and a unit MPFR quaternion v, at 300 bits (for the sign band only).
double exact_dot(const double r[4], const RealQuat &v) {
    thread_local Real n, d, t;
    for (Real *x : {&n, &d, &t}) ensure_bits(*x, 300);
    mpfr_set_ui(mp(n), 0, MPFR_RNDN);
    mpfr_set_ui(mp(d), 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        mpfr_set_d(mp(t), r[i], MPFR_RNDN);
        mpfr_fma(mp(d), mp(t), mp(v[i]), mp(d), MPFR_RNDN);
        mpfr_fma(mp(n), mp(t), mp(t), mp(n), MPFR_RNDN);
    }
    mpfr_sqrt(mp(n), mp(n), MPFR_RNDN);
    mpfr_div(mp(d), mp(d), mp(n), MPFR_RNDN);
    return to_double(d);
}

// One thread's engines and the comparison of one output.
template <class T> class Checker {
public:
    Checker(MetricDamage damage)
        : ref_engine_(Format<T>::precision, ReferenceMode::mpfr),
          fast_(Format<T>::precision, ReferenceMode::fast),
          mpfr_(Format<T>::precision, ReferenceMode::mpfr),
          b_(fast_metric_bounds(Format<T>::precision)) {
        fast_.set_damage(damage);
    }

    ReferenceEngine ref_engine_;
    SlerpReference ref;

    // Measures out with both engines and checks every metric; `what` names the output in a violation.
    void check(const T out_t[4], Op op, const char *what, Tally &tally) {
        double out[4] = {double(out_t[0]), double(out_t[1]), double(out_t[2]), double(out_t[3])};
        const CaseMetrics f = fast_.measure(out_t, ref, op);
        const CaseMetrics m = mpfr_.measure(out_t, ref, op);
        ++tally.outputs;
        if (ref.in_tie_band) ++tally.tie_band_outputs;
        auto fail = [&](const std::string &why) {
            ++tally.violations;
            ++tally.violations_by_precision[Format<T>::precision == Precision::f32 ? 0 : 1];
            if (tally.examples.size() < 12) {
                char buf[512];
                std::snprintf(buf, sizeof buf, "%s %s (%s) out=(%.17g %.17g %.17g %.17g) tie_band=%d: %s",
                              Format<T>::name, what, to_string(op), out[0], out[1], out[2], out[3],
                              int(ref.in_tie_band), why.c_str());
                tally.examples.push_back(buf);
            }
        };
        auto compare = [&](int k, double fv, double mv, double rel, double abs) {
            if (!within_fast_bound(fv, mv, rel, abs)) {
                char buf[160];
                std::snprintf(buf, sizeof buf, "%s fast %.17g mpfr %.17g", kMetricNames[k], fv, mv);
                fail(buf);
            } else if (std::isfinite(fv) && std::isfinite(mv)) {
                const double ratio = std::fabs(fv - mv) / std::max(rel * std::fabs(mv), abs);
                if (ratio > tally.worst[k]) {
                    tally.worst[k] = ratio;
                    char buf[256];
                    std::snprintf(buf, sizeof buf, "%s %s (%s): fast %.17g mpfr %.17g", Format<T>::name, what,
                                  to_string(op), fv, mv);
                    tally.worst_case[k] = buf;
                }
            }
        };
        if (f.nonfinite != m.nonfinite) return fail("nonfinite differs");
        if (m.nonfinite) {
            ++tally.nonfinite;
            return;
        }
        compare(0, f.angle_err_rad, m.angle_err_rad, b_.angle_rel, b_.angle_abs);
        compare(3, f.norm_err_ulp1, m.norm_err_ulp1, b_.norm_rel, b_.norm_abs);
        if (f.branch_disagree != m.branch_disagree) {
            // Allowed only where the two arcs' angles are within the bound of each other.
            const double a = mpfr_.rotation_angle(out, ref.R_mp), o = mpfr_.rotation_angle(out, ref.R_other_mp);
            const double allowed = std::max(b_.angle_rel * a, b_.angle_abs) + std::max(b_.angle_rel * o, b_.angle_abs);
            if (!(std::fabs(a - o) <= allowed)) return fail("branch_disagree differs outside the angle bound");
            ++tally.branch_ties;
            return;  // ulp, ulp1 and the nlerp angle are measured against different arcs
        }
        if (op == Op::nlerp) compare(4, f.angle_err_vs_nlerp_rad, m.angle_err_vs_nlerp_rad, b_.angle_rel, b_.angle_abs);
        const RealQuat &target_mp = m.branch_disagree ? ref.R_other_mp : ref.R_mp;
        const DDQuat &target = m.branch_disagree ? ref.R_other : ref.R;
        if (std::fabs(m.angle_err_rad - M_PI) < 1e-9 && std::fabs(exact_dot(out, target_mp)) <= b_.sign_band) {
            ++tally.sign_band;  // the engines may measure against R and -R
            return;
        }
        // The slack of a subnormal low word; components that are exactly zero in MPFR are exact in the DD too.
        DDQuat inexact = target;
        for (int i = 0; i < 4; i++)
            if (mpfr_zero_p(mp(target_mp[i]))) inexact[i] = {1, 0};
        const double slack = fast_ulp_reference_slack(inexact, Format<T>::p, Format<T>::emin);
        if (slack > b_.ulp_abs) ++tally.ulp_slack;
        compare(1, f.ulp, m.ulp, b_.ulp_rel, b_.ulp_abs + slack);
        compare(2, f.ulp1, m.ulp1, b_.ulp1_rel, b_.ulp1_abs);
    }

private:
    MetricEngine fast_, mpfr_;
    const FastMetricBounds &b_;
};

template <class T> T round_dd(dd::DD x) { return T(x.hi + x.lo); }
template <class T> void round_quat(const DDQuat &q, T out[4]) {
    for (int i = 0; i < 4; i++) out[i] = round_dd<T>(q[i]);
}
template <class T> T step(T x, int k) {
    for (; k > 0; k--) x = std::nextafter(x, std::numeric_limits<T>::infinity());
    for (; k < 0; k++) x = std::nextafter(x, -std::numeric_limits<T>::infinity());
    return x;
}

constexpr size_t kImplsPerCase = 8;

// Cases [begin, end) step `stride` of one region: the reference, then every output compared.
template <class T> void run_region(const std::vector<const Impl *> &impls, Region region, uint64_t begin, uint64_t end,
                                   uint64_t stride, MetricDamage damage, Tally &tally) {
    free_mpfr_caches_at_thread_exit();
    Checker<T> c(damage);
    using L = std::numeric_limits<T>;
    size_t window = 0;
    for (uint64_t index = begin; index < end; index += stride) {
        Rng rng = case_rng(kSeed, Format<T>::precision, region, index);
        const SlerpCase<T> k = sample_case<T>(region, rng);
        c.ref_engine_.slerp(k, c.ref, false);
        ++tally.cases;
        T out[4];
        // Realistic outputs: the built-in implementations, kImplsPerCase of them per case in turn (consecutive
        // cases take consecutive windows of the list), so that every implementation is measured in every region
        // and the cost per case stays flat as implementations are added.
        const size_t take = std::min(impls.size(), kImplsPerCase);
        for (size_t j = 0; j < take; j++, ++window)
            for (const Impl *impl = impls[window % impls.size()]; Op op : {Op::slerp, Op::nlerp})
                if (impl->supports(op)) {
                    impl->call(op, k.q0.data(), k.q1.data(), k.t, out);
                    c.check(out, op, impl->name.c_str(), tally);
                }
        // Synthetic outputs, measured as nlerp (every metric, and the one against N).
        const Op op = Op::nlerp;
        T rounded[4];
        round_quat(c.ref.R, rounded);
        c.check(rounded, op, "R rounded", tally);
        for (int i = 0; i < 4; i++) out[i] = step(rounded[i], int(rng.below(9)) - 4);
        c.check(out, op, "R perturbed", tally);
        for (int i = 0; i < 4; i++) out[i] = -step(rounded[i], int(rng.below(3)) - 1);
        c.check(out, op, "-R perturbed", tally);
        round_quat(c.ref.N, out);
        c.check(out, op, "N rounded", tally);
        for (int i = 0; i < 4; i++) out[i] = 0;
        c.check(out, op, "zero", tally);
        std::copy(rounded, rounded + 4, out);
        out[rng.below(4)] = rng.below(2) ? L::quiet_NaN() : (rng.below(2) ? 1 : -1) * L::infinity();
        c.check(out, op, "non-finite", tally);
        std::copy(rounded, rounded + 4, out);
        out[rng.below(4)] = T(int(rng.below(9)) - 4) * (rng.below(2) ? L::denorm_min() : L::min());
        c.check(out, op, "tiny component", tally);
        const int small = std::is_same_v<T, float> ? -140 : -1060, big = std::is_same_v<T, float> ? 100 : 1000;
        for (int i = 0; i < 4; i++) out[i] = std::ldexp(rounded[i], small);
        c.check(out, op, "scaled to subnormals", tally);
        for (int i = 0; i < 4; i++) out[i] = std::ldexp(rounded[i], big);
        c.check(out, op, "scaled huge", tally);
        for (int i = 0; i < 4; i++) out[i] = step(T(rounded[i] * T(1 + 64 * L::epsilon())), int(rng.below(5)) - 2);
        c.check(out, op, "norm error", tally);
        const T ortho[4] = {-rounded[1], rounded[0], -rounded[3], rounded[2]};
        c.check(ortho, op, "half-turn", tally);
        double u[4];
        random_unit(rng, u);
        for (int i = 0; i < 4; i++) out[i] = T(u[i]);
        c.check(out, op, "random", tally);
        if (c.ref.in_tie_band) {
            T other[4];
            round_quat(c.ref.R_other, other);
            c.check(other, op, "R_other rounded", tally);
            for (int i = 0; i < 4; i++) out[i] = step(other[i], int(rng.below(5)) - 2);
            c.check(out, op, "R_other perturbed", tally);
            // Midway between the arcs: both angles equal up to rounding, the branch decided by a hair.
            for (int i = 0; i < 4; i++) out[i] = T(0.5 * (double(rounded[i]) + double(other[i])));
            c.check(out, op, "between the arcs", tally);
            for (int i = 0; i < 4; i++) out[i] = step(out[i], int(rng.below(3)) - 1);
            c.check(out, op, "between the arcs, perturbed", tally);
        }
    }
}

std::vector<const Impl *> builtin_impls(const std::vector<Impl> &catalogue, Precision p) {
    std::vector<const Impl *> v;
    for (const Impl &i : catalogue)
        if (i.precision == p && i.backend->in_process() && (i.supports(Op::slerp) || i.supports(Op::nlerp)))
            v.push_back(&i);
    return v;
}

// `cases` cases per region and precision, spread over `threads` threads.
Tally compare_engines(uint64_t cases, unsigned threads, MetricDamage damage) {
    static const std::vector<Impl> catalogue = load_catalogue({});
    const auto f32 = builtin_impls(catalogue, Precision::f32), f64 = builtin_impls(catalogue, Precision::f64);
    std::vector<Tally> tallies(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; t++)
        pool.emplace_back([&, t] {
            for (Region r : all_regions()) {
                run_region<float>(f32, r, t, cases, threads, damage, tallies[t]);
                run_region<double>(f64, r, t, cases, threads, damage, tallies[t]);
            }
        });
    for (auto &th : pool) th.join();
    Tally all;
    for (const auto &t : tallies) all.add(t);
    return all;
}

void print(const char *title, const Tally &t, double seconds) {
    std::printf(
        "%s: %llu cases, %llu outputs compared in %.1f s (%llu non-finite, %llu in the tie band, %llu "
        "branch ties, %llu in the sign band, %llu with the ulp slack of a subnormal low word), "
        "%llu violations\n",
        title, (unsigned long long)t.cases, (unsigned long long)t.outputs, seconds, (unsigned long long)t.nonfinite,
        (unsigned long long)t.tie_band_outputs, (unsigned long long)t.branch_ties, (unsigned long long)t.sign_band,
        (unsigned long long)t.ulp_slack, (unsigned long long)t.violations);
    std::printf("  largest |fast - mpfr| / bound:\n");
    for (int k = 0; k < 5; k++)
        std::printf("    %-23s %.3g  %s\n", kMetricNames[k], t.worst[k], t.worst_case[k].c_str());
    for (const auto &e : t.examples) std::printf("  %s\n", e.c_str());
}

}  // namespace

TEST(MetricsDD, EveryMetricWithinItsBoundOfTheMpfrEngine) {
    const uint64_t total = env_u64("QC_METRICS_DD_CASES", 100000);
    const unsigned threads = unsigned(env_u64("QC_METRICS_DD_THREADS", 2));
    const uint64_t per = (total + 2 * all_regions().size() - 1) / (2 * all_regions().size());
    const auto t0 = std::chrono::steady_clock::now();
    const Tally t = compare_engines(per, std::max(1u, threads), MetricDamage::none);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    print("fast vs mpfr metrics", t, s);
    EXPECT_GE(t.cases, total);
    EXPECT_EQ(t.violations, 0u);
    EXPECT_GT(t.nonfinite, 0u);
    EXPECT_GT(t.tie_band_outputs, 0u);
}

TEST(MetricsDD, DamagedFastEngineIsCaught) {
    // The fast engine reading the reference without its low words: off by up to 2^-54 relative, which every
    // bound is far tighter than; the same comparison must report it, in both precisions.
    const Tally t = compare_engines(200, 2, MetricDamage::drop_reference_low_word);
    print("damaged fast engine (low words dropped)", t, 0);
    EXPECT_GT(t.violations_by_precision[0], t.cases / 4);
    EXPECT_GT(t.violations_by_precision[1], t.cases / 4);
}

TEST(MetricsDD, RotationAngleAgainstADoubleDoubleQuaternion) {
    // rotation_angle(u, DDQuat): double-double in mode fast, exact conversion into MPFR in mode mpfr; both
    // within the angle bound of the MPFR overload.
    ReferenceEngine re(Precision::f64, ReferenceMode::mpfr);
    MetricEngine fast(Precision::f64, ReferenceMode::fast), mpfr(Precision::f64, ReferenceMode::mpfr);
    const FastMetricBounds &b = fast_metric_bounds(Precision::f64);
    SlerpReference ref;
    for (uint64_t i = 0; i < 2000; i++) {
        Rng rng = case_rng(kSeed, Precision::f64, Region::near_0, i);
        SlerpCase<double> k = sample_case<double>(Region::near_0, rng);
        re.slerp(k, ref, false);
        double u[4];
        for (int j = 0; j < 4; j++) u[j] = step(ref.R[j].hi, int(rng.below(5)) - 2) * 3;
        const double exact = mpfr.rotation_angle(u, ref.R_mp);
        EXPECT_TRUE(within_fast_bound(fast.rotation_angle(u, ref.R), exact, b.angle_rel, b.angle_abs)) << i;
        EXPECT_TRUE(within_fast_bound(mpfr.rotation_angle(u, ref.R), exact, b.angle_rel, b.angle_abs)) << i;
    }
}
