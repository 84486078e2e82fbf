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
#include <array>
#include <bit>
#include <cfloat>
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
    uint64_t violations_by_precision[2] = {};               // f32, f64
    uint64_t identity_checks = 0, identity_mismatches = 0;  // the engine's kernel against the scalar kernel
    uint64_t batch_checks = 0;                              // ... of them, by measure_batch
    double worst[5] = {};       // largest |fast - mpfr| / allowed: angle, ulp, ulp1, norm, nlerp angle
    std::string worst_case[5];  // ... and where
    std::vector<std::string> examples;

    void add(const Tally &o) {
        cases += o.cases, outputs += o.outputs, nonfinite += o.nonfinite, branch_ties += o.branch_ties;
        tie_band_outputs += o.tie_band_outputs;
        sign_band += o.sign_band, ulp_slack += o.ulp_slack, violations += o.violations;
        identity_checks += o.identity_checks, identity_mismatches += o.identity_mismatches;
        batch_checks += o.batch_checks;
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

// Whether two CaseMetrics are the same, field by field and bit for bit (a NaN matches any NaN: every NaN prints
// alike). Only the fields measure_angle() sets when angle_only.
bool identical(const CaseMetrics &a, const CaseMetrics &b, bool angle_only) {
    auto same = [](double x, double y) {
        return (std::isnan(x) && std::isnan(y)) || std::bit_cast<uint64_t>(x) == std::bit_cast<uint64_t>(y);
    };
    if (a.nonfinite != b.nonfinite || a.branch_disagree != b.branch_disagree || !same(a.angle_err_rad, b.angle_err_rad))
        return false;
    return angle_only || (same(a.ulp, b.ulp) && same(a.ulp1, b.ulp1) && same(a.norm_err_ulp1, b.norm_err_ulp1) &&
                          same(a.angle_err_vs_nlerp_rad, b.angle_err_vs_nlerp_rad));
}

std::string metrics_text(const CaseMetrics &m) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "angle %a ulp %a ulp1 %a norm %a nlerp %a nonfinite %d branch %d", m.angle_err_rad,
                  m.ulp, m.ulp1, m.norm_err_ulp1, m.angle_err_vs_nlerp_rad, int(m.nonfinite), int(m.branch_disagree));
    return buf;
}

// The engine's kernel (AVX2 where the CPU has it) against the scalar kernel, its oracle: measure and measure_angle.
void check_identity(MetricEngine &fast, MetricEngine &scalar, const double out[4], const SlerpReference &ref, Op op,
                    const char *what, Tally &tally) {
    ++tally.identity_checks;
    for (bool angle_only : {false, true}) {
        const CaseMetrics f = angle_only ? fast.measure_angle(out, ref) : fast.measure(out, ref, op);
        const CaseMetrics s = angle_only ? scalar.measure_angle(out, ref) : scalar.measure(out, ref, op);
        if (identical(f, s, angle_only)) continue;
        ++tally.identity_mismatches;
        if (tally.examples.size() < 12) {
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "%s (%s%s) out=(%a %a %a %a) tie_band=%d: kernel differs from scalar: ", what, to_string(op),
                          angle_only ? ", angle only" : "", out[0], out[1], out[2], out[3], int(ref.in_tie_band));
            tally.examples.push_back(buf + metrics_text(f) + " vs " + metrics_text(s));
        }
        return;
    }
}

// The outputs of one case measured together by measure_batch (the runner's call), against one call each of the
// scalar kernel.
struct BatchCheck {
    std::vector<std::array<double, 4>> outs;
    std::vector<Op> ops;
    std::vector<std::string> names;

