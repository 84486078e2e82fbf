#include "squad/squad_run.h"
#include "base/parallel.h"

#include "metrics/metrics.h"
#include "plugins/select.h"
#include "reference/quat_real.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <thread>

namespace qc {

double c1_step(Precision p) { return p == Precision::f32 ? 0x1p-7 : 0x1p-17; }
double c1_tolerance(Precision p) { return p == Precision::f32 ? 0x1p-5 : 0x1p-10; }
const char *c1_property(TrackRegion r) { return r == TrackRegion::sign_flip ? "c1-sign-flip" : "c1"; }

double c1_noise_bound(Precision p, double speed) {
    return speed > 0 ? 8 * precision_eps(p) / (c1_step(p) * speed) : std::numeric_limits<double>::infinity();
}

std::vector<const Impl *> select_squad_impls(const std::vector<Impl> &catalogue,
                                             const std::vector<std::string> &filters) {
    return select_implementations(
        catalogue, filters, [](const Impl &i) { return i.supports(Op::squad); }, "squad implementation");
}

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// The t values sampled on every segment: the keys, the quarters, and three uniform draws.
constexpr int kFixedT = 5, kRandomT = 3;

struct TrackOutcome {
    KeyTrack keys;  // as stored, in the format (exact in double)
    std::vector<SquadQuery> queries;
    std::vector<double> own, refcp;              // [impl][query]: angle error, +inf for a non-finite output
    std::vector<std::array<double, 4>> own_out;  // [impl][query]
    std::vector<double> jump, speed;             // [impl][key]
    std::vector<double> ref_jump;                // [key]
    size_t detail_key = 0;                       // > 0: keep the c1 details of this key for impl 0 (detail)
    SquadKeyDetail detail;
};

template <class T> bool finite4(const T q[4]) {
    return std::isfinite(q[0]) && std::isfinite(q[1]) && std::isfinite(q[2]) && std::isfinite(q[3]);
}

// The reference's angular velocity by differences at step h beside every interior key: [2i] left, [2i+1] right of
// key i, from the six points per interior key that follow the nq query points.
std::vector<RealVec3> reference_differences(const SquadTrackReference &ref, size_t nq, size_t n, double h,
                                            RealQuatOps &ops) {
    std::vector<RealVec3> fd(2 * n);
    for (size_t i = 1; i + 1 < n; i++) {
        const size_t b = nq + 6 * (i - 1);
        ops.angular_velocity(fd[2 * i], ref.points[b], ref.points[b + 1], ref.points[b + 2], h, -1);
        ops.angular_velocity(fd[2 * i + 1], ref.points[b + 3], ref.points[b + 4], ref.points[b + 5], h, +1);
    }
    return fd;
}

// squad_key_detail: the four angular velocities at the kept key, and each side's share of the jump.
void keep_key_velocities(const RealVec3 &left, const RealVec3 &right, const RealVec3 &ref_left,
                         const RealVec3 &ref_right, TrackOutcome &o) {
    SquadKeyDetail &d = o.detail;
    for (size_t c = 0; c < 3; c++) {
        d.left.omega[c] = to_double(left[c]), d.left.omega_ref[c] = to_double(ref_left[c]);
        d.right.omega[c] = to_double(right[c]), d.right.omega_ref[c] = to_double(ref_right[c]);
    }
    auto norm = [](const std::array<double, 3> &v) { return std::hypot(v[0], v[1], v[2]); };
    const double speed = (norm(d.left.omega) + norm(d.right.omega)) / 2;
    for (SquadKeySide *s : {&d.left, &d.right}) {
        std::array<double, 3> diff;
        for (size_t c = 0; c < 3; c++) diff[c] = s->omega[c] - s->omega_ref[c];
        s->err = norm(diff) / speed;
    }
}

// The implementation's angular-velocity jump and speed at every interior key of its own curve: own holds its
// nq query points, then six points per interior key (t = 1, 1-h, 1-2h before it and 0, h, 2h after it).
template <class T> void key_jumps(const std::vector<std::array<T, 4>> &own, size_t nq, size_t n, size_t k, double h,
                                  const std::vector<RealVec3> &ref_fd, RealQuatOps &ops, TrackOutcome &o) {
    RealQuat p[3];
    RealVec3 left, right;
    for (size_t i = 1; i + 1 < n; i++) {
        bool finite = true;
        for (int m = 0; m < 6 && finite; m++) {
            const auto &x = own[nq + 6 * (i - 1) + size_t(m)];
            double d[4] = {x[0], x[1], x[2], x[3]};
            if (!finite4(x.data()) || (d[0] == 0 && d[1] == 0 && d[2] == 0 && d[3] == 0)) {
                finite = false;
                break;
            }
            ops.set(p[m % 3], d);
            ops.normalize(p[m % 3]);
            if (m == 2) ops.angular_velocity(left, p[0], p[1], p[2], h, -1);
            if (m == 5) ops.angular_velocity(right, p[0], p[1], p[2], h, +1);
        }
        if (!finite) {
            o.jump[k * n + i] = kInf;
            o.speed[k * n + i] = kInf;  // judged: a non-finite output is never continuous
            continue;
        }
        o.jump[k * n + i] = ops.relative_jump(left, right, ref_fd[2 * i], ref_fd[2 * i + 1]);
        o.speed[k * n + i] = (ops.norm3(left) + ops.norm3(right)) / 2;
        if (k == 0 && i == o.detail_key) keep_key_velocities(left, right, ref_fd[2 * i], ref_fd[2 * i + 1], o);
    }
}

// squad_key_detail: the outputs beside the kept key (t = 1 before it, t = 0 after it) and the reference there.
template <class T> void keep_key_points(const std::vector<std::array<T, 4>> &own, const SquadTrackReference &ref,
                                        size_t nq, TrackOutcome &o) {
    const size_t i = o.detail_key;
    SquadKeyDetail &d = o.detail;
    d.found = true, d.key = i;
    d.left.segment = i - 1, d.left.t = 1, d.right.segment = i, d.right.t = 0;
    for (auto [side, at] : {std::pair{&d.left, nq + 6 * (i - 1)}, std::pair{&d.right, nq + 6 * (i - 1) + 3}}) {
        double dot = 0;
        for (size_t c = 0; c < 4; c++) {
            side->out[c] = double(own[at][c]), side->expected[c] = to_double(ref.points[at][c]);
            dot += side->out[c] * side->expected[c];
        }
        if (dot < 0)
            for (double &x : side->expected) x = -x;  // the same rotation, the sign nearest the output
        for (size_t m = 0; m < 3; m++)
            if (!finite4(own[at + m].data())) side->err = kInf;  // key_jumps skipped this key: no velocity
    }
}

// The sampled queries of a track: per segment the kFixedT fixed t (the keys and quarters), then kRandomT
// uniform draws rounded to the format. Drawn from rng right after the keys, so the track stays reproducible.
template <class T> std::vector<SquadQuery> track_queries(size_t n, Rng &rng) {
    std::vector<SquadQuery> queries;
    for (size_t s = 0; s + 1 < n; s++) {
        for (int k = 0; k < kFixedT; k++) queries.push_back({s, k / 4.0});
        for (int k = 0; k < kRandomT; k++) queries.push_back({s, double(T(rng.uniform()))});
    }
    return queries;
}

// The reference also at the difference points of the c1 check (after the nq sampled queries): six per
// interior key, t = 1, 1-h, 1-2h on the segment before it and 0, h, 2h on the one after.
std::vector<SquadQuery> with_c1_points(std::vector<SquadQuery> all, size_t n, double h) {
    for (size_t i = 1; i + 1 < n; i++) {
        for (int m = 0; m < 3; m++) all.push_back({i - 1, 1 - m * h});
        for (int m = 0; m < 3; m++) all.push_back({i, m * h});
    }
    return all;
}

// The points of the implementation's own curve: the nq queries, then the same six per interior key as
// with_c1_points, with t computed in the format (as the implementation would see it).
template <class T>
std::vector<std::pair<size_t, T>> own_curve_points(const std::vector<SquadQuery> &queries, size_t n, double h) {
    std::vector<std::pair<size_t, T>> points;
    for (const auto &qy : queries) points.push_back({qy.segment, T(qy.t)});
    for (size_t i = 1; i + 1 < n; i++) {
        for (int m = 0; m < 3; m++) points.push_back({i - 1, T(1) - T(m) * T(h)});
        for (int m = 0; m < 3; m++) points.push_back({i, T(m) * T(h)});
    }
    return points;
}

// One squad record of a batch (four quaternions and t, kEvalRecord doubles); a null quaternion is zeros.
template <class T> void add_record(std::vector<double> &rec, const T *a, const T *b, const T *c, const T *d, T t) {
    for (const T *x : {a, b, c, d})
        for (int m = 0; m < 4; m++) rec.push_back(x ? double(x[m]) : 0.0);
    rec.push_back(double(t));
}

// The implementation's own control points (SquadControls::setup): its squad_setup at every key with its
// neighbours (the end keys repeated), in one batch.
template <class T> void own_setup_controls(const Impl &impl, const std::vector<Quat<T>> &q, std::vector<double> &rec,
                                           std::vector<double> &res, std::vector<Quat<T>> &s_own) {
    const size_t n = q.size();
    rec.clear();
    for (size_t i = 0; i < n; i++)
        add_record<T>(rec, q[i == 0 ? 0 : i - 1].data(), q[i].data(), q[i + 1 == n ? i : i + 1].data(), nullptr, T(0));
    res.assign(4 * n, 0);
    eval_records_latched(impl, EvalFn::squad_setup, rec.data(), n, res.data());
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 4; c++) s_own[i][c] = T(res[4 * i + size_t(c)]);
}

