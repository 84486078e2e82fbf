// The correctly rounded slerp (quatcheck/slerp_cr.h, docs/slerp-cr.md) against an independent MPFR evaluation:
// Shoemake's a (a^-1 b)^t through log and exp (reference/quat_real.h), not the atan2 / sine-weights formula the
// routine's own phase 2 uses, at 256 bits, rounded to the format by the monotone enclosure test (and again at 1024
// and 2048 bits where 256 do not decide). Per region and precision QC_SLERP_CR_CASES cases (default 100000); every
// component must equal the reference's rounding bit for bit. Also: each exact-case class, the refused inputs, the
// counters and the cap, phase 2 alone against phases 1 + 2, phase 0's bound against the exact value, and negative
// controls: phase 1's value moved past its bound, and phases 0 and 1 without their rounding test on constructed
// near-midpoint keys, are caught.
#include "quatcheck/slerp_cr.h"

#include "../impls/recommended/qc_slerp.h"

#include "reference/quat_real.h"
#include "reference/rounded.h"
#include "reference/slerp_cr_internal.h"
#include "regions/regions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using qc::Real;
using qc::RealQuat;

uint64_t bits_of(double x) { return std::bit_cast<uint64_t>(x); }

uint64_t cases_per_region() {
    const char *env = std::getenv("QC_SLERP_CR_CASES");
    return env ? std::strtoull(env, nullptr, 10) : 100000;
}

// The independent reference (reference/rounded.h, also the correctly-rounded property's): Shoemake's log/exp in MPFR,
// rounded by the enclosure test at 256, 1024 and 2048 bits; false where 2048 bits do not decide a component.
class Independent {
public:
    template <class T> bool round(const double q0[4], const double q1[4], double t, double out[4]) {
        return qc::correctly_rounded_slerp(sizeof(T) == 4 ? qc::Precision::f32 : qc::Precision::f64, q0, q1, t, out);
    }
    // The exact slerp at `bits` bits into r (within 2^(24 - bits) of it: reference/rounded.h).
    static void exact(const double q0[4], const double q1[4], double t, int bits, RealQuat &r) {
        qc::ideal_slerp_mp(bits, q0, q1, t, r);
    }
};

template <class T> void call(const double q0[4], const double q1[4], double t, double out[4]) {
    T a[4], b[4], r[4];
    for (int i = 0; i < 4; i++) a[i] = T(q0[i]), b[i] = T(q1[i]);
    quatcheck::slerp_cr(a, b, T(t), r);
    for (int i = 0; i < 4; i++) out[i] = r[i];
}

struct Tally {
    uint64_t cases = 0, components = 0, misrounded = 0, undecided = 0;
    double seconds = 0;
};

// One case through f (the routine, or a variant), each component against the reference, into the tally.
template <class T, class F> void check_one(Independent &ref, const double q0[4], const double q1[4], double t, F f,
                                           Tally &tally, const char *what, uint64_t k) {
    double got[4], want[4];
    f(q0, q1, t, got);
    tally.cases++;
    if (!ref.round<T>(q0, q1, t, want)) {
        if (tally.undecided++ < 3)
            std::fprintf(stderr, "undecided by the reference: %s case %llu q0 %a %a %a %a q1 %a %a %a %a t %a\n", what,
                         (unsigned long long)k, q0[0], q0[1], q0[2], q0[3], q1[0], q1[1], q1[2], q1[3], t);
        return;
    }
    for (int i = 0; i < 4; i++) {
        tally.components++;
        if (bits_of(got[i]) == bits_of(want[i])) continue;
        if (tally.misrounded++ < 5)
            std::fprintf(stderr, "misrounded: %s case %llu component %d: got %a want %a\n", what, (unsigned long long)k,
                         i, got[i], want[i]);
    }
}

