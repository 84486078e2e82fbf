#include "reference/quat_real.h"

#include "quatcheck/types.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace qc {

RealQuatOps::RealQuatOps(int bits) : bits_(bits) {
    for (Real *x : {&tmp_, &tmp2_, &th_, &vn_, &c_, &s_}) ensure_bits(*x, bits);
    ensure(qa_), ensure(qb_), ensure(qc_);
    for (auto &x : p1_) ensure_bits(x, bits);
    for (auto &x : p2_) ensure_bits(x, bits);
}

void RealQuatOps::ensure(RealQuat &q) const {
    for (auto &x : q) ensure_bits(x, bits_);
}

void RealQuatOps::set(RealQuat &q, const double v[4]) const {
    ensure(q);
    for (int i = 0; i < 4; i++) mpfr_set_d(mp(q[i]), v[i], MPFR_RNDN);
}

void RealQuatOps::copy(RealQuat &out, const RealQuat &q) const {
    ensure(out);
    for (int i = 0; i < 4; i++) mpfr_set(mp(out[i]), mp(q[i]), MPFR_RNDN);
}

void RealQuatOps::normalize(RealQuat &q) {
    mpfr_sqr(mp(tmp_), mp(q[0]), MPFR_RNDN);
    for (int i = 1; i < 4; i++) {
        mpfr_sqr(mp(tmp2_), mp(q[i]), MPFR_RNDN);
        mpfr_add(mp(tmp_), mp(tmp_), mp(tmp2_), MPFR_RNDN);
    }
    if (mpfr_zero_p(mp(tmp_))) throw InputError("reference: a quaternion of zero norm has no direction");
    mpfr_sqrt(mp(tmp_), mp(tmp_), MPFR_RNDN);
    for (auto &x : q) mpfr_div(mp(x), mp(x), mp(tmp_), MPFR_RNDN);
}

namespace {
// Hamilton product with optional conjugation of either factor: out = (ca ? conj(a) : a)(cb ? conj(b) : b).
void product(RealQuat &out, const RealQuat &a, const RealQuat &b, bool ca, bool cb, Real &t) {
    // Signs of the imaginary parts after conjugation.
    const int sa = ca ? -1 : 1, sb = cb ? -1 : 1;
    // (w1, v1)(w2, v2) = (w1 w2 - v1.v2, w1 v2 + w2 v1 + v1 x v2)
    auto term = [&](Real &acc, const Real &x, const Real &y, int sign, bool first) {
        mpfr_mul(mp(t), mp(x), mp(y), MPFR_RNDN);
        if (sign < 0) mpfr_neg(mp(t), mp(t), MPFR_RNDN);
        if (first) mpfr_set(mp(acc), mp(t), MPFR_RNDN);
        else mpfr_add(mp(acc), mp(acc), mp(t), MPFR_RNDN);
    };
    // w
    term(out[0], a[0], b[0], 1, true);
    for (int i = 1; i < 4; i++) term(out[0], a[i], b[i], -sa * sb, false);
    // vector part: index triples (i, j, k) cyclic
    for (int i = 1; i < 4; i++) {
        int j = i % 3 + 1, k = j % 3 + 1;
        term(out[i], a[0], b[i], sb, true);
        term(out[i], b[0], a[i], sa, false);
        term(out[i], a[j], b[k], sa * sb, false);
        term(out[i], a[k], b[j], -sa * sb, false);
    }
}
}  // namespace

void RealQuatOps::mul(RealQuat &out, const RealQuat &a, const RealQuat &b) { product(out, a, b, false, false, tmp_); }
void RealQuatOps::conj_mul(RealQuat &out, const RealQuat &a, const RealQuat &b) {
    product(out, a, b, true, false, tmp_);
}
void RealQuatOps::mul_conj(RealQuat &out, const RealQuat &a, const RealQuat &b) {
    product(out, a, b, false, true, tmp_);
}

