// noop: returns q0 unchanged. Not an interpolation: it measures the cost of a call through the plugin
// interface itself (BM_Impl/noop.*), the floor under every other implementation's ns per call. Its group
// "bench" keeps it out of accuracy runs unless named with --impl.
#include "quatcheck/registry.h"

namespace {

template <class T> void noop(const T q0[4], const T *, T, T out[4]) {
    for (int i = 0; i < 4; i++) out[i] = q0[i];
}

const qc_impl_v1 table = {
    "noop", noop<float>, noop<float>, nullptr, nullptr, noop<double>, noop<double>, nullptr, nullptr,
};

}  // namespace

QC_REGISTER_IMPL(table, "bench",
                 "returns q0: measures the call overhead of the plugin interface (timing only, not an interpolation)");
