#include "reference/squad.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace qc {

SquadReferenceEngine::SquadReferenceEngine(Precision precision, int start_bits)
    : precision_(precision), start_bits_(start_bits > 0 ? start_bits : 2 * precision_bits(precision) + 32) {
    free_mpfr_caches_at_thread_exit();
}

double SquadReferenceEngine::tolerance() const { return std::ldexp(1.0, -(precision_bits(precision_) + 16)); }

void squad_point(RealQuatOps &ops, const SquadTrackReference &track, size_t segment, const Real &t, RealQuat &out) {
    RealQuat a, b;
    ops.ensure(a), ops.ensure(b), ops.ensure(out);
    Real h;
    ensure_bits(h, ops.bits());
    ops.slerp_noflip(a, track.keys[segment], track.keys[segment + 1], t);
    ops.slerp_noflip(b, track.controls[segment], track.controls[segment + 1], t);
    mpfr_ui_sub(mp(h), 1, mp(t), MPFR_RNDN);  // 2t(1-t)
    mpfr_mul(mp(h), mp(h), mp(t), MPFR_RNDN);
    mpfr_mul_2ui(mp(h), mp(h), 1, MPFR_RNDN);
    ops.slerp_noflip(out, a, b, h);
}

namespace {
// Sign of the exact dot product of two double quaternions: exact products, correctly rounded sum.
int exact_dot_sign(const double a[4], const double b[4]) {
    Real prod[4], sum;
    mpfr_ptr ptrs[4];
    for (int i = 0; i < 4; i++) {
        ensure_bits(prod[i], 128);
        mpfr_set_d(mp(prod[i]), a[i], MPFR_RNDN);
        mpfr_mul_d(mp(prod[i]), mp(prod[i]), b[i], MPFR_RNDN);  // exact: 106 bits
        ptrs[i] = mp(prod[i]);
    }
    ensure_bits(sum, 64);
    mpfr_sum(mp(sum), ptrs, 4, MPFR_RNDN);
    return mpfr_sgn(mp(sum));
}
}  // namespace

void SquadReferenceEngine::compute(const KeyTrack &in, const std::vector<SquadQuery> &queries, int bits,
                                   SquadTrackReference &out) {
    RealQuatOps ops(bits);
    const size_t n = in.size();
    out.bits = bits;
    out.keys.resize(n);
    out.controls.resize(n);
    out.key_negated.assign(n, false);
    // 1. normalise, walk the hemispheres
    for (size_t i = 0; i < n; i++) {
        ops.set(out.keys[i], in[i].data());
        ops.normalize(out.keys[i]);
        if (i > 0) {
            bool negate = out.key_negated[i - 1] != (exact_dot_sign(in[i - 1].data(), in[i].data()) < 0);
            out.key_negated[i] = negate;
            if (negate)
                for (auto &x : out.keys[i]) mpfr_neg(mp(x), mp(x), MPFR_RNDN);
        }
    }
    // 2. control points
    RealQuat rel, lsum, lprev, e;
    ops.ensure(rel), ops.ensure(lsum), ops.ensure(lprev), ops.ensure(e);
    for (size_t i = 0; i < n; i++) {
        const RealQuat &prev = out.keys[i == 0 ? 0 : i - 1], &next = out.keys[i + 1 == n ? i : i + 1];
        ops.conj_mul(rel, out.keys[i], next);
        ops.log_unit(lsum, rel);
        ops.conj_mul(rel, out.keys[i], prev);
        ops.log_unit(lprev, rel);
        for (int k = 1; k < 4; k++) {
            mpfr_add(mp(lsum[k]), mp(lsum[k]), mp(lprev[k]), MPFR_RNDN);
            mpfr_div_si(mp(lsum[k]), mp(lsum[k]), -4, MPFR_RNDN);
        }
        ops.exp_pure(e, lsum);
        ops.ensure(out.controls[i]);
        ops.mul(out.controls[i], out.keys[i], e);
    }
    // 3. the queried points
    Real t;
    ensure_bits(t, bits);
    out.points.resize(queries.size());
    for (size_t k = 0; k < queries.size(); k++) {
        mpfr_set_d(mp(t), queries[k].t, MPFR_RNDN);
        squad_point(ops, out, queries[k].segment, t, out.points[k]);
    }
    // 4. the method's own C1 jump at every interior key
    out.c1_step = std::ldexp(1.0, -(bits / 3));
    out.c1_jump.assign(n, std::numeric_limits<double>::quiet_NaN());
    out.key_speed.assign(n, std::numeric_limits<double>::quiet_NaN());
    RealQuat p[3];
    RealVec3 left, right;
    for (auto &q : p) ops.ensure(q);
    for (size_t i = 1; i + 1 < n; i++) {
        const double h = out.c1_step;
        for (int k = 0; k < 3; k++) {
            mpfr_set_ui(mp(t), 1, MPFR_RNDN);
            mpfr_sub_d(mp(t), mp(t), k * h, MPFR_RNDN);  // exact in Real (1 - k h may not be a double)
            squad_point(ops, out, i - 1, t, p[k]);
        }
        ops.angular_velocity(left, p[0], p[1], p[2], h, -1);
        for (int k = 0; k < 3; k++) {
            mpfr_set_d(mp(t), k * h, MPFR_RNDN);
            squad_point(ops, out, i, t, p[k]);
        }
        ops.angular_velocity(right, p[0], p[1], p[2], h, +1);
        out.c1_jump[i] = ops.relative_jump(left, right);
        out.key_speed[i] = (ops.norm3(left) + ops.norm3(right)) / 2;
    }
    // ill-conditioned: nearly equal consecutive keys, or keys nearly a quarter turn apart on the sphere
    out.ill_conditioned = false;
    const double edge = 0x1p-10;
    for (size_t i = 0; i + 1 < n; i++) {
        double angle = ops.rotation_angle(out.keys[i], out.keys[i + 1]);  // = 2 W
        double dot = 0;
        for (int k = 0; k < 4; k++) dot += to_double(out.keys[i][k]) * to_double(out.keys[i + 1][k]);
        if (angle / 2 < edge || std::fabs(dot) < edge) out.ill_conditioned = true;
    }
}

