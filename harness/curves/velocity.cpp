#include "curves/velocity.h"

#include "reference/quat_real.h"
#include "regions/regions.h"
#include "tables/schemas.h"
#include "plugins/select.h"
#include "squad/squad_run.h"
#include "base/parallel.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <limits>
#include <memory>

namespace qc {

const std::vector<double> &curve_arcs_deg() {
    static const std::vector<double> arcs = {1, 2 * std::acos(kSeedThreshold) * 180 / M_PI, 10, 45, 90, 135, 179};
    return arcs;
}

namespace {
const double kDeg = M_PI / 180;

std::array<double, 4> qmul(const std::array<double, 4> &a, const std::array<double, 4> &b) {
    return {
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] + a[2] * b[0] + a[3] * b[1] - a[1] * b[3], a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1]};
}

// Rotation by `angle` radians about the axis (x, y, z) (normalised here).
std::array<double, 4> rot(double x, double y, double z, double angle) {
    const double n = std::sqrt(x * x + y * y + z * z), s = std::sin(angle / 2);
    return {std::cos(angle / 2), s * x / n, s * y / n, s * z / n};
}

std::array<double, 4> unit(std::array<double, 4> q) {
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (double &x : q) x /= n;
    return q;
}

// The start key of every arc, generic (no zero or equal components), and the arc's axis.
const std::array<double, 4> kArcStart = unit({0.7, 0.1, -0.5, 0.5});

KeyTrack arc_keys(double arc_deg) { return {kArcStart, qmul(kArcStart, rot(1, 2, 3, arc_deg * kDeg))}; }

struct Ideal {
    double theta = 0;
    std::vector<double> phi, speed;
    std::vector<std::array<double, 4>> controls;  // squad: the reference's control points, rounded to double
};

// Angle from `start` of every sample, and the speed by differences of neighbouring samples.
void angles_and_speeds(RealQuatOps &ops, const std::vector<RealQuat> &q, const std::vector<bool> &valid,
                       const RealQuat &start, const std::vector<double> &t, const StopToken &stop,
                       std::vector<double> &phi, std::vector<double> &speed) {
    const size_t n = q.size();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    phi.assign(n, nan);
    speed.assign(n, nan);
    for (size_t k = 0; k < n; k++) {
        if (k % 256 == 0) stop.throw_if_requested();
        if (valid[k]) phi[k] = ops.rotation_angle(q[k], start);
    }
    for (size_t k = 0; k < n; k++) {
        if (k % 256 == 0) stop.throw_if_requested();
        size_t a = k == 0 ? 0 : k - 1, b = k + 1 == n ? k : k + 1;
        if (valid[a] && valid[b] && t[b] > t[a]) speed[k] = ops.rotation_angle(q[a], q[b]) / (t[b] - t[a]);
    }
}