// n cases of region r in format T through f (the routine, or a variant), each component against the reference.
template <class T, class F> Tally check_region(qc::Region r, uint64_t n, F f) {
    Independent ref;
    Tally tally;
    const auto start = std::chrono::steady_clock::now();
    const qc::Precision p = sizeof(T) == 4 ? qc::Precision::f32 : qc::Precision::f64;
    for (uint64_t k = 0; k < n; k++) {
        qc::Rng rng = qc::case_rng(40, p, r, k);
        const qc::SlerpCase<T> c = qc::sample_case<T>(r, rng);
        double q0[4], q1[4];
        for (int i = 0; i < 4; i++) q0[i] = c.q0[i], q1[i] = c.q1[i];
        check_one<T>(ref, q0, q1, double(c.t), f, tally, qc::to_string(r), k);
    }
    tally.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return tally;
}

template <class T> void check_all_regions() {
    const uint64_t n = cases_per_region();
    for (qc::Region r : qc::all_regions()) {
        qc_slerp_cr_reset_stats();
        const Tally t = check_region<T>(r, n, call<T>);
        qc_slerp_cr_stats s;
        qc_slerp_cr_get_stats(&s);
        std::printf(
            "slerp_cr %s %-13s cases %llu components %llu misrounded %llu undecided-by-reference %llu "
            "exact %llu phase0 %llu phase1 %llu phase2 %llu phase2-calls %llu capped %llu max-bits %llu (%.1f s)\n",
            sizeof(T) == 4 ? "f32" : "f64", qc::to_string(r), (unsigned long long)t.cases,
            (unsigned long long)t.components, (unsigned long long)t.misrounded, (unsigned long long)t.undecided,
            s.exact, s.phase0, s.phase1, s.phase2, s.phase2_calls, s.capped, s.max_bits, t.seconds);
        EXPECT_EQ(t.misrounded, 0u) << qc::to_string(r);
        EXPECT_EQ(s.capped, 0u) << qc::to_string(r);
        EXPECT_LE(t.undecided, t.cases / 1000) << qc::to_string(r);
        EXPECT_GE(t.components, 4 * n - 4 * t.undecided);
    }
}

TEST(SlerpCr, EveryRegionF32MatchesTheIndependentReference) { check_all_regions<float>(); }
TEST(SlerpCr, EveryRegionF64MatchesTheIndependentReference) { check_all_regions<double>(); }

// Phase 2 alone (phase 1 skipped) gives the same bits as phases 1 + 2 on every region.
template <class T> void phase2_alone() {
    for (qc::Region r : qc::all_regions()) {
        const qc::Precision p = sizeof(T) == 4 ? qc::Precision::f32 : qc::Precision::f64;
        for (uint64_t k = 0; k < 2000; k++) {
            qc::Rng rng = qc::case_rng(41, p, r, k);
            const qc::SlerpCase<T> c = qc::sample_case<T>(r, rng);
            T both[4], alone[4];
            quatcheck::slerp_cr(c.q0.data(), c.q1.data(), c.t, both);
            qc::slerp_cr::set_skip_phase1(true);
            quatcheck::slerp_cr(c.q0.data(), c.q1.data(), c.t, alone);
            qc::slerp_cr::set_skip_phase1(false);
            for (int i = 0; i < 4; i++)
                ASSERT_EQ(bits_of(both[i]), bits_of(alone[i])) << qc::to_string(r) << " case " << k << " comp " << i;
        }
    }
}
TEST(SlerpCr, PhaseTwoAloneAgreesF32) { phase2_alone<float>(); }
TEST(SlerpCr, PhaseTwoAloneAgreesF64) { phase2_alone<double>(); }

// Negative control: phase 0's and phase 1's values moved by 2^-(p+8) relative past their bounds misround about 1
// component in 2^7, and the region check sees it (f32: phase 0's damage, then phase 1's alone with phase 0 skipped).
template <class T> void damaged_is_caught() {
    qc::slerp_cr::set_damage(qc::slerp_cr::Damage::value_shift);
    const Tally t = check_region<T>(qc::Region::uniform, 5000, call<T>);
    qc::slerp_cr::set_skip_phase0(true);
    const Tally t1 = check_region<T>(qc::Region::uniform, 5000, call<T>);
    qc::slerp_cr::set_skip_phase0(false);
    qc::slerp_cr::set_damage(qc::slerp_cr::Damage::none);
    EXPECT_GT(t.misrounded, 0u);
    EXPECT_GT(t1.misrounded, 0u);
    const Tally good = check_region<T>(qc::Region::uniform, 5000, call<T>);
    EXPECT_EQ(good.misrounded, 0u);
}
TEST(SlerpCr, NegativeControlValueShiftF32) { damaged_is_caught<float>(); }
TEST(SlerpCr, NegativeControlValueShiftF64) { damaged_is_caught<double>(); }

