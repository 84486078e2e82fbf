// recipe-eberly*: David Eberly's polynomial slerp (no trigonometric calls), written by us from
//   D. Eberly, "A Fast and Accurate Algorithm for Computing SLERP", Journal of Graphics, GPU, and Game
//   Tools 15(3):161-176, 2011, and the revised analysis "A Fast and Accurate Estimate for SLERP"
//   (geometrictools.com, 2018), as summarised in the comments of GteChebyshevRatio.h / GteSlerpEstimate.h
//   (File Version 3.0.0, 2016/06/19, in github.com/erich666/jgt-code Volume_15/Number_3/Eberly2011).
// The method: with y = 1 - cos A, f(t, y) = sin(tA)/sin(A) = sum_i c_i(t) y^i, c_0 = t,
// c_i = c_{i-1} (i^2 - t^2)/(i (2i + 1)). The estimate keeps n terms and scales the last one by (1 + mu_n)
// ("error balancing"; mu_n from the published table) so that slerp ~ f(1 - t, y) q0 + f(t, y) q1 with no
// acos, sin or division. Shortest arc by the sign of the dot product (SLERP::Estimate).
// Half-angle reduction (SLERP::EstimateRPH, suffix "h" here): qh = (q0 + q1)/(2 cos(A/2)),
// cos(A/2) = sqrt((1 + cos A)/2), then slerp(2t, q0, qh) for t <= 1/2 and slerp(2t - 1, qh, q1) above,
// with y = 1 - cos(A/2); the source precomputes qh per key pair, we compute it per call.
// Published maximum errors of f (revised table, all A in [0, pi/2]): n=4 9.30819e-4, n=8 2.59880e-5,
// n=16 4.03665e-8; with A in [0, pi/4] (the half-angle case): n=4 4.29242e-5, n=8 1.53828e-7,
// n=16 1.11022e-16.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

// 1 + mu_n for n = 1..16, the published error-balancing factors.
constexpr double kOnePlusMu[16] = {
    1.62943436108234530, 1.73965850021313961, 1.79701067629566813, 1.83291820510335812,
    1.85772477879039977, 1.87596835698904785, 1.88998444919711206, 1.90110745351730037,
    1.91015881189952352, 1.91767344933047190, 1.92401541194159076, 1.92944142668012797,
    1.93413793373091059, 1.93824371262559758, 1.94186426368404708, 1.94508125972497303,
};

// f0 ~ sin((1 - t) A)/sin A and f1 ~ sin(t A)/sin A for y = 1 - cos A, n terms after the first.
template <class T, int N> void ratio(T t, T y, T &f0, T &f1) {
    T s = T(1) - t;
    T term0 = s, term1 = t;
    T sq0 = s * s, sq1 = t * t;
    f0 = term0;
    f1 = term1;
    for (int k = 1; k <= N; k++) {
        T scale = k == N ? T(kOnePlusMu[N - 1]) : T(1);
        T a = scale / (T(k) * T(2 * k + 1));  // multiplies t^2
        T b = scale * T(k) / T(2 * k + 1);    // constant part
        term0 *= (b - a * sq0) * y;
        term1 *= (b - a * sq1) * y;
        f0 += term0;
        f1 += term1;
    }
}

template <class T> T dot4(const T a[4], const T b[4]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }

// SLERP::Estimate: no angle restriction beyond the sign flip.
template <class T, int N> void estimate(const T q0[4], const T q1[4], T t, T out[4]) {
    T cs = dot4(q0, q1);
    T sign = T(1);
    if (!(cs >= T(0))) {
        cs = -cs;
        sign = T(-1);
    }
    T f0, f1;
    ratio<T, N>(t, T(1) - cs, f0, f1);
    for (int i = 0; i < 4; i++) out[i] = q0[i] * f0 + q1[i] * (sign * f1);
}

// SLERP::EstimateRPH with the preprocessing done per call.
template <class T, int N> void estimate_half(const T q0[4], const T q1[4], T t, T out[4]) {
    T cs = dot4(q0, q1);
    T b[4];
    for (int i = 0; i < 4; i++) b[i] = cs < T(0) ? -q1[i] : q1[i];
    cs = std::fabs(cs);
    T cos_half = std::sqrt((T(1) + cs) / T(2));
    T qh[4];
    for (int i = 0; i < 4; i++) qh[i] = (q0[i] + b[i]) / (T(2) * cos_half);
    T y = T(1) - cos_half;
    T two_t = t * T(2);
    T f0, f1;
    if (two_t <= T(1)) {
        ratio<T, N>(two_t, y, f0, f1);
        for (int i = 0; i < 4; i++) out[i] = q0[i] * f0 + qh[i] * f1;
    } else {
        ratio<T, N>(two_t - T(1), y, f0, f1);
        for (int i = 0; i < 4; i++) out[i] = qh[i] * f0 + b[i] * f1;
    }
}

#define QC_EBERLY_TABLE(name, fn, n)                                                                        \
    const qc_impl_v1 name = {                                                                               \
        "recipe-" #name, fn<float, n>, nullptr, nullptr, nullptr, fn<double, n>, nullptr, nullptr, nullptr, \
    };

QC_EBERLY_TABLE(eberly4, estimate, 4)
QC_EBERLY_TABLE(eberly8, estimate, 8)
QC_EBERLY_TABLE(eberly16, estimate, 16)
QC_EBERLY_TABLE(eberly4h, estimate_half, 4)
QC_EBERLY_TABLE(eberly8h, estimate_half, 8)
QC_EBERLY_TABLE(eberly16h, estimate_half, 16)

#define QC_EBERLY_SOURCE \
    "Eberly, A Fast and Accurate Algorithm for Computing SLERP (JGT 15(3), 2011; revised error table 2018)"

}  // namespace

QC_REGISTER_IMPL(eberly4, "recipe",
                 "Eberly's polynomial slerp, n=4 with error balancing, no trig: " QC_EBERLY_SOURCE
                 "; published max error 9.30819e-4");
QC_REGISTER_IMPL(eberly8, "recipe",
                 "Eberly's polynomial slerp, n=8 with error balancing, no trig: " QC_EBERLY_SOURCE
                 "; published max error 2.59880e-5");
QC_REGISTER_IMPL(eberly16, "recipe",
                 "Eberly's polynomial slerp, n=16 with error balancing, no trig: " QC_EBERLY_SOURCE
                 "; published max error 4.03665e-8");
QC_REGISTER_IMPL(eberly4h, "recipe",
                 "Eberly's polynomial slerp, n=4, half-angle reduction (EstimateRPH, qh per call): " QC_EBERLY_SOURCE
                 "; published max error 4.29242e-5");
QC_REGISTER_IMPL(eberly8h, "recipe",
                 "Eberly's polynomial slerp, n=8, half-angle reduction (EstimateRPH, qh per call): " QC_EBERLY_SOURCE
                 "; published max error 1.53828e-7");
QC_REGISTER_IMPL(eberly16h, "recipe",
                 "Eberly's polynomial slerp, n=16, half-angle reduction (EstimateRPH, qh per call): " QC_EBERLY_SOURCE
                 "; published max error 1.11022e-16");
