/* Test plugin "bad-crash": dereferences NULL (SIGSEGV) when t is in (0.9, 1); correct otherwise. */
#include "common.h"

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    if (triggered(t)) {
        volatile int *p = NULL;
        *p = 1;
    }
    plain_slerp_f64(q0, q1, t, out);
}

static const qc_impl_v1 impls[] = {{"bad-crash", NULL, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
