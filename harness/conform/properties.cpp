#include "conform/properties.h"

#include "conform/claims.h"

#include "isolate/eval.h"
#include "plugins/contain.h"
#include "reference/rounded.h"
#include "regions/regions.h"
#include "tables/schemas.h"
#include "tables/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace qc {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

double CheckContext::accuracy_budget(double arc_w) const {
    const double e = eps();
    double s = std::sin(arc_w);
    double inherited = std::sqrt(6 * e);
    if (s > 0) inherited = std::min(inherited, 3 * e / s);
    return 2 * (16 * e + inherited);
}

bool CheckContext::call(const Impl &impl, Op op, const double q0[4], const double q1[4], double t,
                        double out[4]) const {
    if (precision == Precision::f32) {
        float a[4], b[4], o[4] = {0, 0, 0, 0};
        for (int i = 0; i < 4; i++) a[i] = float(q0[i]), b[i] = float(q1[i]);
        impl.call(op, a, b, float(t), o);
        for (int i = 0; i < 4; i++) out[i] = o[i];
    } else {
        double o[4] = {0, 0, 0, 0};
        impl.call(op, q0, q1, t, o);
        for (int i = 0; i < 4; i++) out[i] = o[i];
    }
    for (int i = 0; i < 4; i++)
        if (!std::isfinite(out[i])) return false;
    return true;
}

void CheckContext::reference_of(const double q0[4], const double q1[4], double t, SlerpReference &out) {
    // MPFR: always validated (+32 bits). Fast: certified by its bound; 1 reference in 64 is a validation sample.
    const bool validate = reference.mode() == ReferenceMode::mpfr || sampled_for_validation(0, references_++);
    reference.slerp_exact(q0, q1, t, out, validate);
}

double CheckContext::angle_between(const double u[4], const double v[4]) {
    const int bits = reference.working_bits();
    ensure_bits(norm_scratch_, bits);
    mpfr_set_ui(mp(norm_scratch_), 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        ensure_bits(unit_scratch_[i], bits);
        mpfr_set_d(mp(unit_scratch_[i]), v[i], MPFR_RNDN);
        mpfr_fma(mp(norm_scratch_), mp(unit_scratch_[i]), mp(unit_scratch_[i]), mp(norm_scratch_), MPFR_RNDN);
    }
    mpfr_sqrt(mp(norm_scratch_), mp(norm_scratch_), MPFR_RNDN);
    if (mpfr_zero_p(mp(norm_scratch_))) return kInf;
    for (auto &x : unit_scratch_) mpfr_div(mp(x), mp(x), mp(norm_scratch_), MPFR_RNDN);
    return metric.rotation_angle(u, unit_scratch_);
}

// ---- checks ----

namespace {

// Every shape of case as a generator of flat cases (Property::gen).
template <class Shape> rc::Gen<CaseValues> flat(rc::Gen<Shape> g) {
    return rc::gen::map(std::move(g), [](const Shape &c) { return c.values(); });
}

CaseOutcome nonfinite(double tol) { return {kInf, tol}; }

// Rotation angle of the output from the start a (reference at t = 0), in rotation radians.
double angle_from_start(CheckContext &cx, const double q0[4], const double q1[4], const double out[4]) {
    cx.reference_of(q0, q1, 0, cx.ref_end);
    return cx.metric.rotation_angle(out, cx.ref_end.R);
}

CaseOutcome check_finite(CheckContext &cx, const Impl &impl, Op op, const TwoKeyCase &c) {
    double out[4];
    return {cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, out) ? 0.0 : kInf, 0};
}

CaseOutcome check_endpoints(CheckContext &cx, const Impl &impl, Op op, const TwoKeyCase &c) {
    const double tol = cx.unit_tolerance_ulp1();
    double worst = 0;
    for (double t : {0.0, 1.0}) {
        double out[4];
        if (!cx.call(impl, op, c.q0.data(), c.q1.data(), t, out)) return nonfinite(tol);
        cx.reference_of(c.q0.data(), c.q1.data(), t, cx.ref);
        // t = 0: q0 itself (normalised). t = 1: the end the short arc reaches; either sign in the tie band.
        auto dist = [&](const DDQuat &target, double sign) {
            double m = 0;
            for (int i = 0; i < 4; i++) m = std::max(m, std::fabs(out[i] - sign * to_double(target[i])));
            return m / cx.eps();
        };
        double d = dist(cx.ref.R, 1);
        if (t == 1 && cx.ref.in_tie_band) d = std::min(d, dist(cx.ref.R_other, 1));
        worst = std::max(worst, d);
    }
    return {worst, tol};
}

