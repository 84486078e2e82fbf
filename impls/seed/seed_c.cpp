// seed-c: the C routine of seed document 000 ("Slerp, Squad, and the Cost of Interpolating Rotations"):
// shortest arc by the sign of the dot product, acos arc, normalised-lerp fallback above dot 0.9995.
// seed-c.f32 is the routine as printed (float, acosf/sinf/sqrtf); seed-c.f64 is the same routine in double.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

template <class T> void seed_c_slerp(const T q0[4], const T q1_in[4], T u, T out[4]) {
    T q1[4] = {q1_in[0], q1_in[1], q1_in[2], q1_in[3]};
    T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    T s = T(1);
    if (d < T(0)) {
        d = -d;
        s = T(-1);
    }                     /* take the short arc */
    if (d > T(0.9995f)) { /* angle < ~3.6 degrees; the literal is 0.9995f as printed */
        for (int i = 0; i < 4; i++) out[i] = q0[i] + u * (s * q1[i] - q0[i]);
        T n = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    T w = std::acos(d);
    T a = std::sin((T(1) - u) * w) / std::sin(w);
    T b = std::sin(u * w) / std::sin(w);
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * (s * q1[i]);
}

// In double the literal of the printed routine would be the double 0.9995; use that, not 0.9995f.
void seed_c_slerp_f64(const double q0[4], const double q1_in[4], double u, double out[4]) {
    double q1[4] = {q1_in[0], q1_in[1], q1_in[2], q1_in[3]};
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    double s = 1.0;
    if (d < 0.0) {
        d = -d;
        s = -1.0;
    }
    if (d > 0.9995) {
        for (int i = 0; i < 4; i++) out[i] = q0[i] + u * (s * q1[i] - q0[i]);
        double n = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    double w = std::acos(d);
    double a = std::sin((1.0 - u) * w) / std::sin(w);
    double b = std::sin(u * w) / std::sin(w);
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * (s * q1[i]);
}

const qc_impl_v1 table = {
    "seed-c", seed_c_slerp<float>, nullptr, nullptr, nullptr, seed_c_slerp_f64, nullptr, nullptr, nullptr,
};

}  // namespace

// The nlerp fallback above 0.9995 is documented by the seed: conformance reports it as known.
static const char *const kFallback =
    "seed 000: the routine 'falls back to normalized lerp when the angle is small' (dot above 0.9995); nlerp's timing "
    "differs from slerp's by up to ~1e-6 rad there and jumps back at the threshold";
QC_REGISTER_IMPL_EX(table, "seed",
                    "seed 000's C slerp: sign flip, acos arc, nlerp fallback above dot 0.9995; promises the short arc "
                    "at constant speed",
                    "", {{"slerp", "constant-speed", kFallback}, {"slerp", "threshold-continuity", kFallback}});
