#include "conform/cases.h"

#include "regions/regions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace qc {

double round_to(Precision p, double x) { return p == Precision::f32 ? double(float(x)) : x; }

// ---- shapes ----

TwoKeyCase TwoKeyCase::of(const CaseValues &c) {
    TwoKeyCase k;
    std::copy_n(c.begin(), 4, k.q0.begin());
    std::copy_n(c.begin() + 4, 4, k.q1.begin());
    k.t = c[8];
    return k;
}

CaseValues TwoKeyCase::values() const {
    CaseValues c(q0.begin(), q0.end());
    c.insert(c.end(), q1.begin(), q1.end());
    c.push_back(t);
    return c;
}

TwoKeyPairCase TwoKeyPairCase::of(const CaseValues &c) { return {TwoKeyCase::of(c), c[TwoKeyCase::arity]}; }

CaseValues TwoKeyPairCase::values() const {
    CaseValues c = first.values();
    c.push_back(t2);
    return c;
}

ContinuityCase ContinuityCase::of(const CaseValues &c) {
    ContinuityCase k;
    std::copy_n(c.begin(), 4, k.q0.begin());
    std::copy_n(c.begin() + 4, 4, k.below.begin());
    std::copy_n(c.begin() + 8, 4, k.above.begin());
    k.t = c[12];
    return k;
}

CaseValues ContinuityCase::values() const {
    CaseValues c(q0.begin(), q0.end());
    c.insert(c.end(), below.begin(), below.end());
    c.insert(c.end(), above.begin(), above.end());
    c.push_back(t);
    return c;
}

// ---- structured cases ----