CaseOutcome check_unit(CheckContext &cx, const Impl &impl, Op op, const TwoKeyCase &c) {
    double out[4];
    const double tol = cx.unit_tolerance_ulp1();
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, out)) return nonfinite(tol);
    cx.reference_of(c.q0.data(), c.q1.data(), c.t, cx.ref);
    CaseMetrics m = cx.metric.measure(out, cx.ref, op);
    return {m.norm_err_ulp1, tol};
}

CaseOutcome check_shortest_arc(CheckContext &cx, const Impl &impl, Op op, const TwoKeyCase &c) {
    double out[4];
    cx.reference_of(c.q0.data(), c.q1.data(), 1, cx.ref);  // ref.R = the short arc's end b
    const double W = cx.ref.arc_w, tol = cx.accuracy_budget(W);
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, out)) return nonfinite(tol);
    DDQuat b = cx.ref.R;
    double from_a = angle_from_start(cx, c.q0.data(), c.q1.data(), out);
    double to_b = cx.metric.rotation_angle(out, b);
    // On the short arc the two distances add up to the arc's rotation angle 2W; off it, the excess grows
    // (twice the detour beyond an end; about 2(pi - 2W) on the long way round).
    return {std::max(0.0, from_a + to_b - 2 * W), tol};
}

// The largest rotation angle between the output of (q0, q1, t) and those of the variants.
CaseOutcome check_sign_invariance(CheckContext &cx, const Impl &impl, Op op, const TwoKeyCase &c) {
    cx.reference_of(c.q0.data(), c.q1.data(), c.t, cx.ref);
    const double tol = 2 * cx.accuracy_budget(cx.ref.arc_w);
    double out[4], other[4], n0[4], n1[4];
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, out)) return nonfinite(tol);
    for (int i = 0; i < 4; i++) n0[i] = -c.q0[size_t(i)], n1[i] = -c.q1[size_t(i)];
    // In the tie band (|a.b| <= 4 eps) negating an end may legitimately switch arcs: there each output
    // is held to the arc it is nearer (the metric's branch rule) instead of to the others.
    const bool tie_band = cx.ref.in_tie_band;
    double worst = 0;
    auto compare = [&](const double *a, const double *b) {
        if (!cx.call(impl, op, a, b, c.t, other)) return false;
        if (tie_band) {  // nlerp: against the exact normalised lerp, so its timing is not counted
            auto err = [&](const double *r) {
                CaseMetrics m = cx.metric.measure(r, cx.ref, op);
                return op == Op::nlerp ? m.angle_err_vs_nlerp_rad : m.angle_err_rad;
            };
            worst = std::max({worst, err(other), err(out)});
        } else {
            worst = std::max(worst, cx.angle_between(other, out));
        }
        return true;
    };
    if (!compare(c.q0.data(), n1) || !compare(n0, c.q1.data())) return nonfinite(tol);
    return {worst, tol};
}

CaseOutcome check_symmetry(CheckContext &cx, const Impl &impl, Op op, const TwoKeyCase &c) {
    cx.reference_of(c.q0.data(), c.q1.data(), c.t, cx.ref);
    const double W = cx.ref.arc_w;
    const double t = c.t, t_rev = round_to(cx.precision, 1 - t);
    // 1 - t may not be representable: the ideal outputs then differ by 2W |1 - t - t_rev| (exact in double
    // for both formats' t in [0, 1]: two-sum error of 1 - t plus the rounding to the format).
    double s = 1 - t, e = (1 - s) - t;  // s + (-e) == 1 - t exactly (Fast2Sum, |1| >= |t|)
    double gap = std::fabs((s - t_rev) - e);
    const double tol = 2 * cx.accuracy_budget(W) + 2 * W * gap;
    double out[4], rev[4];
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), t, out)) return nonfinite(tol);
    if (!cx.call(impl, op, c.q1.data(), c.q0.data(), t_rev, rev)) return nonfinite(tol);
    return {cx.angle_between(rev, out), tol};
}

