// The squad driver (docs/squad.md): for every precision and track region, draw key tracks, compute each
// track's reference curve once (SquadReferenceEngine), and run every selected squad implementation on it
// twice: with its own control points (its squad_setup) and with the reference's control points rounded to
// its format, both measured against the reference curve; then measure its angular-velocity jump at every
// interior key and compare with the reference's own jump. Threads split the tracks; results are stored by
// track index and aggregated serially, so the output does not depend on the number of threads.
#pragma once

#include "plugins/impls.h"
#include "reference/squad.h"
#include "squad/tracks.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace qc {

struct SquadOptions {
    std::vector<std::string> impl_filters;  // names, families or globs; empty = every squad impl but broken-*
    std::vector<TrackRegion> regions;       // empty = every region
    uint64_t tracks = 200;                  // tracks per region and precision
    std::optional<uint64_t> only_track;     // evaluate only this track index of each region (reproduce)
    uint64_t seed = 1;
    int jobs = 0;  // 0 = all cores
    int worst_k = 5;
    // fast: the squad metrics (rotation angles against the reference curve) in double-double, against the
    // MPFR reference rounded to double-double; mpfr: in MPFR. The squad reference itself is MPFR in both.
    ReferenceMode reference = kDefaultReferenceMode;
    // A plugin's origin (Impl::origin: its path or its command) -> the words that load it again in the
    // reproduce commands (cmd_squad: conform's portable_plugin_words, absolute paths). An origin not listed
    // is repeated as given.
    std::map<std::string, std::vector<std::string>> plugin_words;
};

// The c1 check (docs/squad.md): at every interior key, the world-frame angular velocity of the
// implementation's curve (own control points) from the left and from the right, by second-order one-sided
// differences with step h; jump = |(w- - w+) - (r- - r+)| / mean(|w-|, |w+|), where r-, r+ are the same
// differences of the reference curve (C1 by construction), which removes the differences' truncation error.
// The difference step and the c1 tolerance, per precision:
double c1_step(Precision p);  // 2^-7 (f32), 2^-17 (f64)
// f32: 2^-5. The same seed code run in f64 is smooth to 1e-6 where f32 differences show up to 0.017 (rounding
// noise, and truncation on curves that are not the reference). f64: 2^-10, which the seed routine's nlerp
// fallback in the inner slerps (keys near the 0.9995 threshold) exceeds. The planted broken-squad jumps by ~2.
double c1_tolerance(Precision p);
// The relative jump that differences of a curve with a few eps of rounding error can show at speed
// |omega| (rad per unit t): 8 eps / (h |omega|). A key is judged by c1 only where this is <= tolerance/4.
double c1_noise_bound(Precision p, double speed);

// The conformance property a region's keys are judged under: "c1-sign-flip" for sign-flip tracks (whether
// an implementation copes with stored sign flips is a separate promise), "c1" for every other region.
const char *c1_property(TrackRegion r);

// A worst case: regenerate the track from (seed, precision, region, track) or read its keys here.
struct SquadWorst {
    uint64_t track = 0;
    size_t segment = 0;
    double t = 0;
    double angle_err_rad = 0;  // own control points; +inf for a non-finite output
    double angle_err_refcp_rad = 0;
    KeyTrack keys;  // as stored, in the implementation's format (exact in double)
    std::array<double, 4> out{};
};

struct SquadRow {
    const Impl *impl = nullptr;
    TrackRegion region = TrackRegion::random;
    uint64_t tracks = 0, cases = 0, nonfinite = 0;
    double max_angle_err_own_rad = 0, p99_angle_err_own_rad = 0;
    double max_angle_err_refcp_rad = 0, p99_angle_err_refcp_rad = 0;
    double max_c1_jump_impl = 0, max_c1_jump_ref = 0;  // over the judged interior keys
    uint64_t c1_keys = 0;                              // interior keys judged by the c1 property
    uint64_t c1_failures = 0;                          // judged keys whose jump exceeds the tolerance
    double worst_judged_c1 = 0;                        // largest judged jump
    uint64_t worst_c1_track = 0;
    size_t worst_c1_key = 0;
    std::vector<SquadWorst> worst;  // worst K by own-control-point error
};

struct SquadResult {
    SquadOptions options;
    std::vector<const Impl *> selected;
    std::vector<SquadRow> rows;  // impl (catalogue order) x region
    ReferenceStats reference_f32, reference_f64;
    int jobs = 1;
    double wall_time_s = 0;
};

// The selection rule (plugins/select.h) over the implementations that have squad. Throws UsageError when a
// filter matches no squad implementation.
std::vector<const Impl *> select_squad_impls(const std::vector<Impl> &catalogue,
                                             const std::vector<std::string> &filters);

// One side of an interior key in the c1 check: the call of the segment that ends (left: t = 1) or starts
// (right: t = 0) at the key, and the angular velocities by one-sided differences there.
struct SquadKeySide {
    size_t segment = 0;
    double t = 0;
    std::array<double, 4> out{};                 // the implementation's own curve at (segment, t), as returned
    std::array<double, 4> expected{};            // the reference curve there (nearest double; the sign nearest out)
    std::array<double, 3> omega{}, omega_ref{};  // rad per unit t, world frame (implementation, reference)
    double err = 0;  // |omega - omega_ref| / mean(|omega-|, |omega+|): this side's share of the jump
};
// The c1 details of one interior key of one track (squad_key_detail): the jump is
// |(omega- - omega+) - (ref- - ref+)| / mean speed <= left.err + right.err, so a side whose err is above half
// the tolerance is the side that broke the promise.
struct SquadKeyDetail {
    bool found = false;  // false: the key is not an interior key of the track
    size_t key = 0;
    SquadKeySide left, right;
    double jump = 0;
};
// Evaluates one track again (the same seed, region and index as the run) for one implementation and returns
// the details of its interior key `key`.
SquadKeyDetail squad_key_detail(const SquadOptions &options, const Impl &impl, TrackRegion region, uint64_t track,
                                size_t key);

// A stop request (ctx.stop) throws Interrupted between tracks.
SquadResult run_squad(const SquadOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx = {});

}  // namespace qc
