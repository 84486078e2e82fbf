// qc-slerp at its one internal switch (impls/recommended/qc_slerp.h, design choice 3): arcs with
// 1 - cos A < 2^-10 (f64, six terms) or 2^-7 (f32, three terms) use a series, longer arcs acos and sincos.
// "No threshold jump" means both sides are accurate to rounding, so this test walks cos A across the
// switch in steps of a few ulps and checks every output against a long double slerp of the same (rounded)
// inputs: within 2 ulp1 on both sides in f64 and f32. Negative control: the same walk over a routine that
// is exact above the switch and uses lerp weights below it (a threshold jump) must fail the check.
// The f32 routine's other paths (design choice 7): t outside [0, 1] on small arcs (acos, not the series,
// whose truncation grows with t), zero inputs read as the identity, and inputs far from unit.
#include "../impls/recommended/qc_slerp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <type_traits>

namespace {

using L = long double;

// A unit quaternion and a unit vector orthogonal to it, from a seeded generator.
void frame(std::mt19937_64 &rng, L q[4], L v[4]) {
    std::normal_distribution<double> n;
    L s = 0, d = 0;
    for (int i = 0; i < 4; i++) {
        q[i] = n(rng);
        s += q[i] * q[i];
    }
    for (int i = 0; i < 4; i++) q[i] /= std::sqrt(s);
    for (int i = 0; i < 4; i++) v[i] = n(rng);
    for (int i = 0; i < 4; i++) d += v[i] * q[i];
    s = 0;
    for (int i = 0; i < 4; i++) {
        v[i] -= d * q[i];
        s += v[i] * v[i];
    }
    for (int i = 0; i < 4; i++) v[i] /= std::sqrt(s);
}

// Slerp of the normalised inputs in long double (about 11 more bits than double): the test's reference.
template <class T> void reference(const T a[4], const T b[4], T t, L out[4]) {
    L na = 0, nb = 0, d = 0;
    for (int i = 0; i < 4; i++) na += L(a[i]) * a[i], nb += L(b[i]) * b[i], d += L(a[i]) * b[i];
    L c = d / std::sqrt(na * nb), sign = c < 0 ? -1 : 1;
    c = std::fabs(c);
    L A = std::acos(std::min(c, L(1)));
    L w0 = std::sin((1 - L(t)) * A) / std::sin(A), w1 = std::sin(L(t) * A) / std::sin(A);
    for (int i = 0; i < 4; i++) out[i] = w0 * a[i] / std::sqrt(na) + sign * w1 * b[i] / std::sqrt(nb);
}

// Where the series hands over: 1 - cos A = 2^kSeam<T>.
template <class T> constexpr int kSeam = std::is_same_v<T, float> ? -7 : -10;

// The damaged variant: exact above the switch, plain linear weights (1 - t, t) below it: the classic
// lerp fallback, i.e. what a threshold jump looks like.
template <class T> void lerp_below_switch(const T a[4], const T b[4], T t, T out[4]) {
    L na = 0, nb = 0, d = 0;
    for (int i = 0; i < 4; i++) na += L(a[i]) * a[i], nb += L(b[i]) * b[i], d += L(a[i]) * b[i];
    if (1 - d / std::sqrt(na * nb) < std::ldexp(L(1), kSeam<T>)) {
        for (int i = 0; i < 4; i++) out[i] = T((1 - L(t)) * a[i] / std::sqrt(na) + L(t) * b[i] / std::sqrt(nb));
        return;
    }
    L ref[4];
    reference(a, b, t, ref);
    for (int i = 0; i < 4; i++) out[i] = T(ref[i]);
}

// The largest |slerp(a, b, t) - reference| / eps of any component over the given t.
template <class T, class F> double worst_at(F slerp, const T a[4], const T b[4], std::initializer_list<T> ts, L eps) {
    double worst = 0;
    for (T t : ts) {
        T out[4];
        L ref[4];
        slerp(a, b, t, out);
        reference(a, b, t, ref);
        for (int i = 0; i < 4; i++) worst = std::max(worst, double(std::fabs(out[i] - ref[i]) / eps));
    }
    return worst;
}

// The worst ulp1 over a walk of cos A across the switch, for one slerp function.
template <class T, class F> double worst_ulp1_across_seam(F slerp) {
    const L eps = std::ldexp(L(1), 1 - std::numeric_limits<T>::digits);  // 2^(1-p)
    const L seam = 1 - std::ldexp(L(1), kSeam<T>);
    std::mt19937_64 rng(18);
    double worst = 0;
    for (int trial = 0; trial < 64; trial++) {
        L q[4], v[4];
        frame(rng, q, v);
        for (int k = -40; k <= 40; k++) {
            L c = seam + k * eps / 4;
            L s = std::sqrt((1 - c) * (1 + c));
            T a[4], b[4];
            for (int i = 0; i < 4; i++) a[i] = T(q[i]), b[i] = T(c * q[i] + s * v[i]);
            worst = std::max(worst, worst_at<T>(slerp, a, b, {T(0.125), T(0.375), T(0.5), T(0.8125), T(0.96875)}, eps));
        }
    }
    return worst;
}

TEST(QcSlerp, NoJumpWhereTheSeriesHandsOverF64) {
    double w = worst_ulp1_across_seam<double>(qc_slerp_f64);
    EXPECT_LE(w, 2.0) << "qc_slerp_f64 near 1 - cos A = 2^-10";
    EXPECT_GT(w, 0.0);  // the walk compared something
}

TEST(QcSlerp, NoJumpWhereTheSeriesHandsOverF32) {
    double w = worst_ulp1_across_seam<float>(qc_slerp_f32);
    EXPECT_LE(w, 2.0) << "qc_slerp_f32 near 1 - cos A = 2^-7";
    EXPECT_GT(w, 0.0);
}

TEST(QcSlerp, NegativeControlALerpBelowTheSwitchFailsTheSeamCheck) {
    double w64 = worst_ulp1_across_seam<double>(lerp_below_switch<double>);
    double w32 = worst_ulp1_across_seam<float>(lerp_below_switch<float>);
    EXPECT_GT(w64, 2.0);
    EXPECT_GT(w32, 2.0);
    std::printf("lerp weights below the switch: worst %g ulp1 (f64), %g (f32)\n", w64, w32);
}

// The worst ulp1 of qc_slerp_f32 against the reference over arcs 2^-40 .. 2^-3 (rounded to float) at
// the given values of t.
template <class F> double worst_ulp1_small_arcs_f32(F slerp, std::initializer_list<float> ts) {
    const L eps = std::ldexp(L(1), -23);
    std::mt19937_64 rng(7);
    double worst = 0;
    for (int trial = 0; trial < 32; trial++) {
        L q[4], v[4];
        frame(rng, q, v);
        for (int e = -40; e <= -3; e++) {
            L A = std::ldexp(L(1), e);
            float a[4], b[4];
            for (int i = 0; i < 4; i++) a[i] = float(q[i]), b[i] = float(std::cos(A) * q[i] + std::sin(A) * v[i]);
            worst = std::max(worst, worst_at<float>(slerp, a, b, ts, eps));
        }
    }
    return worst;
}

TEST(QcSlerp, ExtrapolationOnSmallArcsF32) {
    // t outside [0, 1] leaves the series for acos and sincos: still within 2 ulp1 of the reference.
    double w = worst_ulp1_small_arcs_f32(qc_slerp_f32, {-0.5f, 1.5f, 3.0f, -7.0f});
    EXPECT_LE(w, 2.0);
    EXPECT_GT(w, 0.0);
    // Negative control: lerp weights on those arcs are far off.
    EXPECT_GT(worst_ulp1_small_arcs_f32(lerp_below_switch<float>, {-0.5f, 1.5f, 3.0f, -7.0f}), 2.0);
}

TEST(QcSlerp, HugeTStaysFiniteF32) {
    // Finite for |t| <= 2^64 on equal, nearly equal and opposite ends (design choice 7).
    const float a[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    const float near[4] = {0.5f, 0.5f, 0.5f, std::nextafter(0.5f, 1.0f)};
    const float opposite[4] = {-0.5f, -0.5f, -0.5f, -0.5f};
    for (const float *b : {a, near, opposite})
        for (float t : {0x1p64f, -0x1p64f, 0x1p30f, -3.0f}) {
            float out[4];
            qc_slerp_f32(a, b, t, out);
            for (float x : out) EXPECT_TRUE(std::isfinite(x)) << "t = " << t;
        }
    // Negative control: the f32 series itself, used at t = 2^64 on that nearly-equal pair, overflows float:
    // the reason the routine takes it only for t in [0, 1].
    double w[2], y = 0x1p-24;
    qc_slerp_series3_(0x1p64, y, w);
    EXPECT_FALSE(std::isfinite(float(w[1])));
}

TEST(QcSlerp, ZeroAndNonUnitInputsF32) {
    // A zero input is the identity; a scaled input is the same rotation (normalised inside).
    const float id[4] = {1, 0, 0, 0}, zero[4] = {0, 0, 0, 0};
    const float q[4] = {0.1825742f, 0.3651484f, 0.5477226f, 0.7302967f};
    float big[4], tiny[4], o1[4], o2[4];
    for (int i = 0; i < 4; i++) big[i] = q[i] * 0x1p40f, tiny[i] = q[i] * 0x1p-60f;
    for (float t : {0.0f, 0.3f, 1.0f}) {
        qc_slerp_f32(zero, q, t, o1);
        qc_slerp_f32(id, q, t, o2);
        for (int i = 0; i < 4; i++) EXPECT_EQ(o1[i], o2[i]);
        qc_slerp_f32(q, zero, t, o1);
        qc_slerp_f32(q, id, t, o2);
        for (int i = 0; i < 4; i++) EXPECT_EQ(o1[i], o2[i]);
        qc_slerp_f32(big, tiny, t, o1);
        qc_slerp_f32(q, q, t, o2);
        for (int i = 0; i < 4; i++) EXPECT_NEAR(o1[i], o2[i], 4e-7f);
    }
}

// f32 on longer arcs (design choice 8: A&S acos, one Newton step, Taylor sin/cos): walk cos A over [0, 1 - 2^-7]
// and compare with the reference. The bound, 0.26 ulp1, is far tighter than the claim of 2: rounding to
// float alone costs up to a quarter (half an ulp of a component in [1/2, 1)), so the weights must be
// good to a hundredth of an ulp1, and a lost Newton step (A off by 2e-8) shows.
template <class F> double worst_ulp1_long_arcs_f32(F slerp) {
    const L eps = std::ldexp(L(1), -23);
    std::mt19937_64 rng(8);
    double worst = 0;
    for (int trial = 0; trial < 16; trial++) {
        L q[4], v[4];
        frame(rng, q, v);
        for (int k = 0; k <= 1000; k++) {
            L c = (1 - std::ldexp(L(1), -7)) * k / 1000, s = std::sqrt((1 - c) * (1 + c));
            float a[4], b[4];
            for (int i = 0; i < 4; i++) a[i] = float(q[i]), b[i] = float(c * q[i] + s * v[i]);
            worst = std::max(worst, worst_at<float>(slerp, a, b, {0.0f, 0.1f, 0.37f, 0.5f, 0.77f, 0.999f, 1.0f}, eps));
        }
    }
    return worst;
}

// The damaged variant: the same A&S first guess for A without the Newton step (weights exact otherwise).
void as_without_newton(const float a[4], const float b[4], float t, float out[4]) {
    static const double as[8] = {1.5707963050, -0.2145988016, 0.0889789874, -0.0501743046,
                                 0.0308918810, -0.0170881256, 0.0066700901, -0.0012624911};
    L na = 0, nb = 0, d = 0;
    for (int i = 0; i < 4; i++) na += L(a[i]) * a[i], nb += L(b[i]) * b[i], d += L(a[i]) * b[i];
    double c = double(std::fabs(d) / std::sqrt(na * nb)), A = as[7];
    for (int j = 6; j >= 0; j--) A = A * c + as[j];
    A *= std::sqrt(1 - c);
    L w0 = std::sin((1 - L(t)) * A) / std::sin(L(A)), w1 = std::sin(L(t) * A) / std::sin(L(A)), sg = d < 0 ? -1 : 1;
    for (int i = 0; i < 4; i++) out[i] = float(w0 * a[i] / std::sqrt(na) + sg * w1 * b[i] / std::sqrt(nb));
}

TEST(QcSlerp, LongArcsWithoutLibmF32) {
    double w = worst_ulp1_long_arcs_f32(qc_slerp_f32);
    EXPECT_LE(w, 0.26);
    EXPECT_GT(w, 0.0);
    double bad = worst_ulp1_long_arcs_f32(as_without_newton);
    EXPECT_GT(bad, 0.26) << "negative control: A&S's 2e-8 without the Newton step";
    std::printf("long arcs: worst %g ulp1 (qc_slerp_f32), %g without the Newton step\n", w, bad);
}

}  // namespace
