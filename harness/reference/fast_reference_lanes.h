// The fast reference's common branch on kLanes cases at once, written once for every lane width. Included only by
// the kernels' files (fast_reference_avx2.cpp: four lanes; fast_reference_avx512.cpp: eight), each after defining,
// in namespace qc::fast_detail's anonymous namespace, its width and its operations:
//   kLanes; V, a GCC vector of kLanes doubles; M = decltype(V{} < V{}), its lane masks (all ones or zero);
//   splat(x) (x in every lane), vsqrt, vfma, vabs and nearbyint (to nearest even), each correctly rounded per lane;
//   vgather(base, idx): base[idx[l]] in lane l, idx integer-valued.
// Identity with the scalar path: every operation below is the scalar path's (fast_reference.cpp, dd.h) in the same
// order on the same operands, one lane per case. IEEE +, -, *, /, sqrt and fma are correctly rounded per lane, and
// nearbyint rounds to nearest even as the scalar std::nearbyint does in the default rounding mode; with
// -ffp-contract=off (everywhere) each lane computes the scalar path's bits. The scalar path's branches become lane
// masks. The lanes take these: t = 0 or 1, 0 < t < 2^-300 (evaluated at t = 0), equal or opposite ends, a dot product
// that is exactly zero, W' < 2^-300, tW' < 2^-60 and the tie band. A lane that would take any other branch (a zeroed
// tiny component, a dot product whose sign needs more than one VecSum pass, a vanishing |a + b|, an argument outside
// the sine's or the arc tangent's range, an undecided rounding, a non-finite value or bound, a bound over the
// tolerance) leaves the mask and is evaluated again by the scalar fast_slerp_reference, which then decides its
// outcome (fast_reference.cpp: fast_slerp_reference_batch).
// Not a header to include elsewhere: it defines functions (in an anonymous namespace) and has no include guard.

#include <cmath>
#include <cstddef>
#include <cstring>
#include <initializer_list>

namespace qc::fast_detail {
namespace {

inline M isfinite(V a) { return vabs(a) <= splat(1.7976931348623157e308); }
inline V sel(M m, V a, V b) { return m ? a : b; }

}  // namespace
}  // namespace qc::fast_detail

// dd.h's double-word algorithms on the lanes.
template <> struct qc::dd::Lane<qc::fast_detail::V> {
    using V = qc::fast_detail::V;
    static V fma(V a, V b, V c) { return qc::fast_detail::vfma(a, b, c); }
    static V sqrt(V a) { return qc::fast_detail::vsqrt(a); }
    static V splat(double x) { return qc::fast_detail::splat(x); }
};

