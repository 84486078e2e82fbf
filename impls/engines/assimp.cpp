// Assimp adapter: aiQuaterniont<TReal>::Interpolate(pOut, pStart, pEnd, pFactor) -> slerp, float and double
// through the template (ai_real is float in Debian's build; aiQuaterniont<double> is the same public template).
// Assimp documents: "Performs a spherical interpolation between two quaternions and writes the result into
// the third ... pFactor Interpolation factor between 0 and 1. Values outside of this range yield undefined
// results." (assimp/quaternion.h)
// Layout: aiQuaterniont(w, x, y, z) constructor and members w, x, y, z. Output is the first argument.
#include <assimp/quaternion.h>
#include <assimp/quaternion.inl>  // the template definitions (assimp/types.h includes it the same way)
#include <assimp/version.h>

#include "quatcheck/registry.h"
#include "adapter.h"

#include <string>

namespace {

// Assimp has no version macros in its headers; the library reports its own version at run time.
std::string version() {
    return std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
           std::to_string(aiGetVersionPatch());
}

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    const aiQuaterniont<T> a(q0[0], q0[1], q0[2], q0[3]);
    const aiQuaterniont<T> b(q1[0], q1[1], q1[2], q1[3]);
    aiQuaterniont<T> r;
    aiQuaterniont<T>::Interpolate(r, a, b, t);
    qc::engines::put_wxyz_members(r, out);
}

const qc_impl_v1 table = qc::engines::slerp_table("assimp", slerp<float>, slerp<double>);

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "aiQuaterniont::Interpolate(out, start, end, factor): documented 'spherical interpolation', factor "
                    "in [0, 1]; short arc, lerps (unnormalised) when 1 - cos <= 1e-4",
                    version(), {});