namespace {

void basis(int i, double sign, Quat4 &q) {
    q = {0, 0, 0, 0};
    q[size_t(i)] = sign;
}

// The start q0 and a unit direction v orthogonal to it; axis is q0's basis axis, or -1 for a random q0.
struct Frame {
    Quat4 q0{}, v{};
    int axis = -1;
};

Frame frame_of(const CaseParams &a) {
    Frame f;
    if (a.start == StartKind::identity) {
        f.axis = 0;
        basis(0, 1, f.q0);
    } else if (a.start == StartKind::axis) {
        f.axis = int(a.seed % 4);
        basis(f.axis, (a.seed >> 2) & 1 ? -1 : 1, f.q0);
    } else {
        Rng rng(a.seed);
        random_unit(rng, f.q0.data());
    }
    if (f.axis >= 0 && a.direction == DirectionKind::axis) {
        basis((f.axis + 1 + int((a.seed >> 3) % 3)) % 4, 1, f.v);
    } else {
        Rng rng(uint64_t(a.seed) * 0x9E3779B97F4A7C15ull + 1);
        random_orthogonal(rng, f.q0.data(), f.v.data());
    }
    return f;
}

// q1 = d q0 + s v, s = sqrt(1 - d^2) given without cancellation.
Quat4 along(const Frame &f, double d, double s) {
    Quat4 q1;
    for (size_t i = 0; i < 4; i++) q1[i] = d * f.q0[i] + s * f.v[i];
    return q1;
}

// The far end q1 of a case in region r (in double, rounded by the caller).
Quat4 far_end(Region r, const CaseParams &a, const Frame &f) {
    const double off = std::ldexp(1.0 + a.m * 0x1p-20, -(3 + a.k));  // [2^-40, 2^-2)
    switch (r) {
        case Region::uniform: {  // anywhere: arc phi in [0, pi/2), either sign of q1
            double phi = M_PI / 2 * a.m * 0x1p-20;
            Quat4 q1 = along(f, std::cos(phi), std::sin(phi));
            if (a.flip)
                for (double &x : q1) x = -x;
            return q1;
        }
        case Region::near_0: {  // arc W = offset (at most 0.1)
            double w = std::min(off, 0.1);
            return along(f, std::cos(w), std::sin(w));
        }
        case Region::near_half_pi: {  // a.b = +-offset (at most 0.1)
            double d = std::min(off, 0.1) * (a.flip ? -1 : 1);
            return along(f, d, std::sqrt((1 - d) * (1 + d)));
        }
        case Region::near_pi:  // a.b = -1 + offset
            return along(f, -1 + off, std::sqrt(off * (2 - off)));
        case Region::threshold: {  // a.b = 0.9995 -+ offset / 2^9 (below 2^-11 < 1 - 0.9995)
            double o = std::ldexp(off, -9);
            double d = kSeedThreshold + (a.flip ? o : -o);
            return along(f, d, std::sqrt((1 - d) * (1 + d)));
        }
    }
    return f.q0;
}

// The ends of an exact special case, in the format of p.
TwoKeyCase exact_ends(Precision p, ExactCase e, const CaseParams &a, const Frame &f) {
    TwoKeyCase c;
    for (size_t i = 0; i < 4; i++) c.q0[i] = round_to(p, f.q0[i]);
    switch (e) {
        case ExactCase::equal_ends:
            c.q1 = c.q0;
            break;
        case ExactCase::antipodal:
            for (size_t i = 0; i < 4; i++) c.q1[i] = -c.q0[i];
            break;
        case ExactCase::orthogonal:  // q1 = q0 * i: the products cancel in pairs, a.b = 0 exactly in any format
            c.q1 = {-c.q0[1], c.q0[0], c.q0[3], -c.q0[2]};
            break;
        case ExactCase::threshold_neighbours: {  // the format's a.b is exactly d, 0.9995's neighbours
            const size_t i = size_t(f.axis >= 0 ? f.axis : 0), j = (i + 1) % 4;
            double d = round_to(p, kSeedThreshold);
            const int steps = a.k % 9 - 4;
            for (int s = 0; s < std::abs(steps); s++)
                d = p == Precision::f32 ? double(std::nextafter(float(d), steps > 0 ? 1.0f : 0.0f))
                                        : std::nextafter(d, steps > 0 ? 1.0 : 0.0);
            c.q0 = {0, 0, 0, 0}, c.q1 = {0, 0, 0, 0};
            c.q0[i] = 1;
            c.q1[i] = d;
            c.q1[j] = round_to(p, std::sqrt((1 - d) * (1 + d)));
            break;
        }
    }
    return c;
}

double t_of(Precision p, const CaseParams &a) {
    double t = 0.5;
    switch (a.t_kind) {
        case TKind::half:
            t = 0.5;
            break;
        case TKind::zero:
            t = 0;
            break;
        case TKind::one:
            t = 1;
            break;
        case TKind::near_zero:
            t = std::ldexp(1.0, -a.t_k);
            break;
        case TKind::near_one:
            t = 1 - std::ldexp(1.0, -a.t_k);
            break;
        case TKind::uniform:
            t = a.t_m * 0x1p-24;
            break;
    }
    t = round_to(p, t);
    return t > 1 ? 1 : t;
}

}  // namespace

TwoKeyCase structured_case(Precision p, const CaseParams &a) {
    const Frame f = frame_of(a);
    TwoKeyCase c;
    if (const ExactCase *e = std::get_if<ExactCase>(&a.where)) {
        c = exact_ends(p, *e, a, f);
    } else {
        const Quat4 q1 = far_end(std::get<Region>(a.where), a, f);
        for (size_t i = 0; i < 4; i++) c.q0[i] = round_to(p, f.q0[i]), c.q1[i] = round_to(p, q1[i]);
    }
    c.t = t_of(p, a);
    return c;
}

ExactCase exact_case_of_draw(int sub) {
    static constexpr ExactCase kExact[] = {ExactCase::equal_ends, ExactCase::antipodal, ExactCase::orthogonal,
                                           ExactCase::threshold_neighbours};
    return kExact[sub % 4];
}

