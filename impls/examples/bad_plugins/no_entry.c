/* Test plugin without the qc_plugin_v1 or qc_plugin_v2 entry point (it exports an undeclared ABI): refused. */
#include "common.h"

static const qc_impl_v1 impls[] = {{"bad-no-entry", NULL, NULL, NULL, NULL, plain_slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v9(size_t *count) {
    *count = 1;
    return impls;
}
