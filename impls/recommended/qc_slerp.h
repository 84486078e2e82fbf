/* qc_slerp.h: quatcheck's recommended slerp, f32 and f64, one header, C99 and C++.
 *
 * MIT License
 *
 * Copyright (c) 2026 the quatcheck authors
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
 * associated documentation files (the "Software"), to deal in the Software without restriction,
 * including without limitation the rights to use, copy, modify, merge, publish, distribute,
 * sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or
 * substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
 * NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 * NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
 * OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
 * CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 *
 * ---------------------------------------------------------------------------------------------------
 * API
 *   void qc_slerp_f32(const float  q0[4], const float  q1[4], float  t, float  out[4]);
 *   void qc_slerp_f64(const double q0[4], const double q1[4], double t, double out[4]);
 * out = the rotation at fraction t along the shorter arc from q0 to q1, as a unit quaternion.
 * Any component order works (w, x, y, z or x, y, z, w) as long as q0, q1 and out share it: the routine
 * only takes dot products and linear combinations. out may alias q0 or q1.
 *
 * What it promises (checked by quatcheck's `run` and `conform` in ctest: tests/qc_slerp_claims.test.sh,
 * tests/qc_slerp_test.cpp):
 *   - max ulp1 <= 2 in every region of the harness (uniform, near 0, near pi/2, near pi, around the
 *     usual 0.9995 threshold), i.e. every output component within 2 units of 2^(1-p) of the exact
 *     slerp of the normalised inputs (measured: about 0.25 for f32, under 2 for f64);
 *   - no threshold jump: the two evaluations (series for small arcs, acos/sincos above) agree to
 *     well under an ulp where they meet, so the output is continuous to rounding;
 *   - f32 no slower than the fastest engine f32 slerp of comparable accuracy (max ulp1 <= 2) by more
 *     than 1.5x in any region (design choice 7; measured with quatcheck bench, docs/recipes.md);
 *   - inputs need not be exactly unit: they are normalised inside (folded into the two weights);
 *   - finite output for every finite input with |t| <= 2^64: a zero quaternion is read as the
 *     identity (1 in the first slot), and f64 inputs too large or too small to square are rescaled
 *     by a power of two first.
 *
 * Design choices
 *   1. Weights, not components. out = W0 q0 + W1 q1 with W0 = w0/|q0|, W1 = +-w1/|q1| and
 *      w1 = sin(t A)/sin A, w0 = cos(t A) - cos A * w1 (= sin((1-t)A)/sin A). Normalising the inputs
 *      costs two scalar factors instead of eight divisions, and the output is unit to rounding.
 *   2. One acos and one sincos (f64; f32 has its own polynomials, choice 8). A = acos(c) with c = |q0.q1|/(|q0||q1|) rounded to double, and
 *      sin A = sqrt((1-c)(1+c)) from that same c, so w1 = sin(tA)/sin A stays consistent however small
 *      A is. acos loses accuracy in A near c = 1, but there the weights are nearly t and 1 - t and
 *      their sensitivity to A is about A/3, so the weights' absolute error stays at the rounding of c.
 *      1/sin A does not depend on the libm calls, so it is computed while they run.
 *   3. Small arcs use the power series of sin(tA)/sin A in y = 1 - c (the series behind Eberly's
 *      polynomial slerp): no libm call. f64: six terms below y = 2^-10 (A < 0.0442), truncation below
 *      2^-66. f32: three terms below y = 2^-7 (A < 0.125, the whole of the harness's near-0 region),
 *      truncation t c_4(t) y^4 < 2^-33, a thousandth of an f32 ulp1; f32 takes it only for t in [0, 1],
 *      because the truncation grows like t^9 (extrapolation goes to acos, whose error does not grow).
 *      Both sides of the switch are accurate to well below an ulp, so it is not a threshold: no jump.
 *      No nlerp fallback anywhere.
 *   4. Precision. f32 is computed in double and rounded once: products of floats are exact in double,
 *      and outputs land within about a quarter of an ulp1. f64 computes the angle and the weights in
 *      double, but the norms, the normalisation and the final combination in long double where it is
 *      wider than double (x86-64 GCC/Clang: 64-bit significand): those are where the last ulp is lost,
 *      and they cost only a few x87 operations. Elsewhere, or with QC_SLERP_NO_WIDE defined, f64 runs in
 *      double throughout: a little faster, but about 2 ulp1 at worst (the harness measures that build
 *      as qc-slerp-narrow.f64). No FMA is needed: a build without -mfma would otherwise call a slow
 *      software fma().
 *   5. Norms near 1 (|q|^2 = 1 + e) take 1/|q| from a polynomial: no square root or division on the
 *      common path. f64: 1 - e/2 + 3e^2/8 for |e| < 2^-24 (error < 2^-73). f32: 1.5 - |q|^2/2 when
 *      |e0| + |e1| < 2^-20 (error 3e^2/8 < 2^-41, far below what an f32 output can show); every float
 *      rounding of a unit quaternion has |e| < 2^-22, so that one branch is always predicted.
 *   6. Shortest arc by the sign of q0.q1; a dot product of exactly 0 keeps q1 (as quatcheck's
 *      reference does). Equal and opposite ends need no special case beyond c = 1 (series path).
 *   7. f32 speed (quatcheck bench: BM_Impl/qc-slerp.f32 against the engines' f32 slerps, docs/recipes.md).
 *      An f32 slerp costs tens of operations, so a mispredicted branch (15-20 cycles), a call or a stack
 *      round trip shows. The common path (inputs within 2^-20 of unit, t in [0, 1]) therefore makes no
 *      call and branches only on what is predictable: one test for both norms and t, one for the series
 *      (arcs are random, but the near-0 cases all fall on one side). No branch on the sign of q0.q1 (a
 *      multiplication by +-1), none on c rounding above 1 (y = 1 - c may be -2^-52, harmless in the
 *      series). Zero or far-from-unit inputs and t outside [0, 1] go to one out-of-line function. Square
 *      roots use the SSE2 instruction directly where there is one (libm's sqrt must set errno, which costs
 *      a test and a call). The norms, dot product, series, polynomials and output are loops over
 *      components, weights or lanes, which compilers turn into two-lane SIMD.
 *   8. f32 without libm on longer arcs (1 - c >= 2^-7, t in [0, 1]). Double acos and sincos are more
 *      accurate than an f32 result needs, and a call costs more than a short branch-free polynomial.
 *      Instead: A0 from Abramowitz and Stegun's acos formula 4.4.46 (sqrt(1 - c) times a degree-7
 *      polynomial, error <= 2e-8), one Newton step on cos A = c (A within 2^-37: the step's own error
 *      (A0 - A)^2 cot(A)/2 is below 2^-48, the cos polynomial's truncation over sin A below 2^-37), sin/cos
 *      of tA from Taylor polynomials (through x^17 and x^16, truncation < 2^-40 on [0, pi/2]) at tA0,
 *      moved to tA by the angle addition to first order (the neglected term is < 2^-50). cos A0,
 *      sin tA0 and cos tA0 are three lanes of one Horner loop, so the chains overlap. Every error is
 *      below 2^-33 in the weights, a thousandth of an f32 ulp1: outputs still land within a quarter
 *      ulp1. Extrapolation (t outside [0, 1]) keeps double acos and sincos (out of line, see 7).
 * ---------------------------------------------------------------------------------------------------
 */
