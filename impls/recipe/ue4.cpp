// recipe-ue4-slerp-nn, recipe-ue4-slerp: Unreal Engine 4 FQuat::Slerp_NotNormalized and FQuat::Slerp,
// written by us from the published Engine/Source/Runtime/Core/Private/Math/UnrealMath.cpp and
// Public/Math/Quat.h of UE 4.19. Structure of Slerp_NotNormalized:
//   raw = q1.q2 (X, Y, Z, W order), cosom = raw >= 0 ? raw : -raw (FMath::FloatSelect)
//   cosom < 0.9999: omega = acos(cosom), invSin = 1/sin(omega),
//                   scale0 = sin((1 - s) omega) invSin, scale1 = sin(s omega) invSin
//   otherwise scale0 = 1 - s, scale1 = s (linear, not normalised)
//   scale1 = raw >= 0 ? scale1 : -scale1; result = scale0 q1 + scale1 q2.
// FQuat::Slerp = Slerp_NotNormalized(...).GetNormalized(): with SquareSum = |q|^2,
// SquareSum >= SMALL_NUMBER (1e-8) ? q InvSqrt(SquareSum) : identity. FMath::Acos/Sin are acosf/sinf and
// InvSqrt is 1/sqrtf on the generic platform (the SSE platforms use rsqrt plus one Newton step, not
// reproduced here). UE4's FQuat is float only.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

float float_select(float comparand, float ge_zero, float lt_zero) { return comparand >= 0.0f ? ge_zero : lt_zero; }

void slerp_not_normalized(const float q1[4], const float q2[4], float s, float out[4]) {
    float raw = q1[0] * q2[0] + q1[1] * q2[1] + q1[2] * q2[2] + q1[3] * q2[3];
    float cosom = float_select(raw, raw, -raw);
    float scale0, scale1;
    if (cosom < 0.9999f) {
        float omega = std::acos(cosom);
        float inv_sin = 1.0f / std::sin(omega);
        scale0 = std::sin((1.0f - s) * omega) * inv_sin;
        scale1 = std::sin(s * omega) * inv_sin;
    } else {
        scale0 = 1.0f - s;
        scale1 = s;
    }
    scale1 = float_select(raw, scale1, -scale1);
    for (int i = 0; i < 4; i++) out[i] = scale0 * q1[i] + scale1 * q2[i];
}

void slerp(const float q1[4], const float q2[4], float s, float out[4]) {
    float v[4];
    slerp_not_normalized(q1, q2, s, v);
    float sq = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
    if (sq >= 1.e-8f) {
        float scale = 1.0f / std::sqrt(sq);
        for (int i = 0; i < 4; i++) out[i] = v[i] * scale;
    } else {
        out[0] = 1.0f;  // FQuat::Identity (W = 1) in (w, x, y, z) order
        out[1] = out[2] = out[3] = 0.0f;
    }
}

const qc_impl_v1 nn_table = {
    "recipe-ue4-slerp-nn", slerp_not_normalized, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
const qc_impl_v1 table = {"recipe-ue4-slerp", slerp, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL_EX(nn_table, "recipe",
                    "UE4 FQuat::Slerp_NotNormalized as published (UnrealMath.cpp): short arc, unnormalised lerp "
                    "weights above cos 0.9999; float",
                    "Unreal Engine 4.19", {});
QC_REGISTER_IMPL_EX(
    table, "recipe",
    "UE4 FQuat::Slerp as published (Quat.h): Slerp_NotNormalized then GetNormalized (identity below |q|^2 1e-8); float",
    "Unreal Engine 4.19", {});