CaseOutcome check_monotone(CheckContext &cx, const Impl &impl, Op op, const TwoKeyPairCase &pair) {
    const TwoKeyCase &c = pair.first;
    cx.reference_of(c.q0.data(), c.q1.data(), c.t, cx.ref);
    const double tol = 2 * cx.accuracy_budget(cx.ref.arc_w);
    double r1[4], r2[4];
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, r1)) return nonfinite(tol);
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), pair.t2, r2)) return nonfinite(tol);
    double a1 = angle_from_start(cx, c.q0.data(), c.q1.data(), r1);
    double a2 = cx.metric.rotation_angle(r2, cx.ref_end.R);
    return {std::max(0.0, a1 - a2), tol};  // how far the angle from q0 went back
}

CaseOutcome check_constant_speed(CheckContext &cx, const Impl &impl, Op op, const TwoKeyCase &c) {
    cx.reference_of(c.q0.data(), c.q1.data(), c.t, cx.ref);
    const double W = cx.ref.arc_w, tol = cx.accuracy_budget(W);
    double out[4];
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, out)) return nonfinite(tol);
    double from_a = angle_from_start(cx, c.q0.data(), c.q1.data(), out);
    return {std::fabs(from_a - 2 * c.t * W), tol};  // the ideal rotation from q0 is 2 t W
}

// correctly-rounded, one case (informative): every component of op(q0, q1, t) against the ideal slerp rounded to
// the format (reference/rounded.h, an evaluation independent of the harness's reference and of qc-slerp-cr), in
// representable steps of the format; the tolerance is 0. +0 and -0 count as equal (the sign of a zero is not
// judged). A case whose rounding 2048 bits do not decide is not judged (measured 0).
CaseOutcome check_correctly_rounded(CheckContext &cx, const Impl &impl, Op op, const TwoKeyCase &c) {
    double out[4], want[4];
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, out)) return nonfinite(0);
    double steps = 0;
    if (!steps_from_rounded_slerp(cx.precision, c.q0.data(), c.q1.data(), c.t, out, want, steps)) return {0, 0};
    return {steps, 0};
}

// threshold-continuity, one case: q0, q1 below, q1 above, t. The outputs of the two neighbours may move
// apart by the ideal motion (the angle between their references) plus one accuracy budget each.
CaseOutcome check_continuity(CheckContext &cx, const Impl &impl, Op op, const ContinuityCase &c) {
    const double *q0 = c.q0.data(), *lo = c.below.data(), *hi = c.above.data();
    const double t = c.t;
    SlerpReference &r_lo = cx.ref, &r_hi = cx.ref_end;
    cx.reference_of(q0, lo, t, r_lo);
    cx.reference_of(q0, hi, t, r_hi);
    const double tol = cx.accuracy_budget(r_lo.arc_w) + cx.accuracy_budget(r_hi.arc_w);
    if (r_lo.in_tie_band || r_hi.in_tie_band) return {0, tol};  // either arc is legitimate there
    double out_lo[4], out_hi[4], ideal_lo[4];
    if (!cx.call(impl, op, q0, lo, t, out_lo) || !cx.call(impl, op, q0, hi, t, out_hi)) return nonfinite(tol);
    for (int i = 0; i < 4; i++) ideal_lo[i] = to_double(r_lo.R[i]);
    double ideal = cx.metric.rotation_angle(ideal_lo, r_hi.R);
    double moved = cx.angle_between(out_lo, out_hi);
    return {std::max(0.0, moved - ideal), tol};
}

