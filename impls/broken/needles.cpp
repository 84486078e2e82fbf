// broken-needle-* (negative controls): an accurate slerp (atan2 form) that is wrong only while the ends'
// dot product, computed in the format, lies inside one window a few millionths wide: there the output is
// tilted off the arc by a fixed rotation of 2e-6 rad. One window per place the seeds are fragile:
//   broken-needle-threshold  a.b in [0.9995 - 1.2e-5, 0.9995 - 0.8e-5]  (just below the seeds' threshold)
//   broken-needle-zero       a.b in [4e-6, 8e-6]                         (near a quarter turn)
//   broken-needle-antipode   a.b in [-1 + 5e-6, -1 + 9e-6]               (near q1 = -q0)
//   broken-needle-one        a.b in [1 - 9e-6, 1 - 5e-6]                 (nearly equal ends)
// f64 only: 2e-6 rad is about 1e10 ulps of double, a defect no rounding explains. The default
// `quatcheck conform` must fail each one (threshold-continuity's sweep) and the default `quatcheck run` must
// list a case inside the window among the worst cases.
#include "quatcheck/registry.h"

#include "accurate_slerp.h"

namespace {

void tilted(const double q0[4], const double q1[4], double t, double out[4], double lo, double hi) {
    qc_broken::accurate_slerp(q0, q1, t, out);
    double d = qc_broken::dot4(q0, q1);
    if (!(d >= lo && d <= hi)) return;
    // out <- out * (cos h, sin h, 0, 0) with h = 1e-6: a rotation error of 2h = 2e-6 rad.
    const double h = 1e-6, c = std::cos(h), s = std::sin(h);
    double r[4] = {out[0] * c - out[1] * s, out[0] * s + out[1] * c, out[2] * c + out[3] * s, -out[2] * s + out[3] * c};
    for (int i = 0; i < 4; i++) out[i] = r[i];
}

void needle_threshold(const double a[4], const double b[4], double t, double o[4]) {
    tilted(a, b, t, o, 0.9995 - 1.2e-5, 0.9995 - 0.8e-5);
}
void needle_zero(const double a[4], const double b[4], double t, double o[4]) { tilted(a, b, t, o, 4e-6, 8e-6); }
void needle_antipode(const double a[4], const double b[4], double t, double o[4]) {
    tilted(a, b, t, o, -1 + 5e-6, -1 + 9e-6);
}
void needle_one(const double a[4], const double b[4], double t, double o[4]) { tilted(a, b, t, o, 1 - 9e-6, 1 - 5e-6); }

const qc_impl_v1 threshold = {"broken-needle-threshold", nullptr, nullptr, nullptr, nullptr,
                              needle_threshold,          nullptr, nullptr, nullptr};
const qc_impl_v1 zero = {"broken-needle-zero", nullptr, nullptr, nullptr, nullptr,
                         needle_zero,          nullptr, nullptr, nullptr};
const qc_impl_v1 antipode = {"broken-needle-antipode", nullptr, nullptr, nullptr, nullptr,
                             needle_antipode,          nullptr, nullptr, nullptr};
const qc_impl_v1 one = {"broken-needle-one", nullptr, nullptr, nullptr, nullptr, needle_one, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(threshold, "broken",
                 "needle: accurate slerp, tilted 2e-6 rad for a.b in [0.9995-1.2e-5, 0.9995-0.8e-5]");
QC_REGISTER_IMPL(zero, "broken", "needle: accurate slerp, tilted 2e-6 rad for a.b in [4e-6, 8e-6]");
QC_REGISTER_IMPL(antipode, "broken", "needle: accurate slerp, tilted 2e-6 rad for a.b in [-1+5e-6, -1+9e-6]");
QC_REGISTER_IMPL(one, "broken", "needle: accurate slerp, tilted 2e-6 rad for a.b in [1-9e-6, 1-5e-6]");
