// The fast reference's batch (fast_slerp_reference_batch, its lane kernels: eight AVX-512 lanes and four AVX2 lanes,
// each width this CPU has) against the scalar fast_slerp_reference, case by case: every field of SlerpReference bit
// for bit and the same outcome, over every region in both precisions and on hand-made edge cases; a lane perturbed
// on purpose (FastDamage::batch_lane) is caught; and the engine's batch entry gives the same references and
// ReferenceStats as its per-case one.
#include "reference/fast_reference.h"
#include "reference/fast_reference_internal.h"
#include "reference/pair_memo.h"
#include "run/runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

namespace qc {
namespace {

// Skips where the batch would not run its AVX2 code (the CPU lacks AVX2 or FMA, or a non-x86 build).
#define SKIP_WITHOUT_AVX2() \
    if (!fast_batch_vectorised()) GTEST_SKIP() << "SKIP: this CPU (or build) has no AVX2+FMA batch path"

// The kernel widths this CPU runs (8: AVX-512, 4: AVX2), widest first. Each test runs once per width with the batch
// limited to it (set_fast_batch_lanes_limit), so that both kernels are held to the scalar path where both run.
std::vector<int> widths() {
    std::vector<int> w;
    for (int lanes : {8, 4}) {
        set_fast_batch_lanes_limit(lanes);
        if (fast_batch_lanes() == lanes) w.push_back(lanes);
    }
    set_fast_batch_lanes_limit(8);
    if (w.size() < 2)
        std::printf("FastReferenceBatch: only the %d-lane kernel runs on this CPU\n", w.empty() ? 0 : w[0]);
    return w;
}
template <class F> void for_each_width(F f) {
    for (int lanes : widths()) {
        SCOPED_TRACE(testing::Message() << lanes << " lanes");
        set_fast_batch_lanes_limit(lanes);
        f(lanes);
    }
    set_fast_batch_lanes_limit(8);
}

struct Cases {
    std::vector<std::array<double, 4>> q0, q1;
    std::vector<double> t;
    void add(const double a[4], const double b[4], double tt) {
        q0.push_back({a[0], a[1], a[2], a[3]}), q1.push_back({b[0], b[1], b[2], b[3]}), t.push_back(tt);
    }
    size_t size() const { return t.size(); }
};

bool same_bits(double x, double y) { return std::bit_cast<uint64_t>(x) == std::bit_cast<uint64_t>(y); }
bool same_bits(const DDQuat &x, const DDQuat &y) {
    for (size_t i = 0; i < 4; i++)
        if (!same_bits(x[i].hi, y[i].hi) || !same_bits(x[i].lo, y[i].lo)) return false;
    return true;
}
// Every field the fast path sets (the MPFR ones are not).
bool identical(const SlerpReference &x, const SlerpReference &y) {
    return same_bits(x.R, y.R) && same_bits(x.N, y.N) && same_bits(x.R_other, y.R_other) &&
           same_bits(x.N_other, y.N_other) && same_bits(x.dot, y.dot) && same_bits(x.arc_w, y.arc_w) &&
           same_bits(x.fast_bound, y.fast_bound) && x.tie == y.tie && x.in_tie_band == y.in_tie_band &&
           x.ill_conditioned == y.ill_conditioned && x.bits == y.bits;
}

// Both references start from the same contents (fields a path leaves unset then compare equal).
SlerpReference prefilled() {
    SlerpReference r;
    for (size_t i = 0; i < 4; i++) r.R[i] = r.N[i] = r.R_other[i] = r.N_other[i] = {0.125 * double(i + 1), -0x1p-60};
    r.dot = r.arc_w = r.fast_bound = 3.5;
    r.tie = r.in_tie_band = r.ill_conditioned = true;
    r.bits = 77;
    return r;
}

struct Comparison {
    size_t cases = 0, mismatches = 0, certified = 0, lanes_certified = 0;
};

// The batch against the scalar path, case by case; lanes_certified counts the cases the AVX2 lanes decided
// themselves (so that identity is not vacuously that of the scalar path with itself).
Comparison compare(const Cases &c, Precision p, bool want_nlerp) {
    const size_t n = c.size();
    std::vector<SlerpReference> scalar(n, prefilled()), batch(n, prefilled());
    std::vector<FastOutcome> so(n), bo(n);
    for (size_t i = 0; i < n; i++)
        so[i] = fast_slerp_reference(c.q0[i].data(), c.q1[i].data(), c.t[i], p, scalar[i], want_nlerp);
    fast_slerp_reference_batch(reinterpret_cast<const double(*)[4]>(c.q0.data()),
                               reinterpret_cast<const double(*)[4]>(c.q1.data()), c.t.data(), n, p, batch.data(),
                               bo.data(), want_nlerp);
    Comparison r;
    r.cases = n;
    for (size_t i = 0; i < n; i++) {
        r.certified += so[i] == FastOutcome::certified;
        if (so[i] != bo[i] || !identical(scalar[i], batch[i])) {
            if (r.mismatches++ < 3 && fast_damage() == FastDamage::none)
                ADD_FAILURE() << "batch differs from scalar: q0=(" << std::hexfloat << c.q0[i][0] << ";" << c.q0[i][1]
                              << ";" << c.q0[i][2] << ";" << c.q0[i][3] << ") q1=(" << c.q1[i][0] << ";" << c.q1[i][1]
                              << ";" << c.q1[i][2] << ";" << c.q1[i][3] << ") t=" << c.t[i] << std::defaultfloat
                              << " outcomes " << int(so[i]) << "/" << int(bo[i]);
        }
    }
    const size_t lanes = size_t(fast_batch_lanes());
    const fast_detail::KernelArgs args = fast_detail::kernel_args(p, want_nlerp);
    for (size_t i = 0; lanes > 0 && i + lanes <= n; i += lanes) {
        const double *a[8], *b[8];
        fast_detail::LaneOut tmp[8];
        bool cert[8] = {};
        for (size_t l = 0; l < lanes; l++) a[l] = c.q0[i + l].data(), b[l] = c.q1[i + l].data();
        if (lanes == 8) fast_detail::slerp8_avx512(a, b, &c.t[i], args, tmp, cert);
        else fast_detail::slerp4_avx2(a, b, &c.t[i], args, tmp, cert);
        for (size_t l = 0; l < lanes; l++) r.lanes_certified += cert[l];
    }
    return r;
}

template <class T> Cases region_cases(Region r, uint64_t n, uint64_t seed) {
    Cases c;
    for (uint64_t i = 0; i < n; i++) {
        const SlerpCase<T> k = regenerate_case<T>(seed, r, i);
        double a[4], b[4];
        for (int j = 0; j < 4; j++) a[j] = k.q0[size_t(j)], b[j] = k.q1[size_t(j)];
        c.add(a, b, double(k.t));
    }
    return c;
}

TEST(FastReferenceBatch, IdenticalToScalarOnEveryRegionAndPrecision) {
    SKIP_WITHOUT_AVX2();
    for_each_width([](int width) {
        size_t total = 0, lanes = 0;
        for (Region r : all_regions()) {
            for (Precision p : {Precision::f32, Precision::f64}) {
                const Cases c =
                    p == Precision::f32 ? region_cases<float>(r, 3000, 11) : region_cases<double>(r, 3000, 11);
                for (bool nlerp : {true, false}) {
                    const Comparison x = compare(c, p, nlerp);
                    EXPECT_EQ(x.mismatches, 0u) << to_string(r) << " " << to_string(p) << " nlerp " << nlerp;
                    if (nlerp)
                        std::printf("FastReferenceBatch %-12s %s: %zu cases, %zu certified, %zu by the %d lanes\n",
                                    to_string(r), to_string(p), x.cases, x.certified, x.lanes_certified, width);
                    total += x.cases, lanes += x.lanes_certified;
                }
            }
        }
        // Most cases take the vectorised common branch (else the identity above would say little about it).
        std::printf("FastReferenceBatch: %zu cases, %zu decided by the %d lanes\n", total, lanes, width);
        EXPECT_GE(double(lanes), 0.95 * double(total));
    });
}

TEST(FastReferenceBatch, IdenticalToScalarOnEdgeCases) {
    SKIP_WITHOUT_AVX2();
    const double e = 0x1p-52, tiny = 0x1p-420, nan = NAN, inf = INFINITY;
    const double rows[][9] = {
        {1, 0, 0, 0, 0.6, 0.8, 0, 0, 0},                    // t = 0
        {1, 0, 0, 0, 0.6, 0.8, 0, 0, 1},                    // t = 1
        {1, 0, 0, 0, 0.6, 0.8, 0, 0, 0x1p-310},             // t below 2^-300
        {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.3},      // q1 = q0
        {0.5, 0.5, 0.5, 0.5, -0.5, -0.5, -0.5, -0.5, 0.3},  // q1 = -q0
        {1, 0, 0, 0, 0, 1, 0, 0, 0.5},                      // a.b = 0 exactly
        {1, 0, 0, 0, e, 1, 0, 0, 0.5},                      // a.b in the tie band
        {1, 0, 0, 0, -0.6, 0.8, 0, 0, 0.4},                 // the other arc
        {1, tiny, 0, 0, 0.6, 0.8, 0, 0, 0.4},               // a tiny component zeroed
        {1, 0, 0, 0, 1, e, 0, 0, 0.5},                      // W about 2^-52
        {1, 0, 0, 0, 1, 0x1p-26, 0, 0, 0x1p-40},            // tW below 2^-60
        {2, 0, 0, 0, 0, 0, 3, 4, 0.75},                     // scaled ends
        {nan, 0, 0, 0, 0.6, 0.8, 0, 0, 0.5},                // NaN
        {1, 0, 0, 0, 0.6, 0.8, 0, 0, nan},
        {inf, 0, 0, 0, 0.6, 0.8, 0, 0, 0.5},      // inf
        {1, 0, 0, 0, 0.6, 0.8, 0, 0, 1.5},        // t outside [0, 1]
        {0, 0, 0, 0, 0.6, 0.8, 0, 0, 0.5},        // a zero end
        {0x1p500, 0, 0, 0, 0.6, 0.8, 0, 0, 0.5},  // out of range
        {0.1, 0.2, 0.3, 0.4, 0.4, 0.3, 0.2, 0.1, 0.37},
    };
    // Each row in every lane position of a block of eight, its neighbours ordinary cases (a lane's branch must not
    // leak into another).
    const double plain[9] = {0.1, 0.2, 0.3, 0.4, 0.4, 0.3, 0.2, 0.1, 0.37};
    Cases c;
    for (const auto &row : rows)
        for (int pos = 0; pos < 8; pos++)
            for (int l = 0; l < 8; l++) {
                const double *x = l == pos ? row : plain;
                c.add(x, x + 4, x[8]);
            }
    for_each_width([&](int) {
        for (Precision p : {Precision::f32, Precision::f64})
            for (bool nlerp : {true, false}) EXPECT_EQ(compare(c, p, nlerp).mismatches, 0u) << to_string(p);
    });
}

// Along t (issue 45, reference/pair_memo.h): where the four lanes share a key pair, the pair's part comes from the
// thread's memo. Pairs of every region, the sweep's pairs (near-equal, a.b = 0.7, near a right angle, near-opposite)
// and a tie-band one, scaled, equal and opposite ends, each at 256 t spread over the f32 values in [0, 1] (most of
// them tiny, as in an exhaustive f32 t slice) and at the range test's edges (0, 1, 2^-300 and below, NaN, 1.5):
// every case as the scalar path, with the memo and without; then each group of four lanes of another pair than the
// last (the memo replaced at every call).
TEST(FastReferenceBatch, IdenticalToScalarAlongT) {
    SKIP_WITHOUT_AVX2();
    std::vector<std::array<double, 8>> pairs;
    for (Region r : all_regions())
        for (uint64_t i = 0; i < 3; i++) {
            const SlerpCase<double> k = regenerate_case<double>(7, r, i);
            pairs.push_back({k.q0[0], k.q0[1], k.q0[2], k.q0[3], k.q1[0], k.q1[1], k.q1[2], k.q1[3]});
        }
    for (double d : {1 - 0x1p-20, 0.7, 0x1p-20, -(1 - 0x1p-20), 0x1p-60})
        pairs.push_back({1, 0, 0, 0, d, std::sqrt((1 - d) * (1 + d)), 0, 0});
    pairs.push_back({2, 0, 0, 0, 0, 0, 3, 4});
    pairs.push_back({0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5});
    pairs.push_back({0.5, 0.5, 0.5, 0.5, -0.5, -0.5, -0.5, -0.5});
    std::vector<double> ts;
    for (uint32_t k = 0; k < 256; k++) ts.push_back(double(std::bit_cast<float>(uint32_t(k * (0x3f800000u / 255)))));
    for (double t : {0.0, 1.0, 0x1p-300, 0x1p-310, double(NAN), 1.5, 1 - 0x1p-53}) ts.push_back(t);
    Cases runs, switching;
    for (const auto &q : pairs)
        for (double t : ts) runs.add(q.data(), q.data() + 4, t);
    for (size_t j = 0; j + 8 <= ts.size(); j += 8)
        for (const auto &q : pairs)
            for (size_t l = 0; l < 8; l++) switching.add(q.data(), q.data() + 4, ts[j + l]);
    for_each_width([&](int) {
        for (bool memo : {true, false}) {
            set_reference_pair_memo(memo);
            for (const Cases *c : {&runs, &switching})
                for (Precision p : {Precision::f32, Precision::f64})
                    for (bool nlerp : {true, false}) {
                        const Comparison x = compare(*c, p, nlerp);
                        EXPECT_EQ(x.mismatches, 0u) << to_string(p) << " nlerp " << nlerp << " memo " << memo;
                        EXPECT_GE(double(x.lanes_certified), 0.8 * double(x.cases));  // not vacuous
                    }
        }
        set_reference_pair_memo(true);
        // Negative control: a lane perturbed on purpose is seen on these cases too (the memo's path included).
        set_fast_damage(FastDamage::batch_lane);
        EXPECT_GT(compare(runs, Precision::f64, true).mismatches, 0u);
        set_fast_damage(FastDamage::none);
    });
}

// Negative control: one lane perturbed by an ulp in R[0].lo is caught by the comparison.
TEST(FastReferenceBatch, PerturbedLaneIsCaught) {
    SKIP_WITHOUT_AVX2();
    const Cases c = region_cases<double>(all_regions().front(), 400, 5);
    for_each_width([&](int) {
        set_fast_damage(FastDamage::batch_lane);
        const Comparison x = compare(c, Precision::f64, true);
        set_fast_damage(FastDamage::none);
        EXPECT_GT(x.mismatches, 0u);
        EXPECT_EQ(compare(c, Precision::f64, true).mismatches, 0u);
    });
}

// The switch: forced scalar, the batch takes no AVX2 lane (and still gives the scalar values).
TEST(FastReferenceBatch, ForceScalar) {
    SKIP_WITHOUT_AVX2();
    const Cases c = region_cases<double>(all_regions().front(), 200, 5);
    set_force_scalar(true);
    EXPECT_FALSE(fast_batch_vectorised());
    set_fast_damage(FastDamage::batch_lane);  // would show if a lane were still vectorised
    const Comparison x = compare(c, Precision::f64, true);
    set_fast_damage(FastDamage::none);
    set_force_scalar(false);
    EXPECT_EQ(x.mismatches, 0u);
    EXPECT_TRUE(fast_batch_vectorised());
}

}  // namespace
}  // namespace qc

