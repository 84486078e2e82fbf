// Conformance cases: the shapes a property's case takes, and the structured generator of two-key cases.
//
// A case travels as a flat list of numbers in the implementation's format (CaseValues: printed as hexfloats,
// replayed by `quatcheck conform --case`). Code reads and writes it only through its shape, with named fields:
//   TwoKeyCase      q0, q1, t               9 numbers: every property but monotone and threshold-continuity
//   TwoKeyPairCase  q0, q1, t, t2 (t2 >= t) 10 numbers: monotone
//   ContinuityCase  q0, below, above, t     13 numbers: threshold-continuity (q1 on either side of a step)
//
// The structured generator draws CaseParams (where on the sphere, the start q0, the arc's direction, the
// offset from the special point, t) and builds the case from them (structured_case). Every choice shrinks
// toward the simple one: identity q0, a basis direction, a power-of-two offset, t = 1/2.
#pragma once

#include "quatcheck/case.h"
#include "quatcheck/types.h"

#include <rapidcheck.h>

#include <array>
#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace qc {

// A case: numbers exactly representable in the implementation's format.
using CaseValues = std::vector<double>;
using Quat4 = std::array<double, 4>;

struct TwoKeyCase {
    static constexpr size_t arity = 9;
    Quat4 q0{}, q1{};
    double t = 0;
    static TwoKeyCase of(const CaseValues &c);  // the first 9 numbers of c
    CaseValues values() const;
};

struct TwoKeyPairCase {
    static constexpr size_t arity = 10;
    TwoKeyCase first;  // q0, q1 and the first t
    double t2 = 0;     // the second t, t2 >= first.t
    static TwoKeyPairCase of(const CaseValues &c);
    CaseValues values() const;
};

struct ContinuityCase {
    static constexpr size_t arity = 13;
    Quat4 q0{}, below{}, above{};  // the ends q0, q1 and q1' whose dot products with q0 are neighbours
    double t = 0;
    static ContinuityCase of(const CaseValues &c);
    CaseValues values() const;
};

// The exact special cases: ends whose relation holds exactly in every format.
enum class ExactCase {
    equal_ends,            // q1 = q0
    antipodal,             // q1 = -q0
    orthogonal,            // q1 = q0 * i: the products cancel in pairs, a.b = 0 exactly
    threshold_neighbours,  // q0 = e_i, q1 = d e_i + sqrt(1 - d^2) e_j, d the format's neighbours of 0.9995
};
enum class StartKind { identity, axis, random };  // q0: (1, 0, 0, 0), a signed basis axis, or uniform
enum class DirectionKind { axis, random };        // the arc's direction from q0 (axis only when q0 is one)
enum class TKind { half, zero, one, near_zero, near_one, uniform };

// The parameters of one structured two-key case.
struct CaseParams {
    std::variant<Region, ExactCase> where;  // a region's arc, or an exact special case
    // uniform: q1 -> -q1; near-half-pi: a.b < 0; threshold: a.b above 0.9995 (unused elsewhere)
    bool flip = false;
    StartKind start = StartKind::identity;
    DirectionKind direction = DirectionKind::axis;
    unsigned seed = 0;  // the random q0 and direction, and which axis (seed % 4, sign bit 2, direction bits 3..)
    int k = 0,
        m = 0;  // the offset from the special point, 2^-(3+k) (1 + m/2^20); threshold_neighbours: k % 9 - 4 steps
    TKind t_kind = TKind::half;
    int t_k = 1;  // near_zero: t = 2^-t_k; near_one: t = 1 - 2^-t_k
    int t_m = 0;  // uniform: t = t_m / 2^24
};

// The numbers the structured generator draws, in its ranges, and the parameters they stand for:
//   place 0..5    the regions in all_regions()' order, then the exact special cases
//   sub 0..7      flip = sub & 1; the exact special case sub % 4 (ExactCase's order)
//   q0_kind 0..3  identity, axis, random, random      dir_kind 0..2  axis, random, random
//   seed < 2^31, k 0..37, m < 2^20
//   t_kind 0..9   half, zero, one, near_zero, near_one, then uniform; t_k 1..59, t_m < 2^24
// (The installed testing library draws the same numbers: testing/src/generators.cpp.)
inline constexpr int kExactPlace = 5;  // the place of the exact special cases, after the five regions
CaseParams params_of_draw(int place, int sub, int q0_kind, int dir_kind, unsigned seed, int k, int m, int t_kind,
                          int t_k, int t_m);
ExactCase exact_case_of_draw(int sub);

// The case the parameters make, in the format of p.
TwoKeyCase structured_case(Precision p, const CaseParams &a);

// The generators, one per shape with a generator: any structured case, the exact special cases only, and
// a pair of t (the second drawn as the next value up, uniform above t, 1, or halfway to 1).
rc::Gen<TwoKeyCase> two_key_case_gen(Precision p);
rc::Gen<TwoKeyCase> exact_case_gen(Precision p);
rc::Gen<TwoKeyPairCase> two_key_pair_gen(Precision p);

// Rounds a double to the format of p.
double round_to(Precision p, double x);

// Parses a case given as hexfloats separated by spaces or commas. Throws UsageError on malformed text,
// a wrong count, or a value not representable in the format.
CaseValues parse_case(const std::string &text, size_t arity, Precision p);
std::string format_case(const CaseValues &c);

}  // namespace qc