CaseParams params_of_draw(int place, int sub, int q0_kind, int dir_kind, unsigned seed, int k, int m, int t_kind,
                          int t_k, int t_m) {
    static constexpr StartKind kStart[] = {StartKind::identity, StartKind::axis, StartKind::random, StartKind::random};
    static constexpr TKind kT[] = {TKind::half, TKind::zero, TKind::one, TKind::near_zero, TKind::near_one};
    CaseParams a;
    if (place < kExactPlace) a.where = all_regions()[size_t(place)];
    else a.where = exact_case_of_draw(sub);
    a.flip = (sub & 1) != 0;
    a.start = kStart[q0_kind];
    a.direction = dir_kind == 0 ? DirectionKind::axis : DirectionKind::random;
    a.seed = seed, a.k = k, a.m = m;
    a.t_kind = t_kind < 5 ? kT[t_kind] : TKind::uniform;
    a.t_k = t_k, a.t_m = t_m;
    return a;
}

// ---- generators ----

namespace {

rc::Gen<TwoKeyCase> structured_gen(Precision p, int place_lo, int place_hi) {
    using namespace rc;
    return gen::map(
        gen::tuple(gen::inRange(place_lo, place_hi), gen::inRange(0, 8), gen::inRange(0, 4), gen::inRange(0, 3),
                   gen::inRange(0u, 1u << 31), gen::inRange(0, 38), gen::inRange(0, 1 << 20), gen::inRange(0, 10),
                   gen::inRange(1, 60), gen::inRange(0, 1 << 24)),
        [p](const std::tuple<int, int, int, int, unsigned, int, int, int, int, int> &x) {
            return structured_case(p, std::apply(params_of_draw, x));
        });
}

double next_up(Precision p, double x) {
    return p == Precision::f32 ? double(std::nextafter(float(x), 2.0f)) : std::nextafter(x, 2.0);
}

// The second t of a pair, drawn as `how` 0..3: the next value up, uniform above t (u / 2^24 of the way to 1),
// 1, or halfway to 1.
double second_t(Precision p, double t, int how, int u) {
    double t2;
    switch (how) {
        case 0:
            t2 = std::min(1.0, next_up(p, t));
            break;
        case 1:
            t2 = round_to(p, t + (1 - t) * u * 0x1p-24);
            break;
        case 2:
            t2 = 1;
            break;
        default:
            t2 = round_to(p, t + (1 - t) / 2);
            break;
    }
    return std::max(t, std::min(1.0, t2));
}

}  // namespace

rc::Gen<TwoKeyCase> two_key_case_gen(Precision p) { return structured_gen(p, 0, kExactPlace + 1); }

rc::Gen<TwoKeyCase> exact_case_gen(Precision p) { return structured_gen(p, kExactPlace, kExactPlace + 1); }

rc::Gen<TwoKeyPairCase> two_key_pair_gen(Precision p) {
    using namespace rc;
    return gen::map(gen::tuple(two_key_case_gen(p), gen::inRange(0, 4), gen::inRange(0, 1 << 24)),
                    [p](const std::tuple<TwoKeyCase, int, int> &x) {
                        const TwoKeyCase &c = std::get<0>(x);
                        return TwoKeyPairCase{c, second_t(p, c.t, std::get<1>(x), std::get<2>(x))};
                    });
}

// ---- case text ----

std::string format_case(const CaseValues &c) {
    std::string s;
    for (double x : c) {
        if (!s.empty()) s += ' ';
        s += fmt::format("{:a}", x);
    }
    return s;
}

CaseValues parse_case(const std::string &text, size_t arity, Precision p) {
    CaseValues c;
    std::string tok;
    auto flush = [&] {
        if (tok.empty()) return;
        char *end = nullptr;
        errno = 0;
        double v = std::strtod(tok.c_str(), &end);
        if (end != tok.c_str() + tok.size() || !std::isfinite(v))
            throw UsageError(
                fmt::format("--case: '{}' is not a finite number (expected hexfloats such as 0x1.8p-3)", tok));
        if (round_to(p, v) != v)
            throw UsageError(fmt::format("--case: '{}' is not representable in {}", tok, to_string(p)));
        c.push_back(v);
        tok.clear();
    };
    for (char ch : text) {
        if (ch == ' ' || ch == ',' || ch == '\t') flush();
        else tok += ch;
    }
    flush();
    if (c.size() != arity)
        throw UsageError(fmt::format("--case: expected {} numbers for this property, got {}", arity, c.size()));
    return c;
}

}  // namespace qc
