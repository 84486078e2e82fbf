// broken-swapped-weights (negative control): the seed's slerp with the two sine weights exchanged, so it
// runs from q1 to q0. Meant to be caught by `endpoints`.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

template <class T> void slerp(const T q0[4], const T q1_in[4], T t, T out[4]) {
    T q1[4] = {q1_in[0], q1_in[1], q1_in[2], q1_in[3]};
    T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    if (d < T(0)) {
        d = -d;
        for (T &c : q1) c = -c;
    }
    if (d > T(0.9995)) {
        for (int i = 0; i < 4; i++) out[i] = q1[i] + t * (q0[i] - q1[i]);
        T n = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    T w = std::acos(d);
    T a = std::sin((T(1) - t) * w) / std::sin(w), b = std::sin(t * w) / std::sin(w);
    for (int i = 0; i < 4; i++) out[i] = b * q0[i] + a * q1[i];  // weights swapped
}

const qc_impl_v1 table = {
    "broken-swapped-weights", slerp<float>, nullptr, nullptr, nullptr, slerp<double>, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: slerp weights swapped (caught by endpoints)");