// Phase 0's bound (f32): its double value against the exact one (256 bits) on QC_SLERP_CR_CASES / 5 cases a region;
// every error must be inside the bound e, and the largest ratio error / e is printed (the bound is 2^-45 T with
// T = |s0 a_i| + |s1 b_i|; the proof gives 74 u T, u = 2^-53, so a ratio up to about 0.29 is what the proof
// allows with libm's assumed 8 ulps; the printed figure in units of u T is the measured error).
TEST(SlerpCr, PhaseZeroBoundHolds) {
    const uint64_t n = std::max<uint64_t>(cases_per_region() / 5, 1000);
    Real diff;
    qc::ensure_bits(diff, 256);
    for (qc::Region r : qc::all_regions()) {
        double worst = 0, worst_uT = 0;
        uint64_t components = 0;
        for (uint64_t k = 0; k < n; k++) {
            qc::Rng rng = qc::case_rng(42, qc::Precision::f32, r, k);
            const qc::SlerpCase<float> c = qc::sample_case<float>(r, rng);
            double q0[4], q1[4], R[4], e[4];
            for (int i = 0; i < 4; i++) q0[i] = c.q0[i], q1[i] = c.q1[i];
            qc::slerp_cr::phase0_values(q0, q1, double(c.t), R, e);
            RealQuat x;
            Independent::exact(q0, q1, double(c.t), 256, x);
            for (int i = 0; i < 4; i++) {
                mpfr_sub_d(qc::mp(diff), qc::mp(x[i]), R[i], MPFR_RNDN);
                const double err = std::fabs(mpfr_get_d(qc::mp(diff), MPFR_RNDU));
                const double ratio = err / e[i];
                components++;
                ASSERT_LT(ratio, 1.0) << qc::to_string(r) << " case " << k << " component " << i;
                worst = std::max(worst, ratio), worst_uT = std::max(worst_uT, ratio * 256);
            }
        }
        std::printf(
            "phase0 bound f32 %-13s components %llu: largest error / bound %.4f, largest error %.2f u T "
            "(proved: 74 u T)\n",
            qc::to_string(r), (unsigned long long)components, worst, worst_uT);
    }
}

// Keys whose normalised component 1/|q| lies within about 2^-(2p+24) of the midpoint 1 - 2^-(p+1) between the
// format's 1 - 2^-p and 1, at t = 0 (the key is q0) or t = 1 (the key is q1; the other key generic). With
// |q|^2 = 1 + eps, 1/|q| = 1 - eps/2 + 3 eps^2/8 - ...: eps = 2^-p + (3/4) 2^-2p puts it on the midpoint to
// O(2^-3p). f32: the key (1, 2^-12, y, z) with y^2 + z^2 near (3/4) 2^-48; f64: (1, 2^-27, 2^-27, y) with y^2 near
// (3/4) 2^-106. y is the nearest value of the format and its neighbours (two ulps either way: their squares move
// the value by about 2^-(3p)); the components are permuted (all 24 orders), signed (+ or alternating), scaled (a
// power of two) and the key placed at either end. A double (or a double-double's hi) lands on the midpoint itself,
// and RN of it rounds to even (1), whichever side of the midpoint the exact value is.
struct NearMidpoint {
    std::array<double, 4> q0, q1;
    double t;
};
template <class T> std::vector<NearMidpoint> near_midpoint_cases() {
    constexpr bool f32 = sizeof(T) == 4;
    std::vector<std::array<double, 4>> bases;
    for (double z : f32 ? std::vector<double>{0, 0x1p-28, 0x1p-30} : std::vector<double>{0}) {
        const double yd = f32 ? std::sqrt(0.75 * 0x1p-48 - z * z) : std::sqrt(0.75) * 0x1p-53;
        T y = T(yd);
        y = std::nextafter(std::nextafter(y, T(0)), T(0));
        for (int k = 0; k < 5; k++, y = std::nextafter(y, T(1)))
            bases.push_back(f32 ? std::array<double, 4>{1, 0x1p-12, double(y), z}
                                : std::array<double, 4>{1, 0x1p-27, 0x1p-27, double(y)});
    }
    const double others[2][4] = {{0.3, -0.5, 0.7, 0.2}, {-0.1, 0.9, 0.4, -0.6}};
    std::vector<NearMidpoint> out;
    uint64_t k = 0;
    for (const auto &base : bases) {
        std::array<int, 4> perm = {0, 1, 2, 3};
        do {
            for (int sign = 0; sign < 2; sign++)
                for (int end = 0; end < 2; end++, k++) {
                    std::array<double, 4> key, other;
                    const double scale = k % 3 == 0 ? 0x1p-3 : k % 3 == 1 ? 1.0 : 0x1p5;
                    for (int i = 0; i < 4; i++) {
                        key[i] = base[perm[i]] * scale * (sign && i % 2 ? -1 : 1);
                        other[i] = double(T(others[k % 2][i]));
                    }
                    out.push_back(end ? NearMidpoint{other, key, 1.0} : NearMidpoint{key, other, 0.0});
                }
        } while (std::next_permutation(perm.begin(), perm.end()));
    }
    return out;
}

