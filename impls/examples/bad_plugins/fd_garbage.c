/* Test plugin "bad-fd-garbage": for t in (0.9, 1) it writes 40 bytes of garbage to each of file
 * descriptors 3 to 9 (where quatcheck's worker kept its pipes); correct otherwise. quatcheck must report
 * the write at that case, never use the garbage as an answer. */
#include <unistd.h>

#include "common.h"

static void slerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    if (triggered(t)) {
        static const char junk[40] = "QCW1 not an answer, just garbage bytes!";
        for (int fd = 3; fd <= 9; fd++)
            if (write(fd, junk, sizeof junk) < 0) continue;
    }
    plain_slerp_f64(q0, q1, t, out);
}

static const qc_impl_v1 impls[] = {{"bad-fd-garbage", NULL, NULL, NULL, NULL, slerp_f64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) {
    *count = 1;
    return impls;
}
