// seed-ts: the TypeScript routine of seed document 003 ("Interpolating Orientation with Quaternions"),
// in double as JavaScript numbers are: sign flip, nlerp fallback above 0.9995, acos arc otherwise.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

void seed_ts_slerp(const double q0[4], const double q1_in[4], double t, double out[4]) {
    double q1[4] = {q1_in[0], q1_in[1], q1_in[2], q1_in[3]};
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    if (d < 0) {
        for (double &c : q1) c = -c;
        d = -d;
    }                  // shortest path via the double cover
    if (d > 0.9995) {  // nearly parallel: nlerp fallback
        double l[4];
        for (int i = 0; i < 4; i++) l[i] = q0[i] + (q1[i] - q0[i]) * t;  // lerp(q0, q1, t)
        double n = std::sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2] + l[3] * l[3]);
        for (int i = 0; i < 4; i++) out[i] = l[i] / n;  // normalize
        return;
    }
    const double theta = std::acos(d);
    const double s = std::sin(theta);
    const double w0 = std::sin((1 - t) * theta) / s;
    const double w1 = std::sin(t * theta) / s;
    for (int i = 0; i < 4; i++) out[i] = q0[i] * w0 + q1[i] * w1;  // add(scale(q0, w0), scale(q1, w1))
}

const qc_impl_v1 table = {
    "seed-ts", nullptr, nullptr, nullptr, nullptr, seed_ts_slerp, nullptr, nullptr, nullptr,
};

}  // namespace

// The nlerp fallback above 0.9995 is documented by the seed: conformance reports it as known.
static const char *const kFallback =
    "seed 003: 'if (d > 0.9995) return normalize(lerp(q0, q1, t)); // nearly parallel: nlerp fallback'; nlerp's timing "
    "differs from slerp's by up to ~1e-6 rad there and jumps back at the threshold";
QC_REGISTER_IMPL_EX(table, "seed",
                    "seed 003's TypeScript slerp in double: sign flip, nlerp fallback above 0.9995, acos arc; promises "
                    "constant speed on the short arc",
                    "", {{"slerp", "constant-speed", kFallback}, {"slerp", "threshold-continuity", kFallback}});