    void add(const double out[4], Op op, const char *what) {
        outs.push_back({out[0], out[1], out[2], out[3]});
        ops.push_back(op);
        names.push_back(what);
    }
    void flush(MetricEngine &fast, MetricEngine &scalar, const SlerpReference &ref, Tally &tally) {
        const size_t n = outs.size();
        std::vector<CaseMetrics> m(n), m8;
        fast.measure_batch(reinterpret_cast<const double(*)[4]>(outs.data()), ops.data(), n, ref, m.data());
        // A batch under eight outputs again as one group of eight (the outputs repeated), so that it also passes
        // through the eight-output kernel's lanes: measure_batch gives fewer than six to the four-output kernel.
        if (fast.batch() == MetricBatch::eight_lanes && n > 0 && n < 8) {
            std::vector<std::array<double, 4>> o8(8);
            std::vector<Op> ops8(8);
            for (size_t j = 0; j < 8; j++) o8[j] = outs[j % n], ops8[j] = ops[j % n];
            m8.resize(8);
            fast.measure_batch(reinterpret_cast<const double(*)[4]>(o8.data()), ops8.data(), 8, ref, m8.data());
        }
        for (size_t j = 0; j < n; j++) {
            ++tally.batch_checks;
            const CaseMetrics s = scalar.measure(outs[j].data(), ref, ops[j]);
            bool same = identical(m[j], s, false);
            for (size_t k = j; k < m8.size(); k += n) same = same && identical(m8[k], s, false);
            if (same) continue;
            ++tally.identity_mismatches;
            if (tally.examples.size() < 12)
                tally.examples.push_back(names[j] + " (batch): " + metrics_text(m[j]) + " vs " + metrics_text(s));
        }
        outs.clear(), ops.clear(), names.clear();
    }
};

// One thread's engines and the comparison of one output: the fast engine against the mpfr engine (with_mpfr)
// and against the fast engine's scalar kernel.
template <class T> class Checker {
public:
    Checker(MetricDamage damage, bool with_mpfr)
        : ref_engine_(Format<T>::precision, with_mpfr ? ReferenceMode::mpfr : ReferenceMode::fast),
          fast_(Format<T>::precision, ReferenceMode::fast),
          scalar_(Format<T>::precision, ReferenceMode::fast),
          mpfr_(Format<T>::precision, ReferenceMode::mpfr),
          b_(fast_metric_bounds(Format<T>::precision)),
          with_mpfr_(with_mpfr) {
        fast_.set_damage(damage);
        scalar_.set_kernel(MetricKernel::scalar);
    }

    ReferenceEngine ref_engine_;
    SlerpReference ref;

    // Measures out with the engines and checks every metric; `what` names the output in a violation.
    void check(const T out_t[4], Op op, const char *what, Tally &tally) {
        double out[4] = {double(out_t[0]), double(out_t[1]), double(out_t[2]), double(out_t[3])};
        check_identity(fast_, scalar_, out, ref, op, what, tally);
        batch_.add(out, op, what);
        if (!with_mpfr_) return;
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

    // The case's outputs, measured together as the runner does.
    void end_case(Tally &tally) { batch_.flush(fast_, scalar_, ref, tally); }

private:
    BatchCheck batch_;
    MetricEngine fast_, scalar_, mpfr_;
    const FastMetricBounds &b_;
    bool with_mpfr_;
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
                                   uint64_t stride, MetricDamage damage, bool with_mpfr, Tally &tally) {
    free_mpfr_caches_at_thread_exit();
    Checker<T> c(damage, with_mpfr);
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
        c.end_case(tally);
    }
}

std::vector<const Impl *> builtin_impls(const std::vector<Impl> &catalogue, Precision p) {
    std::vector<const Impl *> v;
    for (const Impl &i : catalogue)
        if (i.precision == p && i.backend->in_process() && (i.supports(Op::slerp) || i.supports(Op::nlerp)))
            v.push_back(&i);
    return v;
}

