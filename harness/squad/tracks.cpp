#include "squad/tracks.h"
#include "quatcheck/names.h"

#include <cmath>

namespace qc {

namespace {
constexpr std::array kTrackRegionNames{
    Named{TrackRegion::random, "random"}, Named{TrackRegion::near_equal, "near-equal"},
    Named{TrackRegion::quarter_turn, "quarter-turn"}, Named{TrackRegion::threshold, "threshold"},
    Named{TrackRegion::sign_flip, "sign-flip"}};
static_assert(distinct_names(kTrackRegionNames));
}  // namespace

const std::vector<TrackRegion> &all_track_regions() { return values_of<kTrackRegionNames>(); }
const char *to_string(TrackRegion r) { return name_of(kTrackRegionNames, r); }
std::optional<TrackRegion> parse_track_region(std::string_view s) { return parse_name(kTrackRegionNames, s); }

Rng track_rng(uint64_t seed, Precision p, TrackRegion r, uint64_t index) {
    // A stream apart from the two-key regions': a different constant in the mix.
    Rng mix(seed ^ 0x5155414453515541ull ^ (uint64_t(p) << 56) ^ (uint64_t(r) << 48));
    uint64_t a = mix.next();
    Rng inner(a + index * 0xD1B54A32D192ED03ull);
    return Rng(inner.next());
}

namespace {
// next = q (cos(angle/2), sin(angle/2) axis) for a random axis: a rotation by `angle` after q.
void turn(Rng &rng, const double q[4], double angle, double next[4]) {
    double a[3], n = 0;
    do {
        n = 0;
        for (double &x : a) x = rng.normal(), n += x * x;
    } while (n < 1e-6);
    n = std::sqrt(n);
    const double c = std::cos(angle / 2), s = std::sin(angle / 2);
    const double r[4] = {c, s * a[0] / n, s * a[1] / n, s * a[2] / n};
    next[0] = q[0] * r[0] - q[1] * r[1] - q[2] * r[2] - q[3] * r[3];
    next[1] = q[0] * r[1] + q[1] * r[0] + q[2] * r[3] - q[3] * r[2];
    next[2] = q[0] * r[2] + q[2] * r[0] + q[3] * r[1] - q[1] * r[3];
    next[3] = q[0] * r[3] + q[3] * r[0] + q[1] * r[2] - q[2] * r[1];
}

// next = d q + sqrt(1 - d^2) v with v a random unit quaternion orthogonal to q: q.next = d.
void at_dot(Rng &rng, const double q[4], double d, double next[4]) {
    double v[4];
    random_orthogonal(rng, q, v);
    const double c = std::sqrt((1 - d) * (1 + d));
    for (int i = 0; i < 4; i++) next[i] = d * q[i] + c * v[i];
}
}  // namespace

KeyTrack sample_track(TrackRegion r, Rng &rng, double eps, size_t keys) {
    const double deg = M_PI / 180;
    KeyTrack k(keys);
    random_unit(rng, k[0].data());
    const size_t forced = keys > 1 ? size_t(rng.below(keys - 1)) : 0;  // near-equal: this segment is tiny
    for (size_t i = 0; i + 1 < keys; i++) {
        double *q = k[i].data(), *next = k[i + 1].data();
        switch (r) {
            case TrackRegion::random:
                turn(rng, q, rng.log_uniform(1 * deg, 150 * deg), next);
                break;
            case TrackRegion::near_equal:
                if (i == forced || rng.below(2) == 0) {
                    double angle = rng.below(8) == 0 ? 0.0 : rng.log_uniform(1e-9, 1e-3);
                    turn(rng, q, angle, next);
                } else {
                    turn(rng, q, rng.log_uniform(1 * deg, 150 * deg), next);
                }
                break;
            case TrackRegion::quarter_turn: {
                at_dot(rng, q, rng.log_uniform(64 * eps, 1e-1), next);  // one hemisphere, sign resolved by the format
                break;
            }
            case TrackRegion::threshold: {
                double off = rng.log_uniform(1e-12, 1e-4);
                at_dot(rng, q, rng.below(2) ? kSeedThreshold + off : kSeedThreshold - off, next);
                break;
            }
            case TrackRegion::sign_flip:
                turn(rng, q, rng.log_uniform(5 * deg, 90 * deg), next);
                break;
        }
    }
    if (r == TrackRegion::sign_flip && keys > 1) {
        const size_t must = 1 + size_t(rng.below(keys - 1));
        for (size_t i = 1; i < keys; i++)
            if (i == must || rng.below(2) == 0)
                for (double &x : k[i]) x = -x;
    }
    return k;
}

}  // namespace qc