template <class T> struct CurveMaker {
    const CurveOptions &opt;
    StopToken stop;
    RealQuatOps ops{2 * Format<T>::p + 32};
    std::vector<double> t;  // the grid, rounded to T

    CurveMaker(const CurveOptions &o, const StopToken &s) : opt(o), stop(s) {
        for (int k = 0; k < o.points; k++) t.push_back(double(T(double(k) / (o.points - 1))));
    }

    // (segment, u) of global t on a track of `segments` segments.
    static std::pair<size_t, double> locate(double t, size_t segments) {
        double x = t * double(segments);
        size_t s = std::min(segments - 1, size_t(x));
        return {s, x - double(s)};
    }

    Ideal ideal(Op op, const KeyTrack &keys) {
        Ideal id;
        std::vector<RealQuat> rk(keys.size());
        for (size_t i = 0; i < keys.size(); i++) ops.set(rk[i], keys[i].data()), ops.normalize(rk[i]);
        for (size_t i = 0; i + 1 < keys.size(); i++) id.theta += ops.rotation_angle(rk[i], rk[i + 1]);
        if (op != Op::squad) {
            for (double x : t) id.phi.push_back(x * id.theta), id.speed.push_back(id.theta);
            return id;
        }
        SquadReferenceEngine reference(Format<T>::precision);
        std::vector<SquadQuery> queries;
        for (double x : t) {
            auto [s, u] = locate(x, keys.size() - 1);
            queries.push_back({s, double(T(u))});
        }
        // In chunks, so that SIGINT/SIGTERM is seen between them (the points do not depend on each other).
        SquadTrackReference ref;
        constexpr size_t kChunk = 256;
        for (size_t at = 0; at < queries.size(); at += kChunk) {
            stop.throw_if_requested();
            std::vector<SquadQuery> part(queries.begin() + long(at),
                                         queries.begin() + long(std::min(queries.size(), at + kChunk)));
            SquadTrackReference r;
            reference.evaluate(keys, part, r, true);
            if (at == 0) ref = std::move(r);
            else ref.points.insert(ref.points.end(), r.points.begin(), r.points.end());
        }
        angles_and_speeds(ops, ref.points, std::vector<bool>(t.size(), true), ref.keys[0], t, stop, id.phi, id.speed);
        for (const auto &c : ref.controls)
            id.controls.push_back({to_double(c[0]), to_double(c[1]), to_double(c[2]), to_double(c[3])});
        return id;
    }

    // The curve of `impl`'s op on `keys` (rounded to T), against `id` (ideal() of the same rounded keys). Every
    // grid point goes to the implementation in one call (one round trip for an adapter in another process),
    // as a case-by-case caller: its first failure ends its calls (CallLatch), that point and the later ones
    // read as non-finite outputs.
    void curve(const Impl &impl, Op op, const KeyTrack &keys, const Ideal &id, const std::string &track,
               double nominal_deg, std::vector<CurveRow> &rows) {
        const size_t n = keys.size();
        std::vector<Quat<T>> q(n), s(n);
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 4; c++) q[i][c] = T(keys[i][c]);
        // Its control points as in `quatcheck squad` (SquadControls): its squad_setup, the reference's for a
        // library that computes none; a family taking the neighbouring keys gets them per segment below.
        if (op == Op::squad && impl.squad_controls == SquadControls::setup)
            for (size_t i = 0; i < n; i++)
                impl.template squad_setup<T>(q[i == 0 ? 0 : i - 1].data(), q[i].data(),
                                             q[i + 1 == n ? i : i + 1].data(), s[i].data());
        if (op == Op::squad && impl.squad_controls == SquadControls::caller)
            for (size_t i = 0; i < n; i++)
                for (int c = 0; c < 4; c++) s[i][c] = T(id.controls[i][size_t(c)]);
        std::vector<double> in(t.size() * kEvalRecord, 0.0), res(t.size() * 4);
        for (size_t k = 0; k < t.size(); k++) {
            double *r = &in[k * kEvalRecord];
            auto put = [r](int at, const Quat<T> &x) {
                for (int c = 0; c < 4; c++) r[at + c] = double(x[size_t(c)]);
            };
            if (op == Op::squad) {
                auto [sg, u] = locate(t[k], n - 1);
                put(0, q[sg]), put(4, q[sg + 1]);
                if (impl.squad_controls == SquadControls::neighbours)
                    put(8, q[sg == 0 ? 0 : sg - 1]), put(12, q[std::min(sg + 2, n - 1)]);
                else put(8, s[sg]), put(12, s[sg + 1]);
                r[16] = double(T(u));
            } else {
                put(0, q[0]), put(4, q[1]);
                r[16] = t[k];
            }
        }
        stop.throw_if_requested();
        eval_records_latched(impl,
                             op == Op::squad   ? EvalFn::squad
                             : op == Op::nlerp ? EvalFn::nlerp
                                               : EvalFn::slerp,
                             in.data(), t.size(), res.data());
        stop.throw_if_requested();  // SIGINT/SIGTERM: curves ends with 128 + sig, --out untouched
        std::vector<RealQuat> out(t.size());
        std::vector<bool> valid(t.size());
        for (size_t k = 0; k < t.size(); k++) {
            const double *d = &res[k * 4];
            valid[k] = std::isfinite(d[0]) && std::isfinite(d[1]) && std::isfinite(d[2]) && std::isfinite(d[3]) &&
                       (d[0] != 0 || d[1] != 0 || d[2] != 0 || d[3] != 0);
            ops.set(out[k], valid[k] ? d : keys[0].data());
            ops.normalize(out[k]);
        }
        RealQuat start;
        ops.set(start, keys[0].data());
        ops.normalize(start);
        std::vector<double> phi, speed;
        angles_and_speeds(ops, out, valid, start, t, stop, phi, speed);
        for (size_t k = 0; k < t.size(); k++)
            rows.push_back({&impl, op, nominal_deg, track, t[k], phi[k], id.phi[k], (phi[k] - id.phi[k]) / id.theta,
                            speed[k] / id.speed[k] - 1});
    }
};

// One curve: an arc from kArcStart (every op) or a fixed key track (squad only).
struct CurveSpec {
    KeyTrack keys;       // unit, in double; each precision rounds them
    std::string track;   // empty for an arc
    double nominal_deg;  // the arc, or the track's key-to-key sum
};

// The nominal arc of a track: the sum of its key-to-key rotation angles, in degrees, before rounding.
double track_arc_deg(const KeyTrack &keys) {
    double sum = 0;
    for (size_t i = 0; i + 1 < keys.size(); i++) {
        double d = 0;
        for (int c = 0; c < 4; c++) d += keys[i][c] * keys[i + 1][c];
        sum += 2 * std::acos(std::min(1.0, std::fabs(d)));
    }
    return sum / kDeg;
}

}  // namespace

const std::vector<NamedTrack> &curve_tracks() {
    static const std::vector<NamedTrack> tracks = [] {
        std::vector<NamedTrack> v;
        KeyTrack wave = {rot(1, 0, 0, 0)};
        for (auto r :
             {rot(0, 0, 1, 50 * kDeg), rot(1, 0, 0, 30 * kDeg), rot(0, 0, 1, -60 * kDeg), rot(0, 1, 0, 20 * kDeg)})
            wave.push_back(qmul(wave.back(), r));
        v.push_back({"wave", wave});
        KeyTrack repeated = {rot(1, 0, 0, 0)};
        for (auto r : {rot(0, 1, 0, 30 * kDeg), rot(1, 0, 0, 1e-6), rot(0, 0, 1, 45 * kDeg), rot(1, 0, 0, 45 * kDeg)})
            repeated.push_back(qmul(repeated.back(), r));
        v.push_back({"nearly-repeated-key", repeated});
        return v;
    }();
    return tracks;
}

