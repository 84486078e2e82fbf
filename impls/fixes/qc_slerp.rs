//! qc_slerp.rs: quatcheck's recommended slerp (qc-slerp) and a correct nlerp, in Rust (no dependencies).
//! Algorithm: impls/recommended/qc_slerp.h of quatcheck (MIT), design choices 1-6, its f64 path in plain
//! double (the "narrow" variant, measured by quatcheck as qc-slerp-narrow.f64: about 2 ulp1 at worst). The
//! small-arc power series of sin(tA)/sin A in y = 1 - cos A is the series behind D. Eberly, "A Fast and
//! Accurate Algorithm for Computing SLERP", Journal of Graphics, GPU, and Game Tools, 2011 (as qc_slerp.h cites it).
//!
//! MIT License. Copyright (c) 2026 the quatcheck authors. Permission is hereby granted, free of charge, to
//! any person obtaining a copy of this software and associated documentation files (the "Software"), to deal
//! in the Software without restriction, including without limitation the rights to use, copy, modify, merge,
//! publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
//! Software is furnished to do so, subject to the following conditions: The above copyright notice and this
//! permission notice shall be included in all copies or substantial portions of the Software. THE SOFTWARE
//! IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
//!
//! `slerp(q0, q1, t)`: the rotation at fraction t along the shorter arc from q0 to q1.
//! `nlerp(q0, q1, t)`: normalised lerp along the shorter arc.
//! q0, q1 in any component order (w, x, y, z or x, y, z, w), the same for both; the output has that order.
//! Inputs need not be unit (they are normalised inside); a zero quaternion is read as the identity (1 in the
//! first slot); every finite input with |t| <= 2^64 gives a finite output.

const SERIES_Y: f64 = 1.0 / 1024.0; // 2^-10: series below this y = 1 - c (A < 0.0442), no libm call
const NEAR_UNIT: f64 = 1.0 / 16_777_216.0; // 2^-24: |n - 1| below this, 1/sqrt(n) from a polynomial
const LO: f64 = 3.4395525670743494e-136; // 2^-450 exactly; norms outside [LO, HI]: rescale the inputs
const HI: f64 = 2.9073548971824276e135; // 2^450 exactly

/// 2^k exactly, for an integer k in [-1074, 1023].
fn pow2(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

/// A copy of q with a zero quaternion read as the identity.
fn fix_zero(q: [f64; 4]) -> [f64; 4] {
    let mut a = q;
    if a[0] == 0.0 && a[1] == 0.0 && a[2] == 0.0 && a[3] == 0.0 {
        a[0] = 1.0;
    }
    a
}

/// Rescales q (nonzero, finite) by a power of two so that its largest component is in [1, 2).
fn rescale(q: &mut [f64; 4]) {
    let mut m = q.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let mut k = 0i32; // m 2^k in [1, 2)
    if m < f64::MIN_POSITIVE {
        m *= pow2(64); // subnormal: make it normal first (exact)
        k = 64;
    }
    k -= ((m.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    for x in q.iter_mut() {
        *x = if k <= 1023 { *x * pow2(k) } else { *x * pow2(1023) * pow2(k - 1023) }; // exact steps
    }
}

fn norm2(q: &[f64; 4]) -> f64 {
    (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3])
}

/// 1/sqrt(n); for n = 1 + e, |e| < 2^-24, the Taylor polynomial 1 - e/2 + 3e^2/8 (error < 2^-73).
fn rnorm(n: f64) -> f64 {
    let e = n - 1.0;
    if e > -NEAR_UNIT && e < NEAR_UNIT {
        1.0 + e * (-0.5 + 0.375 * e)
    } else {
        1.0 / n.sqrt()
    }
}

/// The inputs ready for use (zero read as identity, rescaled when a norm is far from 1), their reciprocal
/// norms and their dot product.
fn prepare(q0: [f64; 4], q1: [f64; 4]) -> ([f64; 4], [f64; 4], f64, f64, f64) {
    let (mut a, mut b) = (fix_zero(q0), fix_zero(q1));
    let (mut na, mut nb) = (norm2(&a), norm2(&b));
    if !(na > LO && na < HI && nb > LO && nb < HI) {
        rescale(&mut a);
        rescale(&mut b);
        na = norm2(&a);
        nb = norm2(&b);
    }
    let d = (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]);
    (a, b, rnorm(na), rnorm(nb), d)
}

/// sin(tA)/sin A for y = 1 - cos A < 2^-10: six terms of sum_i c_i(t) y^i, c_0 = t,
/// c_i = c_{i-1} (i^2 - t^2)/(i (2i + 1)); truncation below 2^-66.
fn series(t: f64, y: f64) -> f64 {
    let t2 = t * t;
    let mut g = 1.0;
    g = 1.0 + y * ((36.0 - t2) * (1.0 / 78.0)) * g;
    g = 1.0 + y * ((25.0 - t2) * (1.0 / 55.0)) * g;
    g = 1.0 + y * ((16.0 - t2) * (1.0 / 36.0)) * g;
    g = 1.0 + y * ((9.0 - t2) * (1.0 / 21.0)) * g;
    g = 1.0 + y * ((4.0 - t2) * (1.0 / 10.0)) * g;
    g = 1.0 + y * ((1.0 - t2) * (1.0 / 3.0)) * g;
    t * g
}

fn combine(a: &[f64; 4], b: &[f64; 4], wa: f64, wb: f64) -> [f64; 4] {
    [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2], wa * a[3] + wb * b[3]]
}

pub fn slerp(q0: [f64; 4], q1: [f64; 4], t: f64) -> [f64; 4] {
    let (a, b, ra, rb, d) = prepare(q0, q1);
    let sign = if d < 0.0 { -1.0 } else { 1.0 }; // shortest arc; d = 0 keeps q1
    let mut c = d.abs() * ra * rb;
    if c > 1.0 {
        c = 1.0;
    }
    let y = 1.0 - c; // exact for c >= 1/2
    let (w0, w1);
    if y < SERIES_Y {
        w1 = series(t, y);
        w0 = series(1.0 - t, y);
    } else {
        let inv_s = 1.0 / (y * (1.0 + c)).sqrt(); // 1/sin A from the same c
        let x = t * c.acos();
        w1 = x.sin() * inv_s;
        w0 = x.cos() - c * w1;
    }
    combine(&a, &b, w0 * ra, sign * w1 * rb) // normalisation folded into the weights
}

pub fn nlerp(q0: [f64; 4], q1: [f64; 4], t: f64) -> [f64; 4] {
    let (a, b, ra, rb, d) = prepare(q0, q1);
    let mut v = combine(&a, &b, (1.0 - t) * ra, (if d < 0.0 { -t } else { t }) * rb);
    let mut n = norm2(&v);
    if !(n > LO && n < HI) {
        if v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0 && v[3] == 0.0 {
            return [1.0, 0.0, 0.0, 0.0];
        }
        if !v.iter().all(|x| x.is_finite()) {
            return v; // only from a non-finite t
        }
        rescale(&mut v);
        n = norm2(&v);
    }
    let r = 1.0 / n.sqrt();
    [v[0] * r, v[1] * r, v[2] * r, v[3] * r]
}
