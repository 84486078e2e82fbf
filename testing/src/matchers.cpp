// quatcheck::testing, include/quatcheck/gtest.h: the matchers' verdicts and the text GoogleTest prints. The
// explanation follows LLVM libc's MPFR matcher (libc/utils/MPFRWrapper): the inputs, the expected and the
// actual value, each as hexfloats and in decimal, then the errors, here in ulp1 and radians, and the region.
#include "quatcheck/gtest.h"

#include "testing_internal.h"

#include "reference/rounded.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace qc::detail {

std::string hex(double x) { return fmt::format("{:a}", x); }

std::string dec(double x, bool f32) { return f32 ? fmt::format("{:.9g}", x) : fmt::format("{:.17g}", x); }

std::string hex_quat(const double q[4]) {
    return fmt::format("({}, {}, {}, {})", hex(q[0]), hex(q[1]), hex(q[2]), hex(q[3]));
}

std::string dec_quat(const double q[4], bool f32) {
    return fmt::format("({}, {}, {}, {})", dec(q[0], f32), dec(q[1], f32), dec(q[2], f32), dec(q[3], f32));
}

std::string region_list(bool f32, const double q0[4], const double q1[4], double t) {
    const unsigned bits = regions_of(f32, q0, q1, t);
    std::string s;
    for (Region r : {Region::near_0, Region::near_half_pi, Region::near_pi, Region::threshold})
        if ((bits >> unsigned(r)) & 1u) s += (s.empty() ? "" : ", ") + std::string(qc::detail::region_name(r));
    if (s.empty()) s = (bits >> unsigned(Region::uniform)) & 1u ? "uniform" : "none (t outside [0, 1])";
    return s;
}

namespace {

const char *op_name(MatchKind k) { return k == MatchKind::slerp ? "slerp" : k == MatchKind::nlerp ? "nlerp" : "unit"; }

std::string limits_text(const MatchSpec &s) {
    std::string t;
    auto add = [&](std::string x) { t += (t.empty() ? "" : " and ") + x; };
    if (s.ulp1_tol >= 0) add(fmt::format("{} ulp1", s.ulp1_tol));
    if (s.angle_tol >= 0) add(fmt::format("{} rad", s.angle_tol));
    if (s.norm_tol >= 0) add(fmt::format("{} ulp of 1 in norm", s.norm_tol));
    if (s.correctly_rounded) add("correctly rounded (0 ulp)");
    return t;
}

// The case block: inputs, region, expected, actual, errors.
std::string case_text(const MatchSpec &s, const IdealData &ideal, const double got[4], const ErrorData &e) {
    const bool f = s.f32;
    const char *fmt_name = f ? "float" : "double";
    std::string o;
    o += fmt::format("\n  q0        {}\n            {}", hex_quat(s.q0), dec_quat(s.q0, f));
    o += fmt::format("\n  q1        {}\n            {}", hex_quat(s.q1), dec_quat(s.q1, f));
    o += fmt::format("\n  t         {} = {}", hex(s.t), dec(s.t, f));
    o += fmt::format("\n  region    {} (arc W = {:.3g} rad on the sphere, a.b = {})", region_list(f, s.q0, s.q1, s.t),
                     ideal.arc, dec(ideal.dot, false));
    o += fmt::format("\n  expected  {}\n            {}  (ideal {} rounded to {})", hex_quat(ideal.value),
                     dec_quat(ideal.value, f), op_name(s.kind), fmt_name);
    o += fmt::format("\n  actual    {}\n            {}", hex_quat(got), dec_quat(got, f));
    o += fmt::format("\n  error     {:.3g} ulp1, {:.3g} rad, norm off by {:.3g} ulp1{}", e.ulp1, e.angle_rad,
                     e.norm_ulp1, e.other_arc ? " (measured against the other arc: the case is in the tie band)" : "");
    return o;
}

}  // namespace

std::string describe(const MatchSpec &s, bool negation) {
    const std::string lim = limits_text(s);
    if (s.kind == MatchKind::unit)
        return fmt::format("{} a unit quaternion within {}", negation ? "isn't" : "is",
                           lim.empty() ? "(no tolerance)" : lim);
    return fmt::format("{} within {} of the ideal {}(q0, q1, t) (quatcheck's reference)", negation ? "isn't" : "is",
                       lim.empty() ? "(no tolerance)" : lim, op_name(s.kind));
}

bool match(const MatchSpec &s, const double got[4], std::string *why) {
    if (s.ulp1_tol < 0 && s.angle_tol < 0 && s.norm_tol < 0 && !s.correctly_rounded) {
        *why =
            "which cannot be judged: no tolerance was given (chain .WithinUlp1(n), .WithinAngle(rad), .WithinUlp(n) "
            "or .CorrectlyRounded())";
        return false;
    }
    if (s.correctly_rounded && s.kind != MatchKind::slerp) {
        *why = "which cannot be judged: .CorrectlyRounded() applies to IsSlerpOf only";
        return false;
    }
    IdealData id{};
    if (s.kind == MatchKind::unit) {
        for (int i = 0; i < 4; i++) id.value[i] = id.hi[i] = id.other_hi[i] = i == 0;
    } else {
        ideal(s.kind == MatchKind::nlerp ? OpKind::nlerp : OpKind::slerp, s.f32, s.q0, s.q1, s.t, id);
    }
    ErrorData e;
    measure(s.f32, got, id, e);
    bool ok = !e.nonfinite;
    if (s.ulp1_tol >= 0) ok = ok && e.ulp1 <= s.ulp1_tol;
    if (s.angle_tol >= 0) ok = ok && e.angle_rad <= s.angle_tol;
    if (s.norm_tol >= 0) ok = ok && e.norm_ulp1 <= s.norm_tol;
    // Correctly rounded: against reference/rounded.h (MPFR, independent of the fast reference behind `ideal`).
    double rn[4] = {0, 0, 0, 0}, steps = 0;
    bool rn_known = false;
    if (s.correctly_rounded) {
        const Precision p = s.f32 ? Precision::f32 : Precision::f64;
        rn_known = s.t >= 0 && s.t <= 1 && steps_from_rounded_slerp(p, s.q0, s.q1, s.t, got, rn, steps);
        ok = ok && rn_known && steps == 0;
    }
    if (s.kind == MatchKind::unit) {
        *why = fmt::format("whose norm is off 1 by {:.3g} ulp1 (limit {})\n  actual    {}\n            {}", e.norm_ulp1,
                           limits_text(s), hex_quat(got), dec_quat(got, s.f32));
        return ok;
    }
    if (e.nonfinite) *why = fmt::format("which is not finite (limit {})", limits_text(s));
    else
        *why = fmt::format("which is {:.3g} ulp1 and {:.3g} rad from the ideal {} (limit {})", e.ulp1, e.angle_rad,
                           op_name(s.kind), limits_text(s));
    if (s.correctly_rounded) {
        if (!rn_known)
            *why += "; its correct rounding is not decided here (t outside [0, 1], or 2048 bits do not decide it)";
        else
            *why += fmt::format("; {:.17g} ulp from the correctly rounded slerp {} ({})", steps, hex_quat(rn),
                                dec_quat(rn, s.f32));
    }
    if (!ok) *why += case_text(s, id, got, e);
    return ok;
}

}  // namespace qc::detail
