// Per-case error metrics (README "Metrics"). Pure functions of an implementation's output and the
// reference; computed in high precision. r = output, R = reference, eps = 2^(1-p).
//
//   angle_err_rad  3-D rotation angle between r/|r| and R:  4 atan2(|r^ - sR|, |r^ + sR|), s = sign(r^.R)
//   ulp            max_i |r_i - sR_i| in units in the last place of sR_i in the output's format
//                  (binade of the exact value, subnormal floor, split at a power of two when the
//                  error interval crosses one, rounded up)
//   ulp1           max_i |r_i - sR_i| / eps  (units of the spacing at 1)
//   norm_err_ulp1  | |r| - 1 | / eps
//   nonfinite      any component NaN or inf; such a case has no other metric
//   branch_disagree  the case is in the tie band (|a.b| <= 4 eps) and r is nearer the other arc's
//                  reference, against which it is then measured
//   angle_err_vs_nlerp_rad  (nlerp op only) angle error against the exact normalised lerp
#pragma once

#include "quatcheck/types.h"
#include "reference/reference.h"

#include <cmath>
#include <limits>

namespace qc {

struct CaseMetrics {
    double angle_err_rad = 0;
    double ulp = 0;
    double ulp1 = 0;
    double norm_err_ulp1 = 0;
    double angle_err_vs_nlerp_rad = std::numeric_limits<double>::quiet_NaN();
    bool nonfinite = false;
    bool branch_disagree = false;
};

// Distance in ulps between the exact value x and the representable value y of a format with p
// significand bits and minimum normal exponent emin, rounded up. Zero and subnormals use the subnormal
// spacing 2^(emin-p+1); a distance that crosses a power of two is split at it.
double ulp_distance(const Real &x, double y, int p, int emin);

class MetricEngine {
public:
    explicit MetricEngine(Precision precision);

    CaseMetrics measure(const float out[4], const SlerpReference &ref, Op op);
    CaseMetrics measure(const double out[4], const SlerpReference &ref, Op op);

    // Rotation angle (radians, in [0, pi]) between two unit quaternions given exactly, e.g. to measure
    // an output against a reference of another driver. u need not be unit: it is normalised first.
    double rotation_angle(const double u[4], const RealQuat &unit_v);

private:
    CaseMetrics measure_exact(const double out[4], const SlerpReference &ref, Op op);
    // Angle between r^ (already normalised into rhat_) and the unit quaternion v; sets sign_.
    double angle_to(const RealQuat &v);

    Precision precision_;
    int bits_;
    Real rhat_[4], norm_, tmp_, u_, v_;
    int sign_ = 1;
};

}  // namespace qc
