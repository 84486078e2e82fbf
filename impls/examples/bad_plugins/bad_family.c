/* Test plugin whose family name is not printable ([A-Za-z0-9_-]{1,64}): refused. */
#include "common.h"

static const qc_impl_v1 impls[] = {{"bad family\x01", NULL, NULL, NULL, NULL, plain_slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
