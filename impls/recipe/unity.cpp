// recipe-unity: Unity.Mathematics math.slerp(quaternion, quaternion, float), written by us from the
// published source src/Unity.Mathematics/quaternion.cs of com.unity.mathematics 1.3.2
// (github.com/Unity-Technologies/Unity.Mathematics, commit f53664d). Structure:
//   dt = q1.q2; if dt < 0 { dt = -dt; q2 = -q2 }
//   dt < 0.9995: angle = acos(dt), s = rsqrt(1 - dt^2) (= 1/sin(angle), rsqrt(x) = 1/sqrt(x)),
//                result = q1 sin(angle (1 - t)) s + q2 sin(angle t) s, NOT normalised;
//   otherwise math.nlerp(q1, q2, t) = normalize(q1 + t (chgsign(q2, q1.q2) - q1)),
//                normalize(x) = rsqrt(x.x) x.
// Float only (Unity.Mathematics has no double quaternion).
#include "quatcheck/registry.h"

#include <cmath>

namespace {

float dot4(const float a[4], const float b[4]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }
float rsqrt(float x) { return 1.0f / std::sqrt(x); }

void unity_nlerp(const float q1[4], const float q2[4], float t, float out[4]) {
    float d = dot4(q1, q2);
    float v[4];
    for (int i = 0; i < 4; i++) {
        float b = std::signbit(d) ? -q2[i] : q2[i];  // chgsign(q2, dot)
        v[i] = q1[i] + t * (b - q1[i]);
    }
    float r = rsqrt(dot4(v, v));
    for (int i = 0; i < 4; i++) out[i] = r * v[i];
}

void unity_slerp(const float q1[4], const float q2in[4], float t, float out[4]) {
    float q2[4] = {q2in[0], q2in[1], q2in[2], q2in[3]};
    float dt = dot4(q1, q2);
    if (dt < 0.0f) {
        dt = -dt;
        for (float &c : q2) c = -c;
    }
    if (dt < 0.9995f) {
        float angle = std::acos(dt);
        float s = rsqrt(1.0f - dt * dt);
        float w1 = std::sin(angle * (1.0f - t)) * s;
        float w2 = std::sin(angle * t) * s;
        for (int i = 0; i < 4; i++) out[i] = q1[i] * w1 + q2[i] * w2;
    } else {
        unity_nlerp(q1, q2, t, out);
    }
}

const qc_impl_v1 table = {"recipe-unity", unity_slerp, unity_nlerp, nullptr, nullptr,
                          nullptr,        nullptr,     nullptr,     nullptr};

}  // namespace

QC_REGISTER_IMPL_EX(table, "recipe",
                    "Unity.Mathematics math.slerp/math.nlerp as published (quaternion.cs): short arc, 0.9995 nlerp "
                    "fallback, rsqrt(1-d^2) for 1/sin, slerp branch not normalised; float",
                    "com.unity.mathematics 1.3.2", {});