namespace qc::fast_detail {
namespace {

using D = dd::Word<V>;
using dd::add, dd::div, dd::fast_two_sum, dd::mul, dd::neg, dd::sqrt, dd::two_prod, dd::two_sum;

inline V up(V x) { return x * splat(dd::kUp); }
struct B {
    D v;
    V err;
};
inline B exact(V x) { return {{x, V{}}, V{}}; }
inline B exact(D x) { return {x, V{}}; }
inline B constant(const DB &c) { return {{splat(c.v.hi), splat(c.v.lo)}, splat(c.err)}; }
inline V mag(const B &x) { return vabs(x.v.hi) * splat(1 + 0x1p-52); }
inline B operator-(const B &x) { return {neg(x.v), x.err}; }
inline B operator+(const B &x, const B &y) {
    D s = add(x.v, y.v);
    return {s, up(x.err + y.err + splat(dd::kAddRel) * vabs(s.hi))};
}
inline B operator-(const B &x, const B &y) { return x + (-y); }
inline B operator*(const B &x, const B &y) {
    D p = mul(x.v, y.v);
    return {p, up(mag(x) * y.err + mag(y) * x.err + x.err * y.err + splat(dd::kMulRel) * vabs(p.hi))};
}
inline B operator*(const B &x, V y) {
    D p = mul(x.v, y);
    return {p, up(vabs(y) * x.err + splat(dd::kMulRel) * vabs(p.hi))};
}
inline B operator/(const B &x, const B &y) {
    D q = div(x.v, y.v);
    V margin = vabs(y.v.hi) * splat(1 - 0x1p-52) - y.err;
    V qm = vabs(q.hi) * splat(1 + 0x1p-52);
    V err = up((x.err + qm * y.err) / margin * splat(dd::kUp) + splat(dd::kDivRel) * vabs(q.hi));
    return {q, sel(margin > V{}, err, splat(INFINITY))};
}
// dd::sqrt(DB) where the caller has checked x.v.hi > 0 (the lanes where it is not have left the mask).
inline B sqrt_pos(const B &x) {
    D s = sqrt(x.v);
    return {s, up(x.err / (vabs(s.hi) * splat(1 - 0x1p-50)) + splat(dd::kSqrtRel) * vabs(s.hi))};
}
inline B widen(B x, V e) { return {x.v, up(x.err + e)}; }
inline V upper(const B &x) { return (vabs(x.v.hi) + vabs(x.v.lo) + x.err) * splat(1 + 0x1p-50); }

inline B sel(M m, const B &x, const B &y) {
    return {{sel(m, x.v.hi, y.v.hi), sel(m, x.v.lo, y.v.lo)}, sel(m, x.err, y.err)};
}

// One table entry per lane, at k (an integer-valued double); lanes off the mask read entry 0.
inline B gather(const DB *table, int size, V k, M ok) {
    static_assert(sizeof(DB) == 3 * sizeof(double) && offsetof(DB, v.lo) == sizeof(double) &&
                  offsetof(DB, err) == 2 * sizeof(double));
    const V i = sel(ok & (k >= V{}) & (k < splat(size)), k, V{}) * splat(3);  // exact: 3 size < 2^31
    const double *base = &table[0].v.hi;
    return {{vgather(base, i), vgather(base + 1, i)}, vgather(base + 2, i)};
}

// fast_reference.cpp: sqrt_nonneg, both branches.
inline B sqrt_nonneg(const B &x) {
    const M pos = (x.v.hi > V{}) & (x.v.hi > splat(4) * x.err);
    const B zero = {{V{}, V{}}, vsqrt(upper(x)) * splat(1 + 0x1p-50)};
    return sel(pos, sqrt_pos(x), zero);
}

B norm2(const B v[4]) { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]; }
B norm2(const V q[4]) {
    B s = exact(two_prod(q[0], q[0]));
    for (int i = 1; i < 4; i++) s = s + exact(two_prod(q[i], q[i]));
    return s;
}

// fast_reference.cpp: sincos_db (x in [0, 1.61]; other lanes leave ok).
void sincos(const Tables &T, const B &x, B &sin_x, B &cos_x, M &ok) {
    const V xh = x.v.hi;
    ok &= (xh >= V{}) & (xh <= splat(1.61));
    const B one = exact(splat(1.0));
    const M small = xh < splat(0x1p-60);  // sin x = x - x^3/6 + ..., cos x = 1 - x^2/2 + ...
    const V m = upper(x);
    const B sin_small = {x.v, up(x.err + m * m * m / splat(6))};
    const B cos_small = {one.v, up(m * m / splat(2))};
    const V k = nearbyint(xh * splat(kSteps));
    const B r = exact(two_sum(xh - k / splat(kSteps), x.v.lo));
    const B r2 = r * r, r3 = r2 * r, r4 = r2 * r2, r5 = r3 * r2;
    const V y = r2.v.hi;
    const V ts = r5.v.hi * y * (splat(T.sin_t[0]) + y * splat(T.sin_t[1]));
    const V tc = r4.v.hi * y * (splat(T.cos_t[0]) + y * splat(T.cos_t[1]));
    const V rm = upper(r);
    const V r2m = rm * rm, r4m = r2m * r2m, r10 = r4m * r4m * r2m * splat(1 + 0x1p-40);
    B sr = r + r3 * constant(T.sin_c3) + r5 * constant(T.sin_c5) + exact(ts);
    sr = widen(sr, vabs(ts) * splat(kTailRel) + r10 * rm / splat(39916800.0) + x.err);
    B cr = one + r2 * splat(-0.5) + r4 * constant(T.cos_c4) + exact(tc);
    cr = widen(cr, vabs(tc) * splat(kTailRel) + r10 / splat(3628800.0) + x.err);
    const B sk = gather(T.sin_k, kSinTable, k, ok), ck = gather(T.cos_k, kSinTable, k, ok);
    sin_x = sel(small, sin_small, sk * cr + ck * sr);
    cos_x = sel(small, cos_small, ck * cr - sk * sr);
}

// fast_reference.cpp: atan_db (z in [0, 1.01]; other lanes leave ok).
B atan(const Tables &T, const B &z, M &ok) {
    const V zh = z.v.hi;
    ok &= (zh >= V{}) & (zh <= splat(1.01));
    const V k = nearbyint(zh * splat(kSteps));
    const V c = k / splat(kSteps);
    const B num{two_sum(zh - c, z.v.lo), z.err};
    const B den = exact(splat(1.0)) + z * c;
    const B u = num / den;
    const V um = upper(u);
    const B u2 = u * u, u3 = u2 * u;
    const V y = u2.v.hi;
    const V ta = u3.v.hi * y *
                 (splat(T.atan_t[0]) + y * (splat(T.atan_t[1]) + y * (splat(T.atan_t[2]) + y * splat(T.atan_t[3]))));
    B au = u + u3 * constant(T.atan_c3) + exact(ta);
    const V u2m = um * um, u4m = u2m * u2m, u12m = u4m * u4m * u4m;
    au = widen(au, vabs(ta) * splat(kTailRel) + u12m * um * splat(1 + 0x1p-40) / splat(13) + splat(0x1p-35) * u.err);
    return gather(T.atan_k, kAtanTable, k, ok) + au;
}

struct Arc {
    B R[4], N[4];
    B W;
};

// fast_reference.cpp: arc(), in two parts: what depends on a and b only (W and its sine and cosine; the mask
// `series` of the lanes whose sincos of W stayed in range), then what depends on t.
struct ArcPair {
    B W, Wx, sW, cW;
    M series;
};
void arc_pair(const Tables &T, const B a[4], const B b[4], M same_ends, ArcPair &P, M &ok) {
    B d[4], s[4];
    for (int i = 0; i < 4; i++) d[i] = a[i] - b[i], s[i] = a[i] + b[i];
    const B nd = sqrt_nonneg(norm2(d));
    const B ns2 = norm2(s);
    ok &= ns2.v.hi > splat(4) * ns2.err;
    const B ns = sqrt_pos(ns2);
    const B z = nd / ns;
    ok &= isfinite(z.err);
    const B theta = atan(T, z, ok);
    P.W = sel(same_ends, exact(V{}), theta * splat(2.0));
    ok &= isfinite(P.W.err) & ~(P.W.v.hi + P.W.err > splat(1.6));
    P.Wx = exact(P.W.v);
    P.series = ok;
    sincos(T, P.Wx, P.sW, P.cW, P.series);
}
// series: P.series restricted to the lanes still in ok.
void arc_t(const Tables &T, const ArcPair &P, M series, const B a[4], const B b[4], V t, bool want_nlerp, Arc &out,
           M &ok) {
    out.W = P.W;
    const V Wv = out.W.v.hi, eW = out.W.err;
    const M ends = (t == V{}) | (t == splat(1));    // R = a at t = 0 and b at t = 1, exactly
    const M tiny = ~ends & (Wv < splat(0x1p-300));  // the limit g_t(0) = t
    const D tt{t, V{}};
    const D omt = two_sum(splat(1.0), -t);
    const V drift = splat(0.42) * (Wv + eW) * eW * splat(1 + 0x1p-40);
    B st, ct;
    sincos(T, exact(tt) * P.Wx, st, ct, series);
    ok &= series | ends | tiny;
    const V limit = splat(0.42) * (Wv + eW) * (Wv + eW) * splat(1 + 0x1p-40);
    const B q1 = st / P.sW;
    const B s1 = sel(ends, exact(t), sel(tiny, B{tt, limit}, widen(q1, drift)));
    const B s0 = sel(ends, exact(splat(1.0) - t), sel(tiny, B{omt, limit}, widen(ct - P.cW * q1, drift)));
    for (int i = 0; i < 4; i++) out.R[i] = s0 * a[i] + s1 * b[i];
    if (!want_nlerp) {
        for (auto &n : out.N) n = {{splat(NAN), splat(NAN)}, V{}};
        return;
    }
    B l[4];
    for (int i = 0; i < 4; i++) l[i] = a[i] * exact(omt) + b[i] * t;
    const B nl2 = norm2(l);
    ok &= nl2.v.hi > splat(4) * nl2.err;
    const B inv = exact(splat(1.0)) / sqrt_pos(nl2);
    for (int i = 0; i < 4; i++) out.N[i] = l[i] * inv;
}
void arc(const Tables &T, const B a[4], const B b[4], V t, M same_ends, bool want_nlerp, Arc &out, M &ok) {
    ArcPair P;
    arc_pair(T, a, b, same_ends, P, ok);
    arc_t(T, P, P.series, a, b, t, want_nlerp, out, ok);
}

// The largest bound over R and N (and the other arc's on the tie band's lanes: elsewhere O is not computed).
// A lane with a non-finite value or bound leaves ok; on the others the maximum is the scalar path's.
V largest_bound(const Arc &A, const Arc &O, bool other, M tie_band, bool want_nlerp, M &ok) {
    V bound{};
    M finite = ~M{};
    auto take = [&](const B &y) {
        bound = sel(y.err <= bound, bound, y.err);
        finite &= isfinite(y.err) & isfinite(y.v.hi);
    };
    for (int i = 0; i < 4; i++) {
        take(A.R[i]);
        if (want_nlerp) take(A.N[i]);
    }
    if (other)
        for (int i = 0; i < 4; i++) {
            take(sel(tie_band, O.R[i], A.R[i]));
            if (want_nlerp) take(sel(tie_band, O.N[i], A.N[i]));
        }
    ok &= finite;
    return bound;
}

inline bool lane(M m, int l) { return m[l] != 0; }
inline DB lane_db(const B &x, int l) { return {{x.v.hi[l], x.v.lo[l]}, x.err[l]}; }

// The lanes whose t is in the fast path's range: t = 0 or in [2^-300, 1].
M t_in_range(V t) { return ((t >= splat(0x1p-300)) & (t <= splat(1))) | (t == V{}); }
// The lanes whose ends are in the fast path's range: components 0 or in [2^-400, 2^400] (no zeroed tiny ones).
// same_ends: the lanes with q1 = q0 or q1 = -q0 (W = 0 exactly).
M ends_in_range(const V q0[4], const V q1[4], M &same_ends) {
    M ok = ~M{}, same = ~M{}, opposite = ~M{};
    for (int i = 0; i < 4; i++) {
        for (V x : {q0[i], q1[i]}) {
            const V a = vabs(x);
            ok &= (a == V{}) | ((a >= splat(0x1p-400)) & (a <= splat(0x1p400)));
        }
        same &= q0[i] == q1[i], opposite &= q0[i] == -q1[i];
    }
    same_ends = same | opposite;
    return ok;
}

// q0.q1 as the exact sum of its eight product words, with its sign where the first VecSum pass decides it (the
// top word above the sum of the others, or every word zero: zero_dot, exact_sign's 0); the lanes where it does not
// leave ok for the scalar path.
B exact_dot_and_sign(const V q0[4], const V q1[4], M &ok, M &negative, M &zero_dot) {
    V x[8];
    for (int i = 0; i < 4; i++) {
        const D pr = two_prod(q0[i], q1[i]);
        x[2 * i] = pr.lo, x[2 * i + 1] = pr.hi;
    }
    for (int i = 1; i < 8; i++) {
        const D s = two_sum(x[i], x[i - 1]);
        x[i] = s.hi, x[i - 1] = s.lo;
    }
    V rest{};
    for (int i = 0; i < 7; i++) rest += vabs(x[i]);
    rest *= splat(1 + 0x1p-48);
    zero_dot = (x[7] == V{}) & (rest == V{});
    ok &= (vabs(x[7]) > rest) | zero_dot;
    negative = x[7] < V{};
    B exact_dot = exact(x[0]);
    for (int i = 1; i < 8; i++) exact_dot = exact_dot + exact(x[i]);
    return exact_dot;
}

// A certified lane l as LaneOut (R, N, and the other arc's on the tie band; the caller writes the reference).
void store_lane(const Arc &A, const Arc &O, int l, bool tie, bool in_tie_band, double dot, double arc_w, double bound,
                LaneOut &o) {
    for (int i = 0; i < 4; i++) {
        o.R[i] = {A.R[i].v.hi[l], A.R[i].v.lo[l]};
        o.N[i] = {A.N[i].v.hi[l], A.N[i].v.lo[l]};
    }
    if (in_tie_band)
        for (int i = 0; i < 4; i++) {
            o.R_other[i] = {O.R[i].v.hi[l], O.R[i].v.lo[l]};
            o.N_other[i] = {O.N[i].v.hi[l], O.N[i].v.lo[l]};
        }
    o.dot = dot;
    o.tie = tie;
    o.in_tie_band = in_tie_band;
    o.arc_w = arc_w;
    o.bound = bound;
}

// What the lanes' key pairs decide (steps 1 to 2 and the pair's part of the arc, fast_reference.cpp), the lanes
// that left ok on the way excluded. ok starts as the lanes to evaluate.
struct PairPart {
    M ok, same_ends, zero_dot, tie_band;
    double dots[kLanes];
    B a[4], b[4];  // b on the short arc
    ArcPair arc;
};
void pair_part(const Tables &T, const V q0[4], const V q1[4], double band, M ok, PairPart &P) {
    ok &= ends_in_range(q0, q1, P.same_ends);

    // 1. the sign of q0.q1, decided by the first VecSum pass (else: the scalar path)
    M negative;
    const B exact_dot = exact_dot_and_sign(q0, q1, ok, negative, P.zero_dot);

    // 2. a, b
    const B n0s = norm2(q0), n1s = norm2(q1);
    const B n0 = sqrt_nonneg(n0s), n1 = sqrt_nonneg(n1s);
    ok &= (n0.v.hi > splat(4) * n0.err) & (n1.v.hi > splat(4) * n1.err);
    const B inv0 = exact(splat(1.0)) / n0, inv1 = exact(splat(1.0)) / n1;
    for (int i = 0; i < 4; i++) {
        P.a[i] = inv0 * q0[i], P.b[i] = inv1 * q1[i];
        for (V h : {P.a[i].v.hi, P.b[i].v.hi}) {
            const V m = vabs(h);
            ok &= (m == V{}) | ((m >= splat(0x1p-300)) & (m <= splat(2)));
        }
    }
    const B dot = exact_dot / (n0 * n1);
    P.tie_band = M{};
    for (int l = 0; l < kLanes; l++) {
        if (!lane(ok, l)) continue;
        if (!certain_rounding(lane_db(dot, l), P.dots[l])) ok[l] = 0;
        else if (std::fabs(P.dots[l]) <= band) P.tie_band[l] = -1;
    }
    for (auto &y : P.b) y = sel(negative, -y, y);

    // 3. the short arc's W and its sine and cosine
    arc_pair(T, P.a, P.b, P.same_ends, P.arc, ok);
    P.ok = ok;
}

// The pair part of the last lanes that shared one key pair, per thread (issue 45: a sweep along t evaluates
// one pair at every t). Lane l of a pair part computed with every lane in ok holds what the evaluation of any
// case of that pair computes on its lane while in ok (the lanes' masks differ only by t's test, which gates no
// value of the pair part on a lane that stays in ok), so the cases whose t is in range take it as theirs.
struct PairMemo {
    bool valid = false;
    double q0[4] = {}, q1[4] = {};
    double band = 0;  // the precision's tie band (KernelArgs::band)
    const Tables *tables = nullptr;
    PairPart part;
};

// Whether the lanes evaluate one key pair (bit for bit).
bool one_pair(const double *const q0[kLanes], const double *const q1[kLanes]) {
    for (int l = 1; l < kLanes; l++)
        if (std::memcmp(q0[l], q0[0], 4 * sizeof(double)) != 0 || std::memcmp(q1[l], q1[0], 4 * sizeof(double)) != 0)
            return false;
    return true;
}

const PairPart &memo_pair_part(const Tables &T, const double *q0_in, const double *q1_in, const V q0[4], const V q1[4],
                               double band) {
    thread_local PairMemo memo;
    if (!memo.valid || memo.band != band || memo.tables != &T || std::memcmp(memo.q0, q0_in, sizeof memo.q0) != 0 ||
        std::memcmp(memo.q1, q1_in, sizeof memo.q1) != 0) {
        memo.valid = false;
        pair_part(T, q0, q1, band, ~M{}, memo.part);
        std::memcpy(memo.q0, q0_in, sizeof memo.q0), std::memcpy(memo.q1, q1_in, sizeof memo.q1);
        memo.band = band, memo.tables = &T, memo.valid = true;
    }
    return memo.part;
}

// A lane vector loaded from one double per lane.
template <class F> V load_lanes(F at) {
    alignas(sizeof(V)) double x[kLanes];
    for (int l = 0; l < kLanes; l++) x[l] = at(l);
    V v;
    std::memcpy(&v, x, sizeof v);
    return v;
}

// The kernel (fast_reference_internal.h: slerp4_avx2, slerp8_avx512), kLanes cases at once.
bool slerp_lanes(const double *const q0_in[kLanes], const double *const q1_in[kLanes], const double t_in[kLanes],
                 const KernelArgs &args, LaneOut out[kLanes], bool certified[kLanes]) {
    const Tables &T = tables();
    const bool want_nlerp = args.want_nlerp;
    V q0[4], q1[4];
    for (int i = 0; i < 4; i++) {
        q0[i] = load_lanes([&](int l) { return q0_in[l][i]; });
        q1[i] = load_lanes([&](int l) { return q1_in[l][i]; });
    }
    // 0 < t < 2^-300: evaluated at t = 0, every component's bound widened by 4t (fast_slerp_reference's t_shift)
    const V t_given = load_lanes([&](int l) { return t_in[l]; });
    const M t_tiny = (t_given > V{}) & (t_given < splat(0x1p-300));
    const V t = sel(t_tiny, V{}, t_given), t_shift = sel(t_tiny, splat(4) * t_given, V{});
    const M t_ok = t_in_range(t);

    // 1-3: what the key pairs decide, from the thread's memo where the lanes share one pair
    PairPart own;
    const PairPart &P = args.pair_memo && one_pair(q0_in, q1_in)
                            ? memo_pair_part(T, q0_in[0], q1_in[0], q0, q1, args.band)
                            : (pair_part(T, q0, q1, args.band, t_ok, own), own);
    M ok = t_ok & P.ok;
    const M tie_band = t_ok & P.tie_band;

    // 3-5. the short arc, and the other arc where a lane is in the tie band
    Arc A, O;
    arc_t(T, P.arc, t_ok & P.arc.series, P.a, P.b, t, want_nlerp, A, ok);
    bool other = false;
    for (int l = 0; l < kLanes; l++) other |= lane(tie_band, l);
    if (other) {
        B b[4];
        for (int i = 0; i < 4; i++) b[i] = -P.b[i];
        M ok2 = ok;
        arc(T, P.a, b, t, M{}, want_nlerp, O, ok2);
        ok &= ok2 | ~tie_band;
    }
    double arc_w[kLanes];
    for (int l = 0; l < kLanes; l++) {
        if (!lane(ok, l)) continue;
        const DB W = lane_db(A.W, l);
        if (!certain_rounding(W, arc_w[l])) {
            if (!(W.err <= kArcBound)) ok[l] = 0;
            arc_w[l] = W.v.hi;
        }
    }
    V bound = largest_bound(A, O, other, tie_band, want_nlerp, ok);
    bound = up(bound + t_shift + V{} + splat(kEpsFloor));  // fast_slerp_reference: no zeroed components here
    ok &= isfinite(bound) & (bound <= splat(args.tolerance));

    for (int l = 0; l < kLanes; l++) {
        certified[l] = lane(ok, l);
        if (certified[l])
            store_lane(A, O, l, lane(P.zero_dot, l), lane(tie_band, l), P.dots[l], arc_w[l], bound[l], out[l]);
    }
    return true;
}

}  // namespace
}  // namespace qc::fast_detail
