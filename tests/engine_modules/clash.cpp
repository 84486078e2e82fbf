// A test engine module whose family, seed-c, is a built-in's (tests/engine_modules_test.cpp): refused whole.
#include "quatcheck/registry.h"

namespace {
void first_key(const double q0[4], const double *, double, double out[4]) {
    for (int k = 0; k < 4; k++) out[k] = q0[k];
}
const qc_impl_v1 other = {"test-engine-other", nullptr, nullptr, nullptr, nullptr,
                          first_key,           nullptr, nullptr, nullptr};
const qc_impl_v1 clash = {"seed-c", nullptr, nullptr, nullptr, nullptr, first_key, nullptr, nullptr, nullptr};
}  // namespace

QC_REGISTER_IMPL_EX(other, "engine", "returns the first key", "1", {});
QC_REGISTER_IMPL_EX(clash, "engine", "returns the first key", "1", {});
