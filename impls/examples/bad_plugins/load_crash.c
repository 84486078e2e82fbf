/* Test plugin whose entry point crashes (SIGSEGV) while being loaded: refused, quatcheck survives. */
#include "common.h"

const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    volatile int *p = NULL;
    *count = (size_t)*p;
    (void)plain_slerp_f64;
    return NULL;
}
