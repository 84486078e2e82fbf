// quatcheck::testing, include/quatcheck/rapidcheck.h: the case of one draw, in one region. The structured
// cases are the conformance suite's (conform/cases.h structured_case) with `where` fixed to the region;
// the sampled ones are `quatcheck run`'s (regions/regions.h sample_case).
#include "quatcheck/rapidcheck.h"

#include "conform/cases.h"
#include "regions/regions.h"

#include <algorithm>

namespace qc::detail {

namespace {

// The exact special case that lies in region r (uniform: the one the draw's k picks).
ExactCase special_of(Region r, int k) {
    switch (r) {
        case Region::near_0:
            return ExactCase::equal_ends;
        case Region::near_pi:
            return ExactCase::antipodal;
        case Region::near_half_pi:
            return ExactCase::orthogonal;
        case Region::threshold:
            return ExactCase::threshold_neighbours;
        case Region::uniform:
            break;
    }
    return exact_case_of_draw(k);
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
    CaseParams a = params_of_draw(0, d.sub, d.q0_kind, d.dir_kind, d.seed, d.k, d.m, d.t_kind, d.t_k, d.t_m);
    a.where = r;
    if (d.sub == 7) a.where = special_of(r, d.k);      // one draw in eight: the region's exact case
    if (r == Region::near_pi) a.k = std::max(a.k, 2);  // offsets below 2^-4: a.b <= -1 + 0.1
    const TwoKeyCase c = structured_case(f32 ? Precision::f32 : Precision::f64, a);
    for (size_t i = 0; i < 4; i++) q0[i] = c.q0[i], q1[i] = c.q1[i];
    t = c.t;
}

}  // namespace qc::detail
