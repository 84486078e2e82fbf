// quatcheck::testing's reference, metrics and matchers, used as a user would (C++17, only the installed headers).
#include "../../examples/unit-tests/myquat.h"

#include <quatcheck/gtest.h>
#include <quatcheck/reference.h>

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <thread>
#include <vector>

namespace mq {
inline std::array<double, 4> to_wxyz(const Quat &q) { return {q.w, q.x, q.y, q.z}; }
}  // namespace mq

namespace {

using Q = std::array<double, 4>;

template <class M, class V> std::string explain(const M &m, const V &v, bool *matched = nullptr) {
    ::testing::StringMatchResultListener l;
    const bool ok = ::testing::ExplainMatchResult(m, v, &l);
    if (matched) *matched = ok;
    return l.str();
}

std::string hexf(double x) {
    char b[64];
    std::snprintf(b, sizeof b, "%a", x);
    return b;
}

TEST(TestingReference, EndsAndMidpoint) {
    const Q a{1, 0, 0, 0}, b{0, 1, 0, 0};  // a quarter turn on the sphere: a half turn about x
    const auto r0 = qc::reference::slerp(a, b, 0.0), r1 = qc::reference::slerp(a, b, 1.0);
    EXPECT_EQ(Q(r0), a);
    EXPECT_EQ(Q(r1), b);
    const Q mid = qc::reference::slerp(a, b, 0.5);  // (cos pi/4, sin pi/4, 0, 0): both components the same double
    EXPECT_EQ(mid[0], mid[1]);
    EXPECT_NEAR(mid[0], std::sqrt(0.5), 1e-16);
    EXPECT_DOUBLE_EQ(qc::reference::slerp(a, b, 0.5).arc, std::acos(-1.0) / 2);
    // The short arc: b negated gives the same ideal with b's sign flipped.
    const Q c{0.6, 0.8, 0, 0}, nc{-0.6, -0.8, 0, 0};  // a.nc < 0: the short arc goes to -nc = c
    EXPECT_EQ(Q(qc::reference::slerp(a, nc, 1.0)), c) << "the ideal takes the short arc";
    EXPECT_TRUE(qc::reference::slerp(a, b, 0.5).in_tie_band) << "a.b = 0: either arc";
    EXPECT_FALSE(qc::reference::slerp(a, c, 0.5).in_tie_band);
    // nlerp at t = 1/2 on this arc is the same direction; at t = 1/4 it differs from slerp.
    EXPECT_NE(Q(qc::reference::nlerp(a, b, 0.25)), Q(qc::reference::slerp(a, b, 0.25)));
}

TEST(TestingReference, Float) {
    const std::array<float, 4> a{1, 0, 0, 0}, b{0.6f, 0.8f, 0, 0};
    const std::array<float, 4> r = qc::reference::slerp(a, b, 0.5f);
    // Rounded to float: within half an ulp of the double ideal's components.
    const auto d = qc::reference::slerp(std::array<double, 4>{1, 0, 0, 0}, {double(0.6f), double(0.8f), 0, 0}, 0.5);
    for (int i = 0; i < 4; i++) EXPECT_LE(std::fabs(double(r[i]) - d.value[i]), 0x1p-25) << i;
}

TEST(TestingMetrics, Ulp1CountsEps) {
    const Q a{1, 0, 0, 0}, b{0.6, 0.8, 0, 0};
    const auto ideal = qc::reference::slerp(a, b, 0.3);
    Q got = ideal.value;
    const double base = qc::error::ulp1(got, ideal);
    EXPECT_LE(base, 0.5) << "the rounded ideal is within half an eps";
    got[2] += 3 * 0x1p-52;  // component 2 is 0 in the ideal: 3 eps off
    EXPECT_EQ(qc::error::ulp1(got, ideal), 3);
    EXPECT_EQ(qc::error::ulp1<double>(got, ideal), 3);  // the scalar named, as the issue writes it
    EXPECT_GT(qc::error::angle_rad(got, ideal), 0);
    const Q twice{2 * got[0], 2 * got[1], 2 * got[2], 2 * got[3]};
    EXPECT_NEAR(qc::error::norm_error(twice), 0x1p52, 1) << "| |r| - 1 | / eps for a norm of 2";
    EXPECT_EQ(qc::error::norm_error(Q{1, 0, 0, 0}), 0);
    const Q nan{NAN, 0, 0, 0};
    const auto e = qc::error::measure(nan, ideal);
    EXPECT_TRUE(e.nonfinite);
    EXPECT_TRUE(std::isinf(e.ulp1));
}

TEST(TestingReference, BadInputIsOneLine) {
    const Q a{1, 0, 0, 0}, zero{0, 0, 0, 0}, inf{INFINITY, 0, 0, 0};
    for (auto f : {+[](const Q &x, const Q &y) { qc::reference::slerp(x, y, 0.5); }}) {
        try {
            f(a, zero);
            ADD_FAILURE() << "a zero q1 was accepted";
        } catch (const std::invalid_argument &e) {
            EXPECT_STREQ(e.what(), "quatcheck: reference: q1 is zero (no direction)");
        }
        try {
            f(inf, a);
            ADD_FAILURE() << "an infinite q0 was accepted";
        } catch (const std::invalid_argument &e) {
            EXPECT_STREQ(e.what(), "quatcheck: reference: q0 has a component that is not finite");
        }
    }
    EXPECT_THROW(qc::reference::slerp(a, a, NAN), std::invalid_argument);
}

TEST(TestingMatchers, CorrectSlerpPassesAndWrongFails) {
    const mq::Quat a{0, 0, 0, 1}, b{std::sin(1e-4), 0, 0, std::cos(1e-4)};
    EXPECT_THAT(mq::slerp(a, b, 0.5), qc::testing::IsSlerpOf(a, b, 0.5).WithinUlp1(4));
    EXPECT_THAT(mq::slerp(a, b, 0.5), qc::testing::IsSlerpOf(a, b, 0.5).WithinAngle(1e-15).WithinUlp1(4));
    // Negative control: q0 itself is not the slerp at t = 1/2.
    bool matched = true;
    const std::string why = explain(qc::testing::IsSlerpOf(a, b, 0.5).WithinUlp1(4), a, &matched);
    EXPECT_FALSE(matched);
    // The explanation names the inputs (hexfloat and decimal), the region, both values and both errors.
    for (const std::string &s :
         std::vector<std::string>{"ulp1", " rad", "\n  q0        (0x1p+0, 0x0p+0, 0x0p+0, 0x0p+0)",
                                  "\n            (1, 0, 0, 0)", "\n  q1        (" + hexf(b.w) + ", " + hexf(b.x),
                                  "\n  t         0x1p-1 = 0.5", "\n  region    near-0, threshold", "\n  expected  (",
                                  "(ideal slerp rounded to double)", "\n  actual    (0x1p+0, 0x0p+0", "\n  error     "})
        EXPECT_NE(why.find(s), std::string::npos) << "missing '" << s << "' in:\n" << why;
    EXPECT_NONFATAL_FAILURE(EXPECT_THAT(a, qc::testing::IsSlerpOf(a, b, 0.5).WithinUlp1(4)), "region    near-0");
}

TEST(TestingMatchers, AngleToleranceDecides) {
    const Q a{1, 0, 0, 0}, b{0.6, 0.8, 0, 0};
    const Q ideal = qc::reference::slerp(a, b, 0.5);
    Q off = ideal;
    off[3] = 1e-9;  // about 2e-9 rad
    EXPECT_THAT(off, qc::testing::IsSlerpOf(a, b, 0.5).WithinAngle(1e-8));
    EXPECT_THAT(off, ::testing::Not(qc::testing::IsSlerpOf(a, b, 0.5).WithinAngle(1e-9)));
    EXPECT_THAT(off, ::testing::Not(qc::testing::IsSlerpOf(a, b, 0.5).WithinUlp1(1e6)));
}

TEST(TestingMatchers, Nlerp) {
    const Q a{1, 0, 0, 0}, b{0, 1, 0, 0};
    const Q n = qc::reference::nlerp(a, b, 0.25), s = qc::reference::slerp(a, b, 0.25);
    EXPECT_THAT(n, qc::testing::IsNlerpOf(a, b, 0.25).WithinUlp1(0.5));
    EXPECT_THAT(s, ::testing::Not(qc::testing::IsNlerpOf(a, b, 0.25).WithinUlp1(4)));
    EXPECT_THAT(n, ::testing::Not(qc::testing::IsSlerpOf(a, b, 0.25).WithinUlp1(4)));
}

TEST(TestingMatchers, Unit) {
    EXPECT_THAT((Q{0.6, 0.8, 0, 0}), qc::testing::IsUnit().WithinUlp(16));
    const Q long_q{0.6, 0.8 + 64 * 0x1p-52, 0, 0};
    bool matched = true;
    const std::string why = explain(qc::testing::IsUnit().WithinUlp(16), long_q, &matched);
    EXPECT_FALSE(matched) << why;
    EXPECT_NE(why.find("whose norm is off 1 by"), std::string::npos) << why;
    EXPECT_THAT((std::array<float, 4>{0.6f, 0.8f, 0, 0}), qc::testing::IsUnit<float>().WithinUlp(16));
}

TEST(TestingMatchers, NoToleranceFails) {
    const Q a{1, 0, 0, 0};
    bool matched = true;
    const std::string why = explain(qc::testing::IsSlerpOf(a, a, 0.5), a, &matched);
    EXPECT_FALSE(matched);
    EXPECT_NE(why.find("no tolerance was given"), std::string::npos) << why;
}

// The same cases on four threads give the same figures, bit for bit, as on one.
TEST(TestingReference, ThreadsGiveTheSameFigures) {
    std::vector<Q> ends;
    for (int i = 1; i <= 64; i++) ends.push_back({std::cos(i * 0.05), std::sin(i * 0.05), 0, 0});
    auto figures = [&](std::vector<double> &out) {
        out.clear();
        for (const Q &b : ends)
            for (double t : {0.1, 0.5, 0.9}) {
                const auto ideal = qc::reference::slerp(Q{1, 0, 0, 0}, b, t);
                const Q got{ideal.value[0], ideal.value[1] * (1 + 0x1p-50), ideal.value[2], ideal.value[3]};
                out.push_back(qc::error::ulp1(got, ideal));
                out.push_back(qc::error::angle_rad(got, ideal));
                out.push_back(ideal.hi[1] + ideal.lo[1]);
            }
    };
    std::vector<double> serial;
    figures(serial);
    std::vector<std::vector<double>> par(4);
    std::vector<std::thread> threads;
    for (auto &p : par) threads.emplace_back([&] { figures(p); });
    for (auto &t : threads) t.join();
    for (const auto &p : par) EXPECT_EQ(p, serial);
    // Negative control: the comparison sees a different figure.
    std::vector<double> other = serial;
    other[1] = std::nextafter(other[1], 1.0);
    EXPECT_NE(other, serial);
}

}  // namespace

