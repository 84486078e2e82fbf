// broken-noflip (negative control): the seed's slerp without the shortest-arc sign flip; for q0.q1 < 0 it
// interpolates the long way round. Meant to be caught by `shortest-arc`.
#include "quatcheck/registry.h"
#include "seed_steps.h"

namespace {

using namespace qc_broken;

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];  // d < 0 stays: no flip
    if (std::fabs(d) > T(0.9995)) {
        for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (q1[i] - q0[i]);
        return normalise(out);
    }
    arc(q0, q1, d, t, out);  // acos(d) in (0, pi): the long arc when d < 0
}

const qc_impl_v1 table = {"broken-noflip", slerp<float>, nullptr, nullptr, nullptr,
                          slerp<double>,   nullptr,      nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: slerp without the shortest-arc flip (caught by shortest-arc)");