// `cases` cases per region and precision, spread over `threads` threads; without with_mpfr only the kernel
// identity, on references of the fast mode.
Tally compare_engines(uint64_t cases, unsigned threads, MetricDamage damage, bool with_mpfr = true) {
    static const std::vector<Impl> catalogue = load_catalogue({});
    const auto f32 = builtin_impls(catalogue, Precision::f32), f64 = builtin_impls(catalogue, Precision::f64);
    std::vector<Tally> tallies(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; t++)
        pool.emplace_back([&, t] {
            for (Region r : all_regions()) {
                run_region<float>(f32, r, t, cases, threads, damage, with_mpfr, tallies[t]);
                run_region<double>(f64, r, t, cases, threads, damage, with_mpfr, tallies[t]);
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
        "%llu violations; %llu outputs measured by the %s kernel and the scalar kernel, %llu differing\n",
        title, (unsigned long long)t.cases, (unsigned long long)t.outputs, seconds, (unsigned long long)t.nonfinite,
        (unsigned long long)t.tie_band_outputs, (unsigned long long)t.branch_ties, (unsigned long long)t.sign_band,
        (unsigned long long)t.ulp_slack, (unsigned long long)t.violations, (unsigned long long)t.identity_checks,
        metric_avx2_supported() ? "AVX2" : "scalar (no AVX2 here)", (unsigned long long)t.identity_mismatches);
    std::printf("  largest |fast - mpfr| / bound:\n");
    for (int k = 0; k < 5; k++)
        std::printf("    %-23s %.3g  %s\n", kMetricNames[k], t.worst[k], t.worst_case[k].c_str());
    for (const auto &e : t.examples) std::printf("  %s\n", e.c_str());
}

void print_identity(const char *title, const Tally &t, double seconds) {
    std::printf(
        "%s: %llu cases, %llu outputs measured by the %s kernel (one call each, and again %llu in batches of a "
        "case's outputs) and the scalar kernel in %.1f s, %llu differing\n",
        title, (unsigned long long)t.cases, (unsigned long long)t.identity_checks,
        metric_avx2_supported() ? "AVX2" : "scalar (no AVX2 here)", (unsigned long long)t.batch_checks, seconds,
        (unsigned long long)t.identity_mismatches);
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
    EXPECT_EQ(t.identity_mismatches, 0u);
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

namespace {

// A component of a hand-made reference: the values where the AVX2 kernel's fast paths end (zero, powers of two
// with low words of either sign, the smallest binades of each format, subnormals), and ordinary ones.
dd::DD edge_component(Rng &rng) {
    static const dd::DD pool[] = {
        {0, 0},          {0.5, 0},        {0.5, -0x1p-60}, {0.5, 0x1p-60}, {1, -0x1p-54},     {0x1p-3, -0x1p-100},
        {0x1p-1000, 0},  {0x1p-971, 0},   {0x1p-972, 0},   {0x1p-960, 0},  {0x1p-1060, 0},    {0x1p-1074, 0},
        {0x1p-130, 0},   {0x1p-126, 0},   {0x1p-127, 0},   {0x1p-120, 0},  {0x1p-149, 0},     {0x1.8p-126, 0x1p-190},
        {0.75, 0x1p-56}, {0.3, -0x1p-56}, {1, 0},          {0x1p-20, 0},   {0x1.fffffep-2, 0}};
    dd::DD c = rng.below(3) ? pool[rng.below(std::size(pool))] : dd::DD{rng.uniform(-1, 1), 0};
    if (c.lo == 0 && c.hi != 0 && rng.below(2)) c.lo = c.hi * 0x1p-54 * rng.uniform(-1, 1);  // a low word
    c = dd::fast_two_sum(c.hi, c.lo);
    return rng.below(2) ? dd::neg(c) : c;
}

// An output component near the reference component c: rounded and stepped, the neighbours of a power of two,
// the opposite sign, zeros, subnormals, huge and non-finite values.
template <class T> T edge_output(Rng &rng, dd::DD c) {
    using L = std::numeric_limits<T>;
    const T rounded = T(c.hi + c.lo);
    switch (rng.below(12)) {
        case 0:
            return T(0);
        case 1:
            return -T(0);
        case 2:
            return -step(rounded, int(rng.below(3)) - 1);
        case 3:
            return step(T(std::ldexp(1.0, std::ilogb(c.hi == 0 ? 1.0 : c.hi))) * (c.hi < 0 ? -1 : 1),
                        int(rng.below(5)) - 2);  // a power of two and its neighbours
        case 4:
            return T(int(rng.below(9)) - 4) * L::denorm_min();
        case 5:
            return rng.below(8) ? T(rng.uniform(-1, 1)) : T(int(rng.below(2)) * 2 - 1) * L::max();
        case 6:
            if (rng.below(8) == 0) return rng.below(2) ? L::quiet_NaN() : L::infinity();
            return step(rounded, int(rng.below(3)) - 1);
        default:
            return step(rounded, int(rng.below(7)) - 3);
    }
}

// Hand-made references (not unit: the kernels do not need it) and outputs at the edges above, every op, both arcs
// of the tie band; each output measured by the engine's kernel (damaged as given) and the scalar kernel.
template <class T> void edge_cases(uint64_t n, MetricDamage damage, Tally &tally) {
    MetricEngine fast(Format<T>::precision, ReferenceMode::fast), scalar(Format<T>::precision, ReferenceMode::fast);
    fast.set_damage(damage);
    scalar.set_kernel(MetricKernel::scalar);
    Rng rng(kSeed + (std::is_same_v<T, float> ? 1 : 2));
    SlerpReference ref;
    for (uint64_t c = 0; c < n; c++) {
        for (DDQuat *q : {&ref.R, &ref.N, &ref.R_other, &ref.N_other})
            for (auto &x : *q) x = edge_component(rng);
        ref.in_tie_band = rng.below(4) == 0;
        ++tally.cases;
        BatchCheck batch;
        for (int j = 0; j < 4; j++) {
            const DDQuat &near = rng.below(4) == 0 && ref.in_tie_band ? ref.R_other : ref.R;
            T out_t[4];
            for (int i = 0; i < 4; i++) out_t[i] = edge_output<T>(rng, near[i]);
            if (rng.below(16) == 0) out_t[rng.below(4)] = T(0);
            if (rng.below(32) == 0) std::fill(out_t, out_t + 4, T(0));
            const double out[4] = {double(out_t[0]), double(out_t[1]), double(out_t[2]), double(out_t[3])};
            const Op op = rng.below(2) ? Op::nlerp : Op::slerp;
            check_identity(fast, scalar, out, ref, op, Format<T>::name, tally);
            batch.add(out, op, Format<T>::name);
        }
        batch.flush(fast, scalar, ref, tally);
    }
}

Tally edge_case_tally(uint64_t n, MetricDamage damage) {
    Tally t;
    edge_cases<float>(n, damage, t);
    edge_cases<double>(n, damage, t);
    return t;
}

}  // namespace

TEST(MetricsDD, Avx2KernelIdenticalToTheScalarKernelOnEveryRegion) {
    if (!metric_avx2_supported()) GTEST_SKIP() << "no AVX2 and FMA on this CPU: the scalar kernel is the only one";
    const uint64_t total = env_u64("QC_METRICS_DD_IDENTITY_CASES", 200000);
    const uint64_t per = (total + 2 * all_regions().size() - 1) / (2 * all_regions().size());
    const auto t0 = std::chrono::steady_clock::now();
    const Tally t = compare_engines(per, 2, MetricDamage::none, false);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    print_identity("AVX2 vs scalar kernel, every region", t, s);
    EXPECT_GE(t.cases, total);
    EXPECT_GE(t.identity_checks, 10 * total);
    EXPECT_EQ(t.batch_checks, t.identity_checks);
    EXPECT_EQ(t.identity_mismatches, 0u);
}

// The batches here are a hand-made case's four outputs: one group of the four-output kernel (measure_batch), every
// output in a lane.
TEST(MetricsDD, Avx2KernelIdenticalToTheScalarKernelOnEdgeCases) {
    if (!metric_avx2_supported()) GTEST_SKIP() << "no AVX2 and FMA on this CPU: the scalar kernel is the only one";
    const auto t0 = std::chrono::steady_clock::now();
    const Tally t = edge_case_tally(100000, MetricDamage::none);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    print_identity("AVX2 vs scalar kernel, edge cases", t, s);
    EXPECT_EQ(t.identity_checks, 800000u);
    EXPECT_EQ(t.batch_checks, 800000u);
    EXPECT_EQ(t.identity_mismatches, 0u);
}

TEST(MetricsDD, DamagedAvx2KernelIsCaught) {
    // Negative controls of the two tests above: the ulp fast path without its rounding up (off by less than one
    // ulp, only where the distance is not a whole number of ulps), and the angles scaled by |r| without its low word
    // (a relative 2^-53 on the chords, a few ulps of a small angle).
    if (!metric_avx2_supported()) GTEST_SKIP() << "no AVX2 and FMA on this CPU: the scalar kernel is the only one";
    for (MetricDamage d : {MetricDamage::avx2_ulp_rounded_to_nearest, MetricDamage::avx2_norm_low_word_dropped}) {
        const Tally regions = compare_engines(100, 2, d, false), edges = edge_case_tally(2000, d);
        print_identity("damaged AVX2 kernel, every region", regions, 0);
        print_identity("damaged AVX2 kernel, edge cases", edges, 0);
        EXPECT_GT(regions.identity_mismatches, regions.identity_checks / 20) << int(d);
        EXPECT_GT(edges.identity_mismatches, 0u) << int(d);
    }
}

// ---- the four-output kernel (measure_batch with the AVX2 kernel: one output per lane) ----

namespace {

// Counts of the batches below.
struct LaneTally {
    uint64_t cases = 0, batches = 0, outputs = 0;
    uint64_t in_lanes = 0;  // outputs at a position the four- or eight-output kernel measures (the others: the tail)
    uint64_t rare_in_lanes = 0;  // ... of them non-finite, zero, subnormal or >= 2^1023 at the largest (scalar lane)
    uint64_t tie_band_in_lanes = 0, nlerp_in_lanes = 0, slerp_in_lanes = 0;
    uint64_t mismatches = 0;                                    // against the scalar kernel, any field
    uint64_t mismatches_damaged = 0, mismatches_elsewhere = 0;  // ... in the damaged lane of a group, and elsewhere
    uint64_t mismatches_vs_old_batch = 0;                       // against the per-output batch (before issue 45)
    std::vector<std::string> examples;
};

// Whether measure_dd sends the whole output to the scalar code (the four- and eight-output kernels' scalar lanes).
bool rare_output(const double out[4]) {
    double mx = 0;
    for (int i = 0; i < 4; i++) {
        if (!std::isfinite(out[i])) return true;
        mx = std::max(mx, std::fabs(out[i]));
    }
    return mx < DBL_MIN || mx >= 0x1p1023;
}

// The outputs measured for one case: the implementations' (a window of kImplsPerCase of them, both ops), the
// rounded references and their neighbours, component edges and rare outputs (lane_batches).
template <class T> void case_outputs(const std::vector<const Impl *> &impls, size_t &window, const SlerpCase<T> &k,
                                     const SlerpReference &ref, Rng &rng, std::vector<std::array<double, 4>> &outs,
                                     std::vector<Op> &ops) {
    using L = std::numeric_limits<T>;
    auto add = [&](const T o[4], Op op) {
        outs.push_back({double(o[0]), double(o[1]), double(o[2]), double(o[3])});
        ops.push_back(op);
    };
    T out[4], rounded[4];
    for (size_t j = 0; j < std::min<size_t>(impls.size(), kImplsPerCase); j++, ++window)
        for (const Impl *impl = impls[window % impls.size()]; Op op : {Op::slerp, Op::nlerp})
            if (impl->supports(op)) {
                impl->call(op, k.q0.data(), k.q1.data(), k.t, out);
                add(out, op);
            }
    auto op_any = [&] { return rng.below(2) ? Op::nlerp : Op::slerp; };
    round_quat(ref.R, rounded);
    add(rounded, op_any());
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < 4; i++) out[i] = step(rounded[i], int(rng.below(9)) - 4);
        add(out, op_any());
    }
    for (int i = 0; i < 4; i++) out[i] = -step(rounded[i], int(rng.below(3)) - 1);
    add(out, op_any());
    round_quat(ref.N, out);
    add(out, Op::nlerp);
    if (ref.in_tie_band) {
        round_quat(ref.R_other, out);
        add(out, op_any());
        T other[4];
        std::copy(out, out + 4, other);
        for (int i = 0; i < 4; i++) out[i] = T(0.5 * (double(rounded[i]) + double(other[i])));
        add(out, op_any());
    }
    // Component edges: a power of two and its neighbours, a zero, a sign flipped (ulp slow paths).
    for (int i = 0; i < 4; i++) out[i] = rounded[i];
    const int c = int(rng.below(4));
    out[c] = step(T(std::ldexp(1.0, std::ilogb(rounded[c] == 0 ? T(1) : rounded[c]))) * (rounded[c] < 0 ? -1 : 1),
                  int(rng.below(5)) - 2);
    add(out, op_any());
    std::copy(rounded, rounded + 4, out);
    out[rng.below(4)] = T(0);
    add(out, op_any());
    std::copy(rounded, rounded + 4, out);
    out[rng.below(4)] *= -1;
    add(out, op_any());
    // Rare outputs, the scalar lanes: zero, non-finite, tiny, subnormal at the largest, huge.
    for (int i = 0; i < 4; i++) out[i] = rng.below(2) ? T(0) : -T(0);
    add(out, op_any());
    std::copy(rounded, rounded + 4, out);
    out[rng.below(4)] = rng.below(2) ? L::quiet_NaN() : (rng.below(2) ? 1 : -1) * L::infinity();
    add(out, op_any());
    std::copy(rounded, rounded + 4, out);
    out[rng.below(4)] = T(int(rng.below(9)) - 4) * (rng.below(2) ? L::denorm_min() : L::min());
    add(out, op_any());
    const int small = std::is_same_v<T, float> ? -140 : -1060, big = std::is_same_v<T, float> ? 100 : 1000;
    for (int i = 0; i < 4; i++) out[i] = std::ldexp(rounded[i], small);
    add(out, op_any());
    for (int i = 0; i < 4; i++) out[i] = std::ldexp(rounded[i], big);
    add(out, op_any());
    if constexpr (std::is_same_v<T, double>) {
        std::copy(rounded, rounded + 4, out);
        out[rng.below(4)] = (rng.below(2) ? 1 : -1) * 0x1.8p1023;
        add(out, op_any());  // >= 2^1023 at the largest: the scalar lane
        for (int i = 0; i < 4; i++) out[i] = (i % 2 ? -1.9 : 1.9) * 0x1p1022;
        add(out, op_any());  // |r| overflows: norm_err_ulp1 = inf in a vector lane
    }
}

// The outputs shuffled, cut into batches of 1 to 13, each measured by the three engines and compared (lane_batches):
// fast's batch kernel puts output j of a batch in lane metric_batch_lane(fast.batch(), j, n); `damaged_lane` is the
// lane the damage touches (-1: none).
template <class T> void measure_and_compare(MetricEngine &fast, MetricEngine &old, MetricEngine &scalar,
                                            int damaged_lane, std::vector<std::array<double, 4>> &outs,
                                            std::vector<Op> &ops, const SlerpReference &ref, Rng &rng, Region region,
                                            LaneTally &t) {
    // Shuffled, then cut into batches of random sizes.
    for (size_t j = outs.size(); j > 1; j--) {
        const size_t o = rng.below(j);
        std::swap(outs[j - 1], outs[o]);
        std::swap(ops[j - 1], ops[o]);
    }
    for (size_t begin = 0; begin < outs.size();) {
        const size_t n = std::min<size_t>(outs.size() - begin, 1 + rng.below(13));
        const auto *o = reinterpret_cast<const double(*)[4]>(outs[begin].data());
        std::vector<CaseMetrics> m(n), mo(n);
        fast.measure_batch(o, ops.data() + begin, n, ref, m.data());
        old.measure_batch(o, ops.data() + begin, n, ref, mo.data());
        ++t.batches;
        for (size_t j = 0; j < n; j++) {
            ++t.outputs;
            const CaseMetrics s = scalar.measure(o[j], ref, ops[begin + j]);
            const int lane = metric_batch_lane(fast.batch(), j, n);
            if (lane >= 0) {
                ++t.in_lanes;
                t.rare_in_lanes += rare_output(o[j]);
                t.tie_band_in_lanes += ref.in_tie_band;
                (ops[begin + j] == Op::nlerp ? t.nlerp_in_lanes : t.slerp_in_lanes)++;
            }
            if (!identical(mo[j], s, false)) ++t.mismatches_vs_old_batch;
            if (identical(m[j], s, false)) continue;
            ++t.mismatches;
            (lane >= 0 && lane == damaged_lane ? t.mismatches_damaged : t.mismatches_elsewhere)++;
            if (t.examples.size() < 12) {
                char buf[256];
                std::snprintf(
                    buf, sizeof buf, "%s %s (%s) position %zu of %zu (lane %d) out=(%a %a %a %a): ", Format<T>::name,
                    to_string(region), to_string(ops[begin + j]), j, n, lane, o[j][0], o[j][1], o[j][2], o[j][3]);
                t.examples.push_back(buf + metrics_text(m[j]) + " vs " + metrics_text(s));
            }
        }
        begin += n;
    }
}

// Cases of every region: a case's outputs (built-in implementations, both ops, and synthetic ones, rare ones
// among them) shuffled and cut into batches of 1 to 13, each measured by measure_batch with the batch kernel given
// (damaged as given, in lane damaged_lane) and compared field by field with the scalar kernel's measure() and with the
// per-output batch.
template <class T> void lane_batches(const std::vector<const Impl *> &impls, uint64_t cases_per_region,
                                     MetricBatch batch, MetricDamage damage, int damaged_lane, LaneTally &t) {
    const Precision prec = Format<T>::precision;
    ReferenceEngine re(prec, ReferenceMode::fast);
    MetricEngine fast(prec, ReferenceMode::fast), scalar(prec, ReferenceMode::fast), old(prec, ReferenceMode::fast);
    fast.set_damage(damage);
    fast.set_batch(batch);
    scalar.set_kernel(MetricKernel::scalar);
    old.set_batch(MetricBatch::per_output);
    SlerpReference ref;
    size_t window = 0;
    for (Region region : all_regions())
        for (uint64_t index = 0; index < cases_per_region; index++) {
            Rng rng = case_rng(kSeed + 45, prec, region, index);
            const SlerpCase<T> k = sample_case<T>(region, rng);
            re.slerp(k, ref, false);
            ++t.cases;
            std::vector<std::array<double, 4>> outs;
            std::vector<Op> ops;
            case_outputs<T>(impls, window, k, ref, rng, outs, ops);
            measure_and_compare<T>(fast, old, scalar, damaged_lane, outs, ops, ref, rng, region, t);
        }
}

LaneTally lane_tally(uint64_t cases_per_region, MetricBatch batch, MetricDamage damage = MetricDamage::none,
                     int damaged_lane = -1) {
    static const std::vector<Impl> catalogue = load_catalogue({});
    LaneTally t;
    lane_batches<float>(builtin_impls(catalogue, Precision::f32), cases_per_region, batch, damage, damaged_lane, t);
    lane_batches<double>(builtin_impls(catalogue, Precision::f64), cases_per_region, batch, damage, damaged_lane, t);
    return t;
}

void print_lanes(const char *title, const LaneTally &t) {
    std::printf(
        "%s: %llu cases, %llu batches, %llu outputs, %llu of them in the batch kernel's lanes (%llu rare, %llu "
        "in the tie band, %llu slerp, %llu nlerp), %llu differing from the scalar kernel (%llu in the damaged lane, "
        "%llu elsewhere), %llu per-output batch results differing\n",
        title, (unsigned long long)t.cases, (unsigned long long)t.batches, (unsigned long long)t.outputs,
        (unsigned long long)t.in_lanes, (unsigned long long)t.rare_in_lanes, (unsigned long long)t.tie_band_in_lanes,
        (unsigned long long)t.slerp_in_lanes, (unsigned long long)t.nlerp_in_lanes, (unsigned long long)t.mismatches,
        (unsigned long long)t.mismatches_damaged, (unsigned long long)t.mismatches_elsewhere,
        (unsigned long long)t.mismatches_vs_old_batch);
    for (const auto &e : t.examples) std::printf("  %s\n", e.c_str());
}

// The identity of a batch kernel's lanes with the scalar kernel (and the per-output batch) on every region.
void expect_lanes_identical(MetricBatch batch, const char *title) {
    const uint64_t per = env_u64("QC_METRICS_DD_LANE_CASES", 10000);  // per region and precision
    const auto t0 = std::chrono::steady_clock::now();
    const LaneTally t = lane_tally(per, batch);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    print_lanes(title, t);
    std::printf("  (%.1f s)\n", s);
    EXPECT_EQ(t.cases, 2 * per * all_regions().size());
    EXPECT_GT(t.in_lanes, t.outputs / 2);
    EXPECT_GT(t.rare_in_lanes, t.cases / 2);  // two (f32) or four (f64) rare outputs per case, most in lanes
    EXPECT_GT(t.tie_band_in_lanes, 0u);
    EXPECT_GT(t.slerp_in_lanes, t.in_lanes / 4);
    EXPECT_GT(t.nlerp_in_lanes, t.in_lanes / 4);
    EXPECT_EQ(t.mismatches, 0u);
    EXPECT_EQ(t.mismatches_vs_old_batch, 0u);
}

// A damaged lane of a batch kernel (lane `lane` scales the reference by |r| without its low word: a relative 2^-53
// on its chords) is seen by the comparison above in that lane and nowhere else; with the scalar kernel forced
// (QC_FORCE_SCALAR=1's switch) there is no lane and nothing to see.
void expect_damaged_lane_caught(MetricBatch batch, MetricDamage damage, int lane, const char *title) {
    const LaneTally t = lane_tally(100, batch, damage, lane);
    print_lanes(title, t);
    const uint64_t lanes = batch == MetricBatch::eight_lanes ? 8 : 4;
    EXPECT_GT(t.mismatches_damaged, t.in_lanes / lanes / 50);
    EXPECT_EQ(t.mismatches_elsewhere, 0u);
    set_metric_force_scalar(true);
    const LaneTally forced = lane_tally(20, batch, damage, lane);
    set_metric_force_scalar(false);
    EXPECT_EQ(forced.mismatches, 0u);
}

}  // namespace

TEST(MetricsDD, FourOutputKernelIdenticalToTheScalarKernelOnEveryRegion) {
    if (!metric_avx2_supported()) GTEST_SKIP() << "no AVX2 and FMA on this CPU: the scalar kernel is the only one";
    expect_lanes_identical(MetricBatch::four_lanes, "four-output kernel vs scalar kernel, every region");
}

TEST(MetricsDD, DamagedFourOutputKernelLaneIsCaught) {
    if (!metric_avx2_supported()) GTEST_SKIP() << "no AVX2 and FMA on this CPU: the scalar kernel is the only one";
    expect_damaged_lane_caught(MetricBatch::four_lanes, MetricDamage::avx2_batch_lane, 1,
                               "damaged four-output kernel (lane 1)");
}

TEST(MetricsDD, EightOutputKernelIdenticalToTheScalarKernelOnEveryRegion) {
    if (!metric_avx512_supported()) GTEST_SKIP() << "no AVX-512 on this CPU: the eight-output kernel is not used";
    expect_lanes_identical(MetricBatch::eight_lanes, "eight-output kernel vs scalar kernel, every region");
}

TEST(MetricsDD, DamagedEightOutputKernelLaneIsCaught) {
    // Lane 5, which the four-lane kernels do not have, and lane 1 as in the four-output kernel's control.
    if (!metric_avx512_supported()) GTEST_SKIP() << "no AVX-512 on this CPU: the eight-output kernel is not used";
    expect_damaged_lane_caught(MetricBatch::eight_lanes, MetricDamage::avx512_batch_lane, 5,
                               "damaged eight-output kernel (lane 5)");
    expect_damaged_lane_caught(MetricBatch::eight_lanes, MetricDamage::avx2_batch_lane, 1,
                               "damaged eight-output kernel (lane 1)");
}

namespace {

// A damage of the lane kernels' new paths (issue 45's last pass) caught in both kernels: some lane outputs differ from
// the scalar kernel, none with the scalar kernel forced.
void expect_lane_damage_caught(MetricBatch batch, MetricDamage damage, const char *title) {
    const LaneTally t = lane_tally(200, batch, damage);
    print_lanes(title, t);
    EXPECT_GT(t.mismatches, t.nlerp_in_lanes / 20);
    set_metric_force_scalar(true);
    const LaneTally forced = lane_tally(20, batch, damage);
    set_metric_force_scalar(false);
    EXPECT_EQ(forced.mismatches, 0u);
}

}  // namespace

TEST(MetricsDD, DamagedLaneUlpAcrossBinadesIsCaught) {
    // The ulp distances across a power of two or zero, which the four- and eight-output kernels compute in their lanes
    // (an nlerp output measured against the slerp reference often crosses one): both branches damaged.
    if (!metric_avx2_supported()) GTEST_SKIP() << "no AVX2 and FMA on this CPU: the scalar kernel is the only one";
    expect_lane_damage_caught(MetricBatch::four_lanes, MetricDamage::lanes_ulp_split_swapped,
                              "damaged four-output kernel (ulp across binades)");
    if (metric_avx512_supported())
        expect_lane_damage_caught(MetricBatch::eight_lanes, MetricDamage::lanes_ulp_split_swapped,
                                  "damaged eight-output kernel (ulp across binades)");
}

TEST(MetricsDD, DamagedLaneAtanIsCaught) {
    // The atan of a chord ratio above 2^-20, which the kernels compute in their lanes (an nlerp output's angle to the
    // slerp reference, any output off by more than about 1e-5 rad): without its low words.
    if (!metric_avx2_supported()) GTEST_SKIP() << "no AVX2 and FMA on this CPU: the scalar kernel is the only one";
    expect_lane_damage_caught(MetricBatch::four_lanes, MetricDamage::lanes_atan_low_word_dropped,
                              "damaged four-output kernel (atan low words dropped)");
    if (metric_avx512_supported())
        expect_lane_damage_caught(MetricBatch::eight_lanes, MetricDamage::lanes_atan_low_word_dropped,
                                  "damaged eight-output kernel (atan low words dropped)");
}
