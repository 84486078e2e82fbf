// broken-nlerp-as-slerp (negative control): a correct normalised lerp with the sign flip, registered in the
// slerp slot, i.e. offered to callers who were promised constant angular speed. Meant to be caught by
// `constant-speed`.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    T s = d < T(0) ? T(-1) : T(1);
    for (int i = 0; i < 4; i++) out[i] = (T(1) - t) * q0[i] + t * (s * q1[i]);
    T n = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
    for (int i = 0; i < 4; i++) out[i] /= n;
}

const qc_impl_v1 table = {"broken-nlerp-as-slerp", slerp<float>, nullptr, nullptr, nullptr,
                          slerp<double>,           nullptr,      nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: nlerp registered as slerp (caught by constant-speed)");
