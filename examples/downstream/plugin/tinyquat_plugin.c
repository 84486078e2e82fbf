/* The quatcheck plugin of tinyquat: tinyquat's slerp in both precisions under the family name "tinyquat"
 * (quatcheck/plugin.h, from find_package(quatcheck) through quatcheck_add_plugin). */
#include <stddef.h>

#include "quatcheck/plugin.h"
#include "tinyquat.h"

static const qc_impl_v1 impls[] = {{
    .family = "tinyquat",
    .slerp_f32 = tq_slerpf,
    .slerp_f64 = tq_slerp,
}};

const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = sizeof impls / sizeof impls[0];
    return impls;
}
