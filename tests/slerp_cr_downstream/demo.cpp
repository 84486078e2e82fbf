// C++ program of the slerp_cr downstream test (tests/slerp_cr_install.test.sh): the C++ overloads
// quatcheck::slerp_cr on case 3 of expected.h and a refused input, compared bit for bit.
#include <quatcheck/slerp_cr.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "expected.h"

template <class T> int compare(const char *what, const T (&got)[4], const T (&want)[4]) {
    int bad = 0;
    for (int i = 0; i < 4; i++)
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            std::printf("MISMATCH %s out[%d] = %a, expected %a\n", what, i, double(got[i]), double(want[i]));
            bad++;
        }
    return bad;
}

int main() {
    int bad = 0;
    const double q0[4] = {0.5, 0.5, 0.5, 0.5}, q1[4] = {-0.6, -0.0, -0.8, -0.0};  // -q1: the same short arc
    double d[4];
    quatcheck::slerp_cr(q0, q1, 0.3, d);
    bad += compare("case 3 f64", d, {CASE3_F64_0, CASE3_F64_1, CASE3_F64_2, CASE3_F64_3});
    const float g0[4] = {0.5f, 0.5f, 0.5f, 0.5f}, g1[4] = {0.6f, 0.0f, 0.8f, 0.0f};
    float f[4];
    quatcheck::slerp_cr(g0, g1, 0.3f, f);
    bad += compare("case 3 f32", f, {CASE3_F32_0, CASE3_F32_1, CASE3_F32_2, CASE3_F32_3});
    const double zero[4] = {0, 0, 0, 0};
    if (qc_slerp_cr_f64_status(q0, zero, 0.5, d) != QC_SLERP_CR_NAN || !std::isnan(d[0])) {
        std::printf("MISMATCH a zero key is not refused\n");
        bad++;
    }
    if (bad) return 1;
    std::printf("ok demo_cpp: 8 components bit for bit, a zero key refused\n");
    return 0;
}