// Every squad call of one implementation on the track in one batch (one round trip for a process plugin):
// the own curve at the points (a KeyCurve is called in process instead, straight into own), then squad with
// the reference's control points at the nq queries. Returns the index of the first of those in res.
template <class T> size_t eval_track_batch(const Impl &impl, const std::vector<std::pair<size_t, T>> &points, size_t nq,
                                           const std::vector<Quat<T>> &q, const std::vector<T> &flat,
                                           const std::vector<Quat<T>> &s_own, const std::vector<Quat<T>> &s_ref,
                                           std::vector<double> &rec, std::vector<double> &res,
                                           std::vector<std::array<T, 4>> &own) {
    const size_t n = q.size();
    rec.clear();
    for (size_t j = 0; j < points.size(); j++) {
        const auto [sgm, t] = points[j];
        if (impl.has_curve()) impl.curve_at(flat.data(), n, sgm, t, own[j].data());
        else if (impl.squad_controls == SquadControls::neighbours)
            add_record(rec, q[sgm].data(), q[sgm + 1].data(), q[sgm == 0 ? 0 : sgm - 1].data(),
                       q[std::min(sgm + 2, n - 1)].data(), t);
        else add_record(rec, q[sgm].data(), q[sgm + 1].data(), s_own[sgm].data(), s_own[sgm + 1].data(), t);
    }
    const size_t first_refcp = rec.size() / kEvalRecord;
    for (size_t j = 0; j < nq; j++) {
        const auto [sgm, t] = points[j];
        add_record(rec, q[sgm].data(), q[sgm + 1].data(), s_ref[sgm].data(), s_ref[sgm + 1].data(), t);
    }
    const size_t nr = rec.size() / kEvalRecord;
    res.assign(4 * nr, 0);
    eval_records_latched(impl, EvalFn::squad, rec.data(), nr, res.data());
    return first_refcp;
}

