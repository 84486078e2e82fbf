"""qc_slerp.py: quatcheck's recommended slerp (qc-slerp) and a correct nlerp, in Python (floats, math only).

Algorithm: impls/recommended/qc_slerp.h of quatcheck (MIT), design choices 1-6, its f64 path in plain double
(the "narrow" variant, measured by quatcheck as qc-slerp-narrow.f64: about 2 ulp1 at worst). The small-arc
power series of sin(tA)/sin A in y = 1 - cos A is the series behind D. Eberly, "A Fast and Accurate Algorithm
for Computing SLERP", Journal of Graphics, GPU, and Game Tools, 2011 (as qc_slerp.h cites it).

MIT License. Copyright (c) 2026 the quatcheck authors. Permission is hereby granted, free of charge, to any
person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the
Software without restriction, including without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions: The above copyright notice and this permission notice
shall be included in all copies or substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS",
WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.

slerp(q0, q1, t): the rotation at fraction t along the shorter arc from q0 to q1, a new list of 4 floats.
nlerp(q0, q1, t): normalised lerp along the shorter arc, a new list of 4 floats.
q0, q1: sequences of 4 floats in any component order (w, x, y, z or x, y, z, w), the same for both; the output
has that order. Inputs need not be unit (they are normalised inside); a zero quaternion is read as the
identity (1 in the first slot); every finite input with |t| <= 2^64 gives a finite output.
"""
import math

_SERIES_Y = 2.0**-10  # series below this y = 1 - c (A < 0.0442): no libm call
_NEAR_UNIT = 2.0**-24  # |n - 1| below this: 1/sqrt(n) from a polynomial
_LO, _HI = 2.0**-450, 2.0**450  # norms outside [_LO, _HI]: rescale the inputs first


def _fix_zero(q):
    """q, or the identity if q is the zero quaternion (a nonzero q whose norm underflows is not)."""
    if q[0] == 0.0 and q[1] == 0.0 and q[2] == 0.0 and q[3] == 0.0:
        return [1.0, 0.0, 0.0, 0.0]
    return q


def _rescale(q):
    """q (nonzero) times a power of two that puts its largest component in [1, 2), as a new list."""
    _, e = math.frexp(max(abs(x) for x in q))
    return [math.ldexp(x, 1 - e) for x in q]


def _norm2(q):
    return (q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3])


def _rnorm(n):
    """1/sqrt(n); for n = 1 + e, |e| < 2^-24, the Taylor polynomial 1 - e/2 + 3e^2/8 (error < 2^-73)."""
    e = n - 1.0
    if -_NEAR_UNIT < e < _NEAR_UNIT:
        return 1.0 + e * (-0.5 + 0.375 * e)
    return 1.0 / math.sqrt(n)


def _prepare(q0, q1):
    """The inputs ready for use (a zero quaternion read as the identity; both rescaled when a norm is far
    from 1), their reciprocal norms and their dot product."""
    a, b = q0, q1
    na, nb = _norm2(a), _norm2(b)
    if not (_LO < na < _HI and _LO < nb < _HI):  # rare: zero, tiny or huge inputs
        a, b = _fix_zero(a), _fix_zero(b)
        na, nb = _norm2(a), _norm2(b)
        if not (_LO < na < _HI and _LO < nb < _HI):
            a, b = _rescale(a), _rescale(b)
            na, nb = _norm2(a), _norm2(b)
    d = (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3])
    return a, b, _rnorm(na), _rnorm(nb), d


def _series(t, y):
    """sin(tA)/sin A for y = 1 - cos A < 2^-10: six terms of sum_i c_i(t) y^i, c_0 = t,
    c_i = c_{i-1} (i^2 - t^2)/(i (2i + 1)); truncation below 2^-66."""
    t2 = t * t
    g = 1.0 + y * ((36.0 - t2) * (1.0 / 78.0))
    g = 1.0 + y * ((25.0 - t2) * (1.0 / 55.0)) * g
    g = 1.0 + y * ((16.0 - t2) * (1.0 / 36.0)) * g
    g = 1.0 + y * ((9.0 - t2) * (1.0 / 21.0)) * g
    g = 1.0 + y * ((4.0 - t2) * (1.0 / 10.0)) * g
    g = 1.0 + y * ((1.0 - t2) * (1.0 / 3.0)) * g
    return t * g


def slerp(q0, q1, t):
    a, b, ra, rb, d = _prepare(q0, q1)
    c = abs(d) * ra * rb
    if c > 1.0:
        c = 1.0
    y = 1.0 - c  # exact for c >= 1/2
    if y < _SERIES_Y:
        w1 = _series(t, y)
        w0 = _series(1.0 - t, y)
    else:
        inv_s = 1.0 / math.sqrt(y * (1.0 + c))  # 1/sin A from the same c
        x = t * math.acos(c)
        w1 = math.sin(x) * inv_s
        w0 = math.cos(x) - c * w1
    wa = w0 * ra
    wb = (-w1 if d < 0.0 else w1) * rb  # shortest arc (d = 0 keeps q1); normalisation folded into the weights
    return [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2], wa * a[3] + wb * b[3]]


def nlerp(q0, q1, t):
    a, b, ra, rb, d = _prepare(q0, q1)
    wa = (1.0 - t) * ra
    wb = (-t if d < 0.0 else t) * rb
    v = [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2], wa * a[3] + wb * b[3]]
    n = _norm2(v)
    if not _LO < n < _HI:
        if v[0] == 0.0 and v[1] == 0.0 and v[2] == 0.0 and v[3] == 0.0:
            return [1.0, 0.0, 0.0, 0.0]
        if not all(math.isfinite(x) for x in v):
            return v  # only from a non-finite t
        v = _rescale(v)
        n = _norm2(v)
    r = 1.0 / math.sqrt(n)
    return [v[0] * r, v[1] * r, v[2] * r, v[3] * r]
