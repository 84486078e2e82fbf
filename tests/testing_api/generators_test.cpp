// quatcheck::testing's RapidCheck generators: every case, and every shrink of it, lies in its region.
#include <quatcheck/rapidcheck.h>
#include <quatcheck/reference.h>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace {

const qc::Region kRegions[] = {qc::Region::uniform, qc::Region::near_0, qc::Region::near_half_pi, qc::Region::near_pi,
                               qc::Region::threshold};

// Walks the first `budget` shrinks of s depth first (each level's first few), calling f on every value.
template <class T, class F> void walk_shrinks(const rc::Shrinkable<T> &s, int &budget, F &&f) {
    auto seq = s.shrinks();
    int width = 4;
    while (budget > 0 && width-- > 0) {
        auto next = seq.next();
        if (!next) return;
        --budget;
        f(next->value());
        walk_shrinks(*next, budget, f);
    }
}

template <class T> void check_region(qc::Region r) {
    const auto gen = qc::gen::slerpCase<T>(r);
    int cases = 0, shrinks = 0;
    for (int i = 0; i < 200; i++) {
        const rc::Shrinkable<qc::SlerpCase<T>> s = gen(rc::Random(1000 + i), 50);
        const qc::SlerpCase<T> c = s.value();
        ASSERT_TRUE(qc::case_in_region(r, c)) << qc::region_name(r) << " case " << i;
        for (T x : c.q0) ASSERT_TRUE(std::isfinite(x));
        cases++;
        int budget = 40;
        walk_shrinks(s, budget, [&](const qc::SlerpCase<T> &v) {
            shrinks++;
            EXPECT_TRUE(qc::case_in_region(r, v)) << qc::region_name(r) << ": a shrink left the region";
        });
    }
    EXPECT_EQ(cases, 200);
    EXPECT_GT(shrinks, 1000) << "the shrinks were walked";
}

TEST(TestingGenerators, EveryCaseAndShrinkInItsRegionF64) {
    for (qc::Region r : kRegions) check_region<double>(r);
}
TEST(TestingGenerators, EveryCaseAndShrinkInItsRegionF32) {
    for (qc::Region r : kRegions) check_region<float>(r);
}

// Negative control: the region test can fail, and the uniform generator does leave near-pi.
TEST(TestingGenerators, RegionTestCanFail) {
    const auto gen = qc::gen::slerpCase<double>(qc::Region::uniform);
    int outside = 0;
    for (int i = 0; i < 100; i++) outside += !qc::case_in_region(qc::Region::near_pi, gen(rc::Random(i), 50).value());
    EXPECT_GT(outside, 50);
    qc::SlerpCase<double> c{{1, 0, 0, 0}, {1, 0, 0, 0}, 1.5};  // t outside [0, 1]
    EXPECT_FALSE(qc::case_in_region(qc::Region::uniform, c));
}

// Structured bindings, and the region of each case of anyRegion is one of the five.
TEST(TestingGenerators, AnyRegionAndBindings) {
    const auto gen = qc::gen::anyRegion<double>();
    for (int i = 0; i < 50; i++) {
        const auto [q0, q1, t] = gen(rc::Random(i), 50).value();
        EXPECT_NE(qc::regions_of(qc::SlerpCase<double>{q0, q1, t}), 0u);
        EXPECT_GE(t, 0);
        EXPECT_LE(t, 1);
    }
}

RC_GTEST_PROP(TestingGenerators, ReferenceOfItsOwnValueIsWithinHalfEps, ()) {
    const auto [q0, q1, t] = *qc::gen::slerpCase<double>(qc::Region::near_pi);
    const auto ideal = qc::reference::slerp(q0, q1, t);
    RC_ASSERT(qc::error::ulp1(ideal.value, ideal) <= 0.5);
}

// A property that fails is reported with a shrunk case still in the region (negative control of the above).
TEST(TestingGenerators, FailingPropertyShrinksInside) {
    qc::SlerpCase<double> last{};
    const auto result = rc::detail::checkTestable(
        [&] {
            const auto c = *qc::gen::slerpCase<double>(qc::Region::near_pi);
            last = c;
            RC_ASSERT(c.t < 0.25);
        },
        rc::detail::TestMetadata(),
        [] {
            rc::detail::TestParams p;
            p.maxSuccess = 100;
            p.maxSize = 100;
            return p;
        }());
    rc::detail::FailureResult failure;
    ASSERT_TRUE(result.match(failure)) << "the property should fail";
    EXPECT_TRUE(qc::case_in_region(qc::Region::near_pi, last));
}

}  // namespace
