#include "regions/regions.h"
#include "quatcheck/names.h"

#include <cmath>
#include <limits>

namespace qc {

namespace {
constexpr std::array kRegionNames{Named{Region::uniform, "uniform"}, Named{Region::near_0, "near-0"},
                                  Named{Region::near_half_pi, "near-half-pi"}, Named{Region::near_pi, "near-pi"},
                                  Named{Region::threshold, "threshold"}};
static_assert(distinct_names(kRegionNames));
}  // namespace

const std::vector<Region> &all_regions() { return values_of<kRegionNames>(); }
const char *to_string(Region r) { return name_of(kRegionNames, r); }
std::optional<Region> parse_region(std::string_view s) { return parse_name(kRegionNames, s); }

double Rng::log_uniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }

double Rng::normal() {
    double u1 = 1.0 - uniform();  // (0, 1]
    double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

Rng case_rng(uint64_t seed, Precision p, Region r, uint64_t index) {
    Rng mix(seed ^ (uint64_t(p) << 56) ^ (uint64_t(r) << 48));
    uint64_t a = mix.next();
    Rng inner(a + index * 0xD1B54A32D192ED03ull);
    return Rng(inner.next());
}

void random_unit(Rng &rng, double q[4]) {
    double n = 0;
    do {
        n = 0;
        for (int i = 0; i < 4; i++) q[i] = rng.normal(), n += q[i] * q[i];
    } while (n < 1e-6);
    n = std::sqrt(n);
    for (int i = 0; i < 4; i++) q[i] /= n;
}

void random_orthogonal(Rng &rng, const double q[4], double v[4]) {
    double d, n;
    do {
        random_unit(rng, v);
        d = q[0] * v[0] + q[1] * v[1] + q[2] * v[2] + q[3] * v[3];
        for (int i = 0; i < 4; i++) v[i] -= d * q[i];
        n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    } while (n < 1e-3);
    for (int i = 0; i < 4; i++) v[i] /= n;
}

namespace {

template <class T> Quat<T> round_quat(const double q[4]) { return {T(q[0]), T(q[1]), T(q[2]), T(q[3])}; }

// q1 = cos(W) q0 + sin(W) v: the point at arc W from q0 along a random great circle.
void at_arc(Rng &rng, const double q0[4], double W, double q1[4]) {
    double v[4];
    random_orthogonal(rng, q0, v);
    double c = std::cos(W), s = std::sin(W);
    for (int i = 0; i < 4; i++) q1[i] = c * q0[i] + s * v[i];
}

// q1 with a.q1 = d (d in [-1, 1]), computed without cancellation from 1 - d^2 = (1 - d)(1 + d).
void at_dot(Rng &rng, const double q0[4], double d, double q1[4]) {
    double v[4];
    random_orthogonal(rng, q0, v);
    double s = std::sqrt((1 - d) * (1 + d));
    for (int i = 0; i < 4; i++) q1[i] = d * q0[i] + s * v[i];
}

// A pair whose product in the format is exactly zero: q1 = q0 * u for a unit pure quaternion u of the
// basis (i, j or k), whose components are q0's permuted with signs, so the four products cancel in pairs.
template <class T> void exact_orthogonal(Rng &rng, SlerpCase<T> &c) {
    const Quat<T> &q = c.q0;
    switch (rng.below(3)) {
        case 0:
            c.q1 = {-q[1], q[0], q[3], -q[2]};
            break;  // q * i
        case 1:
            c.q1 = {-q[2], -q[3], q[0], q[1]};
            break;  // q * j
        default:
            c.q1 = {-q[3], q[2], -q[1], q[0]};
            break;  // q * k
    }
    if (rng.below(2))
        for (T &x : c.q1) x = -x;
}

// Ends along two basis axes, so that the dot product computed in the format is exactly d:
// q0 = +-e_i, q1 = d (+-e_i) + sqrt(1 - d^2) e_j.
template <class T> void exact_dot(Rng &rng, SlerpCase<T> &c, T d) {
    int i = int(rng.below(4)), j = int((i + 1 + rng.below(3)) % 4);
    T sign = rng.below(2) ? T(1) : T(-1);
    c.q0 = {0, 0, 0, 0};
    c.q1 = {0, 0, 0, 0};
    c.q0[i] = sign;
    c.q1[i] = sign * d;
    c.q1[j] = T(std::sqrt((1 - double(d)) * (1 + double(d))));
}

}  // namespace

template <class T> T sample_t(Rng &rng) {
    const T one = T(1);
    uint64_t k = rng.below(100);
    if (k < 70) {
        T t = T(rng.uniform());
        return t > one ? one : t;
    }
    switch (k) {
        case 70:
        case 71:
        case 72:
            return T(0);
        case 73:
        case 74:
        case 75:
            return T(0.5);
        case 76:
        case 77:
        case 78:
            return one;
        default:
            break;
    }
    if (k < 85) {  // a few ulps away from 0 or from 1
        int steps = 1 + int(rng.below(4));
        T t = rng.below(2) ? T(0) : one;
        T toward = t == T(0) ? one : T(0);
        for (int s = 0; s < steps; s++) t = std::nextafter(t, toward);
        return t;
    }
    T small = T(rng.log_uniform(0x1p-60, 0x1p-10));
    return rng.below(2) ? small : one - small;
}

template <class T> SlerpCase<T> sample_case(Region r, Rng &rng) {
    SlerpCase<T> c;
    double q0[4], q1[4];
    random_unit(rng, q0);
    c.q0 = round_quat<T>(q0);
    switch (r) {
        case Region::uniform:
            random_unit(rng, q1);
            c.q1 = round_quat<T>(q1);
            break;
        case Region::near_0:
            if (rng.below(20) == 0) {
                c.q1 = c.q0;  // exactly equal ends
            } else {
                at_arc(rng, q0, rng.log_uniform(kRegionMinOffset, kNear0MaxArc), q1);
                c.q1 = round_quat<T>(q1);
            }
            break;
        case Region::near_half_pi:
            if (rng.below(20) == 0) {
                exact_orthogonal(rng, c);
            } else {
                double d = rng.log_uniform(kRegionMinOffset, kNearHalfPiMaxDot);
                at_dot(rng, q0, rng.below(2) ? d : -d, q1);
                c.q1 = round_quat<T>(q1);
            }
            break;
        case Region::near_pi:
            if (rng.below(20) == 0) {
                for (int i = 0; i < 4; i++) c.q1[i] = -c.q0[i];  // exactly antipodal
            } else {
                double delta = rng.log_uniform(kRegionMinOffset, kNearPiMaxDelta);  // a.b = -1 + delta
                double W = 2 * std::asin(std::sqrt(delta / 2));                     // arc from -q0
                double m[4] = {-q0[0], -q0[1], -q0[2], -q0[3]};
                at_arc(rng, m, W, q1);
                c.q1 = round_quat<T>(q1);
            }
            break;
        case Region::threshold:
            if (rng.below(5) == 0) {
                T d = T(kSeedThreshold);
                int steps = int(rng.below(9)) - 4;  // -4 .. 4 representable steps from 0.9995
                for (int s = 0; s < std::abs(steps); s++) d = std::nextafter(d, steps > 0 ? T(1) : T(0));
                exact_dot(rng, c, d);
            } else {
                // Below the threshold the offset reaches 1e-3; above it the dot product cannot pass 1, so the
                // offset stops just short of 1 - 0.9995 = 5e-4.
                bool above = rng.below(2);
                double off = rng.log_uniform(kRegionMinOffset, above ? kThresholdMaxAbove : kThresholdMaxBelow);
                at_dot(rng, q0, kSeedThreshold + (above ? off : -off), q1);
                c.q1 = round_quat<T>(q1);
            }
            break;
    }
    c.t = sample_t<T>(rng);
    return c;
}

template <class T> bool in_region(Region region, const SlerpCase<T> &c) {
    if (!(c.t >= T(0) && c.t <= T(1))) return false;
    if (region == Region::uniform) return true;  // (every arc belongs to it)
    // a.b of the normalised ends, before the short-arc flip (the arc angle W = acos |a.b|).
    double na = 0, nb = 0, d = 0;
    for (int i = 0; i < 4; i++) {
        const double x = double(c.q0[size_t(i)]), y = double(c.q1[size_t(i)]);
        na += x * x, nb += y * y, d += x * y;
    }
    if (!(na > 0) || !(nb > 0)) return region == Region::near_0 || region == Region::near_pi;
    d /= std::sqrt(na) * std::sqrt(nb);
    static const double cos_near_0 = std::cos(kNear0MaxArc);
    switch (region) {
        case Region::uniform:
            return true;
        case Region::near_0:
            return std::fabs(d) >= cos_near_0;
        case Region::near_half_pi:
            return std::fabs(d) <= kNearHalfPiMaxDot;
        case Region::near_pi:
            return d <= -1 + kNearPiMaxDelta;
        case Region::threshold:
            return d >= kSeedThreshold - kThresholdMaxBelow;
    }
    return true;
}

template bool in_region<float>(Region, const SlerpCase<float> &);
template bool in_region<double>(Region, const SlerpCase<double> &);
template SlerpCase<float> sample_case<float>(Region, Rng &);
template SlerpCase<double> sample_case<double>(Region, Rng &);
template float sample_t<float>(Rng &);
template double sample_t<double>(Rng &);

}  // namespace qc
