/* A test-only plugin for tests/report_compare.test.sh: family "compare-probe", slerp in f64.
 * Built twice by the test with cc: as written, a careful slerp (atan2 arc, sign flip, exact ends); with
 * -DQC_PROBE_WORSEN, the same formula evaluated in float, a deliberately worsened build of the same
 * implementation name. Two report folders, one per build, must compare as a regression. */
#include <math.h>
#include <stddef.h>

#include "quatcheck/plugin.h"

#ifdef QC_PROBE_WORSEN
typedef float real;
#else
typedef double real;
#endif

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    real a[4], b[4], na = 0, nb = 0;
    for (int i = 0; i < 4; i++) {
        a[i] = (real)q0[i];
        b[i] = (real)q1[i];
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    na = sqrt(na);
    nb = sqrt(nb);
    real d = 0;
    for (int i = 0; i < 4; i++) {
        a[i] /= na;
        b[i] /= nb;
        d += a[i] * b[i];
    }
    if (d < 0)
        for (int i = 0; i < 4; i++) b[i] = -b[i];
    real diff = 0, sum = 0;
    for (int i = 0; i < 4; i++) {
        diff += (a[i] - b[i]) * (a[i] - b[i]);
        sum += (a[i] + b[i]) * (a[i] + b[i]);
    }
    real w = 2 * atan2(sqrt(diff), sqrt(sum));
    if (w == 0) {
        for (int i = 0; i < 4; i++) out[i] = a[i];
        return;
    }
    real s = sin(w), ka = sin((1 - (real)t) * w) / s, kb = sin((real)t * w) / s;
    for (int i = 0; i < 4; i++) out[i] = ka * a[i] + kb * b[i];
}

static const qc_impl_v1 impls[] = {
    {"compare-probe", NULL, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL},
};

const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = sizeof impls / sizeof impls[0];
    return impls;
}
