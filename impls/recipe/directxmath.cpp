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
// recipe-dxmath-squad: XMQuaternionSquadSetup + XMQuaternionSquad from the same file, a squad formulation
// that differs from Shoemake's in its sign handling. Setup flips each neighbour into the key's hemisphere
// (|a + b|^2 < |a - b|^2 -> negate) and, for the segment's second key, also the key itself (C = -Q2);
// control points are written in the world frame, A = exp(-(ln(Q0' Q1^-1) + ln(Q2' Q1^-1))/4) Q1
// (XMQuaternionMultiply(a, b) is the Hamilton product b a), which equals Shoemake's
// Q1 exp(-(ln(Q1^-1 Q0') + ln(Q1^-1 Q2'))/4). Ln: v acos(w)/sin(acos(w)) for |w| <= 1 - 1e-5, else v;
// Exp: (cos|v|, v sin|v|/|v|), v itself for |v| <= FLT_EPSILON; Inverse: conj/|q|^2, 0 for |q|^2 <= FLT_EPSILON.
// Squad: slerp(slerp(Q1, C, t), slerp(A, B, t), 2(t - t^2)) with XMQuaternionSlerp (short arc).
// In the plugin interface a key's control point cannot know its segment, so squad_setup(prev, cur, next)
// returns A for cur (neighbours flipped toward cur), and squad(q0, q1, s0, s1, t) applies the segment's
// flip (C = -q1, B = -s1 when |q0 + q1|^2 < |q0 - q1|^2): the same values as SquadSetup's A, B, C.
#include "quatcheck/registry.h"

#include <cfloat>
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

// Quaternions (w, x, y, z); DirectXMath stores (x, y, z, w), which only renames the components.
void qmul(const float a[4], const float b[4], float r[4]) {  // Hamilton product a b
    r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

void dx_inverse(const float q[4], float r[4]) {
    float l = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (l <= FLT_EPSILON) {
        r[0] = r[1] = r[2] = r[3] = 0.0f;
        return;
    }
    r[0] = q[0] / l;
    for (int i = 1; i < 4; i++) r[i] = -q[i] / l;
}

void dx_ln(const float q[4], float r[4]) {
    const float one_minus_eps = 1.0f - 0.00001f;
    r[0] = 0.0f;
    bool in_bounds = q[0] >= -one_minus_eps && q[0] <= one_minus_eps;
    float theta = std::acos(q[0]);
    float s = theta / std::sin(theta);
    for (int i = 1; i < 4; i++) r[i] = in_bounds ? q[i] * s : q[i];
}

void dx_exp(const float v[4], float r[4]) {
    float theta = std::sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    float sn = std::sin(theta), cs = std::cos(theta);
    float s = sn / theta;
    bool near_zero = std::fabs(theta) <= FLT_EPSILON;
    for (int i = 1; i < 4; i++) r[i] = near_zero ? v[i] : v[i] * s;
    r[0] = cs;
}

bool opposite(const float a[4], const float b[4]) {  // |a + b|^2 < |a - b|^2
    float ls = 0, ld = 0;
    for (int i = 0; i < 4; i++) {
        ls += (a[i] + b[i]) * (a[i] + b[i]);
        ld += (a[i] - b[i]) * (a[i] - b[i]);
    }
    return ls < ld;
}

// A for key cur: XMQuaternionSquadSetup's pA with Q0 = prev, Q1 = cur, Q2 = next.
void dx_squad_setup(const float prev[4], const float cur[4], const float next[4], float s[4]) {
    float p[4], n[4], inv[4], m[4], l0[4], l2[4], e[4];
    bool fp = opposite(prev, cur), fn = opposite(cur, next);
    for (int i = 0; i < 4; i++) {
        p[i] = fp ? -prev[i] : prev[i];
        n[i] = fn ? -next[i] : next[i];
    }
    dx_inverse(cur, inv);
    qmul(p, inv, m);
    dx_ln(m, l0);
    qmul(n, inv, m);
    dx_ln(m, l2);
    for (int i = 0; i < 4; i++) e[i] = (l0[i] + l2[i]) * -0.25f;
    dx_exp(e, m);
    qmul(m, cur, s);
}

void dx_squad(const float q0[4], const float q1[4], const float s0[4], const float s1[4], float t, float out[4]) {
    float c[4], b[4], q03[4], q12[4];
    bool f = opposite(q0, q1);
    for (int i = 0; i < 4; i++) {
        c[i] = f ? -q1[i] : q1[i];
        b[i] = f ? -s1[i] : s1[i];
    }
    dx_slerp(q0, c, t, q03);
    dx_slerp(s0, b, t, q12);
    float tp = (t - t * t) * 2.0f;
    dx_slerp(q03, q12, tp, out);
}

const qc_impl_v1 squad_table = {
    "recipe-dxmath-squad", nullptr, nullptr, dx_squad, dx_squad_setup, nullptr, nullptr, nullptr, nullptr};

const qc_impl_v1 table = {"recipe-dxmath", dx_slerp, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL_EX(table, "recipe",
                    "DirectXMath XMQuaternionSlerp as published (no-intrinsics path): atan2 form, unnormalised linear "
                    "weights above 1-1e-5; float",
                    "DirectXMath 3.21 (DIRECTX_MATH_VERSION 321)", {});
QC_REGISTER_IMPL_EX(squad_table, "recipe",
                    "DirectXMath XMQuaternionSquadSetup/XMQuaternionSquad as published: neighbours and the segment's "
                    "end key flipped into one hemisphere, world-frame control points, short-arc slerps; float",
                    "DirectXMath 3.21 (DIRECTX_MATH_VERSION 321)", {});
