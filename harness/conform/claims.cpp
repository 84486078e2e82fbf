// The claimed-* conformance properties: a figure or behaviour a library documents (registry.h's Claim, a
// process plugin's `claim` lines), checked on the rows of the families that claim it and on no other row, with
// the documented figure as the tolerance. A broken claim is then a failed property like any other: a verdict in
// conformance.csv, a counterexample `quatcheck conform --case` replays, a cause in `quatcheck findings`.
//   claimed-accuracy   every component within VALUE of the exact op (absolute; Cesium's fastSlerp: 1e-6)
//   claimed-threshold  the slerp where the keys' |cos| < VALUE, the normalised lerp of the short arc from VALUE
//                      on (pyrr's slerp: 0.95), each within A(W); within 8 eps of VALUE either is accepted
//   claimed-t-clamp    t outside [0, 1] gives the output at the nearer end, bit for bit (pyrr, Coin)
#include "conform/claims.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace qc {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double claim_value(const Impl &impl, Op op, const char *kind) {
    const Claim *c = impl.claim(op, kind);
    return c ? c->value : 0;
}

// The largest component distance of out from target.
double component_distance(const double out[4], const DDQuat &target) {
    double m = 0;
    for (int i = 0; i < 4; i++) m = std::max(m, std::fabs(out[i] - to_double(target[i])));
    return m;
}

// The expected value of (q0, q1, t) under an accuracy claim: the exact op; in the tie band either arc's.
double accuracy_error(CheckContext &cx, Op op, const double out[4]) {
    const DDQuat &e = op == Op::nlerp ? cx.ref.N : cx.ref.R;
    double d = component_distance(out, e);
    if (cx.ref.in_tie_band) d = std::min(d, component_distance(out, op == Op::nlerp ? cx.ref.N_other : cx.ref.R_other));
    return d;
}

CaseOutcome check_accuracy(CheckContext &cx, const Impl &impl, Op op, const CaseValues &v) {
    const TwoKeyCase c = TwoKeyCase::of(v);
    const double tol = claim_value(impl, op, "accuracy");
    double out[4];
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, out)) return {kInf, tol};
    cx.reference_of(c.q0.data(), c.q1.data(), c.t, cx.ref);
    return {accuracy_error(cx, op, out), tol};
}

// Under a threshold claim: which of the slerp (R) and the short arc's normalised lerp (N) the output is held to.
// 1 = R, 2 = N, 3 = either (|cos W| within 8 eps of the threshold, where the format's dot product may round
// either way; cos W in double is off by far less).
int threshold_target(const CheckContext &cx, double threshold) {
    const double c = std::cos(cx.ref.arc_w), band = 8 * cx.eps();
    return c < threshold - band ? 1 : c >= threshold + band ? 2 : 3;
}

double threshold_error(CheckContext &cx, double threshold, const double out[4], int *target = nullptr) {
    const int which = threshold_target(cx, threshold);
    if (target) *target = which;
    const double to_r = which & 1 ? cx.metric.rotation_angle(out, cx.ref.R) : kInf;
    const double to_n = which & 2 ? cx.metric.rotation_angle(out, cx.ref.N) : kInf;
    if (target && which == 3) *target = to_r <= to_n ? 1 : 2;
    return std::min(to_r, to_n);
}

CaseOutcome check_threshold(CheckContext &cx, const Impl &impl, Op op, const CaseValues &v) {
    const TwoKeyCase c = TwoKeyCase::of(v);
    cx.reference_of(c.q0.data(), c.q1.data(), c.t, cx.ref);
    const double tol = cx.accuracy_budget(cx.ref.arc_w);
    double out[4];
    if (!cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, out)) return {kInf, tol};
    return {threshold_error(cx, claim_value(impl, op, "threshold"), out), tol};
}

double clamped(double t) { return t < 0 ? 0 : t > 1 ? 1 : t; }

