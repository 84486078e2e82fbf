// The slerp routines under study in `quatcheck threshold`: three families of one routine, each with the
// dot-product threshold tau as a parameter. These are the study's own templates (the structure libraries
// use, written here), not copies of any library.
//
//   acos+nlerp   d = q0.q1, s = sign(d), d <- |d|; d > tau: normalised lerp of q0 and s q1;
//                otherwise W = acos(d), out = (sin((1-t)W) q0 + sin(tW) s q1) / sin W
//   acos+lerp    the same with the un-normalised lerp q0 + t (s q1 - q0) above tau
//   atan2+nlerp  the same as acos+nlerp with W = 2 atan2(|q0 - s q1|, |q0 + s q1|)
//
// The switch is `d > tau` computed in the format T, so tau = 2 forces the arc branch and tau = -1 forces
// the fallback (d >= 0 after the sign flip): the study measures and times each branch on its own that way.
#pragma once

#include "quatcheck/names.h"

#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

namespace qc {

enum class ThresholdFamily { acos_nlerp, acos_lerp, atan2_nlerp };

inline constexpr std::array kThresholdFamilyNames{Named{ThresholdFamily::acos_nlerp, "acos+nlerp"},
                                                  Named{ThresholdFamily::acos_lerp, "acos+lerp"},
                                                  Named{ThresholdFamily::atan2_nlerp, "atan2+nlerp"}};
static_assert(distinct_names(kThresholdFamilyNames));

inline const std::vector<ThresholdFamily> &all_threshold_families() { return values_of<kThresholdFamilyNames>(); }
inline const char *to_string(ThresholdFamily f) { return name_of(kThresholdFamilyNames, f); }
inline std::optional<ThresholdFamily> parse_threshold_family(std::string_view s) {
    return parse_name(kThresholdFamilyNames, s);
}

namespace threshold_detail {

template <class T> T dot4(const T a[4], const T b[4]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }

// out = q0 + t (s q1 - q0), then divided by its norm when normalise.
template <class T> void linear(const T q0[4], const T q1[4], T s, T t, bool normalise, T out[4]) {
    for (int i = 0; i < 4; i++) out[i] = q0[i] + t * (s * q1[i] - q0[i]);
    if (!normalise) return;
    T n = std::sqrt(dot4(out, out));
    for (int i = 0; i < 4; i++) out[i] /= n;
}

// d = |q0.q1| and its sign s (+1 at 0): the short-arc flip, which the callers apply as s q1.
template <class T> T short_arc(const T q0[4], const T q1[4], T &s) {
    T d = dot4(q0, q1);
    s = T(1);
    if (d < T(0)) {
        d = -d;
        s = T(-1);
    }
    return d;
}

template <class T> void arc(const T q0[4], const T q1[4], T s, T t, T W, T out[4]) {
    T sw = std::sin(W);
    T a = std::sin((T(1) - t) * W) / sw;
    T b = std::sin(t * W) / sw;
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * (s * q1[i]);
}

}  // namespace threshold_detail

// acos+nlerp: acos arc, normalised lerp above tau (the seed routine's structure).
template <class T> void slerp_acos_nlerp(const T q0[4], const T q1[4], T t, T tau, T out[4]) {
    using namespace threshold_detail;
    T s, d = short_arc(q0, q1, s);
    if (d > tau) return linear(q0, q1, s, t, true, out);
    arc(q0, q1, s, t, std::acos(d), out);
}

// acos+lerp: acos arc, un-normalised lerp above tau.
template <class T> void slerp_acos_lerp(const T q0[4], const T q1[4], T t, T tau, T out[4]) {
    using namespace threshold_detail;
    T s, d = short_arc(q0, q1, s);
    if (d > tau) return linear(q0, q1, s, t, false, out);
    arc(q0, q1, s, t, std::acos(d), out);
}

// atan2+nlerp: W = 2 atan2(|q0 - s q1|, |q0 + s q1|), normalised lerp above tau.
template <class T> void slerp_atan2_nlerp(const T q0[4], const T q1[4], T t, T tau, T out[4]) {
    using namespace threshold_detail;
    T s, d = short_arc(q0, q1, s);
    if (d > tau) return linear(q0, q1, s, t, true, out);
    T diff = 0, sum = 0;
    for (int i = 0; i < 4; i++) {
        T m = q0[i] - s * q1[i], p = q0[i] + s * q1[i];
        diff += m * m;
        sum += p * p;
    }
    arc(q0, q1, s, t, T(2) * std::atan2(std::sqrt(diff), std::sqrt(sum)), out);
}

template <class T> using ThresholdSlerp = void (*)(const T *, const T *, T, T, T *);

template <class T> ThresholdSlerp<T> threshold_routine(ThresholdFamily f) {
    switch (f) {
        case ThresholdFamily::acos_nlerp:
            return slerp_acos_nlerp<T>;
        case ThresholdFamily::acos_lerp:
            return slerp_acos_lerp<T>;
        case ThresholdFamily::atan2_nlerp:
            return slerp_atan2_nlerp<T>;
    }
    return nullptr;
}

}  // namespace qc