template <class T> void measure_track(const SquadOptions &opt, TrackRegion region, uint64_t index,
                                      const std::vector<const Impl *> &impls, SquadReferenceEngine &reference,
                                      MetricEngine &metric, RealQuatOps &ops, TrackOutcome &o) {
    const Precision P = Format<T>::precision;
    Rng rng = track_rng(opt.seed, P, region, index);
    o.keys = round_track<T>(sample_track(region, rng, Format<T>::eps));
    const size_t n = o.keys.size(), nq = (n - 1) * (kFixedT + kRandomT), ni = impls.size();
    o.queries = track_queries<T>(n, rng);
    const double h = c1_step(P);
    SquadTrackReference ref;
    reference.evaluate(o.keys, with_c1_points(o.queries, n, h), ref,
                       sampled_for_validation(opt.seed ^ uint64_t(region), index));
    o.ref_jump = ref.c1_jump;

    std::vector<Quat<T>> q(n), s_ref(n), s_own(n);
    std::vector<T> flat(4 * n);  // the keys for a KeyCurve
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 4; c++)
            q[i][c] = T(o.keys[i][c]), s_ref[i][c] = T(to_double(ref.controls[i][c])),
            flat[4 * i + size_t(c)] = q[i][c];
    o.own.assign(ni * nq, 0);
    o.refcp.assign(ni * nq, 0);
    o.own_out.assign(ni * nq, {});
    o.jump.assign(ni * n, std::numeric_limits<double>::quiet_NaN());
    o.speed.assign(ni * n, std::numeric_limits<double>::quiet_NaN());
    // The reference points as double-double for the fast metric engine (rounding error <= 2^-106).
    std::vector<DDQuat> points_dd;
    if (metric.mode() == ReferenceMode::fast) {
        points_dd.resize(nq);
        for (size_t j = 0; j < nq; j++)
            for (int c = 0; c < 4; c++) points_dd[j][c] = round_to_dd(ref.points[j][c]);
    }
    auto angle = [&](const T out[4], size_t j) {
        if (!finite4(out)) return kInf;
        double d[4] = {out[0], out[1], out[2], out[3]};
        double a = points_dd.empty() ? metric.rotation_angle(d, ref.points[j]) : metric.rotation_angle(d, points_dd[j]);
        return std::isnan(a) ? kInf : a;  // a zero output has no direction
    };
    const std::vector<RealVec3> ref_fd = reference_differences(ref, nq, n, h, ops);
    const std::vector<std::pair<size_t, T>> points = own_curve_points<T>(o.queries, n, h);
    const size_t np = points.size();
    std::vector<double> rec, res;
    for (size_t k = 0; k < ni; k++) {
        const Impl &impl = *impls[k];
        // The implementation's own curve: its key-track curve where it has one (registry.h KeyCurve), else its
        // squad with its own control points (squad_setup), with the neighbouring keys (SquadControls::neighbours)
        // or, for a library that computes none (SquadControls::caller), with the reference's.
        const bool curve = impl.has_curve();
        if (!curve && impl.squad_controls == SquadControls::setup) own_setup_controls(impl, q, rec, res, s_own);
        if (impl.squad_controls == SquadControls::caller) s_own = s_ref;
        std::vector<std::array<T, 4>> own(np);
        const size_t first_refcp = eval_track_batch(impl, points, nq, q, flat, s_own, s_ref, rec, res, own);
        auto result = [&](size_t r) {
            std::array<T, 4> x;
            for (int c = 0; c < 4; c++) x[size_t(c)] = T(res[4 * r + size_t(c)]);
            return x;
        };
        if (!curve)
            for (size_t j = 0; j < np; j++) own[j] = result(j);
        for (size_t j = 0; j < nq; j++) {
            o.own[k * nq + j] = angle(own[j].data(), j);
            o.own_out[k * nq + j] = {double(own[j][0]), double(own[j][1]), double(own[j][2]), double(own[j][3])};
            o.refcp[k * nq + j] = angle(result(first_refcp + j).data(), j);
        }
        key_jumps(own, nq, n, k, h, ref_fd, ops, o);
        if (k == 0 && o.detail_key > 0 && o.detail_key + 1 < n) keep_key_points(own, ref, nq, o);
    }
}

