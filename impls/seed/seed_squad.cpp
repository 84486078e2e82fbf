// seed-squad: the squad of seed documents 000 and 003 (control points by log/exp, three nested slerps),
// every slerp the seed 000 C routine (short-arc flip, 0.9995 fallback). The code is seed_squad.h, shared
// with the plugin build impls/examples/seed_squad_plugin.c.
#include "quatcheck/registry.h"

#include <math.h>

namespace {
#include "seed_squad.h"

const qc_impl_v1 table = {
    "seed-squad", nullptr, nullptr,           qc_seed_squad_f32,       qc_seed_squad_setup_f32,
    nullptr,      nullptr, qc_seed_squad_f64, qc_seed_squad_setup_f64,
};
}  // namespace

// Seed 003 leaves the hemisphere walk to the caller ("Ensure the neighbouring quaternions are in the same
// hemisphere — walk the track once and flip any key with q_i . q_i+1 < 0"); on stored sign flips the
// control points take the long way and the curve kinks at the keys.
QC_REGISTER_IMPL_EX(
    table, "seed",
    "seed 000/003 squad: s_i = q_i exp(-(log(q_i^-1 q_i+1) + log(q_i^-1 q_i-1))/4), nested seed-c slerps "
    "(short-arc flip, 0.9995 fallback); promises a C1 curve through hemisphere-consistent keys",
    "",
    {{"squad", "c1-sign-flip", "seed 003: the caller must first walk the track and flip keys into one hemisphere"}});