namespace {
std::vector<CurveSpec> curve_specs() {
    std::vector<CurveSpec> v;
    for (double arc : curve_arcs_deg()) v.push_back({arc_keys(arc), "", arc});
    for (const auto &tr : curve_tracks()) v.push_back({tr.keys, tr.name, track_arc_deg(tr.keys)});
    return v;
}
bool squad_only(const CurveSpec &c) { return !c.track.empty(); }

}  // namespace

// The ideal curves depend on the precision, the kind (slerp and nlerp share one: constant speed) and the keys,
// not on the implementation: each is computed once. Then each implementation's curves are one work item
// (its CallLatch makes the order of its own calls matter), spread over --jobs threads; the rows are joined in
// the order of the selection, so the CSV is the same for any --jobs.
std::vector<CurveRow> velocity_curves(const CurveOptions &options, const std::vector<Impl> &catalogue,
                                      const RunContext &ctx) {
    if (options.points < 3)
        throw UsageError(fmt::format("--points: need at least 3 grid points, got {}", options.points));
    const std::vector<Op> ops = options.ops.empty() ? std::vector<Op>{Op::slerp, Op::nlerp, Op::squad} : options.ops;
    const std::vector<const Impl *> chosen = select_implementations(catalogue, options.impl_filters);
    const std::vector<CurveSpec> specs = curve_specs();
    const int jobs = resolve_jobs(options.jobs);
    std::vector<std::unique_ptr<CurveMaker<float>>> f32;
    std::vector<std::unique_ptr<CurveMaker<double>>> f64;
    for (int w = 0; w < jobs; w++) {
        f32.push_back(std::make_unique<CurveMaker<float>>(options, ctx.stop));
        f64.push_back(std::make_unique<CurveMaker<double>>(options, ctx.stop));
    }
    // ideals[(precision * 2 + squad) * specs + spec], for the precisions and kinds the selection uses
    auto slot = [&](Precision p, bool squad, size_t spec) {
        return (size_t(p == Precision::f64) * 2 + size_t(squad)) * specs.size() + spec;
    };
    std::vector<Ideal> ideals(4 * specs.size());
    std::vector<char> needed(ideals.size(), 0);
    for (const Impl *impl : chosen)
        for (Op op : ops)
            if (impl->supports(op))
                for (size_t c = 0; c < specs.size(); c++)
                    if (op == Op::squad || !squad_only(specs[c])) needed[slot(impl->precision, op == Op::squad, c)] = 1;
    for_each_index(jobs, ideals.size(), [&](int w, size_t i) {
        if (!needed[i]) return;
        const bool is_f64 = i / (2 * specs.size()) == 1, squad = (i / specs.size()) % 2 == 1;
        const KeyTrack &keys = specs[i % specs.size()].keys;
        const Op op = squad ? Op::squad : Op::slerp;
        ideals[i] = is_f64 ? f64[size_t(w)]->ideal(op, round_track<double>(keys))
                           : f32[size_t(w)]->ideal(op, round_track<float>(keys));
    });
    std::vector<std::vector<CurveRow>> per_impl(chosen.size());
    for_each_index(jobs, chosen.size(), [&](int w, size_t i) {
        const Impl &impl = *chosen[i];
        for (Op op : ops) {
            if (!impl.supports(op)) continue;
            for (size_t c = 0; c < specs.size(); c++) {
                if (op != Op::squad && squad_only(specs[c])) continue;
                const Ideal &id = ideals[slot(impl.precision, op == Op::squad, c)];
                if (impl.precision == Precision::f32)
                    f32[size_t(w)]->curve(impl, op, round_track<float>(specs[c].keys), id, specs[c].track,
                                          specs[c].nominal_deg, per_impl[i]);
                else
                    f64[size_t(w)]->curve(impl, op, round_track<double>(specs[c].keys), id, specs[c].track,
                                          specs[c].nominal_deg, per_impl[i]);
            }
        }
    });
    // Joined by moving each part and freeing it: at most one part more than the rows in memory (cmd_curves'
    // estimate counts the rows once).
    size_t total = 0;
    for (const auto &part : per_impl) total += part.size();
    std::vector<CurveRow> rows;
    rows.reserve(total);
    for (auto &part : per_impl) {
        rows.insert(rows.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
        std::vector<CurveRow>().swap(part);
    }
    return rows;
}

std::string velocity_curve_csv(const std::vector<CurveRow> &rows) {
    CsvWriter w(tables::velocity_curve);
    for (const auto &r : rows)
        w.row({r.impl->name, std::string(to_string(r.op)), r.arc_deg, r.t, r.phi_rad, r.phi_ideal_rad, r.timing_err,
               r.speed_rel_err, r.track});
    return w.text();
}

}  // namespace qc
