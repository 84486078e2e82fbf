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
 *   - inputs need not be exactly unit: they are normalised inside (folded into the two weights);
 *   - finite output for every finite input with |t| <= 2^64: a zero quaternion is read as the
 *     identity (1 in the first slot), and f64 inputs too large or too small to square are rescaled
 *     by a power of two first.
 *
 * Design choices
 *   1. Weights, not components. out = W0 q0 + W1 q1 with W0 = w0/|q0|, W1 = +-w1/|q1| and
 *      w1 = sin(t A)/sin A, w0 = cos(t A) - cos A * w1 (= sin((1-t)A)/sin A). Normalising the inputs
 *      costs two scalar factors instead of eight divisions, and the output is unit to rounding.
 *   2. One acos and one sincos. A = acos(c) with c = |q0.q1|/(|q0||q1|) rounded to double, and
 *      sin A = sqrt((1-c)(1+c)) from that same c, so w1 = sin(tA)/sin A stays consistent however small
 *      A is. acos loses accuracy in A near c = 1, but there the weights are nearly t and 1 - t and
 *      their sensitivity to A is about A/3, so the weights' absolute error stays at the rounding of c.
 *      1/sin A does not depend on the libm calls, so it is computed while they run.
 *   3. Small arcs (1 - c < 2^-10, A < 0.0442) use the power series of sin(tA)/sin A in 1 - c
 *      (the series behind Eberly's polynomial slerp; six terms for f64, truncation below 2^-66, three
 *      for f32, below 2^-44): no libm call.
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
 *   5. Norms near 1 (|q|^2 = 1 + e, |e| < 2^-24) take 1/|q| from 1 - e/2 + 3e^2/8 (error < 2^-73):
 *      no square root or division on the common path.
 *   6. Shortest arc by the sign of q0.q1; a dot product of exactly 0 keeps q1 (as quatcheck's
 *      reference does). Equal and opposite ends need no special case beyond c = 1 (series path).
 * ---------------------------------------------------------------------------------------------------
 */
#ifndef QC_SLERP_H
#define QC_SLERP_H

#include <float.h>
#include <math.h>

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
    if (e > -(qc_slerp_wide_)0x1p-24 && e < (qc_slerp_wide_)0x1p-24) return 1 + e * ((qc_slerp_wide_)-0.5 + (qc_slerp_wide_)0.375 * e);
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

/* w0 = sin((1-t)A)/sin A and w1 = sin(tA)/sin A for c = cos A in [0, 1], in double (design choice 2):
 * the series for small arcs, else one acos and one sincos with sin A from the same c. */
static inline void qc_slerp_angle_weights_(double c, double t, int six, double *w0, double *w1) {
    double y = 1.0 - c; /* exact for c >= 1/2 */
    if (y < 0x1p-10) {
        *w1 = qc_slerp_series_(t, y, six);
        *w0 = qc_slerp_series_(1.0 - t, y, six);
    } else {
        double inv_s = 1.0 / sqrt(y * (1.0 + c)); /* 1/sin A, computed while acos runs */
        double x = t * acos(c);
        double st = sin(x), ct = cos(x);
        *w1 = st * inv_s;
        *w0 = ct - c * *w1;
    }
}

static inline void qc_slerp_f32(const float q0[4], const float q1[4], float t, float out[4]) {
    double a[4], b[4], d, ra, rb, sign, c, w0, w1, wa, wb;
    int i;
    for (i = 0; i < 4; i++) {
        a[i] = q0[i];
        b[i] = q1[i];
    }
    qc_slerp_fix_zero_(a);
    qc_slerp_fix_zero_(b);
    /* Products of floats are exact in double: d and the norms carry only the sums' rounding, and no
     * square of a float overflows or underflows in double. */
    d = (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]);
    ra = qc_slerp_rnorm_d_((a[0] * a[0] + a[1] * a[1]) + (a[2] * a[2] + a[3] * a[3]));
    rb = qc_slerp_rnorm_d_((b[0] * b[0] + b[1] * b[1]) + (b[2] * b[2] + b[3] * b[3]));
    sign = d < 0.0 ? -1.0 : 1.0;
    c = fabs(d) * ra * rb;
    if (c > 1.0) c = 1.0;
    qc_slerp_angle_weights_(c, (double)t, 0, &w0, &w1);
    wa = w0 * ra;
    wb = sign * w1 * rb;
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
