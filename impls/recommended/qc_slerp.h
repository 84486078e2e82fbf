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
 * What it promises (checked by quatcheck's `run` and `conform` in ctest: tests/qc_slerp_claims.sh):
 *   - max ulp1 <= 2 in every region of the harness (uniform, near 0, near pi/2, near pi, around the
 *     usual 0.9995 threshold), i.e. every output component within 2 units of 2^(1-p) of the exact
 *     slerp of the normalised inputs (measured: about 0.25 for f32, about 1.1 for f64);
 *   - no threshold jump: the two evaluations (series for small arcs, acos/sincos above) agree to
 *     well under an ulp where they meet, so the output is continuous to rounding;
 *   - inputs need not be exactly unit: they are normalised inside (folded into the two weights);
 *   - finite output for every finite input with |t| <= 2^64: a zero quaternion is read as the
 *     identity (1 in the first slot); long double squares of doubles neither overflow nor underflow,
 *     and without long double f64 inputs too large or too small to square are rescaled first.
 *
 * Design choices
 *   1. Weights, not components. out = W0 q0 + W1 q1 with W0 = w0/|q0|, W1 = +-w1/|q1| and
 *      w1 = sin(t A)/sin A, w0 = cos(t A) - cos A * w1 (= sin((1-t)A)/sin A). Normalising the inputs
 *      costs two scalar factors instead of eight divisions, and the output is unit to rounding.
 *   2. One acos and one sincos. A = acos(c) with c = |q0.q1|/(|q0||q1|) rounded to double, and
 *      sin A = sqrt((1-c)(1+c)) from that same c, so w1 = sin(tA)/sin A stays consistent however small
 *      A is. acos loses accuracy in A near c = 1, but there the weights are nearly t and 1 - t and
 *      their sensitivity to A is about A/3, so the weights' absolute error stays at the rounding of c.
 *      Everything that does not depend on A (1/sin A, the norms) is computed before the libm calls so
 *      that it overlaps them.
 *   3. Small arcs (1 - c < 2^-10, A < 0.0442) use the power series of sin(tA)/sin A in 1 - c
 *      (the series behind Eberly's polynomial slerp, six terms, truncation below 2^-66): no libm call.
 *      Both sides of the switch are accurate to well below an ulp, so it is not a threshold: no jump.
 *      No nlerp fallback anywhere.
 *   4. Precision. f32 is computed in double and rounded once: products of floats are exact in double,
 *      and outputs land within about a quarter of an ulp1. f64 keeps the dot product, the norms, the
 *      normalisation and the final combination in long double where it is wider than double (x86-64
 *      GCC/Clang: 64-bit significand), the libm calls in double; elsewhere, or with QC_SLERP_NO_WIDE
 *      defined, it falls back to double throughout: faster, but a little over 2 ulp1 at worst (the
 *      harness measures that build as qc-slerp-narrow.f64). No FMA is needed: a build without -mfma
 *      would otherwise call a slow software fma().
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
static inline void qc_slerp_fix_zero_d_(double q[4]) {
    if (q[0] == 0.0 && q[1] == 0.0 && q[2] == 0.0 && q[3] == 0.0) q[0] = 1.0;
}

/* f(t, y) = sin(tA)/sin A for y = 1 - cos A < 2^-10 (see QC_SLERP_CORE_), in double for either
 * precision: g = f/t is 1 plus a correction below 2^-10, so double leaves w within u of exact. */
static inline double qc_slerp_ratio_(double t, double y) {
    double t2 = t * t, g = 1.0;
    g = 1.0 + y * ((36.0 - t2) * (1.0 / 78.0)) * g;
    g = 1.0 + y * ((25.0 - t2) * (1.0 / 55.0)) * g;
    g = 1.0 + y * ((16.0 - t2) * (1.0 / 36.0)) * g;
    g = 1.0 + y * ((9.0 - t2) * (1.0 / 21.0)) * g;
    g = 1.0 + y * ((4.0 - t2) * (1.0 / 10.0)) * g;
    g = 1.0 + y * ((1.0 - t2) * (1.0 / 3.0)) * g;
    return t * g;
}

/* The core, written once for each working type T (double for f32, the wide type for f64):
 *   QC_SLERP_RNORM_: 1/sqrt(n); for n = 1 + e with |e| < 2^-24 (every input that is unit to within a
 *     few ulps) the Taylor polynomial 1 - e/2 + 3e^2/8, whose error 5e^3/16 < 2^-73 is far below
 *     rounding: no square root or division on the common path, and no visible seam.
 *   qc_slerp_ratio_: f(t, y) = sin(tA)/sin A as the series sum_i c_i(t) y^i in y = 1 - cos A, with
 *     c_0 = t and c_i = c_{i-1} (i^2 - t^2)/(i (2i + 1)) (the series of Eberly's "A Fast and Accurate
 *     Algorithm for Computing SLERP", JGT 2011, without his error balancing), used for y < 2^-10 only,
 *     where six terms leave a truncation error below 2^-66: small arcs cost no libm call, and both
 *     sides of y = 2^-10 are accurate to well under an ulp, so the switch is not a threshold jump. */
#define QC_SLERP_CORE_(T, name)                                                                         \
    static inline T name##_rnorm_(T n) {                                                                \
        T e = n - 1;                                                                                    \
        if (e > -(T)0x1p-24 && e < (T)0x1p-24) return 1 + e * ((T)-0.5 + (T)0.375 * e);                 \
        return 1 / (T)sqrtl(n);                                                                         \
    }                                                                                                   \
    /* The weights of a (w[0]) and b (w[1]) for out = w[0] a + w[1] b. */                               \
    static inline void name##_weights_(const T a[4], const T b[4], double t, T w[2]) {                 \
        T d = (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]);                                \
        T ra = name##_rnorm_((a[0] * a[0] + a[1] * a[1]) + (a[2] * a[2] + a[3] * a[3]));               \
        T rb = name##_rnorm_((b[0] * b[0] + b[1] * b[1]) + (b[2] * b[2] + b[3] * b[3]));               \
        T sign = d < 0 ? -1 : 1;                                                                        \
        /* A and sin A from the same double c (design choice 2): consistent however small A is. */     \
        double cd = (double)((d < 0 ? -d : d) * ra * rb);                                              \
        T c, y, w0, w1;                                                                                 \
        if (cd > 1.0) cd = 1.0;                                                                         \
        c = cd;                                                                                         \
        y = 1 - c; /* exact */                                                                          \
        if (y < (T)0x1p-10) {                                                                           \
            w1 = qc_slerp_ratio_(t, (double)y);                                                         \
            w0 = qc_slerp_ratio_(1.0 - t, (double)y);                                                   \
        } else {                                                                                        \
            T s = (T)sqrtl(y * (1 + c)); /* sin A; 1 + c is exact in T */                               \
            T inv_s = 1 / s;                                                                            \
            double x = t * acos(cd);                                                                    \
            double st = sin(x), ct = cos(x);                                                            \
            w1 = st * inv_s;                                                                            \
            w0 = ct - c * w1;                                                                           \
        }                                                                                               \
        w[0] = w0 * ra;                                                                                 \
        w[1] = sign * w1 * rb;                                                                          \
    }

