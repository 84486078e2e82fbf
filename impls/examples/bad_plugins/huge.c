/* Test plugin "bad-huge": finite but huge outputs (1e300 in every component) when t is in (0.9, 1); correct
 * otherwise. Its ulp1 overflows to inf: the report must still draw (issue 28, 13), and its failed properties'
 * reproduce commands must survive a hostile plugin path (issue 28, 1). */
#include "common.h"

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    plain_slerp_f64(q0, q1, t, out);
    if (triggered(t))
        for (int i = 0; i < 4; i++) out[i] = 1e300;
}

static const qc_impl_v1 impls[] = {{"bad-huge", NULL, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
