/* Test plugin "bad-fork-serve": on its first call with t in (0.9, 1) it forks and both copies return the
 * correct result, so the child runs on inside the worker's loop (reading commands, writing answers). Its
 * results are correct: quatcheck must give the same figures as for a plugin that never forks, every time.
 * The child also records its pid in $QC_TEST_CHILD_PIDS (if set), so a test can check it is gone. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static int forked;

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    if (triggered(t) && !forked) {
        forked = 1;
        if (fork() == 0) record_child_pid(); /* then both copies return the result */
    }
    plain_slerp_f64(q0, q1, t, out);
}

static const qc_impl_v1 impls[] = {{"bad-fork-serve", NULL, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
