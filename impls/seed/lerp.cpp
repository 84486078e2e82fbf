// lerp: plain component-wise lerp q0 + t (q1 - q0), no sign flip and no normalisation: the "naive try"
// that the seeds warn about (it leaves the unit sphere and takes the long way for dot < 0).
// Registered in the slerp slot, since it is what a caller who wanted slerp wrote; its deviations are
// declared known so the tests separate "documented naive" from "broken".
#include "quatcheck/registry.h"

namespace {

template <class T> void lerp(const T q0[4], const T q1[4], T t, T out[4]) {
    for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (q1[i] - q0[i]);
}

const qc_impl_v1 table = {
    "lerp", lerp<float>, nullptr, nullptr, nullptr, lerp<double>, nullptr, nullptr, nullptr,
};

const char *why = "naive component lerp as described by seeds 000/003: leaves the sphere, no sign flip, chord timing";

}  // namespace

QC_REGISTER_IMPL_EX(table, "seed",
                    "component lerp q0 + t(q1 - q0): no flip, no normalisation; promises only the endpoints", "",
                    {{"*", "unit", why},
                     {"*", "shortest-arc", why},
                     {"*", "sign-invariance", why},
                     {"*", "constant-speed", why},
                     {"*", "monotone", why},
                     {"*", "symmetry", why},
                     {"*", "endpoints",
                      "no sign flip (seeds 000/003): at t = 1 it returns q1 even where the short arc ends at -q1"}});
