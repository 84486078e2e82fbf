// lusine: the lusine.render.slerp kernel of seed document 004, in float32 as the kernel declares:
// near = -after where dot < 0, d = |dot|, normalised lerp above 0.9995, else the sine-weighted arc.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

void lusine_slerp(const float before[4], const float after[4], float alpha, float out[4]) {
    float d0 = before[0] * after[0] + before[1] * after[1] + before[2] * after[2] + before[3] * after[3];
    float near[4];
    for (int i = 0; i < 4; i++) near[i] = d0 < 0.0f ? -after[i] : after[i];
    float d = std::fabs(d0);
    if (d > 0.9995f) {
        float v[4];
        for (int i = 0; i < 4; i++) v[i] = before[i] + (near[i] - before[i]) * alpha;
        float n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
        for (int i = 0; i < 4; i++) out[i] = v[i] / n;
        return;
    }
    float theta = std::acos(d);
    float s = std::sin(theta);
    for (int i = 0; i < 4; i++)
        out[i] = before[i] * (std::sin((1.0f - alpha) * theta) / s) + near[i] * (std::sin(alpha * theta) / s);
}

const qc_impl_v1 table = {
    "lusine", lusine_slerp, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
};

}  // namespace

QC_REGISTER_IMPL(table, "seed",
                 "seed 004's lusine.render.slerp kernel (float32): short arc, nlerp above |dot| 0.9995; its notebook "
                 "checks it within 2e-5 of numpy");