template <class T> Tally check_near_midpoints(const std::vector<NearMidpoint> &cases) {
    Independent ref;
    Tally tally;
    for (uint64_t k = 0; k < cases.size(); k++)
        check_one<T>(ref, cases[k].q0.data(), cases[k].q1.data(), cases[k].t, call<T>, tally, "near-midpoint", k);
    return tally;
}

// The negative control: phases 0 and 1 with their rounding test disabled (Damage::no_rounding_test) must be
// caught as misrounded. Random cases cannot (the values are within 2^-45 or 2^-100 of the exact ones), so the
// near-midpoint keys above: the damaged routine returns RN(double) = 1 where the exact value is below the midpoint,
// and the real routine gets every one right (phase 0 refuses them; phase 1 decides f32's, phase 2 f64's).
template <class T> void no_rounding_test_is_caught() {
    constexpr bool f32 = sizeof(T) == 4;
    const std::vector<NearMidpoint> cases = near_midpoint_cases<T>();
    qc_slerp_cr_reset_stats();
    const Tally good = check_near_midpoints<T>(cases);
    qc_slerp_cr_stats s;
    qc_slerp_cr_get_stats(&s);
    uint64_t below = 0;  // cases whose exact midpoint-side component is below the midpoint (RN is 1 - 2^-p)
    {
        Independent ref;
        for (const NearMidpoint &c : cases) {
            double want[4];
            if (!ref.round<T>(c.q0.data(), c.q1.data(), c.t, want)) continue;
            for (double w : want) below += std::fabs(w) == 1 - (f32 ? 0x1p-24 : 0x1p-53);
        }
    }
    qc::slerp_cr::set_damage(qc::slerp_cr::Damage::no_rounding_test);
    const Tally damaged = check_near_midpoints<T>(cases);
    qc::slerp_cr::set_skip_phase0(true);  // f32: phase 1's damage alone (f64 has no phase 0)
    const Tally damaged1 = check_near_midpoints<T>(cases);
    qc::slerp_cr::set_skip_phase0(false);
    // Informative, not required: halved bounds (measured 0 misrounded here; docs/slerp-cr.md says why they cannot be
    // caught for phase 0).
    qc::slerp_cr::set_damage(qc::slerp_cr::Damage::bound_halved);
    const Tally halved = check_near_midpoints<T>(cases);
    qc::slerp_cr::set_skip_phase0(true);
    const Tally halved1 = check_near_midpoints<T>(cases);
    qc::slerp_cr::set_skip_phase0(false);
    qc::slerp_cr::set_damage(qc::slerp_cr::Damage::none);
    std::printf("near-midpoint %s bound halved: misrounded %llu, with phase 0 skipped %llu\n", f32 ? "f32" : "f64",
                (unsigned long long)halved.misrounded, (unsigned long long)halved1.misrounded);
    std::printf(
        "near-midpoint %s: %llu cases, %llu of them below the midpoint; real routine misrounded %llu (phase0 %llu "
        "phase1 %llu phase2 %llu max-bits %llu); no rounding test: misrounded %llu, with phase 0 skipped "
        "(phase 1 damaged alone) %llu\n",
        f32 ? "f32" : "f64", (unsigned long long)good.cases, (unsigned long long)below,
        (unsigned long long)good.misrounded, s.phase0, s.phase1, s.phase2, s.max_bits,
        (unsigned long long)damaged.misrounded, (unsigned long long)damaged1.misrounded);
    EXPECT_EQ(good.undecided, 0u);
    EXPECT_EQ(good.misrounded, 0u);
    EXPECT_GT(below, 0u);
    EXPECT_GT(damaged.misrounded, 0u);
    EXPECT_GT(damaged1.misrounded, 0u);
}
TEST(SlerpCr, NegativeControlNoRoundingTestF32) { no_rounding_test_is_caught<float>(); }
TEST(SlerpCr, NegativeControlNoRoundingTestF64) { no_rounding_test_is_caught<double>(); }

