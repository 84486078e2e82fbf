// broken-needle-dot, broken-needle-t (negative controls of `quatcheck sweep`, docs/sweep.md): an accurate slerp
// (atan2 form) that is wrong only inside one window 8e-7 wide, at a place no region of `run` targets:
//   broken-needle-dot  the ends' dot product, computed in the format, in [0.7, 0.7 + 8e-7]
//   broken-needle-t    t in [0.3, 0.3 + 8e-7]
// There the output is tilted off the arc by a fixed rotation: 2e-6 rad in f64 (about 1e10 ulps of double),
// 2e-4 rad in f32 (about 1700 ulps of float): a defect no rounding explains. In f32 the dot window holds
// 14 representable values and the t window 27. A sweep over the dot product (over t) must list both edges
// of the window in its branch map and report the tilt as the slice's maximum (tests/sweep.test.sh).
#include "quatcheck/registry.h"

#include "accurate_slerp.h"

namespace {

template <class T> void tilt(T out[4]) {
    const double h = sizeof(T) == 4 ? 1e-4 : 1e-6;  // out <- out * (cos h, sin h, 0, 0): a rotation error of 2h
    const double c = std::cos(h), s = std::sin(h);
    double o[4] = {double(out[0]), double(out[1]), double(out[2]), double(out[3])};
    double r[4] = {o[0] * c - o[1] * s, o[0] * s + o[1] * c, o[2] * c + o[3] * s, -o[2] * s + o[3] * c};
    for (int i = 0; i < 4; i++) out[i] = T(r[i]);
}

template <class T> void needle_dot(const T q0[4], const T q1[4], T t, T out[4]) {
    qc_broken::accurate_slerp(q0, q1, t, out);
    const T d = qc_broken::dot4(q0, q1);
    if (d >= T(0.7) && d <= T(0.7 + 8e-7)) tilt(out);
}

template <class T> void needle_t(const T q0[4], const T q1[4], T t, T out[4]) {
    qc_broken::accurate_slerp(q0, q1, t, out);
    if (t >= T(0.3) && t <= T(0.3 + 8e-7)) tilt(out);
}

const qc_impl_v1 dot_table = {"broken-needle-dot", needle_dot<float>, nullptr, nullptr, nullptr,
                              needle_dot<double>,  nullptr,           nullptr, nullptr};
const qc_impl_v1 t_table = {"broken-needle-t", needle_t<float>, nullptr, nullptr, nullptr,
                            needle_t<double>,  nullptr,         nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(dot_table, "broken",
                 "needle: accurate slerp, tilted (2e-4 rad f32, 2e-6 rad f64) for a.b in [0.7, 0.7+8e-7]");
QC_REGISTER_IMPL(t_table, "broken",
                 "needle: accurate slerp, tilted (2e-4 rad f32, 2e-6 rad f64) for t in [0.3, 0.3+8e-7]");