// The worst_k query points of a row, the largest angle error first (ties by track, segment, t), each with the
// keys of its track.
void keep_worst(std::vector<SquadWorst> ranked, int worst_k, const std::vector<uint64_t> &indices,
                const std::vector<TrackOutcome> &outcomes, SquadRow &row) {
    const size_t K = std::min(ranked.size(), size_t(std::max(0, worst_k)));
    std::partial_sort(ranked.begin(), ranked.begin() + long(K), ranked.end(),
                      [](const SquadWorst &a, const SquadWorst &b) {
                          if (a.angle_err_rad != b.angle_err_rad) return a.angle_err_rad > b.angle_err_rad;
                          if (a.track != b.track) return a.track < b.track;
                          if (a.segment != b.segment) return a.segment < b.segment;
                          return a.t < b.t;
                      });
    ranked.resize(K);
    for (auto &w : ranked)
        for (uint64_t j = 0; j < outcomes.size(); j++)
            if (indices[j] == w.track) w.keys = outcomes[j].keys;
    row.worst = std::move(ranked);
}

// The row of implementation k on one region: its angle errors over every query of every track, and its c1
// jumps at the keys whose differences are precise enough to judge (c1_noise_bound).
SquadRow squad_row(const SquadOptions &opt, Precision P, const Impl *impl, size_t k, TrackRegion region,
                   const std::vector<uint64_t> &indices, const std::vector<TrackOutcome> &outcomes) {
    const double tol = c1_tolerance(P);
    const uint64_t nt = indices.size();
    SquadRow row;
    row.impl = impl;
    row.region = region;
    row.tracks = nt;
    std::vector<double> own, refcp;
    std::vector<SquadWorst> ranked;
    for (uint64_t j = 0; j < nt; j++) {
        const TrackOutcome &o = outcomes[j];
        const size_t nq = o.queries.size(), n = o.keys.size();
        for (size_t m = 0; m < nq; m++) {
            double a = o.own[k * nq + m], b = o.refcp[k * nq + m];
            row.cases++;
            if (std::isinf(a) || std::isinf(b)) row.nonfinite++;
            if (!std::isinf(a)) own.push_back(a), row.max_angle_err_own_rad = std::max(row.max_angle_err_own_rad, a);
            if (!std::isinf(b))
                refcp.push_back(b), row.max_angle_err_refcp_rad = std::max(row.max_angle_err_refcp_rad, b);
            ranked.push_back({indices[j], o.queries[m].segment, o.queries[m].t, a, b, {}, o.own_out[k * nq + m]});
        }
        for (size_t i = 1; i + 1 < n; i++) {
            const double jump = o.jump[k * n + i], speed = o.speed[k * n + i];
            if (!(c1_noise_bound(P, speed) <= tol / 4)) continue;  // differences too noisy to judge
            row.c1_keys++;
            row.max_c1_jump_impl = std::max(row.max_c1_jump_impl, jump);
            row.max_c1_jump_ref = std::max(row.max_c1_jump_ref, o.ref_jump[i]);
            if (!(jump <= tol)) row.c1_failures++;
            if (!(jump <= row.worst_judged_c1)) {
                row.worst_judged_c1 = jump, row.worst_c1_track = indices[j], row.worst_c1_key = i;
            }
        }
    }
    row.p99_angle_err_own_rad = percentile(own, 0.99);
    row.p99_angle_err_refcp_rad = percentile(refcp, 0.99);
    keep_worst(std::move(ranked), opt.worst_k, indices, outcomes, row);
    return row;
}

