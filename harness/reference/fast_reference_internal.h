// Shared by the scalar fast path (fast_reference.cpp) and its four-lane AVX2 twin (fast_reference_avx2.cpp):
// the tables, the constants of the error analysis and the helpers both evaluate with. Not for other callers.
#pragma once

#include "reference/fast_reference.h"

namespace qc::fast_detail {

using dd::DB;

constexpr int kSteps = 256;      // table spacing 1/256: reduced arguments |r|, |u| <= 2^-9
constexpr int kSinTable = 413;   // sin(k/256), cos(k/256), k = 0..412 (k/256 <= 1.61)
constexpr int kAtanTable = 260;  // atan(k/256), k = 0..259 (z <= 1.01)
struct Tables {
    DB sin_k[kSinTable], cos_k[kSinTable];
    DB atan_k[kAtanTable];
    // Series coefficients. The leading terms in double-double, the tails in double (sin from r^7 on, cos
    // from r^6, atan from u^5): see sincos_db and atan_db for why each tail's rounding is small enough.
    DB sin_c3, sin_c5;  // -1/3!, 1/5!
    DB cos_c4;          // 1/4!
    DB atan_c3;         // -1/3
    double sin_t[2];    // -1/7!, 1/9! rounded to double;            remainder |r|^11/11! < 2^-124
    double cos_t[2];    // -1/6!, 1/8!;                                remainder |r|^10/10! < 2^-111
    double atan_t[4];   // 1/5, -1/7, 1/9, -1/11;                      remainder |u|^13/13 < 2^-120
};
// The tables (computed with MPFR at first use; the damaged ones under FastDamage::sine_coefficient).
const Tables &tables();

// Relative error bound of the double-evaluated series tails (fast_reference.cpp: sincos_db).
constexpr double kTailRel = 0x1p-48;
constexpr double kEpsFloor = 0x1p-1000;  // absolute floor added to every final bound (denormal-range slack)

// The double nearest the bounded value, when the bound proves it; false otherwise.
bool certain_rounding(const DB &x, double &out);

// Four cases at once with AVX2 and FMA (fast_reference_avx2.cpp), on the common branch of
// fast_slerp_reference only: certified[l] is true where lane l stayed on it and out[l] then holds exactly
// what fast_slerp_reference gives (outcome certified); elsewhere out[l] is unspecified and the caller
// evaluates the case with the scalar path. Returns false (nothing evaluated) where the build has no AVX2 code.
bool slerp4_avx2(const double *const q0[4], const double *const q1[4], const double t[4], Precision p, bool want_nlerp,
                 SlerpReference *const out[4], bool certified[4]);

}  // namespace qc::fast_detail