// The largest component difference of a from b in ulp1, 0 where both are the same non-finite value.
double clamp_distance(const double a[4], const double b[4], double eps) {
    double m = 0;
    for (int i = 0; i < 4; i++) {
        if (std::bit_cast<uint64_t>(a[i]) == std::bit_cast<uint64_t>(b[i]) || (std::isnan(a[i]) && std::isnan(b[i])))
            continue;
        m = std::max(m, std::isfinite(a[i]) && std::isfinite(b[i]) ? std::fabs(a[i] - b[i]) / eps : kInf);
        if (m == 0) m = std::numeric_limits<double>::denorm_min();  // +0 against -0: not bit for bit
    }
    return m;
}

CaseOutcome check_t_clamp(CheckContext &cx, const Impl &impl, Op op, const CaseValues &v) {
    const TwoKeyCase c = TwoKeyCase::of(v);
    double out[4], end[4];
    cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, out);
    cx.call(impl, op, c.q0.data(), c.q1.data(), clamped(c.t), end);
    return {clamp_distance(out, end, cx.eps()), 0};
}

// Keys whose dot product is exactly d in the format: q0 = s e_i, q1 = s (d e_i + sqrt(1 - d^2) e_j), with d
// near +-threshold: offsets 2^-(3+k) (1 + m 2^-20) on either side, or a few representable steps from it.
rc::Gen<CaseValues> threshold_gen(Precision p, double threshold) {
    auto make = [p, threshold](int axes, bool negative, bool above, bool steps, int k, int m, int t_m) {
        double d = threshold + (above ? 1 : -1) * std::ldexp(1 + m * 0x1p-20, -(3 + k));
        if (steps) {
            d = round_to(p, threshold);
            for (int s = 0; s < k % 9 - 4; s++) d = round_to(p, std::nextafter(d, 2.0));
            for (int s = 0; s > k % 9 - 4; s--) d = round_to(p, std::nextafter(d, -2.0));
        }
        d = std::clamp(round_to(p, d), 0.0, 1.0);
        const double sign = (axes & 16) ? -1 : 1;
        const size_t i = size_t(axes % 4), j = (i + 1 + size_t((axes / 4) % 3)) % 4;
        TwoKeyCase c;
        c.q0[i] = sign;
        c.q1[i] = sign * (negative ? -d : d);
        c.q1[j] = sign * round_to(p, std::sqrt((1 - d) * (1 + d)));
        c.t = round_to(p, t_m * 0x1p-24);
        return c.values();
    };
    return rc::gen::apply(make, rc::gen::inRange(0, 32), rc::gen::arbitrary<bool>(), rc::gen::arbitrary<bool>(),
                          rc::gen::weightedOneOf<bool>({{3, rc::gen::just(false)}, {1, rc::gen::just(true)}}),
                          rc::gen::inRange(0, 45), rc::gen::inRange(0, 1 << 20), rc::gen::inRange(0, (1 << 24) + 1));
}

// A structured case with t moved outside [0, 1]: 1 + u or -u, u = 2^-k (1 + m 2^-20) from 4 down to 2^-52.
rc::Gen<CaseValues> outside_t_gen(Precision p) {
    auto move = [p](TwoKeyCase c, bool above, int k, int m) {
        const double u = std::ldexp(1 + m * 0x1p-20, -k);
        c.t = round_to(p, above ? 1 + u : -u);
        if (c.t == 1) c.t = 1 + precision_eps(p);  // 1 + u rounded back to 1 in the format
        return c.values();
    };
    return rc::gen::apply(move, two_key_case_gen(p), rc::gen::arbitrary<bool>(), rc::gen::inRange(-1, 53),
                          rc::gen::inRange(0, 1 << 20));
}

CallRecord record(const char *label, const TwoKeyCase &c, double t) {
    CallRecord r;
    r.label = label, r.q0 = c.q0, r.q1 = c.q1, r.t = t;
    return r;
}

}  // namespace

