// nlerp: normalised linear interpolation with the shortest-arc sign flip, as seeds 000 and 003 define it:
// ((1 - t) q0 + t s q1) / |(1 - t) q0 + t s q1|, s = sign(q0 . q1). Same path as slerp, uneven speed.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

template <class T> void nlerp(const T q0[4], const T q1[4], T t, T out[4]) {
    T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    T s = d < T(0) ? T(-1) : T(1);
    T v[4];
    for (int i = 0; i < 4; i++) v[i] = (T(1) - t) * q0[i] + t * (s * q1[i]);
    T n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    for (int i = 0; i < 4; i++) out[i] = v[i] / n;
}

const qc_impl_v1 table = {
    "nlerp", nullptr, nlerp<float>, nullptr, nullptr, nullptr, nlerp<double>, nullptr, nullptr,
};

}  // namespace

QC_REGISTER_IMPL_EX(table, "seed",
                    "normalised lerp with the sign flip: short arc, unit output; documented not constant-speed", "",
                    {{"nlerp", "constant-speed",
                      "seed 003: nlerp 'moves along that arc at non-constant angular velocity: slow near the ends, "
                      "fast in the middle'"}});
