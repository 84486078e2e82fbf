// Angular-velocity error curves (docs/curves.md): for slerp, nlerp and squad of every
// selected implementation, on fixed arcs and (squad) fixed key tracks, sample t on a uniform grid, compute
// in high precision the rotation angle phi(t) reached from the start, and the angular speed by differences
// of neighbouring samples; compare with the ideal curve.
//
//   arcs      1, 3.6243 (2 acos(0.9995): the seed threshold's arc), 10, 45, 90, 135, 179 degrees of rotation
//             from a fixed start key about a fixed axis, both keys rounded to the implementation's format;
//             Theta = the exact rotation angle between the rounded keys
//   ideal     slerp and nlerp: constant speed, phi_ideal = t Theta, ideal speed Theta;
//             squad (a two-key track whose end keys are their own neighbours, and the fixed tracks): the
//             squad reference curve (reference/squad.h) at the same t, its speed by the same differences
//   speed     rotation angle between the samples at t_(k-1) and t_(k+1) divided by t_(k+1) - t_(k-1)
//             (one-sided at the ends): |omega|, equal to dphi/dt on an arc
//   timing_err     (phi - phi_ideal) / Theta   (for slerp/nlerp: phi/Theta - t)
//   speed_rel_err  speed / ideal speed - 1
// Tracks are parametrised by one t in [0, 1] over all their segments (segment floor(t S), u = t S - segment);
// their Theta is the sum of the key-to-key rotation angles, phi is measured from the first key.
#pragma once

#include "plugins/impls.h"
#include "reference/squad.h"

#include <string>
#include <vector>

namespace qc {

struct CurveOptions {
    std::vector<std::string> impl_filters;  // empty = every implementation but the broken and bench groups
    std::vector<Op> ops;                    // empty = slerp, nlerp and squad
    int points = 1001;                      // t grid 0, 1/(points-1), ..., 1
    int jobs = 0;                           // threads (0: every core); the rows are the same for any count
};

struct CurveRow {
    const Impl *impl = nullptr;
    Op op = Op::slerp;
    double arc_deg = 0;  // nominal: the arc from the list, or a track's key-to-key sum, before rounding
    std::string track;   // empty for an arc, else the fixed track's name
    double t = 0, phi_rad = 0, phi_ideal_rad = 0, timing_err = 0, speed_rel_err = 0;
};

// The arcs in degrees of rotation.
const std::vector<double> &curve_arcs_deg();

struct NamedTrack {
    std::string name;
    KeyTrack keys;  // unit, in double
};
const std::vector<NamedTrack> &curve_tracks();

// A stop request (ctx.stop) throws Interrupted.
std::vector<CurveRow> velocity_curves(const CurveOptions &options, const std::vector<Impl> &catalogue,
                                      const RunContext &ctx = {});
std::string velocity_curve_csv(const std::vector<CurveRow> &rows);

}  // namespace qc
