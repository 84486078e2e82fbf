// quatcheck::testing's conformance properties: a correct slerp passes the nine (registered as tests by the
// macro, as a user does), and planted defects fail the property that catches them, with the counterexample.
#include "../../examples/unit-tests/myquat.h"

#include <quatcheck/properties.h>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

namespace mq {
inline std::array<double, 4> to_wxyz(const Quat &q) { return {q.w, q.x, q.y, q.z}; }
inline Quat from_wxyz(const std::array<double, 4> &q, qc::type<Quat>) { return {q[1], q[2], q[3], q[0]}; }
}  // namespace mq

QC_SLERP_PROPERTY_TESTS_FOR(MyQuatProperties, mq::Quat,
                            [](mq::Quat a, mq::Quat b, double t) { return mq::slerp(a, b, t); });

namespace {

using Q = std::array<double, 4>;

Q nlerp(const Q &a, const Q &b_in, double t) {
    Q b = b_in;
    double d = 0;
    for (int i = 0; i < 4; i++) d += a[size_t(i)] * b[size_t(i)];
    if (d < 0)
        for (double &x : b) x = -x;
    Q r;
    double n = 0;
    for (size_t i = 0; i < 4; i++) r[i] = (1 - t) * a[i] + t * b[i], n += r[i] * r[i];
    for (double &x : r) x /= std::sqrt(n);
    return r;
}

QC_NLERP_PROPERTY_TESTS(NlerpProperties, [](const Q &a, const Q &b, double t) { return nlerp(a, b, t); });

qc::detail::Routine routine_of(Q (*f)(const Q &, const Q &, double)) {
    return [f](const double *a, const double *b, double t, double *out) {
        const Q r = f({a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]}, t);
        for (size_t i = 0; i < 4; i++) out[i] = r[i];
    };
}

Q tiny(const Q &a, const Q &b, double t) {
    return mq::to_wxyz(mq::slerp({a[1], a[2], a[3], a[0]}, {b[1], b[2], b[3], b[0]}, t));
}

TEST(TestingProperties, NamesAreThoseOfTheDocs) {
    std::ifstream f(QC_SOURCE_DIR "/docs/conformance.md");
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string doc = ss.str();
    std::vector<std::string> documented;
    const std::regex row(R"(\n\| `([a-z-]+)` \|)");
    for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator(); ++it)
        if (documented.size() < 9) documented.push_back((*it)[1]);
    EXPECT_EQ(qc::detail::property_names(), documented);
    EXPECT_EQ(documented.size(), 9u);
}

TEST(TestingProperties, NlerpAsSlerpFailsConstantSpeed) {
    const auto o = qc::detail::check_property("constant-speed", qc::detail::OpKind::slerp, false, routine_of(nlerp),
                                              "nlerp-as-slerp", 300, 1);
    EXPECT_FALSE(o.pass);
    for (const char *s : {"quatcheck property constant-speed fails for nlerp-as-slerp (f64)",
                          "counterexample:", "(region ", "returned (", "expected (", "call op(q0,q1,t): FAIL"})
        EXPECT_NE(o.message.find(s), std::string::npos) << s << " missing in:\n" << o.message;
    // The correct routine passes the same property (the control of the control).
    EXPECT_TRUE(
        qc::detail::check_property("constant-speed", qc::detail::OpKind::slerp, false, routine_of(tiny), "tiny", 300, 1)
            .pass);
}

// The planted near-0 defect of tests/unit_tests_example.test.sh: the first key returned on arcs below 1e-3.
Q returns_q0_near_0(const Q &a, const Q &b, double t) {
    double d = 0;
    for (size_t i = 0; i < 4; i++) d += a[i] * b[i];
    if (std::fabs(d) > std::cos(1e-3)) return a;
    return tiny(a, b, t);
}

TEST(TestingProperties, NearZeroDefectFailsEndpoints) {
    const auto o = qc::detail::check_property("endpoints", qc::detail::OpKind::slerp, false,
                                              routine_of(returns_q0_near_0), "planted", 300, 1);
    EXPECT_FALSE(o.pass) << o.message;
    EXPECT_NE(o.message.find("op(q0,q1,1)"), std::string::npos) << o.message;
}

TEST(TestingProperties, ConstantSpeedSkipsForNlerp) {
    const auto o = qc::detail::check_property("constant-speed", qc::detail::OpKind::nlerp, false, routine_of(nlerp),
                                              "nlerp", 10, 1);
    EXPECT_FALSE(o.applies);
    EXPECT_THROW(qc::detail::check_property("no-such", qc::detail::OpKind::slerp, false, routine_of(nlerp), "x", 1, 1),
                 std::invalid_argument);
}

}  // namespace
