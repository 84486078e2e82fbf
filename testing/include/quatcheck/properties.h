// quatcheck::testing: the nine conformance properties of docs/conformance.md as GoogleTest tests of your own
// routine (docs/testing-api.md). C++17.
//
//   QC_SLERP_PROPERTY_TESTS(MyLib, [](auto a, auto b, double t) { return mylib::slerp(a, b, t); });
//       registers MyLib.finite, MyLib.endpoints, MyLib.unit, MyLib.shortest_arc, MyLib.sign_invariance,
//       MyLib.symmetry, MyLib.monotone, MyLib.constant_speed and MyLib.threshold_continuity (the property
//       names with '-' as '_', since GoogleTest filters split at '-'), each checking the property with the tool's
//       generator, tolerance and shrinking (`quatcheck conform`: 300 cases, seed 1). a, b are
//       std::array<double, 4> in (w, x, y, z); the result is anything to_wxyz takes.
//   QC_SLERP_PROPERTY_TESTS_FOR(MyLib, mylib::Quat, fn)   a, b are mylib::Quat (from_wxyz, quatcheck/reference.h)
//       and the precision is its scalar's (float or double).
//   QC_NLERP_PROPERTY_TESTS(...), QC_NLERP_PROPERTY_TESTS_FOR(...)   the same for an nlerp (constant_speed
//       is skipped: it does not apply to nlerp).
// A failing property prints its shrunk counterexample and every call of it: the inputs, what the routine
// returned, the reference, and the error against the budget, as `quatcheck conform --case` does.
#pragma once

#include "quatcheck/reference.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace qc {

namespace detail {
using Routine = std::function<void(const double q0[4], const double q1[4], double t, double out[4])>;
struct PropertyOutcome {
    bool applies = true;
    bool pass = true;
    std::string message;
};
// The nine property names of docs/conformance.md, in report order ("finite", ..., "threshold-continuity").
QC_TESTING_API std::vector<std::string> property_names();
// Checks one property of routine (values exactly of the format; f32: float) as `quatcheck conform` does.
QC_TESTING_API PropertyOutcome check_property(const std::string &property, OpKind op, bool f32, const Routine &routine,
                                              const std::string &label, uint64_t cases, uint64_t seed);
}  // namespace detail

namespace testing {

// What QC_SLERP_PROPERTY_TESTS passes: (w, x, y, z) in double.
using DoubleQuat = std::array<double, 4>;

struct PropertyOptions {
    uint64_t cases = 300;  // generated cases per property (`quatcheck conform --cases`)
    uint64_t seed = 1;
};

// The GoogleTest name of a property: '-' replaced by '_'.
inline std::string test_name(std::string property) {
    for (char &c : property)
        if (c == '-') c = '_';
    return property;
}

// Registers the nine properties of fn as tests suite.<name>, Q being the type fn takes. Returns true (so that
// the macros can keep the result in a static).
template <class Q, class F> bool register_property_tests(const char *suite, detail::OpKind op, F fn, const char *file,
                                                         int line, PropertyOptions options = {}) {
    using T = scalar_t<Q>;
    detail::Routine routine = [fn](const double q0[4], const double q1[4], double t, double out[4]) {
        std::array<T, 4> a, b;
        for (size_t i = 0; i < 4; i++) a[i] = T(q0[i]), b[i] = T(q1[i]);
        const auto r = detail::wxyz(fn(detail::make<Q>(a), detail::make<Q>(b), T(t)));
        for (size_t i = 0; i < 4; i++) out[i] = double(r[i]);
    };
    const std::string label = std::string(suite) + (op == detail::OpKind::slerp ? " slerp" : " nlerp");
    for (const std::string &property : detail::property_names()) {
        ::testing::RegisterTest(
            suite, test_name(property).c_str(), nullptr, nullptr, file, line, [=]() -> ::testing::Test * {
                struct PropertyTest : ::testing::Test {
                    std::function<void()> body;
                    void TestBody() override { body(); }
                };
                auto *t = new PropertyTest;
                t->body = [=] {
                    const detail::PropertyOutcome o = detail::check_property(
                        property, op, std::is_same_v<T, float>, routine, label, options.cases, options.seed);
                    if (!o.applies) GTEST_SKIP() << o.message;
                    if (!o.pass) ADD_FAILURE_AT(file, line) << o.message;
                };
                return t;
            });
    }
    return true;
}

}  // namespace testing
}  // namespace qc

#define QC_PROPERTY_TESTS_CAT_(a, b) a##b
#define QC_PROPERTY_TESTS_CAT(a, b) QC_PROPERTY_TESTS_CAT_(a, b)
#define QC_PROPERTY_TESTS_(Suite, Q, op, ...)                                         \
    static const bool QC_PROPERTY_TESTS_CAT(qc_property_tests_##Suite##_, __LINE__) = \
        ::qc::testing::register_property_tests<Q>(#Suite, op, __VA_ARGS__, __FILE__, __LINE__)
#define QC_SLERP_PROPERTY_TESTS(Suite, ...) \
    QC_PROPERTY_TESTS_(Suite, ::qc::testing::DoubleQuat, ::qc::detail::OpKind::slerp, __VA_ARGS__)
#define QC_SLERP_PROPERTY_TESTS_FOR(Suite, Q, ...) \
    QC_PROPERTY_TESTS_(Suite, Q, ::qc::detail::OpKind::slerp, __VA_ARGS__)
#define QC_NLERP_PROPERTY_TESTS(Suite, ...) \
    QC_PROPERTY_TESTS_(Suite, ::qc::testing::DoubleQuat, ::qc::detail::OpKind::nlerp, __VA_ARGS__)
#define QC_NLERP_PROPERTY_TESTS_FOR(Suite, Q, ...) \
    QC_PROPERTY_TESTS_(Suite, Q, ::qc::detail::OpKind::nlerp, __VA_ARGS__)