QC_SLERP_CORE_(double, qc_slerp_d_)
QC_SLERP_CORE_(qc_slerp_wide_, qc_slerp_w_)

static inline void qc_slerp_f32(const float q0[4], const float q1[4], float t, float out[4]) {
    double a[4], b[4], w[2];
    int i;
    for (i = 0; i < 4; i++) {
        a[i] = q0[i];
        b[i] = q1[i];
    }
    qc_slerp_fix_zero_d_(a);
    qc_slerp_fix_zero_d_(b);
    /* Products of floats are exact in double: d and the norms carry only the sums' rounding. */
    qc_slerp_d__weights_(a, b, (double)t, w);
    for (i = 0; i < 4; i++) out[i] = (float)(w[0] * a[i] + w[1] * b[i]);
}

#if !QC_SLERP_WIDE_
/* Rescales q by a power of two so that its largest component is in [1, 2); q must be nonzero. */
static inline void qc_slerp_rescale_(double q[4]) {
    double m = fabs(q[0]);
    int e, i;
    for (i = 1; i < 4; i++)
        if (fabs(q[i]) > m) m = fabs(q[i]);
    (void)frexp(m, &e);
    for (i = 0; i < 4; i++) q[i] = ldexp(q[i], 1 - e);
}
#endif

static inline void qc_slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    double qa[4], qb[4];
    qc_slerp_wide_ a[4], b[4], w[2];
    int i;
    for (i = 0; i < 4; i++) {
        qa[i] = q0[i];
        qb[i] = q1[i];
    }
    qc_slerp_fix_zero_d_(qa);
    qc_slerp_fix_zero_d_(qb);
#if !QC_SLERP_WIDE_
    {   /* Squares must neither overflow nor lose precision to underflow: 2^-450 < |q|^2 < 2^450. (With
         * long double's 15-bit exponent no square of a double can.) */
        const double lo = 0x1p-450, hi = 0x1p450;
        double sa = (qa[0] * qa[0] + qa[1] * qa[1]) + (qa[2] * qa[2] + qa[3] * qa[3]);
        double sb = (qb[0] * qb[0] + qb[1] * qb[1]) + (qb[2] * qb[2] + qb[3] * qb[3]);
        if (!(sa > lo && sa < hi)) qc_slerp_rescale_(qa);
        if (!(sb > lo && sb < hi)) qc_slerp_rescale_(qb);
    }
#endif
    for (i = 0; i < 4; i++) {
        a[i] = qa[i];
        b[i] = qb[i];
    }
    qc_slerp_w__weights_(a, b, t, w);
    for (i = 0; i < 4; i++) out[i] = (double)(w[0] * a[i] + w[1] * b[i]);
}

#ifdef __cplusplus
}
#endif

#endif /* QC_SLERP_H */