// ---- the threshold probe ----
//
// The ends q0 = (1, 0, 0, 0), q1 = (d, sqrt(1 - d^2), 0, 0): every summation order of the format's dot
// product gives exactly d, so stepping d steps the ends' dot product as the implementation sees it.
// 1. Screen: d on a grid (every 2^-19 across [-1, 1], plus 48 log-spaced points per decade from 1e-15 to
//    1e-2 on both sides of -1, 0, 0.9995 and 1), t = 1/4 (where nlerp and slerp timing differ most).
//    Between neighbours, the excess of the outputs' motion over the ideal 2 t |W' - W| is computed in
//    double (the ends stay in one plane, so the ideal output moves along one great circle).
// 2. Bisect the 16 intervals with the largest excess relative to their tolerance down to adjacent
//    representable values of d, keeping the half with the larger excess.
// 3. Measure each final pair with the reference (check_continuity); report the worst.
struct Probe {
    CheckContext &cx;
    const Impl &impl;
    Op op;
    double t = 0.25;
    uint64_t calls = 0;

    bool eval(double d, double out[4]) {
        double q0[4] = {1, 0, 0, 0}, q1[4] = {d, round_to(cx.precision, std::sqrt((1 - d) * (1 + d))), 0, 0};
        calls++;
        return cx.call(impl, op, q0, q1, t, out);
    }
    // The screen in one batch (eval_until_failure: one round trip for an isolated plugin). A case on which
    // the implementation crashed, hung or wrote out of bounds counts as a non-finite output.
    template <class T>
    void screen(const std::vector<double> &grid, std::vector<double> &outs, std::vector<char> &finite) {
        const size_t n = grid.size();
        std::vector<SlerpCase<T>> cases(n);
        for (size_t i = 0; i < n; i++) {
            const double d = grid[i];
            cases[i].q0 = {T(1), T(0), T(0), T(0)};
            cases[i].q1 = {T(d), T(std::sqrt((1 - d) * (1 + d))), T(0), T(0)};
            cases[i].t = T(t);
        }
        std::vector<Quat<T>> res(n);
        for (size_t pos = 0; pos < n;) {
            cx.stop.throw_if_requested();
            // After a failure (this batch's or an earlier call's) the implementation is not called again:
            // every case from there on reads as non-finite.
            EvalOutcome o;
            const bool latched = stop_calling(impl, to_string(op));
            if (latched) o.status = EvalStatus::crashed;  // (done = 0)
            else o = eval_until_failure(impl, op, cases.data() + pos, n - pos, res.data() + pos, n - pos);
            if (o.status == EvalStatus::interrupted) cx.stop.throw_if_requested();
            size_t stop = o.ok() ? n : pos + o.done;
            const bool ends = !o.ok() && stop_calling(impl, to_string(op), o);
            for (size_t i = pos; i < n && (i <= stop || ends); i++) {
                bool ok = i < stop;
                for (int k = 0; k < 4; k++) {
                    outs[4 * i + size_t(k)] = ok ? double(res[i][size_t(k)]) : NAN;
                    ok = ok && std::isfinite(outs[4 * i + size_t(k)]);
                }
                finite[i] = ok;
            }
            if (!latched) calls += (stop < n ? stop + 1 : n) - pos;
            if (ends) break;
            pos = stop + 1;
        }
    }
    static double rot_angle(const double u[4], const double v[4]) {  // double precision, for screening
        double nu = 0, nv = 0, dot = 0;
        for (int i = 0; i < 4; i++) nu += u[i] * u[i], nv += v[i] * v[i], dot += u[i] * v[i];
        nu = std::sqrt(nu), nv = std::sqrt(nv);
        double s = dot < 0 ? -1 : 1, dm = 0, dp = 0;
        for (int i = 0; i < 4; i++) {
            double a = u[i] / nu, b = s * v[i] / nv;
            dm += (a - b) * (a - b), dp += (a + b) * (a + b);
        }
        return 4 * std::atan2(std::sqrt(dm), std::sqrt(dp));
    }
    // Excess motion between two grid points, relative to the tolerance (inf for a non-finite output).
    double ratio(double d0, const double o0[4], bool f0, double d1, const double o1[4], bool f1) {
        double w0 = std::acos(std::fabs(d0)), w1 = std::acos(std::fabs(d1));
        double tol = cx.accuracy_budget(w0) + cx.accuracy_budget(w1);
        if (!f0 || !f1) return kInf;
        double band = 4 * cx.eps();
        if ((d0 <= band && d1 >= -band)) return 0;  // the interval meets the tie band: either arc is fine
        double excess = rot_angle(o0, o1) - 2 * t * std::fabs(w1 - w0);
        return excess / tol;
    }
    double mid(double a, double b) const { return round_to(cx.precision, a + (b - a) / 2); }

