// quatcheck::testing, include/quatcheck/reference.h: the reference and the metrics of the harness behind a
// C++17 surface. Each call builds its own engines (harness/metrics/comparison.h) in the tool's default mode
// (fast: the certified double-double path, MPFR where its bound cannot decide), so there is no state shared
// between calls or threads.
#include "quatcheck/reference.h"

#include "metrics/comparison.h"
#include "regions/regions.h"
#include "testing_internal.h"

#include <mpfr.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace qc::detail {

namespace {

// hi + lo rounded to float, to nearest (one rounding: the exact sum in MPFR, then mpfr_get_flt).
double nearest_float(dd::DD x) {
    Real s;
    ensure_bits(s, 2 * 53 + 1100);  // wide enough for hi + lo exactly, whatever their exponents
    mpfr_set_d(mp(s), x.hi, MPFR_RNDN);
    mpfr_add_d(mp(s), mp(s), x.lo, MPFR_RNDN);
    return double(mpfr_get_flt(mp(s), MPFR_RNDN));
}

void check_input(const char *what, const double q[4]) {
    bool zero = true;
    for (int i = 0; i < 4; i++) {
        if (!std::isfinite(q[i]))
            throw std::invalid_argument(std::string("quatcheck: reference: ") + what +
                                        " has a component that is not finite");
        zero = zero && q[i] == 0;
    }
    if (zero) throw std::invalid_argument(std::string("quatcheck: reference: ") + what + " is zero (no direction)");
}

void store(const DDQuat &q, double hi[4], double lo[4]) {
    for (size_t i = 0; i < 4; i++) hi[i] = q[i].hi, lo[i] = q[i].lo;
}

DDQuat load(const double hi[4], const double lo[4]) {
    DDQuat q;
    for (size_t i = 0; i < 4; i++) q[i] = {hi[i], lo[i]};
    return q;
}

}  // namespace

void evaluate_reference(bool f32, const double q0[4], const double q1[4], double t, SlerpReference &out) {
    check_input("q0", q0);
    check_input("q1", q1);
    if (!std::isfinite(t)) throw std::invalid_argument("quatcheck: reference: t is not finite");
    ReferenceEngine engine(f32 ? Precision::f32 : Precision::f64, kDefaultReferenceMode);
    try {
        engine.slerp_exact(q0, q1, t, out, false);  // certified, or the MPFR path (validated when ill-conditioned)
    } catch (const InputError &e) { throw std::invalid_argument(std::string("quatcheck: ") + e.what()); }
}

void ideal(OpKind op, bool f32, const double q0[4], const double q1[4], double t, IdealData &out) {
    SlerpReference ref;
    evaluate_reference(f32, q0, q1, t, ref);
    const bool nl = op == OpKind::nlerp;
    store(nl ? ref.N : ref.R, out.hi, out.lo);
    if (ref.in_tie_band) store(nl ? ref.N_other : ref.R_other, out.other_hi, out.other_lo);
    else store(nl ? ref.N : ref.R, out.other_hi, out.other_lo);
    for (size_t i = 0; i < 4; i++) {
        const dd::DD x{out.hi[i], out.lo[i]};
        out.value[i] = f32 ? nearest_float(x) : x.hi;  // a normalised double-double's hi is its nearest double
    }
    out.in_tie_band = ref.in_tie_band;
    out.arc = ref.arc_w;
    out.dot = ref.dot;
}

void measure(bool f32, const double got[4], const IdealData &ideal, ErrorData &out) {
    const Precision p = f32 ? Precision::f32 : Precision::f64;
    // The ideal as the metric engine reads a reference: R (and the other arc in the tie band). Op slerp
    // measures against R whatever the op was (an nlerp ideal is N, placed in R).
    SlerpReference ref;
    ref.R = load(ideal.hi, ideal.lo);
    ref.N = ref.R;
    ref.in_tie_band = ideal.in_tie_band;
    if (ideal.in_tie_band) ref.R_other = ref.N_other = load(ideal.other_hi, ideal.other_lo);
    ref.arc_w = ideal.arc;
    ref.dot = ideal.dot;
    MetricEngine engine(p, kDefaultReferenceMode);
    CaseMetrics m = f32 ? [&] {
        float g[4];
        for (int i = 0; i < 4; i++) g[i] = float(got[i]);
        return engine.measure(g, ref, Op::slerp);
    }()
                        : engine.measure(got, ref, Op::slerp);
    out.nonfinite = m.nonfinite;
    out.other_arc = m.branch_disagree;
    const double inf = std::numeric_limits<double>::infinity();
    out.ulp1 = m.nonfinite ? inf : m.ulp1;
    out.angle_rad = m.nonfinite ? inf : m.angle_err_rad;
    out.norm_ulp1 = m.nonfinite ? inf : m.norm_err_ulp1;
    out.ulp = m.nonfinite ? inf : m.ulp;
}

const char *region_name(Region r) { return to_string(r); }

unsigned regions_of(bool f32, const double q0[4], const double q1[4], double t) {
    unsigned bits = 0;
    for (Region r : all_regions()) {
        bool in = false;
        if (f32) {
            SlerpCase<float> c;
            for (size_t i = 0; i < 4; i++) c.q0[i] = float(q0[i]), c.q1[i] = float(q1[i]);
            c.t = float(t);
            in = in_region(r, c);
        } else {
            SlerpCase<double> c;
            for (size_t i = 0; i < 4; i++) c.q0[i] = q0[i], c.q1[i] = q1[i];
            c.t = t;
            in = in_region(r, c);
        }
        if (in) bits |= 1u << unsigned(r);
    }
    return bits;
}

}  // namespace qc::detail
