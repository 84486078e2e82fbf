// A test engine module that needs libqc_test_gone.so, which is not on the loader's path (built without RPATH):
// dlopen fails, as for an engine module whose engine library is not installed (tests/engine_modules_test.cpp).
#include "quatcheck/registry.h"

extern "C" int qc_test_gone(void);

namespace {
void gone(const double q0[4], const double *, double, double out[4]) {
    for (int k = 0; k < 4; k++) out[k] = q0[k] * qc_test_gone();
}
const qc_impl_v1 table = {"test-engine-gone", nullptr, nullptr, nullptr, nullptr, gone, nullptr, nullptr, nullptr};
}  // namespace

QC_REGISTER_IMPL_EX(table, "engine", "scales the first key", "1", {});
