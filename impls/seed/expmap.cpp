// expmap: the exponential-map form of seed document 000, q0 * exp(t * log(q0^-1 q1)), with the sign flip
// applied to q1 first (q1 <- -q1 when q0 . q1 < 0) so the log is taken on the short arc.
// log of a unit quaternion (c, v) is (0, atan2(|v|, c) v/|v|); exp of (0, u) is (cos|u|, sin|u| u/|u|).
#include "quatcheck/registry.h"

#include <cmath>

namespace {

template <class T> void mul(const T a[4], const T b[4], T out[4]) {
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

template <class T> void expmap(const T q0[4], const T q1_in[4], T t, T out[4]) {
    T q1[4] = {q1_in[0], q1_in[1], q1_in[2], q1_in[3]};
    T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    if (d < T(0))
        for (T &c : q1) c = -c;
    T inv0[4] = {q0[0], -q0[1], -q0[2], -q0[3]};  // conjugate = inverse for a unit quaternion
    T rel[4];
    mul(inv0, q1, rel);
    T vn = std::sqrt(rel[1] * rel[1] + rel[2] * rel[2] + rel[3] * rel[3]);
    T angle = std::atan2(vn, rel[0]);  // half the rotation angle
    T step[4] = {T(1), T(0), T(0), T(0)};
    if (vn > T(0)) {
        T a = t * angle;
        T k = std::sin(a) / vn;
        step[0] = std::cos(a);
        step[1] = k * rel[1];
        step[2] = k * rel[2];
        step[3] = k * rel[3];
    }
    mul(q0, step, out);
}

const qc_impl_v1 table = {
    "expmap", expmap<float>, nullptr, nullptr, nullptr, expmap<double>, nullptr, nullptr, nullptr,
};

}  // namespace

QC_REGISTER_IMPL(table, "seed",
                 "q0 exp(t log(q0^-1 q1)) after the sign flip (seed 000's exponential map): constant speed, short arc");
