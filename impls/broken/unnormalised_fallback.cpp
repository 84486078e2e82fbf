// broken-unnormalised-fallback (negative control): the seed's slerp whose lerp fallback above dot 0.9995
// forgets to normalise: the chord's midpoint lies cos(W/2) inside the sphere. Meant to be caught by `unit`.
#include "quatcheck/registry.h"
#include "seed_steps.h"

namespace {

using namespace qc_broken;

template <class T> void slerp(const T q0[4], const T q1_in[4], T t, T out[4]) {
    T q1[4];
    T d = short_arc(q0, q1_in, q1);
    if (d > T(0.9995)) {
        for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (q1[i] - q0[i]);  // no normalisation
        return;
    }
    arc(q0, q1, d, t, out);
}

const qc_impl_v1 table = {
    "broken-unnormalised-fallback", slerp<float>, nullptr, nullptr, nullptr, slerp<double>, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: lerp fallback without normalisation (caught by unit)");