void RealQuatOps::log_unit(RealQuat &out, const RealQuat &u) {
    mpfr_sqr(mp(vn_), mp(u[1]), MPFR_RNDN);
    for (int i = 2; i < 4; i++) {
        mpfr_sqr(mp(tmp_), mp(u[i]), MPFR_RNDN);
        mpfr_add(mp(vn_), mp(vn_), mp(tmp_), MPFR_RNDN);
    }
    mpfr_sqrt(mp(vn_), mp(vn_), MPFR_RNDN);
    mpfr_set_ui(mp(out[0]), 0, MPFR_RNDN);
    if (mpfr_zero_p(mp(vn_))) {
        if (mpfr_sgn(mp(u[0])) < 0) throw std::domain_error("log of -1: a half turn on the 3-sphere has no axis");
        for (int i = 1; i < 4; i++) mpfr_set_ui(mp(out[i]), 0, MPFR_RNDN);
        return;
    }
    mpfr_atan2(mp(th_), mp(vn_), mp(u[0]), MPFR_RNDN);
    mpfr_div(mp(th_), mp(th_), mp(vn_), MPFR_RNDN);
    for (int i = 1; i < 4; i++) mpfr_mul(mp(out[i]), mp(u[i]), mp(th_), MPFR_RNDN);
}

void RealQuatOps::exp_pure(RealQuat &out, const RealQuat &v) {
    mpfr_sqr(mp(vn_), mp(v[1]), MPFR_RNDN);
    for (int i = 2; i < 4; i++) {
        mpfr_sqr(mp(tmp_), mp(v[i]), MPFR_RNDN);
        mpfr_add(mp(vn_), mp(vn_), mp(tmp_), MPFR_RNDN);
    }
    mpfr_sqrt(mp(vn_), mp(vn_), MPFR_RNDN);
    if (mpfr_zero_p(mp(vn_))) {
        mpfr_set_ui(mp(out[0]), 1, MPFR_RNDN);
        for (int i = 1; i < 4; i++) mpfr_set_ui(mp(out[i]), 0, MPFR_RNDN);
        return;
    }
    mpfr_sin_cos(mp(s_), mp(c_), mp(vn_), MPFR_RNDN);
    mpfr_set(mp(out[0]), mp(c_), MPFR_RNDN);
    mpfr_div(mp(s_), mp(s_), mp(vn_), MPFR_RNDN);
    for (int i = 1; i < 4; i++) mpfr_mul(mp(out[i]), mp(v[i]), mp(s_), MPFR_RNDN);
}

void RealQuatOps::slerp_noflip(RealQuat &out, const RealQuat &a, const RealQuat &b, const Real &t) {
    conj_mul(qa_, a, b);
    log_unit(qb_, qa_);
    for (int i = 1; i < 4; i++) mpfr_mul(mp(qb_[i]), mp(qb_[i]), mp(t), MPFR_RNDN);
    exp_pure(qa_, qb_);
    mul(out, a, qa_);
}

double RealQuatOps::rotation_angle(const RealQuat &a, const RealQuat &b) {
    mpfr_mul(mp(tmp_), mp(a[0]), mp(b[0]), MPFR_RNDN);
    for (int i = 1; i < 4; i++) {
        mpfr_mul(mp(tmp2_), mp(a[i]), mp(b[i]), MPFR_RNDN);
        mpfr_add(mp(tmp_), mp(tmp_), mp(tmp2_), MPFR_RNDN);
    }
    const bool neg = mpfr_sgn(mp(tmp_)) < 0;
    mpfr_set_ui(mp(c_), 0, MPFR_RNDN);  // |a - s b|^2
    mpfr_set_ui(mp(s_), 0, MPFR_RNDN);  // |a + s b|^2
    for (int i = 0; i < 4; i++) {
        if (neg) mpfr_add(mp(tmp_), mp(a[i]), mp(b[i]), MPFR_RNDN);
        else mpfr_sub(mp(tmp_), mp(a[i]), mp(b[i]), MPFR_RNDN);
        mpfr_sqr(mp(tmp_), mp(tmp_), MPFR_RNDN);
        mpfr_add(mp(c_), mp(c_), mp(tmp_), MPFR_RNDN);
        if (neg) mpfr_sub(mp(tmp_), mp(a[i]), mp(b[i]), MPFR_RNDN);
        else mpfr_add(mp(tmp_), mp(a[i]), mp(b[i]), MPFR_RNDN);
        mpfr_sqr(mp(tmp_), mp(tmp_), MPFR_RNDN);
        mpfr_add(mp(s_), mp(s_), mp(tmp_), MPFR_RNDN);
    }
    mpfr_sqrt(mp(c_), mp(c_), MPFR_RNDN);
    mpfr_sqrt(mp(s_), mp(s_), MPFR_RNDN);
    mpfr_atan2(mp(th_), mp(c_), mp(s_), MPFR_RNDN);
    mpfr_mul_2ui(mp(th_), mp(th_), 2, MPFR_RNDN);
    return to_double(th_);
}

