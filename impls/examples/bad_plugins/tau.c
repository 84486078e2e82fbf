/* Test plugin (version 2) for `quatcheck threshold --impl`: parameterised routines that misbehave.
 *   bad-tau-ignored  slerp_tau ignores its tau (always the shipped 0.9995): the study must give no
 *                    recommendation (tau changes no output), not the perfect-looking one its rows suggest
 *   bad-tau-damaged  the fallback forgets the sign flip and the normalisation: no tau of the grid qualifies
 *                    except, at most, the very smallest 1 - tau
 *   bad-tau-crash    slerp_tau dereferences NULL when t is in (0.9, 1): contained, named with its case
 *   bad-tau-nan      slerp_tau returns NaN when t is in (0.9, 1): counted non-finite, no recommendation */
#include "common.h"

static void tau_routine(const double q0[4], const double q1[4], double t, double tau, int damaged, double out[4]) {
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3], s = d < 0 ? -1.0 : 1.0;
    if (fabs(d) > tau) {
        double n = 0;
        for (int i = 0; i < 4; i++) {
            out[i] = (1 - t) * q0[i] + t * (damaged ? 1.0 : s) * q1[i];
            n += out[i] * out[i];
        }
        if (!damaged)
            for (int i = 0; i < 4; i++) out[i] /= sqrt(n);
        return;
    }
    double w = acos(fabs(d)), sw = sin(w), a = sin((1 - t) * w) / sw, b = s * sin(t * w) / sw;
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * q1[i];
}

static void ignored(const double q0[4], const double q1[4], double t, double tau, double out[4]) {
    (void)tau;
    tau_routine(q0, q1, t, 0.9995, 0, out);
}
static void damaged(const double q0[4], const double q1[4], double t, double tau, double out[4]) {
    tau_routine(q0, q1, t, tau, 1, out);
}
static void crash(const double q0[4], const double q1[4], double t, double tau, double out[4]) {
    if (triggered(t)) {
        volatile int *p = NULL;
        *p = 1;
    }
    tau_routine(q0, q1, t, tau, 0, out);
}
static void nan_out(const double q0[4], const double q1[4], double t, double tau, double out[4]) {
    tau_routine(q0, q1, t, tau, 0, out);
    if (triggered(t)) out[0] = NAN;
}

static const qc_impl_v2 impls[] = {
    {{"bad-tau-ignored", NULL, NULL, NULL, NULL, plain_slerp_f64, NULL, NULL, NULL}, NULL, ignored},
    {{"bad-tau-damaged", NULL, NULL, NULL, NULL, plain_slerp_f64, NULL, NULL, NULL}, NULL, damaged},
    {{"bad-tau-crash", NULL, NULL, NULL, NULL, plain_slerp_f64, NULL, NULL, NULL}, NULL, crash},
    {{"bad-tau-nan", NULL, NULL, NULL, NULL, plain_slerp_f64, NULL, NULL, NULL}, NULL, nan_out},
};
const qc_impl_v2 *qc_plugin_v2(size_t *count) {
    *count = sizeof impls / sizeof impls[0];
    return impls;
}
