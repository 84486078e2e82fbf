/* An example version-2 quatcheck plugin: a slerp whose fallback threshold is a parameter, so that
 * `quatcheck threshold --impl tau-example` sweeps it and recommends a threshold (docs/threshold.md).
 * Written as an outside author would: it includes only quatcheck/plugin.h.
 * Build: cc -shared -fPIC -I<quatcheck>/harness/include tau_plugin.c -o tau_plugin.so -lm
 * Use:   quatcheck threshold --plugin ./tau_plugin.so --impl tau-example --out reports/tau
 *
 * tau-example: the textbook structure (sign flip, acos arc, normalised lerp when d > tau), in both
 * precisions; slerp_f32/slerp_f64 are the routine as shipped, at tau = 0.9995. The arithmetic is, operation
 * for operation, that of the study's own acos+nlerp family (harness/threshold/families.h), so the study's
 * rows for this plugin equal that family's: tests/threshold_impl.test.sh checks it. */
#include <math.h>
#include <stddef.h>

#include "quatcheck/plugin.h"

static void slerp_tau_f64(const double q0[4], const double q1[4], double t, double tau, double out[4]) {
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3], s = 1.0;
    if (d < 0.0) {
        d = -d;
        s = -1.0;
    }
    if (d > tau) { /* fallback: normalised lerp toward s q1 */
        for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (s * q1[i] - q0[i]);
        double n = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    double w = acos(d), sw = sin(w), a = sin((1.0 - t) * w) / sw, b = sin(t * w) / sw;
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * (s * q1[i]);
}

static void slerp_tau_f32(const float q0[4], const float q1[4], float t, float tau, float out[4]) {
    float d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3], s = 1.0f;
    if (d < 0.0f) {
        d = -d;
        s = -1.0f;
    }
    if (d > tau) {
        for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (s * q1[i] - q0[i]);
        float n = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    float w = acosf(d), sw = sinf(w), a = sinf((1.0f - t) * w) / sw, b = sinf(t * w) / sw;
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * (s * q1[i]);
}

/* The routine as shipped: the same code at its fixed threshold. */
static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    slerp_tau_f64(q0, q1, t, 0.9995, out);
}
static void slerp_f32(const float q0[4], const float q1[4], float t, float out[4]) {
    slerp_tau_f32(q0, q1, t, 0.9995f, out);
}

static const qc_impl_v2 impls[] = {
    {{"tau-example", slerp_f32, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL}, slerp_tau_f32, slerp_tau_f64},
};

const qc_impl_v2 *qc_plugin_v2(size_t *count) {
    *count = sizeof impls / sizeof impls[0];
    return impls;
}
