/* Test plugin "bad-fork-orphan": on its first call it forks a child that sleeps for a minute (recording
 * its pid in $QC_TEST_CHILD_PIDS if set); its results are correct. No such child may outlive quatcheck. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common.h"

static int forked;

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    if (!forked) {
        forked = 1;
        if (fork() == 0) {
            record_child_pid();
            sleep(60);
            _exit(0);
        }
    }
    plain_slerp_f64(q0, q1, t, out);
}

static const qc_impl_v1 impls[] = {{"bad-fork-orphan", NULL, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
