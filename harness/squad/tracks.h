// Key-track generators for squad (docs/squad.md). A track is `keys` unit quaternions in double, drawn
// from a deterministic stream per (seed, precision, region, track index) and rounded by the caller to the
// implementation's format; any track can be regenerated from those four numbers alone.
//
//   random        rotations between consecutive keys log-uniform in [1, 150] degrees, random axes
//   near-equal    as random, but about half of the segments (at least one) rotate log-uniform in
//                 [1e-9, 1e-3] rad, and one in eight of those is exactly 0 (repeated key)
//   quarter-turn  consecutive keys nearly a quarter turn apart on the 3-sphere (rotation near 180 degrees):
//                 q_i.q_i+1 = delta, delta log-uniform in [64 eps, 1e-1] with eps that of the format, so the
//                 keys are stored in one hemisphere and the format resolves the sign of their dot product:
//                 what is measured is the arithmetic near 90 degrees on the sphere. (Dots within rounding
//                 of 0, where either hemisphere is legitimate, are the two-key near-half-pi region's.)
//   threshold     consecutive keys with q_i.q_i+1 = 0.9995 +- offset, offset log-uniform in [1e-12, 1e-4]
//                 (the seed slerp's fallback threshold, about 3.6 degrees of rotation)
//   sign-flip     as random with rotations in [5, 90] degrees, then keys after the first stored negated
//                 (q and -q are one rotation) with probability 1/2, at least one: what mixing exporters gives
#pragma once

#include "quatcheck/types.h"
#include "reference/squad.h"
#include "regions/regions.h"

#include <optional>
#include <string_view>
#include <vector>

namespace qc {

enum class TrackRegion { random, near_equal, quarter_turn, threshold, sign_flip };

const std::vector<TrackRegion> &all_track_regions();
const char *to_string(TrackRegion r);
std::optional<TrackRegion> parse_track_region(std::string_view s);

inline constexpr size_t kTrackKeys = 6;

Rng track_rng(uint64_t seed, Precision p, TrackRegion r, uint64_t index);
// Unit keys in double (before rounding to the format).
// eps: the spacing at 1 of the format the keys will be rounded to.
KeyTrack sample_track(TrackRegion r, Rng &rng, double eps, size_t keys = kTrackKeys);

// The keys rounded to T, and back in double (exact), as implementations and the reference see them.
template <class T> KeyTrack round_track(const KeyTrack &keys) {
    KeyTrack out = keys;
    for (auto &k : out)
        for (double &x : k) x = double(T(x));
    return out;
}

}  // namespace qc
