// Shared by the scalar fast path (fast_reference.cpp) and its lane kernels (fast_reference_lanes.h):
// the tables, the constants of the error analysis and the helpers both evaluate with. Not for other callers.
#pragma once

// Light on purpose: the lane kernels' files (compiled whole for AVX2 or AVX-512) include this header and dd.h only,
// so that no inline function of a wider header (Boost's MPFR wrapper in reference.h) is emitted there with
// instructions the rest of the program could link against (tests/kernel_symbols.test.sh checks their objects).
#include "reference/dd.h"

namespace qc {
enum class Precision;  // quatcheck/types.h (declared opaque: this header stays light)
}  // namespace qc

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

// Where its bound cannot prove the rounding of W to double, the fast path still accepts W's nearest double
// (fast_reference.h: kFastArcBound, repeated here for the kernels, which do not include that header).
constexpr double kArcBound = 0x1p-90;

// What a lane kernel needs besides the cases: from the format (fast_tolerance(p), the tie band 4 eps(p)) and the
// caller's switches.
struct KernelArgs {
    double tolerance = 0;    // fast_tolerance(p): a larger final bound leaves the lane
    double band = 0;         // |a.b| at most this: the tie band (the other arc also evaluated)
    bool want_nlerp = true;  // N (and N_other) computed and certified
    bool pair_memo = true;   // reference_pair_memo(): the pair part from the thread's memo where the lanes share it
};
// The arguments fast_slerp_reference_batch passes its kernels for cases of format p (fast_reference.cpp).
KernelArgs kernel_args(Precision p, bool want_nlerp);
// A lane the kernel certified: what fast_slerp_reference sets for the case (R_other and N_other only where
// in_tie_band; the caller writes the rest of SlerpReference: tie = false, bits = 0, ill_conditioned).
struct LaneOut {
    dd::DD R[4], N[4], R_other[4], N_other[4];
    double dot = 0, arc_w = 0, bound = 0;
    bool tie = false;  // q0.q1 = 0 exactly
    bool in_tie_band = false;
};

// The fast path's common branch on several cases at once, each lane doing the scalar path's operations in its order
// (fast_reference_lanes.h): certified[l] is true where lane l stayed on that branch, and out[l] then holds exactly
// what fast_slerp_reference gives (outcome certified); elsewhere out[l] is unspecified and the caller evaluates the
// case with the scalar path. Each returns false (nothing evaluated) where the build has no code for its width.
// Four lanes, AVX2 + FMA (fast_reference_avx2.cpp); call only where the CPU has both.
bool slerp4_avx2(const double *const q0[4], const double *const q1[4], const double t[4], const KernelArgs &args,
                 LaneOut out[4], bool certified[4]);
// Eight lanes, AVX-512 F + DQ (fast_reference_avx512.cpp); call only where the CPU has both.
bool slerp8_avx512(const double *const q0[8], const double *const q1[8], const double t[8], const KernelArgs &args,
                   LaneOut out[8], bool certified[8]);

}  // namespace qc::fast_detail