// The checker itself catches an implementation off by one ulp in one component.
TEST(SlerpCr, NegativeControlOneUlp) {
    auto off = [](const double q0[4], const double q1[4], double t, double out[4]) {
        call<double>(q0, q1, t, out);
        out[2] = std::nextafter(out[2], 2.0);
    };
    EXPECT_EQ(check_region<double>(qc::Region::uniform, 100, off).misrounded, 100u);
}

struct StatsDelta {
    qc_slerp_cr_stats before{};
    StatsDelta() { qc_slerp_cr_get_stats(&before); }
    qc_slerp_cr_stats now() const {
        qc_slerp_cr_stats s;
        qc_slerp_cr_get_stats(&s);
        s.calls -= before.calls, s.exact -= before.exact, s.phase1 -= before.phase1, s.phase2 -= before.phase2;
        s.phase2_calls -= before.phase2_calls, s.capped -= before.capped, s.phase0 -= before.phase0;
        return s;
    }
};

// The correctly rounded q/|q| of a key, independently: q_i / sqrt(|q|^2) at 1024 bits.
double unit_component(const double q[4], int i) {
    Real n, x;
    qc::ensure_bits(n, 1024), qc::ensure_bits(x, 1024);
    mpfr_set_ui(qc::mp(n), 0, MPFR_RNDN);
    for (int j = 0; j < 4; j++) {
        mpfr_set_d(qc::mp(x), q[j], MPFR_RNDN);
        mpfr_fma(qc::mp(n), qc::mp(x), qc::mp(x), qc::mp(n), MPFR_RNDN);
    }
    mpfr_rec_sqrt(qc::mp(n), qc::mp(n), MPFR_RNDN);
    mpfr_mul_d(qc::mp(x), qc::mp(n), q[i], MPFR_RNDN);
    return mpfr_get_d(qc::mp(x), MPFR_RNDN);
}

TEST(SlerpCr, ExactZeroInBothKeys) {
    const double q0[4] = {1, 2, 0, 0}, q1[4] = {3, -1, 0, -0.0};
    for (double t : {0.0, 0.25, 0.5, 0.7, 1.0}) {
        StatsDelta d;
        double out[4];
        EXPECT_EQ(qc_slerp_cr_f64_status(q0, q1, t, out), QC_SLERP_CR_OK);
        EXPECT_EQ(bits_of(out[2]), bits_of(0.0)) << t;  // +0, even from -0 inputs
        EXPECT_EQ(bits_of(out[3]), bits_of(0.0)) << t;
        EXPECT_GE(d.now().exact, 2u);
        EXPECT_EQ(d.now().capped, 0u);
    }
}

