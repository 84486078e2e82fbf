// broken-acos-unclamped (negative control): sine-weighted slerp with acos of the raw dot product, no clamp
// to [-1, 1] and no small-angle branch: equal ends give sin(0)/sin(0) = NaN, and a dot product that rounds
// above 1 gives acos = NaN. Meant to be caught by `finite`.
#include "quatcheck/registry.h"
#include "seed_steps.h"

namespace {

using namespace qc_broken;

template <class T> void slerp(const T q0[4], const T q1_in[4], T t, T out[4]) {
    T q1[4];
    arc(q0, q1, short_arc(q0, q1_in, q1), t, out);  // acos(d) however far d rounds past 1
}

const qc_impl_v1 table = {"broken-acos-unclamped", slerp<float>, nullptr, nullptr, nullptr,
                          slerp<double>,           nullptr,      nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: acos unclamped, no small-angle branch (caught by finite)");
