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
            const char *path = getenv("QC_TEST_CHILD_PIDS");
            if (path) {
                int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
                char buf[32];
                int n = snprintf(buf, sizeof buf, "%d\n", (int)getpid());
                if (fd >= 0 && write(fd, buf, (size_t)n) == n) close(fd);
            }
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