#ifndef QC_SLERP_H
#define QC_SLERP_H

#include <float.h>
#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* f64 bookkeeping type: long double where it is wider than double (x86-64 GCC and Clang: 64-bit
 * significand), else double (design choice 4). */
#if LDBL_MANT_DIG >= 64 && !defined(QC_SLERP_NO_WIDE)
typedef long double qc_slerp_wide_;
#define QC_SLERP_WIDE_ 1
#else
typedef double qc_slerp_wide_;
#define QC_SLERP_WIDE_ 0
#endif

#if defined(__GNUC__)
#define QC_SLERP_LIKELY_(x) __builtin_expect(!!(x), 1)
#define QC_SLERP_RARE_ __attribute__((noinline, cold, unused))
#else
#define QC_SLERP_LIKELY_(x) (x)
#define QC_SLERP_RARE_
#endif

/* sqrt of a nonnegative double as one instruction where SSE2 is there: the C library's sqrt must also
 * set errno for negative input, so compilers emit a test and a call beside the instruction, and the call
 * makes f32's common path build a stack frame (design choice 7). */
#if defined(__SSE2__)
static inline double qc_slerp_sqrt_(double x) { return _mm_cvtsd_f64(_mm_sqrt_sd(_mm_set_sd(x), _mm_set_sd(x))); }
#else
static inline double qc_slerp_sqrt_(double x) { return sqrt(x); }
#endif

