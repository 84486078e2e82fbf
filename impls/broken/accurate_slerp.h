// A slerp accurate to a few ulps, shared by the negative controls that must be correct outside the one
// defect they plant (the needles): W/2 = atan2(|a - b|, |a + b|) after the short-arc flip, which keeps full
// relative precision at both ends (the reference's formulation, evaluated in the format).
#pragma once

#include <cmath>

namespace qc_broken {

template <class T> T dot4(const T a[4], const T b[4]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }

template <class T> void accurate_slerp(const T q0[4], const T q1_in[4], T t, T out[4]) {
    T q1[4] = {q1_in[0], q1_in[1], q1_in[2], q1_in[3]};
    if (dot4(q0, q1) < T(0))
        for (T &c : q1) c = -c;
    T dm = 0, dp = 0;
    for (int i = 0; i < 4; i++) dm += (q0[i] - q1[i]) * (q0[i] - q1[i]), dp += (q0[i] + q1[i]) * (q0[i] + q1[i]);
    T w = T(2) * std::atan2(std::sqrt(dm), std::sqrt(dp));
    T s = std::sin(w);
    if (s == T(0)) {
        T n = std::sqrt(dot4(q0, q0));
        for (int i = 0; i < 4; i++) out[i] = q0[i] / n;
        return;
    }
    T a = std::sin((T(1) - t) * w) / s, b = std::sin(t * w) / s;
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * q1[i];
    T n = std::sqrt(dot4(out, out));
    for (int i = 0; i < 4; i++) out[i] /= n;
}

}  // namespace qc_broken