template <class T> void run_precision(const SquadOptions &opt, const StopToken &stop,
                                      const std::vector<const Impl *> &all, int jobs, SquadResult &result,
                                      ReferenceStats &ref_stats) {
    const Precision P = Format<T>::precision;
    std::vector<const Impl *> impls;
    for (const Impl *i : all)
        if (i->precision == P) impls.push_back(i);
    if (impls.empty()) return;
    std::vector<TrackRegion> regions = opt.regions.empty() ? all_track_regions() : opt.regions;
    for (TrackRegion region : regions) {
        std::vector<uint64_t> indices;
        if (opt.only_track) indices.push_back(*opt.only_track);
        else
            for (uint64_t i = 0; i < opt.tracks; i++) indices.push_back(i);
        const uint64_t nt = indices.size();
        std::vector<TrackOutcome> outcomes(nt);
        std::atomic<uint64_t> next{0};
        std::vector<ReferenceStats> stats(static_cast<size_t>(jobs));
        auto worker = [&](int w) {
            SquadReferenceEngine reference(P);
            MetricEngine metric(P, opt.reference);
            RealQuatOps ops(2 * Format<T>::p + 32);
            for (;;) {
                uint64_t j = next.fetch_add(1);
                if (j >= nt) break;
                stop.throw_if_requested();  // SIGINT/SIGTERM: squad ends with 128 + sig, --out untouched
                measure_track<T>(opt, region, indices[j], impls, reference, metric, ops, outcomes[j]);
            }
            stats[size_t(w)] = reference.stats();
        };
        run_workers(jobs, worker, [&] { next.store(nt); });
        for (auto &s : stats) ref_stats.add(s);
        for (size_t k = 0; k < impls.size(); k++)
            result.rows.push_back(squad_row(opt, P, impls[k], k, region, indices, outcomes));
    }
}

}  // namespace

SquadResult run_squad(const SquadOptions &options, const std::vector<Impl> &catalogue, const RunContext &ctx) {
    auto t0 = std::chrono::steady_clock::now();
    SquadResult result;
    result.options = options;
    result.selected = select_squad_impls(catalogue, options.impl_filters);
    int jobs = resolve_jobs(options.jobs);
    result.jobs = jobs;
    run_precision<float>(options, ctx.stop, result.selected, jobs, result, result.reference_f32);
    run_precision<double>(options, ctx.stop, result.selected, jobs, result, result.reference_f64);
    auto pos = [&](const Impl *i) {
        return std::find(result.selected.begin(), result.selected.end(), i) - result.selected.begin();
    };
    std::stable_sort(result.rows.begin(), result.rows.end(),
                     [&](const SquadRow &a, const SquadRow &b) { return pos(a.impl) < pos(b.impl); });
    result.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

SquadKeyDetail squad_key_detail(const SquadOptions &opt, const Impl &impl, TrackRegion region, uint64_t track,
                                size_t key) {
    TrackOutcome o;
    o.detail_key = key;
    const std::vector<const Impl *> one = {&impl};
    auto run = [&]<class T>(T) {
        SquadReferenceEngine reference(Format<T>::precision);
        MetricEngine metric(Format<T>::precision, opt.reference);
        RealQuatOps ops(2 * Format<T>::p + 32);
        measure_track<T>(opt, region, track, one, reference, metric, ops, o);
    };
    if (impl.precision == Precision::f32) run(float{});
    else run(double{});
    if (o.detail.found && o.jump.size() > key) o.detail.jump = o.jump[key];
    return o.detail;
}

}  // namespace qc
