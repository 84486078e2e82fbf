// broken-noflip (negative control): the seed's slerp without the shortest-arc sign flip; for q0.q1 < 0 it
// interpolates the long way round. Meant to be caught by `shortest-arc`.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    if (std::fabs(d) > T(0.9995)) {  // the seed's fallback, kept
        for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (q1[i] - q0[i]);
        T n = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    T w = std::acos(d);  // in (0, pi): the long arc when d < 0
    T a = std::sin((T(1) - t) * w) / std::sin(w), b = std::sin(t * w) / std::sin(w);
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * q1[i];
}

const qc_impl_v1 table = {"broken-noflip", slerp<float>, nullptr, nullptr, nullptr,
                          slerp<double>,   nullptr,      nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: slerp without the shortest-arc flip (caught by shortest-arc)");
