// recipe-dxmath: DirectXMath XMQuaternionSlerp, written by us from the published source
// Inc/DirectXMathMisc.inl (XMQuaternionSlerpV, the _XM_NO_INTRINSICS_ path) of DirectXMath
// DIRECTX_MATH_VERSION 321 (github.com/microsoft/DirectXMath, tag jun2026). Structure:
//   c = q0.q1, sign = c < 0 ? -1 : 1, c *= sign
//   sinO = sqrt(1 - c^2), omega = atan2(sinO, c)  (the atan2 form)
//   c < 1 - 0.00001 (computed in float): s0 = sin((1 - t) omega)/sinO (as * 1/sinO), s1 = sin(t omega)/sinO
//   otherwise the linear weights s0 = 1 - t, s1 = t, with no normalisation
//   result = q0 s0 + q1 (s1 sign).
// The reference path calls atan2f and sinf; the SSE/NEON paths use DirectXMath's own polynomials
// (XMVectorATan2, XMVectorSin 11-degree minimax), which this recipe does not reproduce. Float only.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

void dx_slerp(const float q0[4], const float q1[4], float t, float out[4]) {
    const float one_minus_eps = 1.0f - 0.00001f;
    float c = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    float sign = c < 0.0f ? -1.0f : 1.0f;
    c = c * sign;
    float sin_omega = std::sqrt(1.0f - c * c);
    float omega = std::atan2(sin_omega, c);
    float v0 = 1.0f - t, v1 = t;
    float inv_sin = 1.0f / sin_omega;
    float s0 = v0, s1 = v1;
    if (c < one_minus_eps) {
        s0 = std::sin(v0 * omega) * inv_sin;
        s1 = std::sin(v1 * omega) * inv_sin;
    }
    s1 = s1 * sign;
    for (int i = 0; i < 4; i++) out[i] = q0[i] * s0 + q1[i] * s1;
}

const qc_impl_v1 table = {"recipe-dxmath", dx_slerp, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL_EX(table, "recipe",
                    "DirectXMath XMQuaternionSlerp as published (no-intrinsics path): atan2 form, unnormalised linear weights above 1-1e-5; float",
                    "DirectXMath 3.21 (DIRECTX_MATH_VERSION 321)", {});
