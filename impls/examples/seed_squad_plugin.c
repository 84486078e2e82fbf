/* The seed squad built as a plugin, to run squad through --plugin exactly as an outside author would:
 * it includes only quatcheck/plugin.h and the seed routine (impls/seed/seed_squad.h, the code the
 * built-in seed-squad runs).
 * Use: quatcheck squad --plugin ./seed_squad_plugin.so --impl 'plugin-seed-squad.*' */
#include <stddef.h>

#include "quatcheck/plugin.h"
#include "../seed/seed_squad.h"

static const qc_impl_v1 impls[] = {
    {"plugin-seed-squad", NULL, NULL, qc_seed_squad_f32, qc_seed_squad_setup_f32, NULL, NULL, qc_seed_squad_f64,
     qc_seed_squad_setup_f64},
};

const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = sizeof impls / sizeof impls[0];
    return impls;
}
