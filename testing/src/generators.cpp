// quatcheck::testing, include/quatcheck/rapidcheck.h: the case of one draw, in one region. The structured
// cases are the conformance suite's (conform/properties.h structured_case) with the place fixed to the region;
// the sampled ones are `quatcheck run`'s (regions/regions.h sample_case).
#include "quatcheck/rapidcheck.h"

#include "conform/properties.h"
#include "regions/regions.h"

#include <algorithm>

namespace qc::detail {

namespace {

// structured_case's place for each region, and its exact special case (sub % 4) that lies in the region.
int place_of(Region r) {
    switch (r) {
        case Region::near_0:
            return 1;
        case Region::near_half_pi:
            return 2;
        case Region::near_pi:
            return 3;
        case Region::threshold:
            return 4;
        case Region::uniform:
            break;
    }
    return 0;
}

int special_of(Region r, int k) {
    switch (r) {
        case Region::near_0:
            return 0;  // equal ends
        case Region::near_pi:
            return 1;  // q1 = -q0
        case Region::near_half_pi:
            return 2;  // a.b = 0 exactly
        case Region::threshold:
            return 3;  // the format's neighbours of 0.9995
        case Region::uniform:
            break;
    }
    return k % 4;
}

template <class T> void sampled(Region r, uint64_t index, double q0[4], double q1[4], double &t) {
    Rng rng = case_rng(index, Format<T>::precision, r, 0);
    const SlerpCase<T> c = sample_case<T>(r, rng);
    for (size_t i = 0; i < 4; i++) q0[i] = double(c.q0[i]), q1[i] = double(c.q1[i]);
    t = double(c.t);
}

}  // namespace

void region_case(Region r, bool f32, const CaseDraw &d, double q0[4], double q1[4], double &t) {
    if (d.sampler != 0) {
        if (f32) sampled<float>(r, d.sampler_index, q0, q1, t);
        else sampled<double>(r, d.sampler_index, q0, q1, t);
        return;
    }
    CaseParams a{place_of(r), d.sub, d.q0_kind, d.dir_kind, d.seed, d.k, d.m, d.t_kind, d.t_k, d.t_m};
    if (d.sub == 7) a.place = 5, a.sub = special_of(r, d.k);  // one draw in eight: the region's exact case
    if (r == Region::near_pi) a.k = std::max(a.k, 2);         // offsets below 2^-4: a.b <= -1 + 0.1
    const CaseValues c = structured_case(f32 ? Precision::f32 : Precision::f64, a);
    for (size_t i = 0; i < 4; i++) q0[i] = c[i], q1[i] = c[4 + i];
    t = c[8];
}

}  // namespace qc::detail