bool SquadReferenceEngine::agree(const SquadTrackReference &x, const SquadTrackReference &y) const {
    const double tol = tolerance();
    auto close = [&](const std::vector<RealQuat> &a, const std::vector<RealQuat> &b) {
        if (a.size() != b.size()) return false;
        for (size_t k = 0; k < a.size(); k++)
            for (int i = 0; i < 4; i++) {
                double d = std::fabs(to_double(a[k][i]) - to_double(b[k][i]));
                if (!(d <= tol)) return false;
            }
        return true;
    };
    return x.key_negated == y.key_negated && close(x.controls, y.controls) && close(x.points, y.points);
}

void SquadReferenceEngine::evaluate(const KeyTrack &keys, const std::vector<SquadQuery> &queries,
                                    SquadTrackReference &out, bool validate) {
    if (keys.size() < 2)
        throw InputError(fmt::format("squad reference: a track needs at least 2 keys, got {}", keys.size()));
    for (const auto &k : keys)
        for (double x : k)
            if (!std::isfinite(x)) throw InputError("squad reference: a key component is not finite");
    for (const auto &q : queries)
        if (q.segment + 1 >= keys.size() || !(q.t >= 0 && q.t <= 1))
            throw InputError(
                fmt::format("squad reference: query (segment {}, t {}) is outside the track", q.segment, q.t));
    stats_.cases += queries.size();
    compute(keys, queries, start_bits_, out);
    if (validate || out.ill_conditioned) {
        stats_.recomputed += queries.size();
        int higher = 2 * start_bits_;
        SquadTrackReference check;
        compute(keys, queries, higher, check);
        bool first = true;
        while (!agree(out, check)) {
            if (first) ++stats_.disagreements, first = false;
            ++stats_.escalations;
            std::swap(out, check);
            higher *= 2;
            if (higher > 1 << 16)
                throw std::runtime_error("squad reference: precision escalation did not converge below 65536 bits");
            compute(keys, queries, higher, check);
        }
        std::swap(out, check);  // keep the most precise of the agreeing evaluations
    }
    if (out.bits > stats_.max_bits) stats_.max_bits = out.bits;
}

}  // namespace qc