    Property::ProbeResult run() {
        std::vector<double> grid;
        for (long i = -(1L << 19); i <= (1L << 19); i++) grid.push_back(round_to(cx.precision, double(i) * 0x1p-19));
        for (double anchor : {-1.0, 0.0, kSeedThreshold, 1.0})
            for (int k = 0; k <= 13 * 48; k++) {
                double off = std::pow(10.0, -15.0 + k / 48.0);
                for (double d : {anchor - off, anchor + off})
                    if (d >= -1 && d <= 1) grid.push_back(round_to(cx.precision, d));
            }
        std::sort(grid.begin(), grid.end());
        grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
        const size_t n = grid.size();
        std::vector<double> outs(4 * n);
        std::vector<char> finite(n);
        if (cx.precision == Precision::f32) screen<float>(grid, outs, finite);
        else screen<double>(grid, outs, finite);
        std::vector<std::pair<double, size_t>> ranked;
        for (size_t i = 0; i + 1 < n; i++)
            ranked.push_back(
                {ratio(grid[i], &outs[4 * i], finite[i], grid[i + 1], &outs[4 * i + 4], finite[i + 1]), i});
        size_t K = std::min<size_t>(16, ranked.size());
        std::partial_sort(ranked.begin(), ranked.begin() + long(K), ranked.end(), [](auto &a, auto &b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        Property::ProbeResult best;
        best.worst = {0, 1};
        bool have = false;
        for (size_t r = 0; r < K; r++) {
            size_t i = ranked[r].second;
            double lo = grid[i], hi = grid[i + 1];
            double o_lo[4], o_hi[4], o_mid[4];
            std::copy_n(&outs[4 * i], 4, o_lo);
            std::copy_n(&outs[4 * i + 4], 4, o_hi);
            bool f_lo = finite[i], f_hi = finite[i + 1];
            if (ranked[r].first > 1) {  // a candidate discontinuity: narrow it to adjacent values
                for (;;) {
                    double m = mid(lo, hi);
                    if (m <= lo || m >= hi) break;
                    bool f_m = eval(m, o_mid);
                    double left = ratio(lo, o_lo, f_lo, m, o_mid, f_m), right = ratio(m, o_mid, f_m, hi, o_hi, f_hi);
                    if (left >= right) hi = m, std::copy_n(o_mid, 4, o_hi), f_hi = f_m;
                    else lo = m, std::copy_n(o_mid, 4, o_lo), f_lo = f_m;
                }
            }
            ContinuityCase c;
            c.q0 = {1, 0, 0, 0};
            c.below = {lo, round_to(cx.precision, std::sqrt((1 - lo) * (1 + lo))), 0, 0};
            c.above = {hi, round_to(cx.precision, std::sqrt((1 - hi) * (1 + hi))), 0, 0};
            c.t = t;
            CaseOutcome o = check_continuity(cx, impl, op, c);
            if (!have || o.ratio() > best.worst.ratio()) best.worst = o, best.worst_case = c.values(), have = true;
        }
        best.cases = calls;
        return best;
    }
};

// A check of one shape of case as a check of flat cases (Property::check).
template <class Shape> std::function<CaseOutcome(CheckContext &, const Impl &, Op, const CaseValues &)> on(
    CaseOutcome (*check)(CheckContext &, const Impl &, Op, const Shape &)) {
    return [check](CheckContext &cx, const Impl &impl, Op op, const CaseValues &c) {
        return check(cx, impl, op, Shape::of(c));
    };
}

std::vector<Property> &table() {
    static std::vector<Property> t = [] {
        auto all = [](Op op) { return op == Op::slerp || op == Op::nlerp; };
        auto gen = [](Precision p) { return flat(two_key_case_gen(p)); };
        const size_t two_key = TwoKeyCase::arity;
        std::vector<Property> v;
        v.push_back({"finite",
                     "no NaN or inf for finite unit inputs, including equal ends, q1 = -q0 and a.b = 0 exactly", all,
                     "no NaN or inf", two_key,
                     [](Precision p) {
                         // Half the cases are the exact special cases (equal, antipodal, orthogonal ends).
                         return rc::gen::weightedOneOf<CaseValues>(
                             {{1, flat(two_key_case_gen(p))}, {1, flat(exact_case_gen(p))}});
                     },
                     on(check_finite), nullptr});
        v.push_back({"endpoints", "op(q0, q1, 0) = q0 and op(q0, q1, 1) = the end the short arc reaches (+-q1)", all,
                     "U = 16 ulp1", two_key, gen, on(check_endpoints), nullptr});
        v.push_back({"unit", "| |op(q0, q1, t)| - 1 | within tolerance", all, "U = 16 ulp1", two_key, gen,
                     on(check_unit), nullptr});
        v.push_back({"shortest-arc",
                     "the output's rotation lies on the shorter arc between the ends' rotations: "
                     "angle(a, r) + angle(r, b) - angle(a, b)",
                     all, "A(W) rad", two_key, gen, on(check_shortest_arc), nullptr});
        v.push_back({"sign-invariance", "op(q0, -q1, t) and op(-q0, q1, t) are the rotation op(q0, q1, t)", all,
                     "2 A(W) rad", two_key, gen, on(check_sign_invariance), nullptr});
        v.push_back({"symmetry", "op(q1, q0, 1 - t) is the rotation op(q0, q1, t)", all,
                     "2 A(W) + 2 W |1 - t - fl(1 - t)| rad", two_key, gen, on(check_symmetry), nullptr});
        v.push_back({"monotone", "the rotation angle from q0 does not decrease as t grows", all, "2 A(W) rad",
                     TwoKeyPairCase::arity, [](Precision p) { return flat(two_key_pair_gen(p)); }, on(check_monotone),
                     nullptr});
        v.push_back({"constant-speed", "the rotation angle from q0 is 2 t W (slerp only)",
                     [](Op op) { return op == Op::slerp; }, "A(W) rad", two_key, gen, on(check_constant_speed),
                     nullptr});
        v.push_back({"threshold-continuity",
                     "stepping the ends' dot product by one representable value moves the output by no more than the "
                     "ideal motion plus tolerance (bisection on a.b down to adjacent values; the jump is reported)",
                     all, "A(W) + A(W') rad", ContinuityCase::arity, nullptr, on(check_continuity),
                     [](CheckContext &cx, const Impl &impl, Op op) {
                         return Probe{cx, impl, op}.run();
                     }});
        v.push_back({"correctly-rounded",
                     "informative: every component of slerp(q0, q1, t) is the ideal slerp rounded to nearest in the "
                     "format (0 ulp; the sign of a zero is not judged)",
                     [](Op op) { return op == Op::slerp; }, "0 ulp", two_key, gen, on(check_correctly_rounded),
                     nullptr});
        add_claim_properties(v);
        for (Property &p : v) p.informative = tables::is_informative_property(p.name);
        return v;
    }();
    return t;
}

}  // namespace

const std::vector<Property> &properties() { return table(); }

rc::Gen<CaseValues> Property::cases_for(const Impl &impl, Op op) const {
    const Claim *c = claim.empty() ? nullptr : impl.claim(op, claim);
    return c && claim_gen ? claim_gen(impl.precision, c->value) : gen(impl.precision);
}

const Property *find_property(const std::string &name) {
    for (const auto &p : properties())
        if (p.name == name) return &p;
    return nullptr;
}

// ---- counterexamples explained ----

namespace {

enum class CallKind { finite, endpoint, unit, single, relation, rounded };

struct CallSpec {
    const char *label;
    std::array<double, 4> q0, q1;
    double t;
};

// The calls a property makes on case c, and how each is judged; false for an unknown property or size.
Quat4 negated(const Quat4 &q) { return {-q[0], -q[1], -q[2], -q[3]}; }

bool call_specs(const Property &prop, const CaseValues &c, Precision p, std::vector<CallSpec> &specs, CallKind &kind) {
    if (c.size() != prop.arity) return false;
    const std::string &n = prop.name;
    if (n == "threshold-continuity") {
        const ContinuityCase k = ContinuityCase::of(c);
        kind = CallKind::relation;
        specs = {{"op(q0,q1,t)", k.q0, k.below, k.t}, {"op(q0,q1',t)", k.q0, k.above, k.t}};
        return true;
    }
    if (n == "monotone") {
        const TwoKeyPairCase k = TwoKeyPairCase::of(c);
        kind = CallKind::relation;
        specs = {{"op(q0,q1,t)", k.first.q0, k.first.q1, k.first.t}, {"op(q0,q1,t2)", k.first.q0, k.first.q1, k.t2}};
        return true;
    }
    if (c.size() != TwoKeyCase::arity) return false;
    const TwoKeyCase k = TwoKeyCase::of(c);
    if (n == "finite" || n == "unit" || n == "shortest-arc" || n == "constant-speed") {
        kind = n == "finite" ? CallKind::finite : n == "unit" ? CallKind::unit : CallKind::single;
        specs = {{"op(q0,q1,t)", k.q0, k.q1, k.t}};
    } else if (n == "correctly-rounded") {
        kind = CallKind::rounded;
        specs = {{"op(q0,q1,t)", k.q0, k.q1, k.t}};
    } else if (n == "endpoints") {
        kind = CallKind::endpoint;
        specs = {{"op(q0,q1,0)", k.q0, k.q1, 0}, {"op(q0,q1,1)", k.q0, k.q1, 1}};
    } else if (n == "sign-invariance") {
        kind = CallKind::relation;
        specs = {{"op(q0,q1,t)", k.q0, k.q1, k.t},
                 {"op(q0,-q1,t)", k.q0, negated(k.q1), k.t},
                 {"op(-q0,q1,t)", negated(k.q0), k.q1, k.t}};
    } else if (n == "symmetry") {
        kind = CallKind::relation;
        specs = {{"op(q0,q1,t)", k.q0, k.q1, k.t}, {"op(q1,q0,1-t)", k.q1, k.q0, round_to(p, 1 - k.t)}};
    } else {
        return false;
    }
    return true;
}

}  // namespace

std::vector<PropertyCall> property_calls(const Property &prop, const CaseValues &c, Precision p) {
    std::vector<CallSpec> specs;
    CallKind kind = CallKind::single;
    std::vector<PropertyCall> out;
    if (claim_calls(prop, c, out)) return out;
    if (call_specs(prop, c, p, specs, kind))
        for (const auto &s : specs) out.push_back({s.label, s.q0, s.q1, s.t});
    return out;
}

namespace {

std::string hex_list(const double *v, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; i++) s += fmt::format("{}{:a}", i ? "," : "", v[i]);
    return s;
}

}  // namespace

