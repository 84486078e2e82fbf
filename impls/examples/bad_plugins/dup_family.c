/* Test plugin declaring the same family twice: refused. */
#include "common.h"

static const qc_impl_v1 impls[] = {{"bad-twice", NULL, NULL, NULL, NULL, plain_slerp_f64, NULL, NULL, NULL},
                                   {"bad-twice", NULL, NULL, NULL, NULL, plain_slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 2;
    return impls;
}
