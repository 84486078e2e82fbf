// The correctly rounded slerp (quatcheck/slerp_cr.h; docs/slerp-cr.md has the definition and every proof):
// Ziv's strategy as CORE-MATH applies it to libm's functions. Exact cases first (components that are exactly
// zero); for f32, phase 0, the ideal slerp in plain double with a proved per-component bound (docs/slerp-cr.md,
// "Phase 0"); then phase 1, the certified double-double reference (fast_reference.h: fast_slerp_components) with a
// rounding test per component against that component's own bound; then phase 2, MPFR at 128, 256, ... bits up to
// the cap, with a rounding test against the bound 2^(kBoundExp - P) of the evaluation at P bits.
//
// The rounding tests use monotonicity of round-to-nearest: if lo <= x <= hi and RN(lo) = RN(hi) (the same bits),
// then RN(x) is that value, whatever the ties. Both phases compute lo and hi, or a test equivalent to it, exactly.
#include "quatcheck/slerp_cr.h"

#include "reference/fast_reference.h"
#include "reference/real.h"
#include "reference/slerp_cr_internal.h"

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace qc::slerp_cr {

namespace {

std::atomic<int> g_damage{int(Damage::none)};
std::atomic<int> g_start_bits{128}, g_cap_bits{QC_SLERP_CR_CAP_BITS};
std::atomic<bool> g_skip_phase1{false}, g_skip_phase0{false};

struct Counters {
    std::atomic<unsigned long long> calls{0}, exact{0}, phase1{0}, phase2{0}, phase2_calls{0}, capped{0}, max_bits{0},
        phase0{0};
};
Counters g_counts;

// The target format: p significand bits; f32 rounds through float.
struct Format {
    int p;
    bool f32;
};

// The neighbours of a finite x of format F (float or double), below and above: std::nextafter toward -inf and +inf,
// by the encoding (IEEE 754's binary formats order their finite values as sign-magnitude integers), without a libm
// call. Zero of either sign has the smallest subnormals of both signs as neighbours; the step from the largest
// finite value gives infinity, as nextafter does.
template <class F, class U> void neighbours_of(F x, F &down, F &up) {
    const U b = std::bit_cast<U>(x), sign = U(1) << (8 * sizeof(U) - 1);
    if ((b & ~sign) == 0) {
        up = std::bit_cast<F>(U(1)), down = std::bit_cast<F>(U(sign | 1));
    } else if (b & sign) {
        up = std::bit_cast<F>(U(b - 1)), down = std::bit_cast<F>(U(b + 1));
    } else {
        up = std::bit_cast<F>(U(b + 1)), down = std::bit_cast<F>(U(b - 1));
    }
}

// The format's neighbours of f (a value of the format, held in a double), below and above.
void neighbours(double f, bool f32, double &down, double &up) {
    if (f32) {
        float d, u;
        neighbours_of<float, uint32_t>(float(f), d, u);
        down = d, up = u;
    } else {
        neighbours_of<double, uint64_t>(f, down, up);
    }
}

// Phase 1's rounding test: x = hi + lo with |x - exact| <= e. True, with out = RN(exact) in the format, when every
// real in [x - e, x + e] rounds to one value of the format. f = RN(hi) is the candidate; the test is
// (hi - f) + lo + e < (up - f)/2 and (hi - f) + lo - e > -(f - down)/2, strictly: the interval then lies inside
// f's open rounding interval. hi - f is split exactly (TwoSum); the other sums are rounded, and the relative slack
// 2^-50 covers their at most four roundings of 2^-53 each. A candidate zero needs a known sign.
bool phase1_round(double hi, double lo, double e, const Format &fmt, double &out) {
    const double f = fmt.f32 ? double(float(hi)) : hi;
    double down, up;
    neighbours(f, fmt.f32, down, up);
    const dd::DD d = dd::two_sum(hi, -f);
    const double b = d.lo + lo;
    const double slack = 0x1p-50 * (std::fabs(d.hi) + std::fabs(b) + e);
    const double gu = (up - f) * 0.5, gd = (f - down) * 0.5;  // exact: differences of neighbours, halved
    if (!(d.hi + b + e + slack < gu * (1 - 0x1p-50))) return false;
    if (!(d.hi + b - e - slack > -gd * (1 - 0x1p-50))) return false;
    if (f == 0) {  // a nonzero value rounding to zero: its sign must be known
        const double m = std::fabs(hi) + std::fabs(lo);
        if (!(m * (1 - 0x1p-50) > e * (1 + 0x1p-50))) return false;
        out = std::copysign(0.0, hi + lo);
        return true;
    }
    out = f;
    return true;
}

// RN of an MPFR value to the format (mpfr_get_d and mpfr_get_flt round correctly, subnormals included).
double round_mpfr(mpfr_srcptr x, const Format &fmt) {
    return fmt.f32 ? double(mpfr_get_flt(x, MPFR_RNDN)) : mpfr_get_d(x, MPFR_RNDN);
}

bool same_bits(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }

// The scratch of one MPFR evaluation, per thread.
struct Scratch {
    Real a[4], b[4], d[4], s[4], R[4], n0, n1, nd, ns, W, sW, x, y, s0, s1, omt, tmp, lo, hi;
    Real prod[8], big;
    int bits = 0;
    void set_bits(int P) {
        if (bits == P) return;
        for (Real *v : {&n0, &n1, &nd, &ns, &W, &sW, &x, &y, &s0, &s1, &omt, &tmp}) ensure_bits(*v, P);
        for (int i = 0; i < 4; i++)
            for (Real *v : {&a[i], &b[i], &d[i], &s[i], &R[i]}) ensure_bits(*v, P);
        ensure_bits(lo, P + 16), ensure_bits(hi, P + 16);
        bits = P;
    }
};
Scratch &scratch() {
    thread_local Scratch s;
    free_mpfr_caches_at_thread_exit();
    return s;
}

// out = sqrt(sum of squares of v), at out's precision.
void norm4(Real &out, Real &tmp, Real v[4]) {
    mpfr_sqr(mp(out), mp(v[0]), MPFR_RNDN);
    for (int i = 1; i < 4; i++) {
        mpfr_sqr(mp(tmp), mp(v[i]), MPFR_RNDN);
        mpfr_add(mp(out), mp(out), mp(tmp), MPFR_RNDN);
    }
    mpfr_sqrt(mp(out), mp(out), MPFR_RNDN);
}

// The ideal slerp at P bits into S.R: every component within 2^(kBoundExp - P) of the exact one
// (docs/slerp-cr.md, "Phase 2"). sign: the exact sign of q0.q1 (0 keeps b).
void evaluate_mpfr(const double q0[4], const double q1[4], double t, int sign, int P, Scratch &S) {
    S.set_bits(P);
    for (int i = 0; i < 4; i++) mpfr_set_d(mp(S.a[i]), q0[i], MPFR_RNDN), mpfr_set_d(mp(S.b[i]), q1[i], MPFR_RNDN);
    norm4(S.n0, S.tmp, S.a);
    norm4(S.n1, S.tmp, S.b);
    for (int i = 0; i < 4; i++) {
        mpfr_div(mp(S.a[i]), mp(S.a[i]), mp(S.n0), MPFR_RNDN);
        mpfr_div(mp(S.b[i]), mp(S.b[i]), mp(S.n1), MPFR_RNDN);
        if (sign < 0) mpfr_neg(mp(S.b[i]), mp(S.b[i]), MPFR_RNDN);
        mpfr_sub(mp(S.d[i]), mp(S.a[i]), mp(S.b[i]), MPFR_RNDN);
        mpfr_add(mp(S.s[i]), mp(S.a[i]), mp(S.b[i]), MPFR_RNDN);
    }
    norm4(S.nd, S.tmp, S.d);
    norm4(S.ns, S.tmp, S.s);
    mpfr_atan2(mp(S.W), mp(S.nd), mp(S.ns), MPFR_RNDN);
    mpfr_mul_2ui(mp(S.W), mp(S.W), 1, MPFR_RNDN);
    mpfr_set_d(mp(S.tmp), t, MPFR_RNDN);  // exact (P >= 53)
    mpfr_ui_sub(mp(S.omt), 1, mp(S.tmp), MPFR_RNDN);
    if (mpfr_zero_p(mp(S.W))) {  // the limit at W = 0: s0 = 1 - t, s1 = t
        mpfr_set(mp(S.s0), mp(S.omt), MPFR_RNDN);
        mpfr_set_d(mp(S.s1), t, MPFR_RNDN);
    } else {
        mpfr_sin(mp(S.sW), mp(S.W), MPFR_RNDN);
        mpfr_mul_d(mp(S.x), mp(S.W), t, MPFR_RNDN);
        mpfr_sin(mp(S.s1), mp(S.x), MPFR_RNDN);
        mpfr_div(mp(S.s1), mp(S.s1), mp(S.sW), MPFR_RNDN);
        mpfr_mul(mp(S.x), mp(S.W), mp(S.omt), MPFR_RNDN);
        mpfr_sin(mp(S.s0), mp(S.x), MPFR_RNDN);
        mpfr_div(mp(S.s0), mp(S.s0), mp(S.sW), MPFR_RNDN);
    }
    for (int i = 0; i < 4; i++) mpfr_fmma(mp(S.R[i]), mp(S.s0), mp(S.a[i]), mp(S.s1), mp(S.b[i]), MPFR_RNDN);
}

// Phase 2's rounding test on component i at P bits: lo = R - 2^(kBoundExp - P) rounded down, hi = R + ... rounded
// up (both enclose the exact value), decided when RN(lo) and RN(hi) have the same bits.
bool phase2_round(Scratch &S, int i, int P, const Format &fmt, double &out) {
    if (mpfr_zero_p(mp(S.R[i]))) return false;
    mpfr_set_ui_2exp(mp(S.tmp), 1, kBoundExp - P, MPFR_RNDN);  // exact
    mpfr_sub(mp(S.lo), mp(S.R[i]), mp(S.tmp), MPFR_RNDD);
    mpfr_add(mp(S.hi), mp(S.R[i]), mp(S.tmp), MPFR_RNDU);
    const double rl = round_mpfr(mp(S.lo), fmt), rh = round_mpfr(mp(S.hi), fmt);
    if (!same_bits(rl, rh)) return false;
    out = rl;
    return true;
}

// The exact sign of q0.q1 (products exact at 128 bits; mpfr_sum rounds correctly, so its sign is exact).
int exact_dot_sign(const double q0[4], const double q1[4], Scratch &S) {
    mpfr_ptr p[4];
    for (int i = 0; i < 4; i++) {
        ensure_bits(S.prod[i], 128);
        mpfr_set_d(mp(S.prod[i]), q0[i], MPFR_RNDN);
        mpfr_mul_d(mp(S.prod[i]), mp(S.prod[i]), q1[i], MPFR_RNDN);
        p[i] = mp(S.prod[i]);
    }
    ensure_bits(S.big, 64);
    mpfr_sum(mp(S.big), p, 4, MPFR_RNDN);
    return mpfr_sgn(mp(S.big));
}

// Whether q0_i^2 |q1|^2 = q1_i^2 |q0|^2 exactly (products of four doubles are exact at 256 bits; mpfr_sum's sign
// of the difference is exact).
bool same_normalised_magnitude(const double q0[4], const double q1[4], int i, Scratch &S) {
    mpfr_ptr p[8];
    for (int j = 0; j < 4; j++) {
        for (int k = 0; k < 2; k++) {
            Real &v = S.prod[2 * j + k];
            ensure_bits(v, 256);
            const double x = k ? q1[i] : q0[i], y = k ? q0[j] : q1[j];
            mpfr_set_d(mp(v), x, MPFR_RNDN);
            mpfr_mul_d(mp(v), mp(v), x, MPFR_RNDN);
            mpfr_mul_d(mp(v), mp(v), y, MPFR_RNDN);
            mpfr_mul_d(mp(v), mp(v), y, MPFR_RNDN);
            if (k) mpfr_neg(mp(v), mp(v), MPFR_RNDN);
            p[2 * j + k] = mp(v);
        }
    }
    ensure_bits(S.big, 64);
    mpfr_sum(mp(S.big), p, 8, MPFR_RNDN);
    return mpfr_zero_p(mp(S.big));
}

// Components of R that are exactly zero and need no arithmetic (docs/slerp-cr.md, "Exact cases"): zero in both
// keys; t = 0 and zero in q0; t = 1 and zero in q1.
bool plain_zero(const double q0[4], const double q1[4], double t, int i) {
    return (q0[i] == 0 && q1[i] == 0) || (t == 0 && q0[i] == 0) || (t == 1 && q1[i] == 0);
}

// The remaining exact class, t = 1/2 with a_i = -b_i (b after the short-arc flip), an exact integer test, on the
// components not yet decided (no rounding test ever decides an exact zero: every enclosure of it contains 0).
int half_zeros(const double q0[4], const double q1[4], double t, int sign, Scratch &S, bool decided[4], double out[4]) {
    if (t != 0.5) return 0;
    int n = 0;
    for (int i = 0; i < 4; i++) {
        if (decided[i] || q0[i] == 0 || q1[i] == 0) continue;
        const bool opposite = (q0[i] > 0) == ((sign < 0 ? -q1[i] : q1[i]) < 0);
        if (opposite && same_normalised_magnitude(q0, q1, i, S)) decided[i] = true, out[i] = 0.0, n++;
    }
    return n;
}

void note_max_bits(int P) {
    unsigned long long m = g_counts.max_bits.load(std::memory_order_relaxed);
    while (static_cast<unsigned long long>(P) > m && !g_counts.max_bits.compare_exchange_weak(m, P)) {}
}

// Phase 0 (f32 only; docs/slerp-cr.md, "Phase 0"): the ideal slerp in plain double. q0, q1 hold floats and t a
// float in [0, 1], all exactly. R[i] and a bound e[i] with |R[i] - R_i| <= e[i] for each component. The proof, step
// by step (u = 2^-53; lambda = 2^-49, eight ulps, the assumed relative error of libm's sin and atan2, generous
// against the GNU C Library manual's table "Known Maximum Errors in Math Functions", which lists 1 ulp for sin and
// nothing for atan2 on x86_64; first order, the second-order terms change every figure by a relative 1e-13 at most;
// Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., ch. 3-4, for the gamma_n bounds of sums):
//   - a float's square or product of two floats is exact in double (48 bits, exponents within [-298, 256]);
//   - the dot product's sign: three additions of exact products err by at most 3.01u sum|p|, below the test's
//     2^-50 sum|p|, so the sign is exact (a dot within it has its sign computed exactly, by MPFR);
//   - a_i = q_i / sqrt(sum q_j^2): relative error 3.51u (3 additions of positive terms, sqrt, division); b the same;
//   - |d| and |s| (d = a - b, s = a + b): absolute errors 12.7u and 15.1u; W = 2 atan2(|d|, |s|), whose partial
//     derivatives are at most 1/2 and 0.354 there (|d|^2 + |s|^2 = 4): |dW| <= 23.4u + 1.58 lambda <= 50u;
//   - the weights g_tau(W) = sin(tau W)/sin W (g_tau(0) = tau): |d ln g / dW| = (phi(tau W) - phi(W))/W <= 0.655 for
//     W <= 1.6, phi(x) = x cot x (decreasing; (1 - phi(W))/W^2 has a Laurent series with positive coefficients, so
//     it is at most its value 0.409 at 1.6). So the error of W moves each weight by a relative 32.8u, and the
//     evaluation adds 2u + 2 lambda (s1) or 3u + 2 lambda (s0: the rounding of 1 - t): 66.8u and 67.8u relative;
//   - R_i = s0 a_i + s1 b_i, two products and a sum: |R_i - exact| <= 74u (|s0 a_i| + |s1 b_i|).
// e[i] = 2^-45 (|s0 a_i| + |s1 b_i|) (computed) is 3.4 times that; the 2^-1020 added covers underflow, which does
// not happen on float inputs (every intermediate stays above 2^-800).
void phase0_eval(const double q0[4], const double q1[4], double t, double R[4], double e[4]) {
    double dot = 0, mag = 0, n0 = 0, n1 = 0;
    for (int i = 0; i < 4; i++) {
        const double p = q0[i] * q1[i];  // exact
        dot += p, mag += std::fabs(p);
        n0 += q0[i] * q0[i], n1 += q1[i] * q1[i];  // squares exact
    }
    double flip = dot < 0 ? -1.0 : 1.0;
    if (!(std::fabs(dot) > 0x1p-50 * mag)) flip = exact_dot_sign(q0, q1, scratch()) < 0 ? -1.0 : 1.0;  // rare
    n0 = std::sqrt(n0), n1 = std::sqrt(n1);
    double a[4], b[4], nd = 0, ns = 0;
    for (int i = 0; i < 4; i++) {
        a[i] = q0[i] / n0, b[i] = (flip * q1[i]) / n1;
        const double d = a[i] - b[i], s = a[i] + b[i];
        nd += d * d, ns += s * s;
    }
    const double W = 2 * std::atan2(std::sqrt(nd), std::sqrt(ns));
    const double omt = 1 - t;
    double s0 = omt, s1 = t;  // the limit at W = 0
    if (W != 0) {
        const double sW = std::sin(W);
        s1 = std::sin(t * W) / sW, s0 = std::sin(omt * W) / sW;
    }
    for (int i = 0; i < 4; i++) {
        const double A = s0 * a[i], P = s1 * b[i];
        R[i] = A + P;
        e[i] = 0x1p-45 * (std::fabs(A) + std::fabs(P)) + 0x1p-1020;
    }
}

// Phase 0 on the components not yet decided (f32 only); returns how many it decided.
int phase0(const double q0[4], const double q1[4], double t, const Format &fmt, bool decided[4], double out[4]) {
    double R[4], e[4];
    if (!fmt.f32 || g_skip_phase0.load(std::memory_order_relaxed) || g_skip_phase1.load(std::memory_order_relaxed))
        return 0;
    phase0_eval(q0, q1, t, R, e);
    const Damage damage = Damage(g_damage.load(std::memory_order_relaxed));
    const bool no_test = damage == Damage::no_rounding_test;
    int n = 0;
    for (int i = 0; i < 4; i++) {
        if (decided[i]) continue;
        if (damage == Damage::value_shift) R[i] += std::ldexp(std::fabs(R[i]), -(fmt.p + 8));  // the candidate moves
        if (no_test) decided[i] = true, out[i] = double(float(R[i]));  // the negative control: the candidate as is
        else decided[i] = phase1_round(R[i], 0.0, damage == Damage::bound_halved ? e[i] / 2 : e[i], fmt, out[i]);
        n += decided[i];
    }
    return n;
}

// Phase 1 on the components not yet decided; returns how many it decided.
int phase1(const double q0[4], const double q1[4], double t, const Format &fmt, bool decided[4], double out[4]) {
    dd::DB R[4];
    bool tie = false;
    if (g_skip_phase1.load(std::memory_order_relaxed) || !fast_slerp_components(q0, q1, t, R, tie)) return 0;
    const Damage damage = Damage(g_damage.load(std::memory_order_relaxed));
    int n = 0;
    for (int i = 0; i < 4; i++) {
        if (decided[i]) continue;
        double hi = R[i].v.hi, lo = R[i].v.lo;
        if (damage == Damage::value_shift) {  // renormalised, so that the candidate RN(hi) moves too
            const dd::DD moved = dd::two_sum(hi, lo + std::ldexp(std::fabs(hi), -(fmt.p + 8)));
            hi = moved.hi, lo = moved.lo;
        }
        if (damage == Damage::no_rounding_test) decided[i] = true, out[i] = fmt.f32 ? double(float(hi)) : hi;
        else decided[i] = phase1_round(hi, lo, damage == Damage::bound_halved ? R[i].err / 2 : R[i].err, fmt, out[i]);
        n += decided[i];
    }
    return n;
}

// Phase 2 on the components not yet decided; returns false when one reached the cap (it then holds the rounding
// of its cap-precision value).
bool phase2(const double q0[4], const double q1[4], double t, int sign, const Format &fmt, bool decided[4],
            double out[4], Scratch &S) {
    const int start = g_start_bits.load(std::memory_order_relaxed), cap = g_cap_bits.load(std::memory_order_relaxed);
    int left = 0;
    for (int i = 0; i < 4; i++) left += !decided[i];
    if (left == 0) return true;
    g_counts.phase2_calls.fetch_add(1, std::memory_order_relaxed);
    for (int P = start;; P = std::min(2 * P, cap)) {
        evaluate_mpfr(q0, q1, t, sign, P, S);
        note_max_bits(P);
        for (int i = 0; i < 4; i++) {
            if (decided[i] || !phase2_round(S, i, P, fmt, out[i])) continue;
            decided[i] = true, left--;
            g_counts.phase2.fetch_add(1, std::memory_order_relaxed);
        }
        if (left == 0) return true;
        if (P >= cap) break;
    }
    for (int i = 0; i < 4; i++) {
        if (decided[i]) continue;
        out[i] = round_mpfr(mp(S.R[i]), fmt);
        g_counts.capped.fetch_add(1, std::memory_order_relaxed);
    }
    return false;
}

bool refused(const double q0[4], const double q1[4], double t) {
    bool zero0 = true, zero1 = true;
    for (int i = 0; i < 4; i++) {
        if (!std::isfinite(q0[i]) || !std::isfinite(q1[i])) return true;
        zero0 = zero0 && q0[i] == 0, zero1 = zero1 && q1[i] == 0;
    }
    return zero0 || zero1 || !(t >= 0 && t <= 1);
}

// The whole routine on exact doubles (an f32 call's floats converted exactly).
int slerp_cr(const double q0_in[4], const double q1_in[4], double t, const Format &fmt, double out[4]) {
    double q0[4], q1[4];
    std::memcpy(q0, q0_in, sizeof q0), std::memcpy(q1, q1_in, sizeof q1);  // out may alias an input
    if (refused(q0, q1, t)) {
        for (int i = 0; i < 4; i++) out[i] = std::numeric_limits<double>::quiet_NaN();
        return QC_SLERP_CR_NAN;
    }
    g_counts.calls.fetch_add(1, std::memory_order_relaxed);
    bool decided[4];
    int exact = 0, left = 0;
    for (int i = 0; i < 4; i++) {
        decided[i] = plain_zero(q0, q1, t, i);
        if (decided[i]) out[i] = 0.0, exact++;
    }
    if (exact < 4) {  // f32: phase 0 first, in double, before anything that needs MPFR
        const int n = phase0(q0, q1, t, fmt, decided, out);
        if (n) g_counts.phase0.fetch_add(n, std::memory_order_relaxed);
        left = 4 - exact - n;
    }
    if (left == 0) {
        if (exact) g_counts.exact.fetch_add(exact, std::memory_order_relaxed);
        return QC_SLERP_CR_OK;
    }
    Scratch &S = scratch();
    const int sign = exact_dot_sign(q0, q1, S);
    const int half = half_zeros(q0, q1, t, sign, S, decided, out);
    exact += half, left -= half;
    g_counts.exact.fetch_add(exact, std::memory_order_relaxed);
    if (left > 0) g_counts.phase1.fetch_add(phase1(q0, q1, t, fmt, decided, out), std::memory_order_relaxed);
    return phase2(q0, q1, t, sign, fmt, decided, out, S) ? QC_SLERP_CR_OK : QC_SLERP_CR_CAPPED;
}

}  // namespace

void set_damage(Damage d) { g_damage.store(int(d)); }

void set_phase2_bits(int start_bits, int cap_bits) {
    g_start_bits.store(start_bits > 0 ? start_bits : 128);
    g_cap_bits.store(cap_bits > 0 ? cap_bits : QC_SLERP_CR_CAP_BITS);
}

void set_skip_phase1(bool skip) { g_skip_phase1.store(skip); }

void set_skip_phase0(bool skip) { g_skip_phase0.store(skip); }

void phase0_values(const double q0[4], const double q1[4], double t, double R[4], double e[4]) {
    phase0_eval(q0, q1, t, R, e);
}

}  // namespace qc::slerp_cr

