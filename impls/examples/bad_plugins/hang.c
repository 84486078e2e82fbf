/* Test plugin "bad-hang": never returns when t is in (0.9, 1) (sleeps, so it does not burn a core). */
#include <unistd.h>

#include "common.h"

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    if (triggered(t))
        for (;;) sleep(1);
    plain_slerp_f64(q0, q1, t, out);
}

static const qc_impl_v1 impls[] = {{"bad-hang", NULL, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
