// cglm adapters (float only, header-inline "glm_" API): glm_quat_slerp -> slerp, glm_quat_nlerp -> nlerp.
// cglm documents (cglm/quat.h; https://cglm.readthedocs.io/en/latest/quat.html):
//   glm_quat_slerp: "interpolates between two quaternions using spherical linear interpolation (SLERP)"
//   glm_quat_nlerp: "interpolates between two quaternions taking the shortest rotation path using
//                   normalized linear interpolation (NLERP)"
// Layout: a cglm versor is float[4] = (x, y, z, w), 16-byte aligned (the SSE paths use aligned loads), and
// the functions take non-const pointers, so the adapter copies into aligned locals.
#include <cglm/cglm.h>
#include <cglm/version.h>

#ifndef CGLM_VERSION_MAJOR
#error "cglm/version.h did not define CGLM_VERSION_MAJOR"
#endif

#include "quatcheck/registry.h"
#include "adapter.h"

namespace {

#define QC_CGLM_STR2(x) #x
#define QC_CGLM_STR(x) QC_CGLM_STR2(x)
const char *const kVersion =
    QC_CGLM_STR(CGLM_VERSION_MAJOR) "." QC_CGLM_STR(CGLM_VERSION_MINOR) "." QC_CGLM_STR(CGLM_VERSION_PATCH);

void in(const float q[4], versor v) { glm_quat_init(v, q[1], q[2], q[3], q[0]); }

void put(versor v, float out[4]) {
    out[0] = v[3];
    out[1] = v[0];
    out[2] = v[1];
    out[3] = v[2];
}

// Calls the cglm routine F(from, to, t, dest) on quatcheck's arrays.
template <void (*F)(versor, versor, float, versor)>
void interpolate(const float q0[4], const float q1[4], float t, float out[4]) {
    CGLM_ALIGN(16) versor a, b, r;
    in(q0, a);
    in(q1, b);
    F(a, b, t, r);
    put(r, out);
}

constexpr auto slerp = interpolate<glm_quat_slerp>, nlerp = interpolate<glm_quat_nlerp>;

const qc_impl_v1 table = qc::engines::f32_table("cglm", slerp, nlerp);

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "glm_quat_slerp / glm_quat_nlerp(from, to, t, dest): documented 'spherical linear interpolation "
                    "(SLERP)' and 'taking the shortest rotation path using normalized linear interpolation (NLERP)'",
                    kVersion,
                    {{"nlerp", "constant-speed",
                      "cglm/quat.h, glm_quat_nlerp: 'normalized linear interpolation (NLERP)' (not constant speed by "
                      "construction) https://cglm.readthedocs.io/en/latest/quat.html"}});
