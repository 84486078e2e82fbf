/* Shared by the misbehaving test plugins: a plain slerp that is correct where the plugin behaves. */
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "quatcheck/plugin.h"

static inline void plain_slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    double s = d < 0 ? -1.0 : 1.0, n = 0;
    d = fabs(d);
    if (d > 0.9995) {
        for (int i = 0; i < 4; i++) {
            out[i] = (1 - t) * q0[i] + t * s * q1[i];
            n += out[i] * out[i];
        }
        for (int i = 0; i < 4; i++) out[i] /= sqrt(n);
        return;
    }
    double w = acos(d), sw = sin(w), a = sin((1 - t) * w) / sw, b = s * sin(t * w) / sw;
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * q1[i];
}

/* The misbehaviour is triggered by t in (0.9, 1): some cases of every region, never the first few. */
static inline int triggered(double t) { return t > 0.9 && t < 1.0; }

/* In a forked child: appends its pid to the file $QC_TEST_CHILD_PIDS names (if set), so that a test can check
 * the child is gone. */
static inline void record_child_pid(void) {
    const char *path = getenv("QC_TEST_CHILD_PIDS");
    if (path) {
        int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        char buf[32];
        int n = snprintf(buf, sizeof buf, "%d\n", (int)getpid());
        if (fd >= 0 && write(fd, buf, (size_t)n) == n) close(fd);
    }
}
