// quatcheck::testing: RapidCheck generators of the cases the tool samples (docs/testing-api.md). C++17.
//
//   RC_GTEST_PROP(MyLib, NearPi, ()) {
//       auto [q0, q1, t] = *qc::gen::slerpCase<double>(qc::Region::near_pi);
//       RC_ASSERT(qc::error::ulp1(mylib_slerp(q0, q1, t), qc::reference::slerp(q0, q1, t)) <= 4);
//   }
//
// slerpCase<T>(region) generates qc::SlerpCase<T> {q0, q1, t} (std::array<T, 4> in (w, x, y, z), every value
// exactly a T) inside the region as the tool bounds it (harness/regions/regions.h). Most cases come from the
// conformance suite's structured parameters (where on the arc, an identity, axis or random q0, the offset
// from the special point as 2^-k (1 + m/2^20), t among 1/2, 0, 1, near an end, uniform), each shrinking
// toward its simplest value; the rest are the tool's own sampler of the region (`quatcheck run`), which
// shrink into structured cases. Every shrink is kept inside the region (a shrink that leaves it is dropped).
// anyRegion<T>() picks the region first (shrinking toward uniform).
#pragma once

#include "quatcheck/reference.h"

#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <tuple>

namespace qc {

namespace detail {
// The structured parameters (conform/cases.h params_of_draw), and the tool's sampler when sampler != 0.
struct CaseDraw {
    int sub, q0_kind, dir_kind;
    unsigned seed;
    int k, m, t_kind, t_k, t_m;
    int sampler;
    uint64_t sampler_index;
};
// The case of draw d in region r, into q0, q1, t (values of the format).
QC_TESTING_API void region_case(Region r, bool f32, const CaseDraw &d, double q0[4], double q1[4], double &t);
}  // namespace detail

// How RapidCheck prints a case: hexfloats, then decimal.
template <class T> void showValue(const SlerpCase<T> &c, std::ostream &os) {
    double a[4], b[4];
    detail::to_doubles(c.q0, a), detail::to_doubles(c.q1, b);
    os.precision(std::is_same_v<T, float> ? 9 : 17);
    os << "{q0 = (" << std::hexfloat << a[0] << ", " << a[1] << ", " << a[2] << ", " << a[3] << "), q1 = (" << b[0]
       << ", " << b[1] << ", " << b[2] << ", " << b[3] << "), t = " << double(c.t) << std::defaultfloat << "} = {q0 = ("
       << a[0] << ", " << a[1] << ", " << a[2] << ", " << a[3] << "), q1 = (" << b[0] << ", " << b[1] << ", " << b[2]
       << ", " << b[3] << "), t = " << double(c.t) << "}";
}

namespace gen {

template <class T> rc::Gen<SlerpCase<T>> slerpCase(Region region) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "quatcheck: T must be float or double");
    using Draw = std::tuple<int, int, int, unsigned, int, int, int, int, int, int, uint64_t>;
    auto draws = rc::gen::tuple(rc::gen::inRange(0, 8), rc::gen::inRange(0, 4), rc::gen::inRange(0, 3),
                                rc::gen::inRange(0u, 1u << 31), rc::gen::inRange(0, 38), rc::gen::inRange(0, 1 << 20),
                                rc::gen::inRange(0, 10), rc::gen::inRange(1, 60), rc::gen::inRange(0, 1 << 24),
                                rc::gen::weightedElement<int>({{3, 0}, {1, 1}}), rc::gen::arbitrary<uint64_t>());
    auto cases = rc::gen::map(draws, [region](const Draw &x) {
        const detail::CaseDraw d{std::get<0>(x), std::get<1>(x), std::get<2>(x), std::get<3>(x),
                                 std::get<4>(x), std::get<5>(x), std::get<6>(x), std::get<7>(x),
                                 std::get<8>(x), std::get<9>(x), std::get<10>(x)};
        double a[4], b[4], t;
        detail::region_case(region, std::is_same_v<T, float>, d, a, b, t);
        SlerpCase<T> c;
        for (size_t i = 0; i < 4; i++) c.q0[i] = T(a[i]), c.q1[i] = T(b[i]);
        c.t = T(t);
        return c;
    });
    return rc::gen::suchThat(cases, [region](const SlerpCase<T> &c) { return case_in_region(region, c); });
}

template <class T> rc::Gen<SlerpCase<T>> anyRegion() {
    return rc::gen::mapcat(
        rc::gen::element(Region::uniform, Region::near_0, Region::near_half_pi, Region::near_pi, Region::threshold),
        [](Region r) { return slerpCase<T>(r); });
}

}  // namespace gen
}  // namespace qc