// t = 0 and t = 1: the (short-arc) normalised key, correctly rounded; its zero components exactly +0.
TEST(SlerpCr, EndsAreTheNormalisedKeys) {
    const double q0[4] = {3, 4, 0, 0}, q1[4] = {-1, -1, -1, 5}, mq1[4] = {1, 1, 1, -5};  // q0.q1 = -7 < 0: b = -q1
    double out[4];
    EXPECT_EQ(qc_slerp_cr_f64_status(q0, q1, 0.0, out), QC_SLERP_CR_OK);
    for (int i = 0; i < 4; i++) EXPECT_EQ(bits_of(out[i]), bits_of(unit_component(q0, i))) << i;
    EXPECT_EQ(out[0], 0.6);
    EXPECT_EQ(qc_slerp_cr_f64_status(q0, q1, 1.0, out), QC_SLERP_CR_OK);
    for (int i = 0; i < 4; i++) EXPECT_EQ(bits_of(out[i]), bits_of(unit_component(mq1, i))) << i;
    const float f0[4] = {0, 0, 7, 0}, f1[4] = {1, 1, 1, 1};  // a key with one nonzero component, and halves
    float fo[4];
    EXPECT_EQ(qc_slerp_cr_f32_status(f0, f1, 0.0f, fo), QC_SLERP_CR_OK);
    EXPECT_TRUE(fo[0] == 0 && fo[1] == 0 && fo[2] == 1 && fo[3] == 0 && !std::signbit(fo[0]));
    EXPECT_EQ(qc_slerp_cr_f32_status(f0, f1, 1.0f, fo), QC_SLERP_CR_OK);
    for (int i = 0; i < 4; i++) EXPECT_EQ(fo[i], 0.5f);
}

// Equal directions (q1 = 2 q0): the result is q0/|q0| for every t.
TEST(SlerpCr, EqualKeys) {
    const double q0[4] = {1, 2, 3, 4}, q1[4] = {2, 4, 6, 8};
    for (double t : {0.0, 0.1, 0.5, 0.9, 1.0}) {
        double out[4];
        EXPECT_EQ(qc_slerp_cr_f64_status(q0, q1, t, out), QC_SLERP_CR_OK);
        for (int i = 0; i < 4; i++) EXPECT_EQ(bits_of(out[i]), bits_of(unit_component(q0, i))) << t << " " << i;
    }
}

// t = 1/2 with a component symmetric in the keys (q0_i^2 |q1|^2 = q1_i^2 |q0|^2, opposite signs): exactly +0.
TEST(SlerpCr, SymmetricAtHalf) {
    const double q0[4] = {2, 1, 3, 0}, q1[4] = {4, -2, 6, 0};
    StatsDelta d;
    double out[4];
    EXPECT_EQ(qc_slerp_cr_f64_status(q0, q1, 0.5, out), QC_SLERP_CR_OK);
    EXPECT_EQ(bits_of(out[1]), bits_of(0.0));
    EXPECT_EQ(d.now().exact, 2u);  // components 1 and 3
    EXPECT_EQ(d.now().capped, 0u);
    const float f0[4] = {0.5f, -0.25f, 1, 1}, f1[4] = {-1, -0.5f, -2, -2};  // q0.q1 < 0: b = -q1, symmetric in x
    float fo[4];
    EXPECT_EQ(qc_slerp_cr_f32_status(f0, f1, 0.5f, fo), QC_SLERP_CR_OK);
    EXPECT_EQ(std::bit_cast<uint32_t>(fo[1]), 0u);
}

// Powers of one integer quaternion at a dyadic t: (3 - i) and (3 + i)^3 = 18 + 26i at t = 1/4 give exactly 1, 0.
// That zero is an exact case the routine does not detect: the cap must catch it, count it and say so.
TEST(SlerpCr, UndetectedExactZeroReachesTheCap) {
    const double q0[4] = {3, -1, 0, 0}, q1[4] = {18, 26, 0, 0};
    StatsDelta d;
    double out[4];
    EXPECT_EQ(qc_slerp_cr_f64_status(q0, q1, 0.25, out), QC_SLERP_CR_CAPPED);
    EXPECT_EQ(d.now().capped, 1u);
    EXPECT_EQ(out[0], 1.0);
    EXPECT_EQ(out[1], 0.0);  // the 4096-bit value (about 2^-4090) rounds to a zero, of either sign
    qc_slerp_cr_stats s;
    qc_slerp_cr_get_stats(&s);
    EXPECT_EQ(s.max_bits, unsigned(QC_SLERP_CR_CAP_BITS));
    qc::slerp_cr::set_phase2_bits(128, 512);  // a lower cap (the test hook) is reached sooner; the value is then
    EXPECT_EQ(qc_slerp_cr_f64_status(q0, q1, 0.25, out), QC_SLERP_CR_CAPPED);  // within 2^(8-512) of 0
    qc::slerp_cr::set_phase2_bits(0, 0);
    EXPECT_LT(std::fabs(out[1]), 0x1p-500);
    EXPECT_EQ(d.now().capped, 2u);
}

