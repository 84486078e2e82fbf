// The search's screen (screen.h): the ideal slerp and the rotation angle in plain double.
#include "search/screen.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace qc {

namespace {

bool unit_scale(double n) { return n >= 0x1p-300 && n <= 0x1p300; }

// A screen's claimed upper bound on the true error from its estimate e: e (1 + 2^-40) + abs (a quarter of e
// under QC_DAMAGE_FAST_PATH=screen, the negative control).
double claimed_upper(double e, double abs) {
    if (screen_damaged()) e *= 0.25;
    return e * (1 + kScreenRel) + abs;
}

}  // namespace

bool screen_damaged() {
    static const bool damaged = [] {
        const char *e = std::getenv("QC_DAMAGE_FAST_PATH");
        return e && std::strcmp(e, "screen") == 0;
    }();
    return damaged;
}

bool screen_slerp(const double q0[4], const double q1[4], double t, double R[4]) {
    if (!(t >= 0 && t <= 1)) return false;
    double a[4], b[4], n0 = 0, n1 = 0;
    for (int i = 0; i < 4; i++) n0 += q0[i] * q0[i], n1 += q1[i] * q1[i];
    n0 = std::sqrt(n0), n1 = std::sqrt(n1);
    if (!unit_scale(n0) || !unit_scale(n1)) return false;
    double dot = 0;
    for (int i = 0; i < 4; i++) a[i] = q0[i] / n0, b[i] = q1[i] / n1, dot += a[i] * b[i];
    if (!(std::fabs(dot) > 0x1p-30)) return false;  // the short arc's side (and the tie band) in doubt
    const double s = dot < 0 ? -1 : 1;
    double dm = 0, dp = 0;
    for (int i = 0; i < 4; i++) {
        b[i] *= s;
        dm += (a[i] - b[i]) * (a[i] - b[i]), dp += (a[i] + b[i]) * (a[i] + b[i]);
    }
    const double W = 2 * std::atan2(std::sqrt(dm), std::sqrt(dp));
    double s0 = 1 - t, s1 = t;  // the limit at W = 0, and the ends exactly
    if (W > 0x1p-200 && t > 0 && t < 1) {
        // s1 = sin(tW)/sin W, s0 = sin((1-t)W)/sin W = cos(tW) - cos W s1: two sincos instead of three sines
        double sw, cw, st, ct;
        ::sincos(W, &sw, &cw);
        ::sincos(t * W, &st, &ct);
        s1 = st / sw, s0 = ct - cw * s1;
    }
    for (int i = 0; i < 4; i++) R[i] = s0 * a[i] + s1 * b[i];
    return true;
}

double screen_angle_upper(const double r[4], const double R[4]) {
    double n = 0;
    for (int i = 0; i < 4; i++) {
        if (!std::isfinite(r[i])) return NAN;
        n += r[i] * r[i];
    }
    n = std::sqrt(n);
    if (!unit_scale(n)) return NAN;
    double um = 0, up = 0;
    for (int i = 0; i < 4; i++) {
        const double u = r[i] / n;
        um += (u - R[i]) * (u - R[i]), up += (u + R[i]) * (u + R[i]);
    }
    if (um > up) std::swap(um, up);
    // 4 atan2(y, x), y <= x; below y/x = 2^-20, 4 y/x (atan q <= q: still an upper bound) without the call.
    const double y = std::sqrt(um), x = std::sqrt(up), q = y / x;
    return claimed_upper(q < 0x1p-20 ? 4 * q : 4 * std::atan2(y, x), kScreenAbs);
}

double screen_dd_upper(double angle) { return claimed_upper(angle, kScreenDdAbs); }

void screen_dd_interval(double angle, double &lo, double &hi) {
    hi = std::min(screen_dd_upper(angle), M_PI);  // (no rotation error exceeds pi: the metric's largest value)
    lo = std::min(hi, std::max(0.0, angle * (1 - kScreenRel) - kScreenDdAbs));
}

}  // namespace qc