/* Reads a zero quaternion as the identity. */
static inline void qc_slerp_fix_zero_(double q[4]) {
    if (q[0] == 0.0 && q[1] == 0.0 && q[2] == 0.0 && q[3] == 0.0) q[0] = 1.0;
}

/* Rescales q by a power of two so that its largest component is in [1, 2); q must be nonzero. */
static inline void qc_slerp_rescale_(double q[4]) {
    double m = fabs(q[0]);
    int e, i;
    for (i = 1; i < 4; i++)
        if (fabs(q[i]) > m) m = fabs(q[i]);
    (void)frexp(m, &e);
    for (i = 0; i < 4; i++) q[i] = ldexp(q[i], 1 - e);
}

/* 1/sqrt(n). For n = 1 + e with |e| < 2^-24 (every input that is unit to within a few ulps) the Taylor
 * polynomial 1 - e/2 + 3e^2/8, whose error 5e^3/16 < 2^-73 is far below rounding: no square root or
 * division on the common path, and no visible seam (design choice 5). */
static inline double qc_slerp_rnorm_d_(double n) {
    double e = n - 1.0;
    if (e > -0x1p-24 && e < 0x1p-24) return 1.0 + e * (-0.5 + 0.375 * e);
    return 1.0 / sqrt(n);
}
static inline qc_slerp_wide_ qc_slerp_rnorm_w_(qc_slerp_wide_ n) {
    qc_slerp_wide_ e = n - 1;
    if (e > -(qc_slerp_wide_)0x1p-24 && e < (qc_slerp_wide_)0x1p-24)
        return 1 + e * ((qc_slerp_wide_)-0.5 + (qc_slerp_wide_)0.375 * e);
    return 1 / (qc_slerp_wide_)sqrtl(n);
}

/* f(t, y) = sin(tA)/sin A for y = 1 - cos A < 2^-10 as the power series sum_i c_i(t) y^i, c_0 = t,
 * c_i = c_{i-1} (i^2 - t^2)/(i (2i + 1)) (the series behind Eberly's "A Fast and Accurate Algorithm for
 * Computing SLERP", JGT 2011, without his error balancing): six terms (f64) leave a truncation error
 * below 2^-66, three (f32) below 2^-44 (design choice 3). g = f/t is 1 plus a correction below 2^-10,
 * so double leaves f within u. */
static inline double qc_slerp_series_(double t, double y, int six) {
    double t2 = t * t, g = 1.0;
    if (six) { /* f64: terms 4 to 6 */
        g = 1.0 + y * ((36.0 - t2) * (1.0 / 78.0)) * g;
        g = 1.0 + y * ((25.0 - t2) * (1.0 / 55.0)) * g;
        g = 1.0 + y * ((16.0 - t2) * (1.0 / 36.0)) * g;
    }
    g = 1.0 + y * ((9.0 - t2) * (1.0 / 21.0)) * g;
    g = 1.0 + y * ((4.0 - t2) * (1.0 / 10.0)) * g;
    g = 1.0 + y * ((1.0 - t2) * (1.0 / 3.0)) * g;
    return t * g;
}

/* f32's series (design choice 3): w[0] = f(1 - t, y) and w[1] = f(t, y) from three terms, y/m shared. */
static inline void qc_slerp_series3_(double t, double y, double w[2]) {
    double tt[2], u, g, y1 = y * (1.0 / 3.0), y2 = y * (1.0 / 10.0), y3 = y * (1.0 / 21.0);
    int k;
    tt[0] = 1.0 - t;
    tt[1] = t;
    for (k = 0; k < 2; k++) {
        u = tt[k] * tt[k];
        g = 1.0 + y3 * (9.0 - u);
        g = 1.0 + y2 * (4.0 - u) * g;
        g = 1.0 + y1 * (1.0 - u) * g;
        w[k] = tt[k] * g;
    }
}

