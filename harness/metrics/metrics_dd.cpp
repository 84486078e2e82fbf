// The fast metric engine (ReferenceMode::fast): the definitions of docs/metrics.md evaluated in double-double
// arithmetic and error-free transformations (reference/dd.h) on the reference's double-double values, the
// final square roots, atan2 and divisions in double. No MPFR, no allocation. The structure follows the mpfr
// engine (metrics.cpp) step by step, except that R is scaled by |r| instead of r being divided by it (the same
// angle, without a division); the error analysis of every step, and the resulting bounds against the mpfr
// engine, are in metrics.h (FastMetricBounds).
#include "metrics/metrics_dd_internal.h"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>

// std::fma is one instruction only where the compiler may assume FMA hardware. CMakeLists.txt compiles this
// file with -mfma where the build machine has FMA; otherwise (baseline x86-64, where every std::fma of dd.h
// would be a call into libm) the entry points below are compiled twice, for baseline and for FMA hardware,
// and the loader picks one (GCC/Clang target_clones). Every variant computes the same values: fma is
// correctly rounded either way, and -ffp-contract=off keeps the compiler from fusing anything else.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__)
#define QC_FMA_CLONES __attribute__((target_clones("default", "fma")))
#else
#define QC_FMA_CLONES
#endif

namespace qc {

using dd::DD;

namespace metrics_detail {

// Every metric of docs/metrics.md in double-double against the given double-double reference.
QC_FMA_CLONES CaseMetrics measure_dd(const double out[4], const DDQuat &R, const DDQuat &N, const DDQuat &R_other,
                                     const DDQuat &N_other, bool in_tie_band, Op op, Precision precision,
                                     bool angle_only) {
    CaseMetrics m;
    for (int i = 0; i < 4; i++)
        if (!std::isfinite(out[i])) {
            m.nonfinite = true;
            return m;
        }
    const int p = precision_bits(precision);
    const int emin = precision == Precision::f32 ? Format<float>::emin : Format<double>::emin;
    const double eps = precision_eps(precision);

    Scaled d;
    if (!scale_output(out, d)) return zero_output_metrics(p, eps);
    const DDQuat *target = &R, *target_nlerp = &N;
    int s = 1;
    m.angle_err_rad = angle_dd(d, R, s);
    if (in_tie_band) {
        int s_other = 1;
        const double other = angle_dd(d, R_other, s_other);
        if (other < m.angle_err_rad) {
            m.branch_disagree = true;
            m.angle_err_rad = other;
            s = s_other;
            target = &R_other;
            target_nlerp = &N_other;
        }
    }
    if (angle_only) return m;
    m.norm_err_ulp1 = norm_error(d.n, d.k, eps);
    if (op == Op::nlerp) {
        int s_nlerp = 1;
        m.angle_err_vs_nlerp_rad = angle_dd(d, *target_nlerp, s_nlerp);
    }

    // Component errors against s R: r_i is exact, so s R_i - r_i is one DW+FP.
    double max_ulp = 0, max_abs = 0;
    for (int i = 0; i < 4; i++) {
        const DD x = s > 0 ? (*target)[i] : dd::neg((*target)[i]);
        max_ulp = std::max(max_ulp, ulp_distance_dd(x, out[i], p, emin));
        max_abs = std::max(max_abs, std::fabs(dd::to_double(dd::add(x, -out[i]))));
    }
    m.ulp = max_ulp;
    m.ulp1 = max_abs / eps;
    return m;
}

}  // namespace metrics_detail

using namespace metrics_detail;

namespace {

// q with the low word of every component dropped (the negative control's damage).
DDQuat high_words(const DDQuat &q) {
    DDQuat h;
    for (int i = 0; i < 4; i++) h[i] = {q[i].hi, 0};
    return h;
}

}  // namespace

QC_FMA_CLONES double atan2_chords_fast(double y, double x) { return atan2_chords(y, x); }

QC_FMA_CLONES double ulp_distance(DD x, double y, int p, int emin) { return ulp_distance_dd(x, y, p, emin); }

bool within_fast_bound(double fast, double mpfr, double rel, double abs) {
    if (std::isnan(fast) || std::isnan(mpfr)) return std::isnan(fast) && std::isnan(mpfr);
    if (std::isinf(fast) || std::isinf(mpfr)) {
        // Both overflowed alike, or the finite one is within rel of the overflow threshold.
        const double finite = std::isinf(fast) ? mpfr : fast, inf = std::isinf(fast) ? fast : mpfr;
        if (std::isinf(finite)) return finite == inf;
        return std::signbit(finite) == std::signbit(inf) && std::fabs(finite) >= DBL_MAX * (1 - rel);
    }
    return std::fabs(fast - mpfr) <= std::max(rel * std::fabs(mpfr), abs);
}

double fast_ulp_reference_slack(const DDQuat &target, int p, int emin) {
    double slack = 0;
    for (const DD &c : target) {
        const double a = std::fabs(c.hi);
        if (!(a < 0x1p-969)) continue;  // the low word is normal: rounding <= 2^-105 |R_i|, in the constants
        const int e = a == 0 ? emin : std::max(std::ilogb(a), emin);    // hi = 0: |R_i| <= 2^-1075
        slack = std::max(slack, std::ldexp(1.0, -1075 - (e - p + 1)));  // 2^-1075 / ulp(R_i)
    }
    return slack;
}

namespace {
std::atomic<bool> g_force_scalar{false};  // set_metric_force_scalar (the CLI: QC_FORCE_SCALAR=1)
}  // namespace

bool metric_avx2_supported() { return avx2_kernel_supported(); }
void set_metric_force_scalar(bool scalar) { g_force_scalar.store(scalar); }
bool metric_force_scalar() { return g_force_scalar.load(); }
MetricKernel default_metric_kernel() {
    return avx2_kernel_supported() && !g_force_scalar.load() ? MetricKernel::avx2 : MetricKernel::scalar;
}
void MetricEngine::set_kernel(MetricKernel k) {
    kernel_ = k == MetricKernel::avx2 && avx2_kernel_supported() ? k : MetricKernel::scalar;
}
bool metric_avx512_supported() { return avx512_kernel_supported(); }
void MetricEngine::set_batch(MetricBatch b) {
    batch_ = b == MetricBatch::eight_lanes && !avx512_kernel_supported() ? MetricBatch::four_lanes : b;
}
int metric_batch_lane(MetricBatch b, size_t j, size_t n) {
    if (b == MetricBatch::eight_lanes) {
        const size_t end = eight_lane_batch_end(n);  // after it, the four-output kernel
        if (j < end) return int(j % 8);
        return metric_batch_lane(MetricBatch::four_lanes, j - end, n - end);
    }
    if (b == MetricBatch::four_lanes) return j < n / 4 * 4 ? int(j % 4) : -1;
    return -1;
}

CaseMetrics MetricEngine::measure_fast(const double out[4], const SlerpReference &ref, Op op, bool angle_only) {
    if (damage_ == MetricDamage::drop_reference_low_word)
        return measure_dd(out, high_words(ref.R), high_words(ref.N), high_words(ref.R_other), high_words(ref.N_other),
                          ref.in_tie_band, op, precision_, angle_only);
    if (kernel_ == MetricKernel::avx2)
        return measure_dd_avx2(out, ref.R, ref.N, ref.R_other, ref.N_other, ref.in_tie_band, op, precision_, angle_only,
                               damage_);
    return measure_dd(out, ref.R, ref.N, ref.R_other, ref.N_other, ref.in_tie_band, op, precision_, angle_only);
}

namespace {
QC_FMA_CLONES double rotation_angle_dd(const double u[4], const DDQuat &unit_v) {
    for (int i = 0; i < 4; i++)
        if (!std::isfinite(u[i])) return NAN;
    Scaled d;
    if (!scale_output(u, d)) return NAN;  // no direction (the mpfr engine divides 0 by 0)
    int s = 1;
    return angle_dd(d, unit_v, s);
}
}  // namespace

double MetricEngine::rotation_angle_fast(const double u[4], const DDQuat &unit_v) const {
    return rotation_angle_dd(u, unit_v);
}

}  // namespace qc
