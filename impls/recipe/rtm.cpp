// recipe-rtm: Realtime Math (RTM) quat_slerp, written by us from the published includes/rtm/quatf.h,
// quatd.h, scalarf.h and vector4f.h of RTM 2.3.99 (develop after v2.3.1; github.com/nfrechette/rtm,
// commit 9fc8471, 2024-03-17). Structure (both precisions):
//   c = start.end; if c < 0 { end = -end; c = -c }; c = clamp(c, -1, 1)
//   h = acos(c), sinH = sqrt(1 - c^2), inv = 1/sinH     (no small-angle fallback)
//   result = start sin((1 - a) h) inv + end sin(a h) inv, not normalised.
// quatf (x86-64, SSE2 path): scalar_acos is Eberly's degree-7 polynomial times sqrt(1 - |x|) with
// reflection for x < 0, and vector_sin reduces to [-pi, pi] (banker's rounding of x/2pi), reflects to
// [-pi/2, pi/2] and evaluates a degree-11 odd minimax polynomial; both are transcribed with their
// published constants. quatd uses std::acos and std::sin.
// Note: with no fallback, equal ends give sinH = 0, inv = inf and 0 * inf = NaN; that is the
// published routine's behaviour, not a transcription slip.
#include "quatcheck/registry.h"

#include <algorithm>
#include <cmath>

namespace {

float rtm_acos(float value) {
    float x = std::fabs(value);
    float r = (x * -1.2690614339589956e-3f) + 6.7072304676685235e-3f;
    r = (r * x) - 1.7162031184398074e-2f;
    r = (r * x) + 3.0961594977611639e-2f;
    r = (r * x) - 5.0207843052845647e-2f;
    r = (r * x) + 8.8986946573346160e-2f;
    r = (r * x) - 2.1459960076929829e-1f;
    r = (r * x) + 1.5707963267948966f;
    r = r * std::sqrt(1.0f - x);
    if (value < 0.0f) r = 3.141592653589793238f - r;
    return r;
}

float rtm_sin(float input) {
    const float pi = 3.141592653589793238f, half_pi = 1.570796326794896619f, two_pi = 6.283185307179586477f;
    const float one_div_two_pi = 1.591549430918953358e-01f;
    float quotient = std::nearbyint(input * one_div_two_pi) * two_pi;  // banker's rounding in the default mode
    float x = input - quotient;
    float reference = std::copysign(pi, x);
    float reflection = reference - x;
    if (!(std::fabs(x) <= half_pi)) x = reflection;
    float x2 = x * x;
    float r = (x2 * -2.3828544692960918e-8f) + 2.7521557770526783e-6f;
    r = (r * x2) - 1.9840782426250314e-4f;
    r = (r * x2) + 8.3333303183525942e-3f;
    r = (r * x2) - 1.6666666601721269e-1f;
    r = (r * x2) + 1.0f;
    return r * x;
}

double rtm_acos(double x) { return std::acos(x); }
double rtm_sin(double x) { return std::sin(x); }

template <class T> void rtm_slerp(const T start[4], const T end_in[4], T alpha, T out[4]) {
    T c = start[0] * end_in[0] + start[1] * end_in[1] + start[2] * end_in[2] + start[3] * end_in[3];
    bool negative = c < T(0);
    T end[4];
    for (int i = 0; i < 4; i++) end[i] = negative ? -end_in[i] : end_in[i];
    if (negative) c = -c;
    c = std::clamp(c, T(-1), T(1));
    T half_angle = rtm_acos(c);
    T sin_half = std::sqrt(T(1) - c * c);
    T inv = T(1) / sin_half;
    T c0 = rtm_sin((T(1) - alpha) * half_angle) * inv;
    T c1 = rtm_sin(alpha * half_angle) * inv;
    for (int i = 0; i < 4; i++) out[i] = start[i] * c0 + end[i] * c1;
}

const qc_impl_v1 table = {"recipe-rtm",      rtm_slerp<float>, nullptr, nullptr, nullptr,
                          rtm_slerp<double>, nullptr,          nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL_EX(table, "recipe",
                    "Realtime Math quat_slerp as published (quatf.h/quatd.h): short arc, no small-angle fallback (NaN "
                    "at equal ends), not normalised; f32 with RTM's acos/sin polynomials",
                    "RTM 2.3.99 (develop, 9fc8471)", {});
