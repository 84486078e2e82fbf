// QcSlerp.java: quatcheck's recommended slerp (qc-slerp) and a correct nlerp, in Java (double, java.lang.Math
// only).
//
// Algorithm: impls/recommended/qc_slerp.h of quatcheck (MIT), design choices 1-6, its f64 path in plain double
// (the "narrow" variant, measured by quatcheck as qc-slerp-narrow.f64: about 2 ulp1 at worst). For arcs with
// y = 1 - cos A below 2^-10 the weights sin(tA)/sin A come from their power series in y (the series behind
// D. Eberly, "A Fast and Accurate Algorithm for Computing SLERP", Journal of Graphics, GPU, and Game Tools,
// 2011, as qc_slerp.h cites it), so no threshold switches to a lerp.
//
// MIT License. Copyright (c) 2026 the quatcheck authors. Permission is hereby granted, free of charge, to any
// person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the
// Software without restriction, including without limitation the rights to use, copy, modify, merge, publish,
// distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions: The above copyright notice and this permission notice
// shall be included in all copies or substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS",
// WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
//
// QcSlerp.slerp(q0, q1, t): the rotation at fraction t along the shorter arc from q0 to q1, a new double[4].
// QcSlerp.nlerp(q0, q1, t): the normalised lerp along the shorter arc, a new double[4].
// q0, q1: 4 doubles each in one component order, (w, x, y, z) or (x, y, z, w), the same for both; the output has
// that order. Inputs need not be unit (they are normalised inside); a zero quaternion reads as the identity (1 in
// the first slot); every finite input with |t| <= 2^64 gives a finite output. The inputs are not modified.
public final class QcSlerp {
    private static final double SERIES_Y = 0x1p-10;   // below: the series, no libm call (A < 0.0442)
    private static final double NEAR_UNIT = 0x1p-24;  // |n - 1| below: 1/sqrt(n) by a polynomial
    private static final double LO = 0x1p-450, HI = 0x1p450;  // squared norms outside: rescale first

    private QcSlerp() {}

    private static double norm2(double[] q) {
        return (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3]);
    }

    private static double dot(double[] a, double[] b) {
        return (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]);
    }

    /** 1/sqrt(n); near n = 1 (n = 1 + e, |e| < 2^-24) the polynomial 1 - e/2 + 3e^2/8, error below 2^-73. */
    private static double rnorm(double n) {
        double e = n - 1.0;
        if (e > -NEAR_UNIT && e < NEAR_UNIT) return 1.0 + e * (-0.5 + 0.375 * e);
        return 1.0 / Math.sqrt(n);
    }

    /** q, or the identity where q is the zero quaternion (a nonzero q whose norm underflows is kept). */
    private static double[] nonzero(double[] q) {
        if (q[0] == 0.0 && q[1] == 0.0 && q[2] == 0.0 && q[3] == 0.0) return new double[] {1.0, 0.0, 0.0, 0.0};
        return q;
    }

    /** q (nonzero) scaled by a power of two that brings its largest component into [1, 2), as a new array. */
    private static double[] rescale(double[] q) {
        double m = Math.max(Math.max(Math.abs(q[0]), Math.abs(q[1])), Math.max(Math.abs(q[2]), Math.abs(q[3])));
        int e = Math.getExponent(m);
        if (e < Double.MIN_EXPONENT) e = Math.getExponent(m * 0x1p64) - 64;  // subnormal
        double[] r = new double[4];
        for (int i = 0; i < 4; i++) r[i] = Math.scalb(q[i], -e);
        return r;
    }

    /** The inputs ready for use: {a, b} (the zero quaternion read as the identity, both rescaled when a norm is
     *  far from 1) and {1/|a|, 1/|b|, a.b} in prep. */
    private static double[][] prepare(double[] q0, double[] q1, double[] prep) {
        double[] a = q0, b = q1;
        double na = norm2(a), nb = norm2(b);
        if (!(na > LO && na < HI && nb > LO && nb < HI)) {  // rare: zero, tiny or huge inputs
            a = nonzero(a);
            b = nonzero(b);
            na = norm2(a);
            nb = norm2(b);
            if (!(na > LO && na < HI && nb > LO && nb < HI)) {
                a = rescale(a);
                b = rescale(b);
                na = norm2(a);
                nb = norm2(b);
            }
        }
        prep[0] = rnorm(na);
        prep[1] = rnorm(nb);
        prep[2] = dot(a, b);
        return new double[][] {a, b};
    }

    /** sin(tA)/sin A for y = 1 - cos A < 2^-10: the sum of c_i(t) y^i for i = 0..6, c_0 = t and
     *  c_i = c_(i-1) (i^2 - t^2) / (i (2i + 1)), by Horner's rule (truncation below 2^-66). */
    private static double series(double t, double y) {
        double t2 = t * t;
        double g = 1.0 + y * ((36.0 - t2) * (1.0 / 78.0));
        g = 1.0 + y * ((25.0 - t2) * (1.0 / 55.0)) * g;
        g = 1.0 + y * ((16.0 - t2) * (1.0 / 36.0)) * g;
        g = 1.0 + y * ((9.0 - t2) * (1.0 / 21.0)) * g;
        g = 1.0 + y * ((4.0 - t2) * (1.0 / 10.0)) * g;
        g = 1.0 + y * ((1.0 - t2) * (1.0 / 3.0)) * g;
        return t * g;
    }

    private static double[] combine(double[] a, double wa, double[] b, double wb) {
        return new double[] {wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2], wa * a[3] + wb * b[3]};
    }

    public static double[] slerp(double[] q0, double[] q1, double t) {
        double[] p = new double[3];
        double[][] ab = prepare(q0, q1, p);
        double d = p[2];
        double c = Math.min(Math.abs(d) * p[0] * p[1], 1.0);
        double y = 1.0 - c;  // exact for c >= 1/2
        double w0, w1;
        if (y < SERIES_Y) {
            w1 = series(t, y);
            w0 = series(1.0 - t, y);
        } else {
            double invSin = 1.0 / Math.sqrt(y * (1.0 + c));  // 1/sin A from the same c
            double x = t * Math.acos(c);
            w1 = Math.sin(x) * invSin;
            w0 = Math.cos(x) - c * w1;
        }
        // The short arc (d = 0 keeps q1); the normalisation folded into the weights.
        return combine(ab[0], w0 * p[0], ab[1], (d < 0.0 ? -w1 : w1) * p[1]);
    }

    public static double[] nlerp(double[] q0, double[] q1, double t) {
        double[] p = new double[3];
        double[][] ab = prepare(q0, q1, p);
        double[] v = combine(ab[0], (1.0 - t) * p[0], ab[1], (p[2] < 0.0 ? -t : t) * p[1]);
        double n = norm2(v);
        if (!(n > LO && n < HI)) {
            if (v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0 && v[3] == 0.0) return new double[] {1.0, 0.0, 0.0, 0.0};
            for (double x : v)
                if (!Double.isFinite(x)) return v;  // only from a non-finite t
            v = rescale(v);
            n = norm2(v);
        }
        double r = 1.0 / Math.sqrt(n);
        return new double[] {v[0] * r, v[1] * r, v[2] * r, v[3] * r};
    }
}
