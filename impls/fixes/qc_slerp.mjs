// qc_slerp.mjs: quatcheck's recommended slerp (qc-slerp) and a correct nlerp, in JavaScript.
// Algorithm: impls/recommended/qc_slerp.h of quatcheck (MIT), design choices 1-6, its f64 path in plain
// double (the "narrow" variant, measured by quatcheck as qc-slerp-narrow.f64: about 2 ulp1 at worst). The
// small-arc power series of sin(tA)/sin A in y = 1 - cos A is the series behind D. Eberly, "A Fast and
// Accurate Algorithm for Computing SLERP", Journal of Graphics, GPU, and Game Tools, 2011 (as qc_slerp.h cites it).
//
// MIT License. Copyright (c) 2026 the quatcheck authors. Permission is hereby granted, free of charge, to
// any person obtaining a copy of this software and associated documentation files (the "Software"), to
// deal in the Software without restriction, including without limitation the rights to use, copy, modify,
// merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom
// the Software is furnished to do so, subject to the following conditions: The above copyright notice and
// this permission notice shall be included in all copies or substantial portions of the Software. THE
// SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
//
// slerp(q0, q1, t): the rotation at fraction t along the shorter arc from q0 to q1, a new array of 4.
// nlerp(q0, q1, t): normalised lerp along the shorter arc, a new array of 4.
// q0, q1: arrays of 4 numbers in any component order (w, x, y, z or x, y, z, w), the same for both; the
// output has that order. Inputs need not be unit (they are normalised inside); a zero quaternion is read as
// the identity (1 in the first slot); every finite input with |t| <= 2^64 gives a finite output.

const SERIES_Y = 2 ** -10; // series below this y = 1 - c (A < 0.0442): no libm call
const NEAR_UNIT = 2 ** -24; // |n - 1| below this: 1/sqrt(n) from a polynomial
const LO = 2 ** -450, HI = 2 ** 450; // norms outside [LO, HI]: rescale the inputs first

// A copy of q with a zero quaternion read as the identity.
function copyFixZero(q) {
  const a = [q[0], q[1], q[2], q[3]];
  if (a[0] === 0 && a[1] === 0 && a[2] === 0 && a[3] === 0) a[0] = 1;
  return a;
}

// Rescales q (nonzero) in place by a power of two so that its largest component is in [1, 2).
function rescale(q) {
  let m = Math.max(Math.abs(q[0]), Math.abs(q[1]), Math.abs(q[2]), Math.abs(q[3]));
  let k = 0; // m 2^k in [1, 2); the steps are exact (powers of two), at most about 1100 (rare path only)
  while (m >= 2) m /= 2, k--;
  while (m < 1) m *= 2, k++;
  // 2 ** k: an exact power of two (a double for k <= 1023); beyond, two exact steps.
  if (k <= 1023) for (let i = 0; i < 4; i++) q[i] *= 2 ** k;
  else for (let i = 0; i < 4; i++) q[i] = q[i] * 2 ** 1023 * 2 ** (k - 1023);
}

function norm2(q) {
  return q[0] * q[0] + q[1] * q[1] + (q[2] * q[2] + q[3] * q[3]);
}

// 1/sqrt(n); for n = 1 + e, |e| < 2^-24, the Taylor polynomial 1 - e/2 + 3e^2/8 (error < 2^-73).
function rnorm(n) {
  const e = n - 1;
  if (e > -NEAR_UNIT && e < NEAR_UNIT) return 1 + e * (-0.5 + 0.375 * e);
  return 1 / Math.sqrt(n);
}

// The two inputs ready for use: copies, zero read as identity, rescaled when a norm is far from 1, with
// their reciprocal norms and dot product.
function prepare(q0, q1) {
  const a = copyFixZero(q0), b = copyFixZero(q1);
  let na = norm2(a), nb = norm2(b);
  if (!(na > LO && na < HI && nb > LO && nb < HI)) {
    rescale(a);
    rescale(b);
    na = norm2(a);
    nb = norm2(b);
  }
  const d = a[0] * b[0] + a[1] * b[1] + (a[2] * b[2] + a[3] * b[3]);
  return { a, b, ra: rnorm(na), rb: rnorm(nb), d };
}

// sin(tA)/sin A for y = 1 - cos A < 2^-10: six terms of sum_i c_i(t) y^i, c_0 = t,
// c_i = c_{i-1} (i^2 - t^2)/(i (2i + 1)); truncation below 2^-66.
function series(t, y) {
  const t2 = t * t;
  let g = 1;
  g = 1 + y * ((36 - t2) * (1 / 78)) * g;
  g = 1 + y * ((25 - t2) * (1 / 55)) * g;
  g = 1 + y * ((16 - t2) * (1 / 36)) * g;
  g = 1 + y * ((9 - t2) * (1 / 21)) * g;
  g = 1 + y * ((4 - t2) * (1 / 10)) * g;
  g = 1 + y * ((1 - t2) * (1 / 3)) * g;
  return t * g;
}

export function slerp(q0, q1, t) {
  const { a, b, ra, rb, d } = prepare(q0, q1);
  const sign = d < 0 ? -1 : 1; // shortest arc; d = 0 keeps q1
  let c = Math.abs(d) * ra * rb;
  if (c > 1) c = 1;
  const y = 1 - c; // exact for c >= 1/2
  let w0, w1;
  if (y < SERIES_Y) {
    w1 = series(t, y);
    w0 = series(1 - t, y);
  } else {
    const invS = 1 / Math.sqrt(y * (1 + c)); // 1/sin A from the same c
    const x = t * Math.acos(c);
    w1 = Math.sin(x) * invS;
    w0 = Math.cos(x) - c * w1;
  }
  const wa = w0 * ra, wb = sign * w1 * rb; // normalisation folded into the weights
  return [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2], wa * a[3] + wb * b[3]];
}

export function nlerp(q0, q1, t) {
  const { a, b, ra, rb, d } = prepare(q0, q1);
  const wa = (1 - t) * ra, wb = (d < 0 ? -t : t) * rb;
  const v = [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2], wa * a[3] + wb * b[3]];
  let n = norm2(v);
  if (!(n > LO && n < HI)) {
    if (v[0] === 0 && v[1] === 0 && v[2] === 0 && v[3] === 0) return [1, 0, 0, 0];
    if (!v.every(Number.isFinite)) return v; // only from a non-finite t
    rescale(v);
    n = norm2(v);
  }
  const r = 1 / Math.sqrt(n);
  return [v[0] * r, v[1] * r, v[2] * r, v[3] * r];
}