std::vector<CallRecord> explain_case(CheckContext &cx, const Impl &impl, Op op, const Property &prop,
                                     const CaseValues &c) {
    if (!prop.claim.empty()) return explain_claim(cx, impl, op, prop, c);
    std::vector<CallSpec> specs;
    CallKind kind = CallKind::single;
    if (!call_specs(prop, c, cx.precision, specs, kind)) return {};
    // A property of one call reports its own measure: the check runs again on the case.
    CaseOutcome whole;
    if (kind == CallKind::single) whole = prop.check(cx, impl, op, c);
    std::vector<CallRecord> out;
    for (const CallSpec &s : specs) {
        CallRecord r;
        r.label = s.label, r.q0 = s.q0, r.q1 = s.q1, r.t = s.t;
        const bool finite = cx.call(impl, op, s.q0.data(), s.q1.data(), s.t, r.out.data());
        cx.reference_of(s.q0.data(), s.q1.data(), s.t, cx.ref);
        const DDQuat &e = op == Op::nlerp ? cx.ref.N : cx.ref.R;
        for (int i = 0; i < 4; i++) r.expected[size_t(i)] = to_double(e[i]);
        if (kind == CallKind::finite) {
            r.err = finite ? 0 : kInf, r.tol = 0;
        } else if (kind == CallKind::endpoint) {  // as check_endpoints: either sign in the tie band at t = 1
            auto dist = [&](const DDQuat &target) {
                double m = 0;
                for (int i = 0; i < 4; i++) m = std::max(m, std::fabs(r.out[size_t(i)] - to_double(target[i])));
                return m / cx.eps();
            };
            r.err = dist(cx.ref.R), r.tol = cx.unit_tolerance_ulp1(), r.unit = "ulp1";
            for (int i = 0; i < 4; i++) r.expected[size_t(i)] = to_double(cx.ref.R[i]);
            if (s.t == 1 && cx.ref.in_tie_band && dist(cx.ref.R_other) < r.err) {
                r.err = dist(cx.ref.R_other);
                for (int i = 0; i < 4; i++) r.expected[size_t(i)] = to_double(cx.ref.R_other[i]);
            }
        } else if (kind == CallKind::unit) {
            r.tol = cx.unit_tolerance_ulp1(), r.unit = "ulp1";
            r.err = finite ? cx.metric.measure(r.out.data(), cx.ref, op).norm_err_ulp1 : kInf;
        } else if (kind == CallKind::single) {
            r.err = whole.measured, r.tol = whole.tolerance, r.unit = "rad";
        } else if (kind == CallKind::rounded) {  // expected: the ideal slerp rounded to the format
            r.tol = 0, r.unit = "ulp";
            double steps = 0;
            if (steps_from_rounded_slerp(cx.precision, s.q0.data(), s.q1.data(), s.t, r.out.data(), r.expected.data(),
                                         steps))
                r.err = steps;
        } else {
            r.tol = cx.accuracy_budget(cx.ref.arc_w), r.unit = "rad";
            if (finite) {
                CaseMetrics m = cx.metric.measure(r.out.data(), cx.ref, op);
                r.err = op == Op::nlerp ? m.angle_err_vs_nlerp_rad : m.angle_err_rad;
            }
        }
        if (!finite || std::isnan(r.err)) r.err = kInf;
        out.push_back(std::move(r));
    }
    return out;
}

