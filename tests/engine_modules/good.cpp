// A test engine module (tests/engine_modules_test.cpp): one family, test-engine-good, registered the way an engine
// adapter registers (group "engine", a version, a known deviation, a KeyCurve), built with impls/engines/module.cpp.
#include "quatcheck/registry.h"

namespace {

void first_key(const double q0[4], const double *, double, double out[4]) {
    for (int k = 0; k < 4; k++) out[k] = q0[k];
}
void curve(const double *keys, size_t, size_t segment, double, double out[4]) {
    for (int k = 0; k < 4; k++) out[k] = keys[4 * segment + size_t(k)];
}

const qc_impl_v1 table = {"test-engine-good", nullptr, nullptr, nullptr, nullptr, first_key, nullptr, nullptr, nullptr};
const qc::KeyCurve key_curve{nullptr, curve};

}  // namespace

QC_REGISTER_CURVE(table, key_curve, "engine", "returns the first key", "9.8.7",
                  {{"slerp", "endpoints", "a test module: it never reaches q1"}});
