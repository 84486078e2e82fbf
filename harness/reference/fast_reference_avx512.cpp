// The fast reference's common branch, eight cases at a time (AVX-512 F + DQ; fast_reference_internal.h:
// slerp8_avx512): the lane kernel of fast_reference_lanes.h on 512-bit vectors, the same operations as the four-lane
// kernel and the scalar path, lane by lane, so the same bits (tests/fast_reference_batch_test.cpp). Compiled with
// -mavx512f -mavx512dq -mfma (CMakeLists.txt) and called only where the CPU has AVX-512 F and DQ
// (fast_reference.cpp: fast_slerp_reference_batch). This file includes the light internal header and the standard
// library only, so that nothing it emits is shared with the rest of the program (tests/kernel_symbols.test.sh): an
// inline function of a header emitted here with AVX-512 instructions could otherwise be the copy the linker keeps.
#include "reference/fast_reference_internal.h"

#include <cmath>
#include <cstring>

#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__FMA__)
// GCC 12's AVX-512 intrinsics pass a self-initialised _mm512_undefined_pd() as the unused source operand of their
// builtins, which -Wmaybe-uninitialized and -Wuninitialized report where they are inlined: not a read of anything.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

namespace qc::fast_detail {
namespace {

constexpr int kLanes = 8;
using V = double __attribute__((vector_size(64)));
using M = decltype(V{} < V{});  // lane masks: all ones (true) or zero

inline V splat(double x) { return _mm512_set1_pd(x); }
inline V vsqrt(V a) { return _mm512_sqrt_pd(a); }
inline V vfma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
inline V vabs(V a) { return _mm512_andnot_pd(splat(-0.0), a); }
inline V nearbyint(V a) { return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
// base[idx[l]] in lane l (idx: integer-valued doubles in int range)
inline V vgather(const double *base, V idx) { return _mm512_i32gather_pd(_mm512_cvttpd_epi32(idx), base, 8); }

}  // namespace
}  // namespace qc::fast_detail

#include "reference/fast_reference_lanes.h"

namespace qc::fast_detail {

bool slerp8_avx512(const double *const q0[8], const double *const q1[8], const double t[8], const KernelArgs &args,
                   LaneOut out[8], bool certified[8]) {
    return slerp_lanes(q0, q1, t, args, out, certified);
}

}  // namespace qc::fast_detail

#else

namespace qc::fast_detail {
bool slerp8_avx512(const double *const *, const double *const *, const double *, const KernelArgs &, LaneOut *,
                   bool *) {
    return false;
}
}  // namespace qc::fast_detail

#endif