namespace qc {
namespace {

bool same_stats(const ReferenceStats &x, const ReferenceStats &y) {
    return x.cases == y.cases && x.recomputed == y.recomputed && x.disagreements == y.disagreements &&
           x.escalations == y.escalations && x.max_bits == y.max_bits && x.fast_certified == y.fast_certified &&
           x.fallback_undecided_sign == y.fallback_undecided_sign &&
           x.fallback_bound_too_wide == y.fallback_bound_too_wide &&
           x.fallback_ill_conditioned == y.fallback_ill_conditioned && x.validation_samples == y.validation_samples &&
           x.fast_bound_violations == y.fast_bound_violations && same_bits(x.max_error_to_bound, y.max_error_to_bound);
}

// ReferenceEngine::slerp_batch against slerp case by case: the same references (MPFR fallbacks included: R, N
// rounded from MPFR, and the rest of the fields) and the same ReferenceStats, on a mix of every region and cases
// at the edges (a.b = 0, the tie band, t = 0, a component zeroed in f64: a fallback to MPFR).
template <class T> void engine_batch_matches(bool want_nlerp) {
    std::vector<SlerpCase<T>> cases;
    for (Region r : all_regions())
        for (uint64_t i = 0; i < 150; i++) cases.push_back(regenerate_case<T>(3, r, i));
    const T e = std::numeric_limits<T>::epsilon();
    cases.push_back({{1, 0, 0, 0}, {0, 1, 0, 0}, T(0.5)});
    cases.push_back({{1, 0, 0, 0}, {e, 1, 0, 0}, T(0.25)});
    cases.push_back({{1, T(1e-30), 0, 0}, {T(0.6), T(0.8), 0, 0}, T(0.5)});
    if constexpr (std::is_same_v<T, double>)  // a zeroed component leaves a.b's sign undecided: MPFR decides
        cases.push_back({{1, 0x1p-420, 0, 0}, {0, 1, 0, 0}, 0.5});
    cases.push_back({{1, 0, 0, 0}, {T(0.6), T(0.8), 0, 0}, 0});
    std::vector<char> validate(cases.size());
    for (size_t i = 0; i < cases.size(); i++) validate[i] = sampled_for_validation(3, i) || i % 17 == 0;
    ReferenceEngine one(Format<T>::precision, ReferenceMode::fast), batch(Format<T>::precision, ReferenceMode::fast);
    one.set_nlerp_wanted(want_nlerp), batch.set_nlerp_wanted(want_nlerp);
    std::vector<SlerpReference> r1(cases.size(), prefilled()), r2(cases.size(), prefilled());
    for (size_t i = 0; i < cases.size(); i++) one.slerp(cases[i], r1[i], validate[i]);
    // in blocks of 32 and a ragged tail, as the runner asks
    std::unique_ptr<bool[]> v(new bool[cases.size()]);
    for (size_t i = 0; i < cases.size(); i++) v[i] = validate[i];
    for (size_t i = 0; i < cases.size(); i += 32)
        batch.slerp_batch(&cases[i], std::min<size_t>(32, cases.size() - i), &r2[i], &v[i]);
    size_t mismatches = 0;
    for (size_t i = 0; i < cases.size(); i++)
        mismatches += !identical(r1[i], r2[i]) || r1[i].mpfr_evaluated != r2[i].mpfr_evaluated;
    EXPECT_EQ(mismatches, 0u);
    EXPECT_TRUE(same_stats(one.stats(), batch.stats()));
    if (std::is_same_v<T, double>) {
        EXPECT_GT(one.stats().fallbacks(), 0u);  // the fallback was exercised
    }
    EXPECT_GT(one.stats().validation_samples, 0u);
    EXPECT_EQ(one.stats().fast_bound_violations, 0u);
}

TEST(FastReferenceBatch, EngineBatchMatchesCaseByCase) {
    SKIP_WITHOUT_AVX2();
    for_each_width([](int) {
        engine_batch_matches<float>(true);
        engine_batch_matches<double>(true);
        engine_batch_matches<double>(false);
    });
}

// Negative control of the engine comparison: the batch_lane damage shows in the references and as validation
// violations (the 1-in-64 MPFR samples and the checks above see a perturbed lane).
TEST(FastReferenceBatch, EngineBatchDamageIsCaught) {
    SKIP_WITHOUT_AVX2();
    std::vector<SlerpCase<double>> cases;
    for (uint64_t i = 0; i < 64; i++) cases.push_back(regenerate_case<double>(3, all_regions().front(), i));
    std::unique_ptr<bool[]> v(new bool[cases.size()]);
    for (size_t i = 0; i < cases.size(); i++) v[i] = true;
    ReferenceEngine one(Precision::f64, ReferenceMode::fast), batch(Precision::f64, ReferenceMode::fast);
    std::vector<SlerpReference> r1(cases.size(), prefilled()), r2(cases.size(), prefilled());
    for (size_t i = 0; i < cases.size(); i++) one.slerp(cases[i], r1[i], true);
    set_fast_damage(FastDamage::batch_lane);
    batch.slerp_batch(cases.data(), cases.size(), r2.data(), v.get());
    set_fast_damage(FastDamage::none);
    size_t mismatches = 0;
    for (size_t i = 0; i < cases.size(); i++) mismatches += !identical(r1[i], r2[i]);
    EXPECT_GT(mismatches, 0u);
    EXPECT_GT(batch.stats().fast_bound_violations, 0u);
    EXPECT_EQ(one.stats().fast_bound_violations, 0u);
}

}  // namespace
}  // namespace qc
