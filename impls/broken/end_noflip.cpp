// broken-end-noflip (negative control): the seed's slerp with an early return of q1 as given at t = 1, before
// the shortest-arc flip. The rotation is right (q1 and -q1 are one rotation), but for q0.q1 < 0 the output at
// t = 1 is the far end -b instead of the end b the short arc reaches, and it jumps there from its neighbour
// t = 1 - ulp. Only the t = 1 side of `endpoints` catches it; t = 0 stays right.
#include "quatcheck/registry.h"
#include "seed_steps.h"

namespace {

using namespace qc_broken;

template <class T> void slerp(const T q0[4], const T q1_in[4], T t, T out[4]) {
    if (t == T(1)) {  // "nothing to interpolate": returns the given end, unflipped
        for (int i = 0; i < 4; i++) out[i] = q1_in[i];
        return;
    }
    T q1[4];
    T d = short_arc(q0, q1_in, q1);
    slerp_after_flip(q0, q1, d, t, out);
}

const qc_impl_v1 table = {"broken-end-noflip", slerp<float>, nullptr, nullptr, nullptr,
                          slerp<double>,       nullptr,      nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: returns q1 unflipped at t = 1 (caught by endpoints, t = 1 side)");
