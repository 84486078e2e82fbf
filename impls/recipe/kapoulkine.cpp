// recipe-fnlerp, recipe-onlerp: Arseny Kapoulkine's corrected nlerps, written by us from
//   A. Kapoulkine, "Approximating slerp", zeux.io, 23 July 2015 (and "Optimizing slerp", 2016).
// nlerp(q0, q1, t') equals slerp(q0, q1, t) for t' = 1/(1 + sin((1 - t)a)/sin(t a)), a = acos d; the post
// approximates t' by the cubic t' ~ t + K t (t - 1/2)(t - 1) with least-squares fits in d = |q0.q1|:
//   fnlerp: K(d)    = 0.931872 - 1.25654 d + 0.331442 d^2
//   onlerp: K(d, t) = A(d) (t - 1/2)^2 + B(d), A(d) = 1.0904 - 3.2452 d + 3.55645 d^2 - 1.43519 d^3,
//                                               B(d) = 0.848013 - 1.06021 d + 0.215638 d^2
// then the plain nlerp with t' (weights 1 - t' and +-t' by the sign of the dot product, exact
// normalisation). The post's code is float only, so only .f32 is registered.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

float dot4(const float a[4], const float b[4]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }

// The nlerp the post starts from: lerp with weights (1 - t, +-t), then unit length.
void nlerp_weighted(const float q0[4], const float q1[4], float ca, float t, float out[4]) {
    float lt = 1.0f - t;
    float rt = ca > 0.0f ? t : -t;
    float v[4];
    for (int i = 0; i < 4; i++) v[i] = lt * q0[i] + rt * q1[i];
    float n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    for (int i = 0; i < 4; i++) out[i] = v[i] / n;
}

void fnlerp(const float q0[4], const float q1[4], float t, float out[4]) {
    float ca = dot4(q0, q1);
    float d = std::fabs(ca);
    float k = 0.931872f + d * (-1.25654f + d * 0.331442f);
    float ot = t + t * (t - 0.5f) * (t - 1.0f) * k;
    nlerp_weighted(q0, q1, ca, ot, out);
}

void onlerp(const float q0[4], const float q1[4], float t, float out[4]) {
    float ca = dot4(q0, q1);
    float d = std::fabs(ca);
    float a = 1.0904f + d * (-3.2452f + d * (3.55645f - d * 1.43519f));
    float b = 0.848013f + d * (-1.06021f + d * 0.215638f);
    float h = t - 0.5f;
    float k = a * h * h + b;
    float ot = t + t * (t - 0.5f) * (t - 1.0f) * k;
    nlerp_weighted(q0, q1, ca, ot, out);
}

const qc_impl_v1 fnlerp_table = {"recipe-fnlerp", fnlerp,  nullptr, nullptr, nullptr,
                                 nullptr,         nullptr, nullptr, nullptr};
const qc_impl_v1 onlerp_table = {"recipe-onlerp", onlerp,  nullptr, nullptr, nullptr,
                                 nullptr,         nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(fnlerp_table, "recipe",
                 "Kapoulkine's fnlerp (nlerp with a cubic t correction, K(d) quadratic): zeux.io 'Approximating slerp' "
                 "(2015), float");
QC_REGISTER_IMPL(
    onlerp_table, "recipe",
    "Kapoulkine's onlerp (nlerp with K(d,t) = A(d)(t-1/2)^2 + B(d)): zeux.io 'Approximating slerp' (2015), float");
