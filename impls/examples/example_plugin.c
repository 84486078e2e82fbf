/* An example quatcheck plugin, written as an outside author would: it includes only quatcheck/plugin.h.
 * Build: cc -shared -fPIC -I<quatcheck>/harness/include example_plugin.c -o example_plugin.so -lm
 * Use:   quatcheck run --plugin ./example_plugin.so --impl example-slerp
 *
 * example-slerp: a textbook slerp (sign flip, acos arc, nlerp fallback above dot 0.9995) in both precisions,
 * and an nlerp in float. */
#include <math.h>
#include <stddef.h>

#include "quatcheck/plugin.h"

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    double s = d < 0 ? -1.0 : 1.0;
    d = fabs(d);
    if (d > 0.9995) {
        double n = 0;
        for (int i = 0; i < 4; i++) {
            out[i] = (1 - t) * q0[i] + t * s * q1[i];
            n += out[i] * out[i];
        }
        n = sqrt(n);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    double w = acos(d), sw = sin(w);
    double a = sin((1 - t) * w) / sw, b = s * sin(t * w) / sw;
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * q1[i];
}

static void slerp_f32(const float q0[4], const float q1[4], float t, float out[4]) {
    float d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    float s = d < 0 ? -1.0f : 1.0f;
    d = fabsf(d);
    if (d > 0.9995f) {
        float n = 0;
        for (int i = 0; i < 4; i++) {
            out[i] = (1 - t) * q0[i] + t * s * q1[i];
            n += out[i] * out[i];
        }
        n = sqrtf(n);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    float w = acosf(d), sw = sinf(w);
    float a = sinf((1 - t) * w) / sw, b = s * sinf(t * w) / sw;
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * q1[i];
}

static void nlerp_f32(const float q0[4], const float q1[4], float t, float out[4]) {
    float d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    float s = d < 0 ? -1.0f : 1.0f, n = 0;
    for (int i = 0; i < 4; i++) {
        out[i] = (1 - t) * q0[i] + t * s * q1[i];
        n += out[i] * out[i];
    }
    n = sqrtf(n);
    for (int i = 0; i < 4; i++) out[i] /= n;
}

static const qc_impl_v1 impls[] = {
    {"example-slerp", slerp_f32, nlerp_f32, NULL, NULL, slerp_f64, NULL, NULL, NULL},
};

const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = sizeof impls / sizeof impls[0];
    return impls;
}
