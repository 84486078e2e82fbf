/* A plugin for the history and bisect tests: slerp with a linear fallback above a dot product of 0.9999; with
 * -DPLANT_LERP, a plain lerp for every t (the planted regression). */
#include <math.h>
#include <stddef.h>
#include "quatcheck/plugin.h"
static void slerp64(const double a[4], const double b[4], double t, double out[4]) {
    double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], s = c < 0 ? -1 : 1, k0 = 1 - t, k1 = t;
    c *= s;
#ifndef PLANT_LERP
    if (c <= 0.9999) {
        double o = acos(c), so = sin(o);
        k0 = sin((1 - t) * o) / so;
        k1 = sin(t * o) / so;
    }
#endif
    for (int i = 0; i < 4; i++) out[i] = k0 * a[i] + k1 * s * b[i];
}
static const qc_impl_v1 impls[] = {{"mylib", NULL, NULL, NULL, NULL, slerp64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
