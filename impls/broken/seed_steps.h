// The seed slerp's steps (impls/seed), shared by the negative controls that keep all of them but the one
// they break: each control's own file spells out its broken step. The arithmetic is the seed's, operation for
// operation.
#pragma once

#include <cmath>

namespace qc_broken {

// q1 = q1_in, negated when q0.q1_in < 0 (the short arc); returns |q0.q1_in|.
template <class T> T short_arc(const T q0[4], const T q1_in[4], T q1[4]) {
    for (int i = 0; i < 4; i++) q1[i] = q1_in[i];
    T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    if (d < T(0)) {
        d = -d;
        for (int i = 0; i < 4; i++) q1[i] = -q1[i];
    }
    return d;
}

// out /= |out|.
template <class T> void normalise(T out[4]) {
    T n = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
    for (int i = 0; i < 4; i++) out[i] /= n;
}

// out = a q0 + b q1 with the sine weights of the arc W = acos(d), d = q0.q1 (no clamp, no small-angle branch):
// a = sin((1 - t) W) / sin W, b = sin(t W) / sin W.
template <class T> void arc(const T q0[4], const T q1[4], T d, T t, T out[4]) {
    T w = std::acos(d);
    T a = std::sin((T(1) - t) * w) / std::sin(w), b = std::sin(t * w) / std::sin(w);
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * q1[i];
}

// The seed's slerp from q0 to q1 once q1 is on q0's side (d = q0.q1 >= 0): the normalised lerp above
// d = 0.9995, the arc below.
template <class T> void slerp_after_flip(const T q0[4], const T q1[4], T d, T t, T out[4]) {
    if (d > T(0.9995)) {
        for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (q1[i] - q0[i]);
        return normalise(out);
    }
    arc(q0, q1, d, t, out);
}

}  // namespace qc_broken
