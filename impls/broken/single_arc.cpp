// broken-single-arc (negative control): a double-precision slerp whose arc angle and sine weights are
// computed in single precision (acosf, sinf), a common slip when a float helper is reused: the weights
// carry float rounding, about 1e-7 relative, far beyond double's. f64 only. Meant to be caught by
// `constant-speed` (the timing error is float-sized).
#include "quatcheck/registry.h"

#include <cmath>

namespace {

void slerp(const double q0[4], const double q1_in[4], double t, double out[4]) {
    double q1[4] = {q1_in[0], q1_in[1], q1_in[2], q1_in[3]};
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    if (d < 0) {
        d = -d;
        for (double &c : q1) c = -c;
    }
    if (d > 0.9995) {
        for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (q1[i] - q0[i]);
        double n = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    float w = std::acos(float(d));
    float sw = std::sin(w);
    double a = std::sin((1.0f - float(t)) * w) / sw, b = std::sin(float(t) * w) / sw;
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * q1[i];
}

const qc_impl_v1 table = {"broken-single-arc", nullptr, nullptr, nullptr, nullptr, slerp, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken",
                 "negative control: double slerp with its arc in single precision (caught by constant-speed)");