extern "C" {

int qc_slerp_cr_f64_status(const double q0[4], const double q1[4], double t, double out[4]) {
    return qc::slerp_cr::slerp_cr(q0, q1, t, {53, false}, out);
}

int qc_slerp_cr_f32_status(const float q0[4], const float q1[4], float t, float out[4]) {
    double a[4], b[4], r[4];
    for (int i = 0; i < 4; i++) a[i] = q0[i], b[i] = q1[i];
    const int status = qc::slerp_cr::slerp_cr(a, b, t, {24, true}, r);
    for (int i = 0; i < 4; i++) out[i] = float(r[i]);  // exact: r[i] is a float
    return status;
}

void qc_slerp_cr_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    (void)qc_slerp_cr_f64_status(q0, q1, t, out);
}

void qc_slerp_cr_f32(const float q0[4], const float q1[4], float t, float out[4]) {
    (void)qc_slerp_cr_f32_status(q0, q1, t, out);
}

void qc_slerp_cr_get_stats(struct qc_slerp_cr_stats *out) {
    auto &c = qc::slerp_cr::g_counts;
    out->calls = c.calls.load(), out->exact = c.exact.load(), out->phase1 = c.phase1.load();
    out->phase2 = c.phase2.load(), out->phase2_calls = c.phase2_calls.load(), out->capped = c.capped.load();
    out->max_bits = c.max_bits.load(), out->phase0 = c.phase0.load();
}

void qc_slerp_cr_reset_stats(void) {
    auto &c = qc::slerp_cr::g_counts;
    for (auto *v : {&c.calls, &c.exact, &c.phase1, &c.phase2, &c.phase2_calls, &c.capped, &c.max_bits, &c.phase0})
        v->store(0);
}

}  // extern "C"
