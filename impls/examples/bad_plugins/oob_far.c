/* Test plugins "bad-oob-20", "bad-oob-64-199" and "bad-oob-input": for t in (0.9, 1) they write out[20],
 * out[64..199] (f64: 160 to 1600 bytes past the output), or q0[-40] (before an input); correct otherwise.
 * quatcheck must report each as out-of-bounds at that case. */
#include "common.h"

#pragma GCC diagnostic ignored "-Warray-bounds" /* the out-of-bounds writes are the point */

static void oob_20(const double q0[4], const double q1[4], double t, double out[4]) {
    plain_slerp_f64(q0, q1, t, out);
    if (triggered(t)) ((volatile double *)out)[20] = 1.0;
}

static void oob_64_199(const double q0[4], const double q1[4], double t, double out[4]) {
    plain_slerp_f64(q0, q1, t, out);
    if (triggered(t))
        for (int i = 64; i < 200; i++) ((volatile double *)out)[i] = 0.0;
}

static void oob_input(const double q0[4], const double q1[4], double t, double out[4]) {
    plain_slerp_f64(q0, q1, t, out);
    if (triggered(t)) ((volatile double *)q0)[-40] = 2.0;
}

static const qc_impl_v1 impls[] = {
    {"bad-oob-20", NULL, NULL, NULL, NULL, oob_20, NULL, NULL, NULL},
    {"bad-oob-64-199", NULL, NULL, NULL, NULL, oob_64_199, NULL, NULL, NULL},
    {"bad-oob-input", NULL, NULL, NULL, NULL, oob_input, NULL, NULL, NULL},
};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 3;
    return impls;
}
