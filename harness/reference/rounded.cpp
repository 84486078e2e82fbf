// The correctly rounded ideal slerp by an evaluation independent of quatcheck/slerp_cr.h (reference/rounded.h).
#include "reference/rounded.h"

#include "reference/quat_real.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace qc {

namespace {

double round_to_format(Precision p, mpfr_srcptr x) {
    return p == Precision::f32 ? double(mpfr_get_flt(x, MPFR_RNDN)) : mpfr_get_d(x, MPFR_RNDN);
}

}  // namespace

void ideal_slerp_mp(int bits, const double q0[4], const double q1[4], double t, RealQuat &r) {
    RealQuatOps ops(bits);
    RealQuat a, b;
    ops.set(a, q0), ops.set(b, q1), ops.ensure(r);
    Real dot, tt;
    ensure_bits(dot, bits + 16), ensure_bits(tt, 64);
    Real prod[4];
    mpfr_ptr terms[4];
    for (int i = 0; i < 4; i++) {  // exact products (106 bits); mpfr_sum rounds correctly, so the sign is exact
        ensure_bits(prod[i], 128);
        mpfr_mul(mp(prod[i]), mp(a[i]), mp(b[i]), MPFR_RNDN);
        terms[i] = mp(prod[i]);
    }
    mpfr_sum(mp(dot), terms, 4, MPFR_RNDN);
    const bool flip = mpfr_sgn(mp(dot)) < 0;
    ops.normalize(a), ops.normalize(b);
    if (flip)
        for (auto &x : b) mpfr_neg(mp(x), mp(x), MPFR_RNDN);
    mpfr_set_d(mp(tt), t, MPFR_RNDN);  // exact: t is a double
    ops.slerp_noflip(r, a, b, tt);
}

namespace {

// |q|^2 exactly: four squares of doubles (106 bits each) whose exponents span at most 2 x 2098 bits, summed at 4400.
void exact_norm2(const double q[4], Real &n) {
    Real sq[4];
    mpfr_ptr terms[4];
    for (int j = 0; j < 4; j++) {
        ensure_bits(sq[j], 128);
        mpfr_set_d(mp(sq[j]), q[j], MPFR_RNDN);
        mpfr_sqr(mp(sq[j]), mp(sq[j]), MPFR_RNDN);
        terms[j] = mp(sq[j]);
    }
    ensure_bits(n, 4400);
    mpfr_sum(mp(n), terms, 4, MPFR_RNDN);
}

// Whether R_i is exactly zero at t = 1/2: there the weights are equal, so R_i = 0 iff a_i = -b_i after the flip, i.e.
// q0_i and s q1_i have opposite signs (s = -1 where q0.q1 < 0) and q0_i^2 |q1|^2 = q1_i^2 |q0|^2, compared exactly
// (each side a 106-bit square times an exact norm, at 4600 bits).
bool symmetric_zero_at_half(const double q0[4], const double q1[4], bool flip, int i) {
    const double b = flip ? -q1[i] : q1[i];
    if (!((q0[i] > 0 && b < 0) || (q0[i] < 0 && b > 0))) return false;
    Real n0, n1, left, right;
    exact_norm2(q0, n0), exact_norm2(q1, n1);
    ensure_bits(left, 4600), ensure_bits(right, 4600);
    mpfr_set_d(mp(left), q0[i], MPFR_RNDN);
    mpfr_sqr(mp(left), mp(left), MPFR_RNDN);
    mpfr_mul(mp(left), mp(left), mp(n1), MPFR_RNDN);
    mpfr_set_d(mp(right), q1[i], MPFR_RNDN);
    mpfr_sqr(mp(right), mp(right), MPFR_RNDN);
    mpfr_mul(mp(right), mp(right), mp(n0), MPFR_RNDN);
    return mpfr_equal_p(mp(left), mp(right)) != 0;
}

bool flipped(const double q0[4], const double q1[4]) {
    Real prod[4], dot;
    mpfr_ptr terms[4];
    for (int i = 0; i < 4; i++) {
        ensure_bits(prod[i], 128);
        mpfr_set_d(mp(prod[i]), q0[i], MPFR_RNDN);
        mpfr_mul_d(mp(prod[i]), mp(prod[i]), q1[i], MPFR_RNDN);  // exact: 106 bits
        terms[i] = mp(prod[i]);
    }
    ensure_bits(dot, 64);
    mpfr_sum(mp(dot), terms, 4, MPFR_RNDN);
    return mpfr_sgn(mp(dot)) < 0;
}

// One evaluation at `bits`; false when a component's enclosure straddles a rounding boundary.
bool evaluate(Precision p, const double q0[4], const double q1[4], double t, int bits, double out[4]) {
    RealQuat r;
    ideal_slerp_mp(bits, q0, q1, t, r);
    Real e, lo, hi;
    for (Real *x : {&e, &lo, &hi}) ensure_bits(*x, bits + 16);
    mpfr_set_ui_2exp(mp(e), 1, 24 - bits, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        if ((q0[i] == 0 && q1[i] == 0) || (t == 0 && q0[i] == 0) || (t == 1 && q1[i] == 0) ||
            (t == 0.5 && symmetric_zero_at_half(q0, q1, flipped(q0, q1), i))) {
            out[i] = 0;  // exactly zero (docs/slerp-cr.md, "Exact cases"): +0 by definition
            continue;
        }
        mpfr_sub(mp(lo), mp(r[i]), mp(e), MPFR_RNDD);
        mpfr_add(mp(hi), mp(r[i]), mp(e), MPFR_RNDU);
        const double l = round_to_format(p, mp(lo)), h = round_to_format(p, mp(hi));
        if (std::bit_cast<uint64_t>(l) != std::bit_cast<uint64_t>(h)) return false;
        out[i] = l;
    }
    return true;
}

// The position of a finite value of the format on the line of its representable values (the sign-magnitude bit
// pattern made monotone): consecutive values differ by 1, +0 and -0 both sit at 0.
int64_t ordinal(Precision p, double x) {
    if (p == Precision::f32) {
        const int32_t b = std::bit_cast<int32_t>(float(x));
        return b < 0 ? -int64_t(b & 0x7fffffff) : int64_t(b);
    }
    const int64_t b = std::bit_cast<int64_t>(x);
    return b < 0 ? -(b & 0x7fffffffffffffff) : b;
}

}  // namespace

bool correctly_rounded_slerp(Precision p, const double q0[4], const double q1[4], double t, double out[4]) {
    for (int bits : {256, 1024, 2048})
        if (evaluate(p, q0, q1, t, bits, out)) return true;
    return false;
}

bool steps_from_rounded_slerp(Precision p, const double q0[4], const double q1[4], double t, const double got[4],
                              double want[4], double &steps) {
    if (!correctly_rounded_slerp(p, q0, q1, t, want)) return false;
    steps = 0;
    for (int i = 0; i < 4; i++) steps = std::max(steps, format_steps_apart(p, got[i], want[i]));
    return true;
}

double format_steps_apart(Precision p, double a, double b) {
    if (!std::isfinite(a) || !std::isfinite(b)) return INFINITY;
    const __int128 d = __int128(ordinal(p, a)) - ordinal(p, b);  // no overflow across the whole line
    return double(d < 0 ? -d : d);
}

}  // namespace qc
