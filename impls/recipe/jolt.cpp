// recipe-jolt: Jolt Physics Quat::SLERP, written by us from the published Jolt/Math/Quat.inl,
// Jolt/Math/Trigonometry.h and Jolt/Math/Vec4.inl of Jolt Physics 5.5.0 (github.com/jrouwe/JoltPhysics,
// commit 3b47ec3). Structure of SLERP:
//   cos = q0.q1, sign = 1; if cos < 0 { cos = -cos; sign = -1 }
//   1 - cos > 0.0001: omega = ACos(cos), sinO = Sin(omega),
//                     scale0 = Sin((1 - t) omega)/sinO, scale1 = sign Sin(t omega)/sinO
//   otherwise scale0 = 1 - t, scale1 = sign t
//   result = (scale0 q0 + scale1 q1)/|scale0 q0 + scale1 q1|   (Vec4::Normalized)
// Jolt does not call libm here: Sin is Vec4::SinCos (Cephes sinf polynomials after a quadrant reduction
// with a three-part Cody-Waite pi/2) and ACos is pi/2 - ASin with ASin from Cephes asinf; both are
// transcribed below with their published constants. Jolt's Quat is float only.
#include "quatcheck/registry.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace {

constexpr float kPi = 3.14159265358979323846f;  // JPH_PI

// Vec4::SinCos, the sine half: reduce to [-pi/4, pi/4] around the nearest quadrant, then pick the sine
// or cosine polynomial and the sign from the quadrant's two low bits.
float jolt_sin(float in) {
    bool negative = std::signbit(in);
    float x = std::fabs(in);
    uint32_t quadrant = static_cast<uint32_t>(static_cast<int32_t>(0.6366197723675814f * x + 0.5f));
    float fq = static_cast<float>(quadrant);
    x = ((x - fq * 1.5703125f) - fq * 0.0004837512969970703125f) - fq * 7.549789948768648e-8f;
    float x2 = x * x;
    float taylor_cos = ((2.443315711809948e-5f * x2 - 1.388731625493765e-3f) * x2 + 4.166664568298827e-2f) * x2 * x2 -
                       0.5f * x2 + 1.0f;
    float taylor_sin = ((-1.9515295891e-4f * x2 + 8.3321608736e-3f) * x2 - 1.6666654611e-1f) * x2 * x + x;
    float s = (quadrant & 1u) ? taylor_cos : taylor_sin;
    bool flip = negative != ((quadrant & 2u) != 0);
    return flip ? -s : s;
}

// Vec4::ASin: clamp to [-1, 1]; above 0.5 use asin(x) = pi/2 - 2 asin(sqrt((1 - x)/2)).
float jolt_asin(float in) {
    bool negative = std::signbit(in);
    float a = std::min(std::fabs(in), 1.0f);
    bool greater = a > 0.5f;
    float z = greater ? 0.5f * (1.0f - a) : a * a;
    float x = greater ? std::sqrt(z) : a;
    z = ((((4.2163199048e-2f * z + 2.4181311049e-2f) * z + 4.5470025998e-2f) * z + 7.4953002686e-2f) * z +
         1.6666752422e-1f) *
            z * x +
        x;
    if (greater) z = 0.5f * kPi - (z + z);
    return negative ? -z : z;
}

float jolt_acos(float x) { return 0.5f * kPi - jolt_asin(x); }

void jolt_slerp(const float q0[4], const float q1[4], float t, float out[4]) {
    const float delta = 0.0001f;
    float sign_scale1 = 1.0f;
    float cos_omega = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    if (cos_omega < 0.0f) {
        cos_omega = -cos_omega;
        sign_scale1 = -1.0f;
    }
    float scale0, scale1;
    if (1.0f - cos_omega > delta) {
        float omega = jolt_acos(cos_omega);
        float sin_omega = jolt_sin(omega);
        scale0 = jolt_sin((1.0f - t) * omega) / sin_omega;
        scale1 = sign_scale1 * jolt_sin(t * omega) / sin_omega;
    } else {
        scale0 = 1.0f - t;
        scale1 = sign_scale1 * t;
    }
    float v[4];
    for (int i = 0; i < 4; i++) v[i] = scale0 * q0[i] + scale1 * q1[i];
    float len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    for (int i = 0; i < 4; i++) out[i] = v[i] / len;
}

const qc_impl_v1 table = {"recipe-jolt", jolt_slerp, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL_EX(table, "recipe",
                    "Jolt Physics Quat::SLERP as published (Quat.inl): short arc, lerp below 1-cos 1e-4, normalised; "
                    "Jolt's Cephes-derived Sin and ACos polynomials; float",
                    "Jolt Physics 5.5.0", {});
