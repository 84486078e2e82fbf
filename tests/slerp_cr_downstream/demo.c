/* C program of the slerp_cr downstream test (tests/slerp_cr_install.test.sh): calls the installed correctly rounded
 * slerp on the cases of expected.h and compares every component bit for bit. Exit 0 and one "ok" line when all
 * match; otherwise one line per mismatch and exit 1. */
#include <quatcheck/slerp_cr.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "expected.h"

static int bad = 0, checked = 0;

static void check_f64(const char *what, const double got[4], const double want[4]) {
    for (int i = 0; i < 4; i++, checked++) {
        uint64_t g, w;
        memcpy(&g, &got[i], sizeof g);
        memcpy(&w, &want[i], sizeof w);
        if (g != w) printf("MISMATCH %s f64 out[%d] = %a, expected %a\n", what, i, got[i], want[i]), bad++;
    }
}

static void check_f32(const char *what, const float got[4], const float want[4]) {
    for (int i = 0; i < 4; i++, checked++) {
        uint32_t g, w;
        memcpy(&g, &got[i], sizeof g);
        memcpy(&w, &want[i], sizeof w);
        if (g != w) printf("MISMATCH %s f32 out[%d] = %a, expected %a\n", what, i, got[i], want[i]), bad++;
    }
}

int main(void) {
    double d[4];
    float f[4];
    {
        const double q0[4] = {1, 2, 2, 4}, q1[4] = {4, -3, 1, 0.5}, want[4] = {0.2, 0.4, 0.4, 0.8};
        qc_slerp_cr_f64(q0, q1, 0.0, d);
        check_f64("t=0", d, want);
        const float g0[4] = {1, 2, 2, 4}, g1[4] = {4, -3, 1, 0.5f}, wantf[4] = {0.2f, 0.4f, 0.4f, 0.8f};
        qc_slerp_cr_f32(g0, g1, 0.0f, f);
        check_f32("t=0", f, wantf);
    }
    {
        const double q0[4] = {1, 0, 0, 0}, q1[4] = {0, 3, 0, 4}, want[4] = {0.0, 0.6, 0.0, 0.8};
        qc_slerp_cr_f64(q0, q1, 1.0, d);
        check_f64("t=1", d, want);
        const float g0[4] = {1, 0, 0, 0}, g1[4] = {0, 3, 0, 4}, wantf[4] = {0.0f, 0.6f, 0.0f, 0.8f};
        qc_slerp_cr_f32(g0, g1, 1.0f, f);
        check_f32("t=1", f, wantf);
    }
    {
        const double q0[4] = {0.5, 0.5, 0.5, 0.5}, q1[4] = {0.6, 0, 0.8, 0};
        const double want[4] = {CASE3_F64_0, CASE3_F64_1, CASE3_F64_2, CASE3_F64_3};
        if (qc_slerp_cr_f64_status(q0, q1, 0.3, d) != QC_SLERP_CR_OK) printf("MISMATCH case 3 f64: status\n"), bad++;
        check_f64("case 3", d, want);
        const float g0[4] = {0.5f, 0.5f, 0.5f, 0.5f}, g1[4] = {0.6f, 0, 0.8f, 0};
        const float wantf[4] = {CASE3_F32_0, CASE3_F32_1, CASE3_F32_2, CASE3_F32_3};
        if (qc_slerp_cr_f32_status(g0, g1, 0.3f, f) != QC_SLERP_CR_OK) printf("MISMATCH case 3 f32: status\n"), bad++;
        check_f32("case 3", f, wantf);
    }
    struct qc_slerp_cr_stats s;
    qc_slerp_cr_get_stats(&s);
    if (s.calls != 6 || s.capped != 0)
        printf("MISMATCH stats: calls %llu (expected 6), capped %llu\n", s.calls, s.capped), bad++;
    if (bad) return 1;
    printf("ok demo_c: %d components bit for bit, %llu calls, phase 2 on %llu\n", checked, s.calls, s.phase2_calls);
    return 0;
}
