// The squad driver (README "Squad"): for every precision and track region, draw key tracks, compute each
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
    int jobs = 0;                           // 0 = all cores
    int worst_k = 5;
};

// The c1 difference step of an implementation's curve and the c1 tolerance, per precision (README "Squad").
double c1_step(Precision p);       // 2^-7 (f32), 2^-17 (f64)
double c1_tolerance(Precision p);  // 2^-6 (f32), 2^-10 (f64)
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
    KeyTrack keys;             // as stored, in the implementation's format (exact in double)
    std::array<double, 4> out{};
};

struct SquadRow {
    const Impl *impl = nullptr;
    TrackRegion region = TrackRegion::random;
    uint64_t tracks = 0, cases = 0, nonfinite = 0;
    double max_angle_err_own_rad = 0, p99_angle_err_own_rad = 0;
    double max_angle_err_refcp_rad = 0, p99_angle_err_refcp_rad = 0;
    double max_c1_jump_impl = 0, max_c1_jump_ref = 0;  // over the judged interior keys
    uint64_t c1_keys = 0;       // interior keys judged by the c1 property
    uint64_t c1_failures = 0;   // judged keys whose jump exceeds the tolerance
    double worst_judged_c1 = 0; // largest judged jump
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

// Squad implementations matching the filters (name, family or glob); without filters every squad
// implementation except the broken-* group. Throws UsageError when a filter matches no squad implementation.
std::vector<const Impl *> select_squad_impls(const std::vector<Impl> &catalogue, const std::vector<std::string> &filters);

SquadResult run_squad(const SquadOptions &options, const std::vector<Impl> &catalogue);

// Calls an implementation's squad / squad_setup in its precision.
template <class T> void call_squad(const Impl &impl, const T q0[4], const T q1[4], const T s0[4], const T s1[4], T t, T out[4]);
template <class T> void call_squad_setup(const Impl &impl, const T prev[4], const T cur[4], const T next[4], T s[4]);

}  // namespace qc
