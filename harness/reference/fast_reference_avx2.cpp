// The fast reference's common branch, four cases at a time (AVX2 + FMA; fast_reference_internal.h: slerp4_avx2):
// the lane kernel of fast_reference_lanes.h on 256-bit vectors. Compiled with -mavx2 -mfma (CMakeLists.txt) and
// called only where the CPU has both (fast_reference.cpp: fast_slerp_reference_batch). This file includes the
// light internal header and the standard library only, so that nothing it emits is shared with the rest of the
// program (tests/kernel_symbols.test.sh).
#include "reference/fast_reference_internal.h"

#include <cmath>
#include <cstring>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

namespace qc::fast_detail {
namespace {

constexpr int kLanes = 4;
using V = double __attribute__((vector_size(32)));
using M = decltype(V{} < V{});  // lane masks: all ones (true) or zero

inline V splat(double x) { return _mm256_set1_pd(x); }
inline V vsqrt(V a) { return _mm256_sqrt_pd(a); }
inline V vfma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
inline V vabs(V a) { return _mm256_andnot_pd(splat(-0.0), a); }
inline V nearbyint(V a) { return _mm256_round_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
// base[idx[l]] in lane l (idx: integer-valued doubles in int range)
// (the masked form with every lane set: the plain one passes GCC 12 an uninitialised source it warns about)
inline V vgather(const double *base, V idx) {
    return _mm256_mask_i32gather_pd(_mm256_setzero_pd(), base, _mm256_cvttpd_epi32(idx),
                                    _mm256_castsi256_pd(_mm256_set1_epi64x(-1)), 8);
}

}  // namespace
}  // namespace qc::fast_detail

#include "reference/fast_reference_lanes.h"

namespace qc::fast_detail {

bool slerp4_avx2(const double *const q0[4], const double *const q1[4], const double t[4], const KernelArgs &args,
                 LaneOut out[4], bool certified[4]) {
    return slerp_lanes(q0, q1, t, args, out, certified);
}

}  // namespace qc::fast_detail

#else

namespace qc::fast_detail {
bool slerp4_avx2(const double *const *, const double *const *, const double *, const KernelArgs &, LaneOut *, bool *) {
    return false;
}
}  // namespace qc::fast_detail

#endif
