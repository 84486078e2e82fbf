/* Test plugin "bad-scribble": writes past its output (out[4..7]) when t is in (0.9, 1). In process that
 * would corrupt the caller's memory silently; contained, it is reported as out-of-bounds. */
#include "common.h"

#pragma GCC diagnostic ignored "-Warray-bounds" /* the out-of-bounds write is the point */

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    plain_slerp_f64(q0, q1, t, out);
    if (triggered(t)) {
        volatile double *p = out;
        for (int i = 4; i < 8; i++) p[i] = 12345.0;
    }
}

static const qc_impl_v1 impls[] = {{"bad-scribble", NULL, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