void add_claim_properties(std::vector<Property> &v) {
    auto two_key = [](Op op) { return op == Op::slerp || op == Op::nlerp; };
    auto structured = [](Precision p) {
        return rc::gen::map(two_key_case_gen(p), [](const TwoKeyCase &c) { return c.values(); });
    };
    Property accuracy{"claimed-accuracy",
                      "every output component is within the figure the library documents of the exact op "
                      "(rows with an accuracy claim)",
                      two_key,
                      "the claimed figure (absolute, per component)",
                      TwoKeyCase::arity,
                      structured,
                      check_accuracy,
                      nullptr};
    accuracy.claim = "accuracy";
    Property threshold{"claimed-threshold",
                       "the slerp below the keys' |cos| the library documents, the normalised lerp of the short arc "
                       "from it on (rows with a threshold claim)",
                       two_key,
                       "A(W) rad",
                       TwoKeyCase::arity,
                       nullptr,
                       check_threshold,
                       nullptr};
    threshold.claim = "threshold";
    threshold.claim_gen = threshold_gen;
    Property clamp{"claimed-t-clamp",
                   "op(q0, q1, t) for t outside [0, 1] is op(q0, q1, 0) or op(q0, q1, 1), bit for bit, as the "
                   "library documents (rows with a t-clamp claim)",
                   two_key,
                   "0 ulp1 (bit for bit)",
                   TwoKeyCase::arity,
                   outside_t_gen,
                   check_t_clamp,
                   nullptr};
    clamp.claim = "t-clamp";
    v.push_back(std::move(accuracy));
    v.push_back(std::move(threshold));
    v.push_back(std::move(clamp));
}

bool claim_calls(const Property &prop, const CaseValues &v, std::vector<PropertyCall> &calls) {
    if (prop.claim.empty()) return false;
    calls.clear();
    if (v.size() != TwoKeyCase::arity) return true;
    const TwoKeyCase c = TwoKeyCase::of(v);
    calls.push_back({"op(q0,q1,t)", c.q0, c.q1, c.t});
    if (prop.claim == "t-clamp")
        calls.push_back({clamped(c.t) == 0 ? "op(q0,q1,0)" : "op(q0,q1,1)", c.q0, c.q1, clamped(c.t)});
    return true;
}

std::vector<CallRecord> explain_claim(CheckContext &cx, const Impl &impl, Op op, const Property &prop,
                                      const CaseValues &v) {
    if (v.size() != TwoKeyCase::arity) return {};
    const TwoKeyCase c = TwoKeyCase::of(v);
    CallRecord r = record("op(q0,q1,t)", c, c.t);
    const bool finite = cx.call(impl, op, c.q0.data(), c.q1.data(), c.t, r.out.data());
    if (prop.claim == "t-clamp") {  // the call outside [0, 1] against the routine's own output at the end
        CallRecord e = record(clamped(c.t) == 0 ? "op(q0,q1,0)" : "op(q0,q1,1)", c, clamped(c.t));
        const bool end_finite = cx.call(impl, op, c.q0.data(), c.q1.data(), e.t, e.out.data());
        r.expected = e.out, r.err = clamp_distance(r.out.data(), e.out.data(), cx.eps()), r.tol = 0, r.unit = "ulp1";
        cx.reference_of(c.q0.data(), c.q1.data(), e.t, cx.ref);  // the end itself, held to the endpoint tolerance
        for (int i = 0; i < 4; i++) e.expected[size_t(i)] = to_double(cx.ref.R[i]);
        e.err = end_finite ? component_distance(e.out.data(), cx.ref.R) / cx.eps() : kInf;
        e.tol = cx.unit_tolerance_ulp1(), e.unit = "ulp1";
        return {r, e};
    }
    cx.reference_of(c.q0.data(), c.q1.data(), c.t, cx.ref);
    const bool nlerp = op == Op::nlerp;
    int target = nlerp ? 2 : 1;
    if (prop.claim == "accuracy") {
        r.err = finite ? accuracy_error(cx, op, r.out.data()) : kInf;
        r.tol = claim_value(impl, op, "accuracy"), r.unit = "abs";
    } else {
        r.err = finite ? threshold_error(cx, claim_value(impl, op, "threshold"), r.out.data(), &target) : kInf;
        r.tol = cx.accuracy_budget(cx.ref.arc_w), r.unit = "rad";
    }
    const DDQuat &e = target == 2 ? cx.ref.N : cx.ref.R;
    for (int i = 0; i < 4; i++) r.expected[size_t(i)] = to_double(e[i]);
    if (std::isnan(r.err)) r.err = kInf;
    return {r};
}

}  // namespace qc
