// quatcheck::testing: GoogleTest matchers against the tool's reference (docs/testing-api.md). C++17.
//
//   EXPECT_THAT(my_slerp(a, b, t), qc::testing::IsSlerpOf(a, b, t).WithinUlp1(4));
//   EXPECT_THAT(my_slerp(a, b, t), qc::testing::IsSlerpOf(a, b, t).WithinAngle(1e-15));   // rotation radians
//   EXPECT_THAT(my_nlerp(a, b, t), qc::testing::IsNlerpOf(a, b, t).WithinUlp1(4));        // the exact nlerp
//   EXPECT_THAT(q, qc::testing::IsUnit().WithinUlp(16));   // | |q| - 1 | <= 16 eps (ulp of 1: eps = ulp1)
//   EXPECT_THAT(my_slerp(a, b, t), qc::testing::IsSlerpOf(a, b, t).CorrectlyRounded());  // 0 ulp, every component
//
// WithinUlp1 and WithinAngle can be chained (both must hold). a, b and the value matched are
// std::array<T, 4> in (w, x, y, z) or any type with to_wxyz (quatcheck/reference.h); T is the inputs' scalar
// and the value's must be the same. A failure prints the inputs in hexfloat and decimal, the region of the
// case, the expected value (the ideal rounded to T), the actual value, and the errors in ulp1 and radians.
#pragma once

#include "quatcheck/reference.h"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace qc {

namespace detail {
enum class MatchKind { slerp, nlerp, unit };
struct MatchSpec {
    MatchKind kind = MatchKind::slerp;
    bool f32 = false;
    double q0[4] = {0, 0, 0, 0}, q1[4] = {0, 0, 0, 0}, t = 0;
    double ulp1_tol = -1, angle_tol = -1, norm_tol = -1;  // < 0: not checked
    bool correctly_rounded = false;                       // slerp: every component RN of the ideal (0 ulp)
};
// Whether got matches; *why receives the explanation GoogleTest prints after the actual value.
QC_TESTING_API bool match(const MatchSpec &spec, const double got[4], std::string *why);
QC_TESTING_API std::string describe(const MatchSpec &spec, bool negation);
}  // namespace detail

namespace testing {

// A matcher over any quaternion type with to_wxyz whose scalar is T.
template <class T> class QuatMatcher {
public:
    explicit QuatMatcher(const detail::MatchSpec &spec) : spec_(spec) {}

    // |r_i - s R_i| / eps <= n for every component (docs/metrics.md: ulp1).
    QuatMatcher WithinUlp1(double n) const { return with(&detail::MatchSpec::ulp1_tol, n); }
    // The 3-D rotation angle between r/|r| and R is at most rad.
    QuatMatcher WithinAngle(double rad) const { return with(&detail::MatchSpec::angle_tol, rad); }
    // IsUnit(): | |r| - 1 | / eps <= n.
    QuatMatcher WithinUlp(double n) const { return with(&detail::MatchSpec::norm_tol, n); }
    // IsSlerpOf only: every component is the ideal slerp rounded to nearest in T, 0 ulp (+0 and -0 count as equal),
    // as the informative conformance property correctly-rounded judges it (docs/slerp-cr.md).
    QuatMatcher CorrectlyRounded() const {
        QuatMatcher m = *this;
        m.spec_.correctly_rounded = true;
        return m;
    }

    template <class Q> bool MatchAndExplain(const Q &got, ::testing::MatchResultListener *listener) const {
        static_assert(std::is_same_v<scalar_t<Q>, T>,
                      "quatcheck: the value matched has another scalar type than the matcher's inputs");
        double g[4];
        detail::to_doubles(detail::wxyz(got), g);
        std::string why;
        const bool ok = detail::match(spec_, g, &why);
        *listener << why;
        return ok;
    }
    void DescribeTo(std::ostream *os) const { *os << detail::describe(spec_, false); }
    void DescribeNegationTo(std::ostream *os) const { *os << detail::describe(spec_, true); }

    template <class Q> operator ::testing::Matcher<Q>() const { return ::testing::MakePolymorphicMatcher(*this); }

private:
    QuatMatcher with(double detail::MatchSpec::*field, double v) const {
        QuatMatcher m = *this;
        m.spec_.*field = v;
        return m;
    }
    detail::MatchSpec spec_;
};

namespace internal {
template <class Q, class T = scalar_t<Q>>
QuatMatcher<T> op_of(detail::MatchKind kind, const Q &q0, const Q &q1, typename detail::identity<T>::type t) {
    detail::MatchSpec s;
    s.kind = kind;
    s.f32 = std::is_same_v<T, float>;
    detail::to_doubles(detail::wxyz(q0), s.q0);
    detail::to_doubles(detail::wxyz(q1), s.q1);
    s.t = double(t);
    return QuatMatcher<T>(s);
}
}  // namespace internal

// The value is slerp(q0, q1, t) as the tool defines it, within the tolerances chained on.
template <class Q, class T = scalar_t<Q>>
QuatMatcher<T> IsSlerpOf(const Q &q0, const Q &q1, typename detail::identity<T>::type t) {
    return internal::op_of(detail::MatchKind::slerp, q0, q1, t);
}
// The value is the exact normalised lerp of (q0, q1, t) on the short arc.
template <class Q, class T = scalar_t<Q>>
QuatMatcher<T> IsNlerpOf(const Q &q0, const Q &q1, typename detail::identity<T>::type t) {
    return internal::op_of(detail::MatchKind::nlerp, q0, q1, t);
}
// The value has unit norm: IsUnit().WithinUlp(16) (IsUnit<float>() for float quaternions).
template <class T = double> QuatMatcher<T> IsUnit() {
    detail::MatchSpec s;
    s.kind = detail::MatchKind::unit;
    s.f32 = std::is_same_v<T, float>;
    return QuatMatcher<T>(s);
}

}  // namespace testing
}  // namespace qc
