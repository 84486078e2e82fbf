// broken-unnormalised-fallback (negative control): the seed's slerp whose lerp fallback above dot 0.9995
// forgets to normalise: the chord's midpoint lies cos(W/2) inside the sphere. Meant to be caught by `unit`.
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
        for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (q1[i] - q0[i]);  // no normalisation
        return;
    }
    T w = std::acos(d);
    T a = std::sin((T(1) - t) * w) / std::sin(w), b = std::sin(t * w) / std::sin(w);
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * q1[i];
}

const qc_impl_v1 table = {
    "broken-unnormalised-fallback", slerp<float>, nullptr, nullptr, nullptr, slerp<double>, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: lerp fallback without normalisation (caught by unit)");