/* w0 = sin((1-t)A)/sin A and w1 = sin(tA)/sin A for c = cos A in [0, 1) and y = 1 - c, any t, in double
 * (design choice 2): one acos and one sincos, sin A from the same c. */
static inline void qc_slerp_trig_weights_(double c, double y, double t, double *w0, double *w1) {
    double inv_s = 1.0 / sqrt(y * (1.0 + c)); /* 1/sin A, computed while acos runs */
    double x = t * acos(c);
    double st = sin(x), ct = cos(x);
    *w1 = st * inv_s;
    *w0 = ct - c * *w1;
}

/* f32's weights for 1 - c >= 2^-7 (A in [0.125, pi/2]) and t in [0, 1], without a libm call (design
 * choice 8). A0 (Abramowitz and Stegun 4.4.46) is within 2e-8 of A. One Newton step on cos A = c gives
 * the correction e = (cos A0 - c)/sin A, leaving an error near (A0 - A)^2 cot(A)/2 < 2^-48, plus the cos polynomial's truncation over sin A, < 2^-37. sin and cos of tA = tA0 + te follow from those of tA0 by the angle
 * addition to first order in te (|te| < 2^-25, so the neglected (te)^2/2 is below 2^-50). cos A0,
 * sin tA0 and cos tA0 come from the Taylor polynomials through x^16 and x^17 (truncation below 2^-40 and
 * 2^-44 on [0, pi/2]), evaluated side by side as lanes: they depend only on A0, so the two Horner chains
 * overlap. */
static inline void qc_slerp_f32_trig_(double c, double y, double t, double w[2]) {
    static const double k[9][4] = {{1.0, 1.0, 1.0, 1.0},
                                   {-1.0 / 2.0, -1.0 / 6.0, -1.0 / 2.0, 0.0},
                                   {1.0 / 24.0, 1.0 / 120.0, 1.0 / 24.0, 0.0},
                                   {-1.0 / 720.0, -1.0 / 5040.0, -1.0 / 720.0, 0.0},
                                   {1.0 / 40320.0, 1.0 / 362880.0, 1.0 / 40320.0, 0.0},
                                   {-1.0 / 3628800.0, -1.0 / 39916800.0, -1.0 / 3628800.0, 0.0},
                                   {1.0 / 479001600.0, 1.0 / 6227020800.0, 1.0 / 479001600.0, 0.0},
                                   {-1.0 / 87178291200.0, -1.0 / 1307674368000.0, -1.0 / 87178291200.0, 0.0},
                                   {1.0 / 20922789888000.0, 1.0 / 355687428096000.0, 1.0 / 20922789888000.0, 0.0}};
    /* acos c = sqrt(1 - c) (a0 + a1 c + ... + a7 c^7) + E, |E| <= 2e-8 on [0, 1]: Abramowitz and Stegun,
     * Handbook of Mathematical Functions (1964), formula 4.4.46 (after Hastings). */
    static const double as[8] = {1.5707963050, -0.2145988016, 0.0889789874, -0.0501743046,
                                 0.0308918810, -0.0170881256, 0.0066700901, -0.0012624911};
    double inv_s = 1.0 / qc_slerp_sqrt_(y * (1.0 + c)), a0 = as[7], x, x2[4], p[4], e, st, ct;
    int i, j;
    for (j = 6; j >= 0; j--) a0 = a0 * c + as[j];
    a0 *= qc_slerp_sqrt_(y);
    x = t * a0;
    x2[0] = a0 * a0; /* lane 0: cos A0; lane 1: sin(x)/x; lane 2: cos x; lane 3: unused */
    x2[1] = x2[2] = x2[3] = x * x;
    for (i = 0; i < 4; i++) p[i] = k[8][i];
    for (j = 7; j >= 0; j--)
        for (i = 0; i < 4; i++) p[i] = p[i] * x2[i] + k[j][i];
    e = t * ((p[0] - c) * inv_s); /* t (A - A0) */
    st = x * p[1];
    ct = p[2];
    w[1] = (st + e * ct) * inv_s;
    w[0] = (ct - e * st) - c * w[1];
}

