// broken-squad: a planted negative control for the squad checks. The seed squad with the sign of the
// control-point tangent reversed, s_i = q_i exp(+(log(q_i^-1 q_i+1) + log(q_i^-1 q_i-1))/4): the curve
// still passes through every key, but its angular velocity jumps at every interior key, so the c1
// property and the own-control-point angle error must catch it.
#include "quatcheck/registry.h"

#include <math.h>

namespace {
#include "../seed/seed_squad.h"

void setup_f32(const float prev[4], const float cur[4], const float next[4], float s[4]) {
    qc_seed_squad_setup_scaled_f32(prev, cur, next, 0.25f, s);
}
void setup_f64(const double prev[4], const double cur[4], const double next[4], double s[4]) {
    qc_seed_squad_setup_scaled_f64(prev, cur, next, 0.25, s);
}

const qc_impl_v1 table = {
    "broken-squad", nullptr, nullptr, qc_seed_squad_f32, setup_f32, nullptr, nullptr, qc_seed_squad_f64, setup_f64,
};
}  // namespace

QC_REGISTER_IMPL(
    table, "broken",
    "planted: seed squad with the control-point tangent's sign reversed (+1/4 for -1/4); breaks C1 at every key");