// .CorrectlyRounded(): at t = 0 the ideal slerp is q0/|q0|, so for q0 = (1, 2, 2, 4) (norm 5) the correctly rounded
// value is the nearest double (float) of (0.2, 0.4, 0.4, 0.8): the literals. One step off in one component fails,
// with the step count and the correctly rounded value in the explanation; nlerp is refused.
TEST(TestingMatchers, CorrectlyRounded) {
    const Q a{1, 2, 2, 4}, b{0, 1, 0, 0};
    const Q exact{0.2, 0.4, 0.4, 0.8};
    EXPECT_THAT(exact, qc::testing::IsSlerpOf(a, b, 0.0).CorrectlyRounded());
    const std::array<float, 4> af{1, 2, 2, 4}, bf{0, 1, 0, 0}, exactf{0.2f, 0.4f, 0.4f, 0.8f};
    EXPECT_THAT(exactf, qc::testing::IsSlerpOf(af, bf, 0.0f).CorrectlyRounded());
    Q off = exact;
    off[2] = std::nextafter(off[2], 1.0);
    bool matched = true;
    const std::string why = explain(qc::testing::IsSlerpOf(a, b, 0.0).CorrectlyRounded(), off, &matched);
    EXPECT_FALSE(matched);
    EXPECT_NE(why.find("1 ulp from the correctly rounded slerp"), std::string::npos) << why;
    EXPECT_NE(why.find(hexf(0.4)), std::string::npos) << why;
    // A general case: the reference's own slerp rounded to double is within 1 ulp1 but need not be correctly rounded;
    // the matcher chained with WithinUlp1 holds both limits.
    const Q c{0.6, 0.8, 0, 0};
    const Q r = qc::reference::slerp(a, c, 0.3);
    EXPECT_THAT(r, qc::testing::IsSlerpOf(a, c, 0.3).WithinUlp1(1));
    explain(qc::testing::IsSlerpOf(a, c, 0.3).CorrectlyRounded().WithinUlp1(1), r, &matched);  // either way: no crash
    EXPECT_FALSE(explain(qc::testing::IsNlerpOf(a, b, 0.0).CorrectlyRounded(), exact, &matched).empty());
    EXPECT_FALSE(matched) << "CorrectlyRounded applies to slerp only";
}