TEST(SlerpCr, RefusedInputsGiveNaN) {
    const double good[4] = {1, 0, 0, 0}, other[4] = {0, 1, 0, 0}, zero[4] = {0, -0.0, 0, 0};
    const double nan[4] = {1, NAN, 0, 0}, inf[4] = {INFINITY, 0, 0, 0};
    auto refused = [](const double *a, const double *b, double t) {
        double out[4] = {1, 1, 1, 1};
        const int status = qc_slerp_cr_f64_status(a, b, t, out);
        return status == QC_SLERP_CR_NAN && std::isnan(out[0]) && std::isnan(out[1]) && std::isnan(out[2]) &&
               std::isnan(out[3]);
    };
    EXPECT_TRUE(refused(zero, good, 0.5));
    EXPECT_TRUE(refused(good, zero, 0.5));
    EXPECT_TRUE(refused(nan, good, 0.5));
    EXPECT_TRUE(refused(good, inf, 0.5));
    EXPECT_TRUE(refused(good, other, NAN));
    EXPECT_TRUE(refused(good, other, -0x1p-60));
    EXPECT_TRUE(refused(good, other, 1 + 0x1p-52));
    EXPECT_FALSE(refused(good, other, -0.0));  // -0 is t = 0
    const float f[4] = {1, 0, 0, 0};
    float fo[4];
    EXPECT_EQ(qc_slerp_cr_f32_status(f, f, 2.0f, fo), QC_SLERP_CR_NAN);
    EXPECT_TRUE(std::isnan(fo[0]));
}

// Keys far from unit (huge, tiny, subnormal components) go to MPFR directly; the results stay exact roundings.
TEST(SlerpCr, FarFromUnitKeys) {
    const double q0[4] = {0x1p-1070, 0, 0, 0x1p-1074}, q1[4] = {0x1p900, 0x1p899, 0, 0};
    double out[4], scaled0[4] = {1, 0, 0, 0x1p-4}, scaled1[4] = {2, 1, 0, 0}, ref[4];
    EXPECT_EQ(qc_slerp_cr_f64_status(q0, q1, 0.3, out), QC_SLERP_CR_OK);
    EXPECT_EQ(qc_slerp_cr_f64_status(scaled0, scaled1, 0.3, ref), QC_SLERP_CR_OK);  // the same directions
    for (int i = 0; i < 4; i++) EXPECT_EQ(bits_of(out[i]), bits_of(ref[i])) << i;
}

TEST(SlerpCr, CountersSeePhases) {
    const double q0[4] = {0.5, 0.5, 0.5, 0.5}, q1[4] = {0.6, 0.8, 0, 0.1};
    double out[4];
    {
        StatsDelta d;
        qc_slerp_cr_f64(q0, q1, 0.3, out);
        EXPECT_EQ(d.now().calls, 1u);
        EXPECT_EQ(d.now().phase1 + d.now().phase2 + d.now().exact, 4u);
        EXPECT_GE(d.now().phase1, 3u);
    }
    qc::slerp_cr::set_skip_phase1(true);
    {
        StatsDelta d;
        qc_slerp_cr_f64(q0, q1, 0.3, out);
        EXPECT_EQ(d.now().phase2, 4u);
        EXPECT_EQ(d.now().phase2_calls, 1u);
    }
    qc::slerp_cr::set_skip_phase1(false);
    const float f0[4] = {0.5f, 0.5f, 0.5f, 0.5f}, f1[4] = {0.6f, 0.8f, 0, 0.1f};
    float fo[4];
    {  // f32: phase 0 decides (almost always all four; phase 1 and 2 take what it cannot)
        StatsDelta d;
        qc_slerp_cr_f32(f0, f1, 0.3f, fo);
        EXPECT_EQ(d.now().phase0 + d.now().phase1 + d.now().phase2 + d.now().exact, 4u);
        EXPECT_GE(d.now().phase0, 3u);
    }
    qc::slerp_cr::set_skip_phase0(true);
    {
        StatsDelta d;
        qc_slerp_cr_f32(f0, f1, 0.3f, fo);
        EXPECT_EQ(d.now().phase0, 0u);
        EXPECT_GE(d.now().phase1, 3u);
    }
    qc::slerp_cr::set_skip_phase0(false);
    qc_slerp_cr_reset_stats();
    qc_slerp_cr_stats s;
    qc_slerp_cr_get_stats(&s);
    EXPECT_EQ(s.calls + s.phase0 + s.phase1 + s.phase2 + s.capped + s.max_bits, 0u);
}