/* w0, w1 as above for c in [0, 1]: the series for small arcs (y < 2^-10; at c = 1 the only path), else
 * qc_slerp_trig_weights_. */
static inline void qc_slerp_angle_weights_(double c, double t, int six, double *w0, double *w1) {
    double y = 1.0 - c; /* exact for c >= 1/2 */
    if (y < 0x1p-10) {
        *w1 = qc_slerp_series_(t, y, six);
        *w0 = qc_slerp_series_(1.0 - t, y, six);
    } else {
        qc_slerp_trig_weights_(c, y, t, w0, w1);
    }
}

static QC_SLERP_RARE_ void qc_slerp_f32_rare_(const float q0[4], const float q1[4], float t, float out[4]);

static inline void qc_slerp_f32(const float q0[4], const float q1[4], float t, float out[4]) {
    double a[4], b[4], pa[4], pb[4], pd[4], h[6], n[2], r[2], d, c, y, sign, w[2], wa, wb, td = (double)t;
    int i;
    for (i = 0; i < 4; i++) {
        a[i] = q0[i];
        b[i] = q1[i];
    }
    /* Products of floats are exact in double: d and the norms carry only the sums' rounding, and no
     * square of a float overflows or underflows in double. Sums as (x0 + x2) + (x1 + x3), and loops over
     * components, pairs and the two weights, so that compilers use two-lane SIMD (design choice 7). */
    for (i = 0; i < 4; i++) {
        pa[i] = a[i] * a[i];
        pb[i] = b[i] * b[i];
        pd[i] = a[i] * b[i];
    }
    for (i = 0; i < 2; i++) {
        h[i] = pa[i] + pa[i + 2];
        h[i + 2] = pb[i] + pb[i + 2];
        h[i + 4] = pd[i] + pd[i + 2];
    }
    n[0] = h[0] + h[1]; /* |q0|^2 */
    n[1] = h[2] + h[3];
    d = h[4] + h[5];
    /* 1/|q| = 1/sqrt(1 + e) = 1 - e/2 = 1.5 - n/2 with error below 3e^2/8 < 2^-41 for |e| < 2^-20 (design
     * choice 5): every float rounding of a unit quaternion (|e| < 2^-22) lands here. Inputs far from unit
     * (zero among them) and t outside [0, 1] go out of line, so the common path makes no call and needs
     * no stack frame; the one test is always predicted (design choice 7). */
    if (!QC_SLERP_LIKELY_((fabs(n[0] - 1.0) + fabs(n[1] - 1.0) < 0x1p-20) & (td * (1.0 - td) >= 0.0))) {
        qc_slerp_f32_rare_(q0, q1, t, out); /* t(1 - t) >= 0: t in [0, 1] */
        return;
    }
    for (i = 0; i < 2; i++) r[i] = 1.5 - 0.5 * n[i];
    c = fabs(d) * r[0] * r[1];
    y = 1.0 - c; /* exact; below 0 by an ulp or two when rounding lifts c above 1 at tiny arcs */
    /* The short-arc sign as a multiplication, not a branch on random data (design choice 7): -1 for
     * d < 0, +1 for d = +-0 (keeps q1). */
    sign = 1.0 - 2.0 * (double)(d < 0.0);
    if (QC_SLERP_LIKELY_(y < 0x1p-7)) {
        /* Arcs below 0.125 rad: three terms of the series, truncation t c_4(t) y^4 < 2^-33 (design
         * choice 3). A y of -2^-52 (c rounded above 1) is harmless here. */
        qc_slerp_series3_(td, y, w);
    } else {
        qc_slerp_f32_trig_(c, y, td, w); /* longer arcs (design choice 8) */
    }
    wa = w[0] * r[0];
    wb = sign * w[1] * r[1];
    for (i = 0; i < 4; i++) out[i] = (float)(wa * a[i] + wb * b[i]);
}

/* qc_slerp_f32's rare inputs, out of line: a zero input is read as the identity (the same call with
 * (1, 0, 0, 0) in its place); inputs far from unit take square roots; t outside [0, 1] (extrapolation)
 * takes acos and sincos in double, whose error does not grow with t as the series' truncation and the
 * polynomials' range do; equal ends take the limit (1 - t, t) for any t. */
