/* Test plugin whose entry point returns a NULL table: refused. */
#include "common.h"

const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    (void)plain_slerp_f64;
    return NULL;
}