// Phase 0's bound is relative to the terms |s0 a_i| + |s1 b_i|, not to the component: a component that cancels (here
// x at t = 1/2, a_x + b_x about 2^-26 against terms about 1/2) fails its test and is decided by phase 1, correctly.
TEST(SlerpCr, CancellationLeavesPhaseZero) {
    const float f0[4] = {1, 0.5f, 0.25f, 0}, f1[4] = {1, -0.5f + 0x1p-25f, 0.25f, 0};
    StatsDelta d;
    float fo[4];
    EXPECT_EQ(qc_slerp_cr_f32_status(f0, f1, 0.5f, fo), QC_SLERP_CR_OK);
    EXPECT_EQ(d.now().phase0, 2u);  // w and y (z, zero in both keys, is an exact case)
    EXPECT_EQ(d.now().exact, 1u);
    EXPECT_EQ(d.now().phase1, 1u);  // x
    EXPECT_EQ(d.now().phase2, 0u);
    const double q0[4] = {1, 0.5, 0.25, 0}, q1[4] = {1, -0.5 + 0x1p-25, 0.25, 0};
    double want[4];
    ASSERT_TRUE(Independent().round<float>(q0, q1, 0.5, want));
    for (int i = 0; i < 4; i++) EXPECT_EQ(bits_of(double(fo[i])), bits_of(want[i])) << i;
    EXPECT_LT(std::fabs(fo[1]), 0x1p-24f);
}

// Informative: quatcheck's recommended slerp (qc-slerp, max ulp1 <= 2) is not correctly rounded; the same check
// counts how often it misses (printed; 20000 cases a region in f32, 2000 in f64, and in f64 at least one miss is
// required).
template <class T> void qc_slerp_misses() {
    auto qc_slerp = [](const double q0[4], const double q1[4], double t, double out[4]) {
        T a[4], b[4], r[4];
        for (int i = 0; i < 4; i++) a[i] = T(q0[i]), b[i] = T(q1[i]);
        if constexpr (sizeof(T) == 4) qc_slerp_f32(a, b, T(t), r);
        else qc_slerp_f64(a, b, T(t), r);
        for (int i = 0; i < 4; i++) out[i] = r[i];
    };
    uint64_t missed = 0, components = 0;
    for (qc::Region r : qc::all_regions()) {
        const Tally t = check_region<T>(r, sizeof(T) == 4 ? 20000 : 2000, qc_slerp);
        missed += t.misrounded, components += t.components;
    }
    std::printf("qc-slerp.%s: %llu of %llu components not correctly rounded (every region)\n",
                sizeof(T) == 4 ? "f32" : "f64", (unsigned long long)missed, (unsigned long long)components);
    if (sizeof(T) == 8) {
        EXPECT_GT(missed, 0u);  // f32: measured 0 of 400000 (its double evaluation, rounded once)
    }
}
TEST(SlerpCr, QcSlerpIsNotCorrectlyRoundedF32) { qc_slerp_misses<float>(); }
TEST(SlerpCr, QcSlerpIsNotCorrectlyRoundedF64) { qc_slerp_misses<double>(); }

}  // namespace