void RealQuatOps::angular_velocity(RealVec3 &omega, const RealQuat &q0, const RealQuat &q1, const RealQuat &q2,
                                   double h, int direction) {
    // phi(k h) = 2 log(q_k q0^-1), on the short arc (q and -q are one rotation).
    auto phi = [&](RealVec3 &out, const RealQuat &q) {
        mul_conj(qa_, q, q0);
        if (mpfr_sgn(mp(qa_[0])) < 0)
            for (auto &x : qa_) mpfr_neg(mp(x), mp(x), MPFR_RNDN);
        log_unit(qb_, qa_);
        for (int i = 0; i < 3; i++) mpfr_mul_2ui(mp(out[i]), mp(qb_[i + 1]), 1, MPFR_RNDN);
    };
    phi(p1_, q1);
    phi(p2_, q2);
    for (int i = 0; i < 3; i++) {
        ensure_bits(omega[i], bits_);
        mpfr_mul_ui(mp(omega[i]), mp(p1_[i]), 4, MPFR_RNDN);
        mpfr_sub(mp(omega[i]), mp(omega[i]), mp(p2_[i]), MPFR_RNDN);
        mpfr_div_d(mp(omega[i]), mp(omega[i]), 2 * h * direction, MPFR_RNDN);
    }
}

double RealQuatOps::norm3(const RealVec3 &v) {
    mpfr_set_ui(mp(tmp_), 0, MPFR_RNDN);
    for (const auto &x : v) {
        mpfr_sqr(mp(tmp2_), mp(x), MPFR_RNDN);
        mpfr_add(mp(tmp_), mp(tmp_), mp(tmp2_), MPFR_RNDN);
    }
    mpfr_sqrt(mp(tmp_), mp(tmp_), MPFR_RNDN);
    return to_double(tmp_);
}

double RealQuatOps::relative_jump(const RealVec3 &a, const RealVec3 &b) {
    static thread_local RealVec3 zero;
    for (auto &x : zero) ensure_bits(x, 64), mpfr_set_ui(mp(x), 0, MPFR_RNDN);
    return relative_jump(a, b, zero, zero);
}

double RealQuatOps::relative_jump(const RealVec3 &a, const RealVec3 &b, const RealVec3 &ra, const RealVec3 &rb) {
    mpfr_set_ui(mp(c_), 0, MPFR_RNDN);
    for (int i = 0; i < 3; i++) {
        mpfr_sub(mp(tmp2_), mp(a[i]), mp(b[i]), MPFR_RNDN);
        mpfr_sub(mp(tmp2_), mp(tmp2_), mp(ra[i]), MPFR_RNDN);
        mpfr_add(mp(tmp2_), mp(tmp2_), mp(rb[i]), MPFR_RNDN);
        mpfr_sqr(mp(tmp2_), mp(tmp2_), MPFR_RNDN);
        mpfr_add(mp(c_), mp(c_), mp(tmp2_), MPFR_RNDN);
    }
    mpfr_sqrt(mp(c_), mp(c_), MPFR_RNDN);
    const double diff = to_double(c_);
    const double mean = (norm3(a) + norm3(b)) / 2;
    if (mean == 0) return diff == 0 ? 0 : std::numeric_limits<double>::infinity();
    return diff / mean;
}

}  // namespace qc
