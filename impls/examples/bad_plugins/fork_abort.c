/* Test plugin "bad-fork-abort": for t in (0.9, 1) it forks; the child sleeps holding every inherited
 * descriptor (the worker's pipes included), the parent aborts. quatcheck must report the abort (crashed,
 * SIGABRT) at that case at once, not a timeout, and leave no child behind. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "common.h"

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    if (triggered(t)) {
        if (fork() == 0) {
            sleep(60);
            _exit(0);
        }
        abort();
    }
    plain_slerp_f64(q0, q1, t, out);
}

static const qc_impl_v1 impls[] = {{"bad-fork-abort", NULL, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
