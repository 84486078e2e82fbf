#include "metrics/metrics.h"
#include "metrics/metrics_dd_internal.h"

#include <algorithm>
#include <cmath>

namespace qc {

namespace {
// N(z): the number of representable magnitudes between 0 and |z|, extended linearly inside each binade,
// signed like z. The ulp distance between x and y is |N(x) - N(y)|.
void ulp_index(Real &out, const Real &z, int p, int emin, Real &tmp) {
    if (mpfr_zero_p(mp(z))) {
        mpfr_set_ui(mp(out), 0, MPFR_RNDN);
        return;
    }
    mpfr_abs(mp(tmp), mp(z), MPFR_RNDN);
    long e = mpfr_get_exp(mp(tmp)) - 1;  // 2^e <= |z| < 2^(e+1)
    if (e < emin) {
        mpfr_mul_2si(mp(out), mp(tmp), p - 1 - emin, MPFR_RNDN);  // |z| / 2^(emin-p+1)
    } else {
        // (e - emin + 1) 2^(p-1) + (|z| - 2^e) / 2^(e-p+1)
        mpfr_mul_2si(mp(out), mp(tmp), p - 1 - e, MPFR_RNDN);      // |z| / 2^(e-p+1), in [2^(p-1), 2^p)
        mpfr_sub_ui(mp(out), mp(out), 1ul << (p - 1), MPFR_RNDN);  // minus the binade's start
        mpfr_set_si(mp(tmp), e - emin + 1, MPFR_RNDN);
        mpfr_mul_2si(mp(tmp), mp(tmp), p - 1, MPFR_RNDN);
        mpfr_add(mp(out), mp(out), mp(tmp), MPFR_RNDN);
    }
    if (mpfr_sgn(mp(z)) < 0) mpfr_neg(mp(out), mp(out), MPFR_RNDN);
}
}  // namespace

double ulp_distance(const Real &x, double y, int p, int emin) {
    // N reaches 2^(p-1) times ~2100 binades < 2^64; 192 bits leave more than 120 bits of ulp fraction.
    thread_local Real nx, ny, yy, tmp;
    for (Real *r : {&nx, &ny, &yy, &tmp}) ensure_bits(*r, 192);
    mpfr_set_d(mp(yy), y, MPFR_RNDN);
    ulp_index(nx, x, p, emin, tmp);
    ulp_index(ny, yy, p, emin, tmp);
    mpfr_sub(mp(nx), mp(nx), mp(ny), MPFR_RNDU);
    mpfr_abs(mp(nx), mp(nx), MPFR_RNDU);
    return to_double_up(nx);
}

MetricEngine::MetricEngine(Precision precision, ReferenceMode mode)
    : precision_(precision),
      mode_(mode),
      bits_(2 * precision_bits(precision) + 96),
      kernel_(default_metric_kernel()),
      batch_(metric_avx512_supported() ? MetricBatch::eight_lanes : MetricBatch::four_lanes) {
    free_mpfr_caches_at_thread_exit();
    for (auto &r : rhat_) ensure_bits(r, bits_);
    for (Real *r : {&norm_, &tmp_, &u_, &v_}) ensure_bits(*r, bits_);
}

double MetricEngine::angle_to(const RealQuat &v) {
    // s = sign(r^ . v)
    mpfr_mul(mp(u_), mp(rhat_[0]), mp(v[0]), MPFR_RNDN);
    for (int i = 1; i < 4; i++) {
        mpfr_mul(mp(tmp_), mp(rhat_[i]), mp(v[i]), MPFR_RNDN);
        mpfr_add(mp(u_), mp(u_), mp(tmp_), MPFR_RNDN);
    }
    sign_ = mpfr_sgn(mp(u_)) < 0 ? -1 : 1;
    // |r^ - s v|^2 and |r^ + s v|^2 in high precision: the differences are where the cancellation is.
    mpfr_set_ui(mp(u_), 0, MPFR_RNDN);
    mpfr_set_ui(mp(v_), 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        if (sign_ > 0) mpfr_sub(mp(tmp_), mp(rhat_[i]), mp(v[i]), MPFR_RNDN);
        else mpfr_add(mp(tmp_), mp(rhat_[i]), mp(v[i]), MPFR_RNDN);
        mpfr_sqr(mp(tmp_), mp(tmp_), MPFR_RNDN);
        mpfr_add(mp(u_), mp(u_), mp(tmp_), MPFR_RNDN);
        if (sign_ > 0) mpfr_add(mp(tmp_), mp(rhat_[i]), mp(v[i]), MPFR_RNDN);
        else mpfr_sub(mp(tmp_), mp(rhat_[i]), mp(v[i]), MPFR_RNDN);
        mpfr_sqr(mp(tmp_), mp(tmp_), MPFR_RNDN);
        mpfr_add(mp(v_), mp(v_), mp(tmp_), MPFR_RNDN);
    }
    // Both squared lengths are now accurate to their last bits; what remains (two square roots and an
    // atan2 of well-separated, exactly known magnitudes) is well conditioned, so double precision gives the
    // angle to a relative 1e-15, far inside the 2 % the reports promise. Squared chord lengths below
    // 1e-300 would underflow, but R itself is only accurate to 2^-(2p+32) > 1e-47.
    return 4 * std::atan2(std::sqrt(to_double(u_)), std::sqrt(to_double(v_)));
}

// Angle between u/|u| and the unit quaternion v, in MPFR.
double MetricEngine::rotation_angle(const double u[4], const RealQuat &unit_v) {
    for (int i = 0; i < 4; i++) mpfr_set_d(mp(rhat_[i]), u[i], MPFR_RNDN);
    mpfr_set_ui(mp(norm_), 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        mpfr_sqr(mp(tmp_), mp(rhat_[i]), MPFR_RNDN);
        mpfr_add(mp(norm_), mp(norm_), mp(tmp_), MPFR_RNDN);
    }
    mpfr_sqrt(mp(norm_), mp(norm_), MPFR_RNDN);
    for (auto &r : rhat_) mpfr_div(mp(r), mp(r), mp(norm_), MPFR_RNDN);
    return angle_to(unit_v);
}

// hi + lo exactly: hi and lo are at most ~2100 bits apart; the precision grows (and stays) as needed.
void MetricEngine::set_exact(Real &out, dd::DD x) {
    long need = bits_;
    if (x.lo != 0 && std::isfinite(x.hi) && x.hi != 0)
        need = std::max<long>(need, std::ilogb(x.hi) - std::ilogb(x.lo) + 54);
    if (mpfr_get_prec(mp(out)) < need) mpfr_set_prec(mp(out), need);
    mpfr_set_d(mp(out), x.hi, MPFR_RNDN);
    mpfr_add_d(mp(out), mp(out), x.lo, MPFR_RNDN);
}

// Angle between u/|u| and a double-double unit quaternion: mode fast in double-double (metrics_dd.cpp);
// mode mpfr here, on the exact value.
double MetricEngine::rotation_angle(const double u[4], const DDQuat &unit_v) {
    if (mode_ == ReferenceMode::fast) return rotation_angle_fast(u, unit_v);
    for (int i = 0; i < 4; i++) set_exact(conv_R_[i], unit_v[i]);
    return rotation_angle(u, conv_R_);
}

CaseMetrics MetricEngine::measure(const float out[4], const SlerpReference &ref, Op op) {
    double d[4] = {out[0], out[1], out[2], out[3]};
    return measure(d, ref, op);
}

namespace {
// Angle errors below the resolution the reference guarantees are reported as 0 (docs/metrics.md): every
// component of R is certified to 2^-(p+40), which moves the rotation angle by at most 2^-(p+38); below that
// the computed digits (e.g. 1e-32 for an output exactly parallel to R, whose true error is 0) say nothing.
void floor_angles(CaseMetrics &m, double resolution) {
    if (m.angle_err_rad < resolution) m.angle_err_rad = 0;
    if (m.angle_err_vs_nlerp_rad < resolution) m.angle_err_vs_nlerp_rad = 0;
}
void floor_angles(CaseMetrics &m, Precision p) { floor_angles(m, angle_resolution(p)); }
}  // namespace

double angle_resolution(Precision p) { return p == Precision::f32 ? 0x1p-62 : 0x1p-91; }  // 2^-(p+38), p = 24, 53

CaseMetrics MetricEngine::measure(const double out[4], const SlerpReference &ref, Op op) {
    CaseMetrics m =
        mode_ == ReferenceMode::fast ? measure_fast(out, ref, op, false) : measure_mpfr(out, ref, op, false);
    floor_angles(m, precision_);
    return m;
}

void MetricEngine::measure_batch(const double (*out)[4], const Op *ops, size_t n, const SlerpReference &ref,
                                 CaseMetrics *m) {
    if (mode_ == ReferenceMode::fast && kernel_ == MetricKernel::avx2 &&
        damage_ != MetricDamage::drop_reference_low_word) {
        if (batch_ == MetricBatch::eight_lanes)
            metrics_detail::measure_dd_avx512_outputs_batch(out, ops, n, ref.R, ref.N, ref.R_other, ref.N_other,
                                                            ref.in_tie_band, precision_, false, damage_, m);
        else if (batch_ == MetricBatch::four_lanes)
            metrics_detail::measure_dd_avx2_outputs_batch(out, ops, n, ref.R, ref.N, ref.R_other, ref.N_other,
                                                          ref.in_tie_band, precision_, false, damage_, m);
        else
            metrics_detail::measure_dd_avx2_batch(out, ops, n, ref.R, ref.N, ref.R_other, ref.N_other, ref.in_tie_band,
                                                  precision_, false, damage_, m);
        const double resolution = angle_resolution(precision_);
        for (size_t j = 0; j < n; j++) floor_angles(m[j], resolution);
        return;
    }
    for (size_t j = 0; j < n; j++) m[j] = measure(out[j], ref, ops[j]);
}

CaseMetrics MetricEngine::measure_angle(const float out[4], const SlerpReference &ref) {
    double d[4] = {out[0], out[1], out[2], out[3]};
    return measure_angle(d, ref);
}

CaseMetrics MetricEngine::measure_angle(const double out[4], const SlerpReference &ref) {
    CaseMetrics m = mode_ == ReferenceMode::fast ? measure_fast(out, ref, Op::slerp, true)
                                                 : measure_mpfr(out, ref, Op::slerp, true);
    floor_angles(m, precision_);
    return m;
}

// The metrics in MPFR, against the reference's MPFR values (or its double-double values converted exactly
// when the fast reference decided the case).
CaseMetrics MetricEngine::measure_mpfr(const double out[4], const SlerpReference &ref, Op op, bool angle_only) {
    CaseMetrics m;
    for (int i = 0; i < 4; i++)
        if (!std::isfinite(out[i])) {
            m.nonfinite = true;
            return m;
        }
    const int p = precision_bits(precision_);
    const int emin = precision_ == Precision::f32 ? Format<float>::emin : Format<double>::emin;
    const double eps = precision_eps(precision_);

    // |r| and r^ = r/|r|
    mpfr_set_ui(mp(norm_), 0, MPFR_RNDN);
    for (int i = 0; i < 4; i++) {
        mpfr_set_d(mp(rhat_[i]), out[i], MPFR_RNDN);
        mpfr_sqr(mp(tmp_), mp(rhat_[i]), MPFR_RNDN);
        mpfr_add(mp(norm_), mp(norm_), mp(tmp_), MPFR_RNDN);
    }
    mpfr_sqrt(mp(norm_), mp(norm_), MPFR_RNDN);
    mpfr_sub_ui(mp(tmp_), mp(norm_), 1, MPFR_RNDN);
    m.norm_err_ulp1 = std::fabs(to_double(tmp_)) / eps;
    if (mpfr_zero_p(mp(norm_))) {
        // A zero output has no direction: report the largest possible rotation error.
        m.angle_err_rad = M_PI;
        m.norm_err_ulp1 = 1 / eps;
        m.ulp1 = 1 / eps;
        m.ulp = std::ldexp(1.0, p);
        return m;
    }
    for (auto &r : rhat_) mpfr_div(mp(r), mp(r), mp(norm_), MPFR_RNDN);

    const RealQuat *R = &ref.R_mp, *N = &ref.N_mp, *R_other = &ref.R_other_mp, *N_other = &ref.N_other_mp;
    if (!ref.mpfr_evaluated) {
        for (int i = 0; i < 4; i++) {
            set_exact(conv_R_[i], ref.R[i]);
            set_exact(conv_N_[i], ref.N[i]);
            if (!ref.in_tie_band) continue;
            set_exact(conv_R_other_[i], ref.R_other[i]);
            set_exact(conv_N_other_[i], ref.N_other[i]);
        }
        R = &conv_R_, N = &conv_N_, R_other = &conv_R_other_, N_other = &conv_N_other_;
    }
    const RealQuat *target = R;
    const RealQuat *target_nlerp = N;
    m.angle_err_rad = angle_to(*R);
    int s = sign_;
    if (ref.in_tie_band) {
        double other = angle_to(*R_other);
        if (other < m.angle_err_rad) {
            m.branch_disagree = true;
            m.angle_err_rad = other;
            s = sign_;
            target = R_other;
            target_nlerp = N_other;
        }
    }
    if (angle_only) return m;
    if (op == Op::nlerp) { m.angle_err_vs_nlerp_rad = angle_to(*target_nlerp); }

    // Component errors against s R.
    double max_ulp = 0, max_abs = 0;
    for (int i = 0; i < 4; i++) {
        if (s > 0) mpfr_set(mp(u_), mp((*target)[i]), MPFR_RNDN);
        else mpfr_neg(mp(u_), mp((*target)[i]), MPFR_RNDN);
        max_ulp = std::max(max_ulp, ulp_distance(u_, out[i], p, emin));
        mpfr_sub_d(mp(tmp_), mp(u_), out[i], MPFR_RNDN);
        max_abs = std::max(max_abs, std::fabs(to_double(tmp_)));
    }
    m.ulp = max_ulp;
    m.ulp1 = max_abs / eps;
    return m;
}

}  // namespace qc
