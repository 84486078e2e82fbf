// myquat: a header-only quaternion type stored (x, y, z, w), as many engines store it, with a slerp. The
// arc angle is Kahan's 2 atan2(|a - b|, |a + b|), accurate at every angle (acos of the dot product is not near
// 0), and the weights are sin((1 - t) W) / sin W and sin(t W) / sin W, with no linear fallback.
#pragma once

#include <cmath>

namespace mq {

struct Quat {
    double x, y, z, w;
};

inline double dot(const Quat &a, const Quat &b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
inline double length(double x, double y, double z, double w) { return std::sqrt(x * x + y * y + z * z + w * w); }

inline Quat slerp(const Quat &a, Quat b, double t) {
    if (dot(a, b) < 0) b = {-b.x, -b.y, -b.z, -b.w};  // the short arc
    const double w = 2 * std::atan2(length(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w),
                                    length(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w));
    if (w == 0) return a;
    const double k0 = std::sin((1 - t) * w) / std::sin(w), k1 = std::sin(t * w) / std::sin(w);
    return {k0 * a.x + k1 * b.x, k0 * a.y + k1 * b.y, k0 * a.z + k1 * b.z, k0 * a.w + k1 * b.w};
}

}  // namespace mq