static QC_SLERP_RARE_ void qc_slerp_f32_rare_(const float q0[4], const float q1[4], float t, float out[4]) {
    static const float identity[4] = {1.0f, 0.0f, 0.0f, 0.0f};
    double a[4], b[4], na, nb, d, r0, r1, c, y, w[2], wa, wb, td = (double)t;
    int i;
    for (i = 0; i < 4; i++) {
        a[i] = q0[i];
        b[i] = q1[i];
    }
    na = (a[0] * a[0] + a[2] * a[2]) + (a[1] * a[1] + a[3] * a[3]);
    nb = (b[0] * b[0] + b[2] * b[2]) + (b[1] * b[1] + b[3] * b[3]);
    if (na == 0.0 || nb == 0.0) { /* squares of floats cannot underflow in double: only a zero input */
        qc_slerp_f32(na == 0.0 ? identity : q0, nb == 0.0 ? identity : q1, t, out);
        return;
    }
    d = (a[0] * b[0] + a[2] * b[2]) + (a[1] * b[1] + a[3] * b[3]);
    r0 = 1.0 / sqrt(na);
    r1 = 1.0 / sqrt(nb);
    c = fabs(d) * r0 * r1;
    y = 1.0 - c;
    if (td * (1.0 - td) >= 0.0 && y < 0x1p-7) {
        qc_slerp_series3_(td, y, w);
    } else if (td * (1.0 - td) >= 0.0) {
        qc_slerp_f32_trig_(c, y, td, w);
    } else if (y > 0.0) {
        qc_slerp_trig_weights_(c, y, td, &w[0], &w[1]);
    } else {
        w[0] = 1.0 - td;
        w[1] = td;
    }
    wa = w[0] * r0;
    wb = (d < 0.0 ? -w[1] : w[1]) * r1;
    for (i = 0; i < 4; i++) out[i] = (float)(wa * a[i] + wb * b[i]);
}

static inline void qc_slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    typedef qc_slerp_wide_ W;
    double a[4], b[4], d, sign, c, w0, w1;
    W na, nb, ra, rb, wa, wb;
    const W lo = (W)0x1p-450, hi = (W)0x1p450;
    int i;
    for (i = 0; i < 4; i++) {
        a[i] = q0[i];
        b[i] = q1[i];
    }
    qc_slerp_fix_zero_(a);
    qc_slerp_fix_zero_(b);
    /* The norms in the wide type (design choice 4): squares of doubles are nearly exact there. */
    na = ((W)a[0] * a[0] + (W)a[1] * a[1]) + ((W)a[2] * a[2] + (W)a[3] * a[3]);
    nb = ((W)b[0] * b[0] + (W)b[1] * b[1]) + ((W)b[2] * b[2] + (W)b[3] * b[3]);
    if (!(na > lo && na < hi && nb > lo && nb < hi)) {
        /* Far from unit: rescale so that the double dot product below neither overflows nor underflows. */
        qc_slerp_rescale_(a);
        qc_slerp_rescale_(b);
        na = ((W)a[0] * a[0] + (W)a[1] * a[1]) + ((W)a[2] * a[2] + (W)a[3] * a[3]);
        nb = ((W)b[0] * b[0] + (W)b[1] * b[1]) + ((W)b[2] * b[2] + (W)b[3] * b[3]);
    }
    ra = qc_slerp_rnorm_w_(na);
    rb = qc_slerp_rnorm_w_(nb);
    d = (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]);
    sign = d < 0.0 ? -1.0 : 1.0;
    c = (double)(fabs(d) * ra * rb);
    if (c > 1.0) c = 1.0;
    qc_slerp_angle_weights_(c, t, 1, &w0, &w1);
    /* Normalisation and the final combination in the wide type: one rounding per component. */
    wa = (W)w0 * ra;
    wb = (W)(sign * w1) * rb;
    for (i = 0; i < 4; i++) out[i] = (double)(wa * a[i] + wb * b[i]);
}

#ifdef __cplusplus
}
#endif

#endif /* QC_SLERP_H */