std::string format_calls(const std::vector<CallRecord> &calls) {
    std::string s;
    for (const CallRecord &r : calls) {
        if (!s.empty()) s += "; ";
        s += fmt::format("call={} t={:a} out={} expected={} err={} tol={} unit={} verdict={}", r.label, r.t,
                         hex_list(r.out.data(), 4), hex_list(r.expected.data(), 4), num(r.err), num(r.tol),
                         r.unit.empty() ? "none" : r.unit, r.failed() ? "fail" : "pass");
    }
    return s;
}

std::string failed_calls(const std::vector<CallRecord> &calls) {
    std::string s;
    for (const CallRecord &r : calls)
        if (r.failed()) s += fmt::format("{}{}", s.empty() ? "" : " ", r.label);
    return s;
}

std::vector<std::vector<std::pair<std::string, std::string>>> parse_calls(const std::string &text) {
    std::vector<std::vector<std::pair<std::string, std::string>>> out;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(';', pos);
        if (end == std::string::npos) end = text.size();
        std::vector<std::pair<std::string, std::string>> rec;
        std::string word;
        const std::string part = text.substr(pos, end - pos) + " ";
        for (char ch : part) {
            if (ch != ' ') {
                word += ch;
                continue;
            }
            if (word.empty()) continue;
            const size_t eq = word.find('=');
            if (eq == std::string::npos || eq == 0) throw UsageError(fmt::format("calls: '{}' is not key=value", word));
            rec.emplace_back(word.substr(0, eq), word.substr(eq + 1));
            word.clear();
        }
        if (!rec.empty()) {
            if (rec.front().first != "call") throw UsageError("calls: a record does not start with call=");
            out.push_back(std::move(rec));
        }
        pos = end + 1;
    }
    return out;
}

}  // namespace qc
