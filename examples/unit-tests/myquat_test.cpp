// myquat's slerp checked with quatcheck::testing (docs/testing-api.md): a matcher, a RapidCheck property and
// the nine conformance properties.
#include "myquat.h"

#include <quatcheck/gtest.h>
#include <quatcheck/properties.h>
#include <quatcheck/rapidcheck.h>
#include <quatcheck/reference.h>
#include <rapidcheck/gtest.h>

namespace mq {  // myquat stores (x, y, z, w); quatcheck reads and writes (w, x, y, z)
inline std::array<double, 4> to_wxyz(const Quat &q) { return {q.w, q.x, q.y, q.z}; }
inline Quat from_wxyz(const std::array<double, 4> &q, qc::type<Quat>) { return {q[1], q[2], q[3], q[0]}; }
}  // namespace mq

TEST(MyQuat, NearlyEqualKeys) {
    const mq::Quat a{0, 0, 0, 1}, b{std::sin(1e-4), 0, 0, std::cos(1e-4)};  // 2e-4 rad apart as rotations
    for (double t : {0.25, 0.5, 0.75}) EXPECT_THAT(mq::slerp(a, b, t), qc::testing::IsSlerpOf(a, b, t).WithinUlp1(4));
}

TEST(MyQuat, Unit) {
    const mq::Quat a{0.5, 0.5, 0.5, 0.5}, b{0, 0.6, 0, 0.8};
    EXPECT_THAT(mq::slerp(a, b, 0.3), qc::testing::IsUnit().WithinUlp(16));
}

RC_GTEST_PROP(MyQuat, NearPiWithin4Ulp1, ()) {
    const auto [q0, q1, t] = *qc::gen::slerpCase<double>(qc::Region::near_pi);
    const mq::Quat a = from_wxyz(q0, qc::type<mq::Quat>{}), b = from_wxyz(q1, qc::type<mq::Quat>{});
    RC_ASSERT(qc::error::ulp1(mq::slerp(a, b, t), qc::reference::slerp(q0, q1, t)) <= 4);
}

QC_SLERP_PROPERTY_TESTS_FOR(MyQuat, mq::Quat, [](mq::Quat a, mq::Quat b, double t) { return mq::slerp(a, b, t); });
