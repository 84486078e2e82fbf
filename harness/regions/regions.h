// Case generators: where slerp implementations fail. Each region draws (q0, q1, t) in the
// implementation's format from a deterministic random stream; the runner gives case i of a region its
// own stream, so any case can be regenerated from (seed, precision, region, i) alone, by any thread or
// shard. The RapidCheck generators of the conformance suite call the same samplers.
//
//   uniform       q0, q1 uniform on S^3
//   near-0        arc W log-uniform in [1e-12, 1e-1], plus exactly equal ends
//   near-half-pi  |a.b| log-uniform in [1e-12, 1e-1], both signs, plus a.b = 0 exactly
//   near-pi       q1 ~ -q0: a.b = -1 + delta, delta log-uniform in [1e-12, 1e-1], plus q1 = -q0 exactly
//   threshold     a.b = 0.9995 - offset, offset log-uniform in [1e-12, 1e-3], or 0.9995 + offset with the
//                 offset in [1e-12, 4.999e-4] (a.b cannot exceed 1), plus the representable
//                 neighbours of 0.9995 in the format (dot products that are exactly those values)
//   t             uniform in [0, 1] (70 %), exactly 0, 1/2, 1, a few ulps from 0 and from 1, log-uniform
//                 in [2^-60, 2^-10] near either end
#pragma once

#include "quatcheck/types.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace qc {

// Region: quatcheck/case.h (shared with the testing library).
const std::vector<Region> &all_regions();
const char *to_string(Region r);
std::optional<Region> parse_region(std::string_view s);

// The dot-product threshold of the seed routines, 0.9995: the threshold region's centre, the threshold
// study's customary tau, and the line the report draws (`quatcheck tables --constants`).
inline constexpr double kSeedThreshold = 0.9995;

// The bounds of the regions: their samplers draw inside them, and in_region() is the test.
inline constexpr double kRegionMinOffset = 1e-12;       // the smallest offset any region draws
inline constexpr double kNear0MaxArc = 0.1;             // near-0: arc W <= this
inline constexpr double kNearHalfPiMaxDot = 0.1;        // near-half-pi: |a.b| <= this
inline constexpr double kNearPiMaxDelta = 0.1;          // near-pi: a.b <= -1 + this
inline constexpr double kThresholdMaxBelow = 1e-3;      // threshold: a.b >= kSeedThreshold - this
inline constexpr double kThresholdMaxAbove = 4.999e-4;  // ... and a drawn offset above it is at most this

// Whether a case lies in a region: t in [0, 1], and the normalised ends' a.b (before any short-arc flip)
// within the region's bounds above. Every case sample_case() draws passes; the worst-case search keeps its
// mutations inside the region with it.
template <class T> bool in_region(Region r, const SlerpCase<T> &c);

// SplitMix64: small, fast, and identical on every platform (std distributions are not).
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    // (Inline: the worst-case search draws several per step.)
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * 0x1p-53; }                  // [0, 1), 53 random bits
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }  // [lo, hi)
    double log_uniform(double lo, double hi);                                    // lo, hi > 0
    double normal();                                                             // standard normal (Box-Muller)
    uint64_t below(uint64_t n) { return next() % n; }                            // [0, n)

private:
    uint64_t state_;
};

// The stream of case `index` of a region.
Rng case_rng(uint64_t seed, Precision p, Region r, uint64_t index);

template <class T> SlerpCase<T> sample_case(Region r, Rng &rng);
template <class T> T sample_t(Rng &rng);

// Building blocks (double precision, rounded by the caller): a uniform unit quaternion and a unit
// quaternion orthogonal to q.
void random_unit(Rng &rng, double q[4]);
void random_orthogonal(Rng &rng, const double q[4], double v[4]);

}  // namespace qc
