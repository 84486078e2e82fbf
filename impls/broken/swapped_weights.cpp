// broken-swapped-weights (negative control): the seed's slerp with the two sine weights exchanged, so it
// runs from q1 to q0. Meant to be caught by `endpoints`.
#include "quatcheck/registry.h"
#include "seed_steps.h"

namespace {

using namespace qc_broken;

template <class T> void slerp(const T q0[4], const T q1_in[4], T t, T out[4]) {
    T q1[4];
    T d = short_arc(q0, q1_in, q1);
    slerp_after_flip(q1, q0, d, t, out);  // q0 and q1 exchanged: the weights swapped, from q1 to q0
}

const qc_impl_v1 table = {
    "broken-swapped-weights", slerp<float>, nullptr, nullptr, nullptr, slerp<double>, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: slerp weights swapped (caught by endpoints)");
