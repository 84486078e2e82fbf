// Quaternion algebra on arbitrary-precision unit quaternions: product, log, exp, slerp without a
// short-arc flip (Shoemake's a (a^-1 b)^t), rotation angle and angular velocity by differences. Shared by
// the squad reference and the velocity curves; every RealQuat passed in must have the engine's precision
// (set(), ensure()). Quaternions are (w, x, y, z).
#pragma once

#include "reference/real.h"

#include <array>

namespace qc {

using RealVec3 = std::array<Real, 3>;

class RealQuatOps {
public:
    explicit RealQuatOps(int bits);
    int bits() const { return bits_; }

    void ensure(RealQuat &q) const;                     // gives q this precision (value discarded)
    void set(RealQuat &q, const double v[4]) const;     // exact copy (bits >= 53)
    void copy(RealQuat &out, const RealQuat &q) const;  // rounds q to this precision
    // q <- q / |q|; throws InputError for a zero quaternion.
    void normalize(RealQuat &q);
    // out <- a b (out must not alias a or b).
    void mul(RealQuat &out, const RealQuat &a, const RealQuat &b);
    // out <- conj(a) b, i.e. a^-1 b for unit a (out must not alias).
    void conj_mul(RealQuat &out, const RealQuat &a, const RealQuat &b);
    // out <- a conj(b), i.e. a b^-1 for unit b (out must not alias).
    void mul_conj(RealQuat &out, const RealQuat &a, const RealQuat &b);
    // Principal log of a unit quaternion u = (cos th, sin th n), th in [0, pi]: out = (0, th n).
    // Throws std::domain_error for u = -1 (th = pi has no axis).
    void log_unit(RealQuat &out, const RealQuat &u);
    // exp of a pure quaternion (0, v): (cos |v|, sin |v| v/|v|). out must not alias v.
    void exp_pure(RealQuat &out, const RealQuat &v);
    // Shoemake's slerp a (a^-1 b)^t = a exp(t log(a^-1 b)) for unit a, b, WITHOUT a short-arc flip:
    // when a.b < 0 the curve takes the long way. out must not alias.
    void slerp_noflip(RealQuat &out, const RealQuat &a, const RealQuat &b, const Real &t);
    // Rotation angle in [0, pi] between unit quaternions: 4 atan2(|a - s b|, |a + s b|), s = sign(a.b).
    double rotation_angle(const RealQuat &a, const RealQuat &b);
    // World-frame angular velocity (rotation vector per unit t) at q0 = q(t0) from q1 = q(t0 + d h),
    // q2 = q(t0 + 2 d h), d = +1 (forward) or -1 (backward): second-order one-sided difference of
    // phi(tau) = 2 log(q(t0 + d tau) q0^-1):  omega = d (4 phi(h) - phi(2h)) / (2h).
    void angular_velocity(RealVec3 &omega, const RealQuat &q0, const RealQuat &q1, const RealQuat &q2, double h,
                          int direction);
    // |a - b| / ((|a| + |b|) / 2): the relative jump between two vectors; 0 when both are 0, inf when
    // only their mean is 0.
    double relative_jump(const RealVec3 &a, const RealVec3 &b);
    // |(a - b) - (ra - rb)| / ((|a| + |b|) / 2): the jump of a, b in excess of the jump ra - rb that the same
    // differences show on a curve known to be C1 (their truncation error).
    double relative_jump(const RealVec3 &a, const RealVec3 &b, const RealVec3 &ra, const RealVec3 &rb);
    double norm3(const RealVec3 &v);

private:
    int bits_;
    Real tmp_, tmp2_, th_, vn_, c_, s_;
    RealQuat qa_, qb_, qc_;
    RealVec3 p1_, p2_;
};

}  // namespace qc
