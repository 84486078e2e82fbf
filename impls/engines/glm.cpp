// GLM (OpenGL Mathematics) adapters, float and double through glm's own template precision.
//   glm-slerp    glm::slerp(x, y, a)              -> slerp  (documented: short path, constant speed)
//   glm-mix      glm::mix(x, y, a) on quaternions -> slerp  (documented: "oriented", i.e. no short-path flip)
//   glm-shortmix glm::shortMix(x, y, a) (gtx)     -> slerp  (documented: "interpolation using the rotation short path")
//   glm-fastmix  glm::fastMix(x, y, a) (gtx)      -> nlerp  (documented: "normalized linear interpolation")
//   glm-squad    glm::squad(q1, q2, s1, s2, h) + glm::intermediate(prev, curr, next) (gtx) -> squad
// Layout: glm::qua stores (x, y, z, w) by default and its 4-scalar constructor order changed between
// releases, so the adapter reads and writes the named members .w .x .y .z only.
// Doc lines quoted below are from glm/ext/quaternion_common.hpp and glm/gtx/quaternion.hpp of the
// installed release: https://github.com/g-truc/glm/blob/0.9.9.8/glm/ext/quaternion_common.hpp
#define GLM_ENABLE_EXPERIMENTAL  // required by glm/gtx/*.hpp
#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/quaternion.hpp>

#include "quatcheck/registry.h"
#include "adapter.h"

#include <string>

namespace {

#define QC_GLM_STR2(x) #x
#define QC_GLM_STR(x) QC_GLM_STR2(x)
const char *const kVersion = QC_GLM_STR(GLM_VERSION_MAJOR) "." QC_GLM_STR(GLM_VERSION_MINOR) "." QC_GLM_STR(
    GLM_VERSION_PATCH) "." QC_GLM_STR(GLM_VERSION_REVISION);

template <class T> using Q = glm::qua<T, glm::defaultp>;

template <class T> Q<T> in(const T q[4]) {
    Q<T> r;
    r.w = q[0];
    r.x = q[1];
    r.y = q[2];
    r.z = q[3];
    return r;
}

template <class T> void put(const Q<T> &q, T out[4]) { qc::engines::put_wxyz_members(q, out); }

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) { put(glm::slerp(in(q0), in(q1), t), out); }
template <class T> void mix(const T q0[4], const T q1[4], T t, T out[4]) { put(glm::mix(in(q0), in(q1), t), out); }
template <class T> void shortmix(const T q0[4], const T q1[4], T t, T out[4]) {
    put(glm::shortMix(in(q0), in(q1), t), out);
}
template <class T> void fastmix(const T q0[4], const T q1[4], T t, T out[4]) {
    put(glm::fastMix(in(q0), in(q1), t), out);
}
// glm::squad(q1, q2, s1, s2, h): keys first, then their control points, then the parameter.
template <class T> void squad(const T q0[4], const T q1[4], const T s0[4], const T s1[4], T t, T out[4]) {
    put(glm::squad(in(q0), in(q1), in(s0), in(s1), t), out);
}
// glm::intermediate(prev, curr, next): the control point of curr.
template <class T> void squad_setup(const T prev[4], const T cur[4], const T next[4], T s[4]) {
    put(glm::intermediate(in(prev), in(cur), in(next)), s);
}

const qc_impl_v1 slerp_table = qc::engines::slerp_table("glm-slerp", slerp<float>, slerp<double>);
const qc_impl_v1 mix_table = qc::engines::slerp_table("glm-mix", mix<float>, mix<double>);
const qc_impl_v1 shortmix_table = qc::engines::slerp_table("glm-shortmix", shortmix<float>, shortmix<double>);
const qc_impl_v1 fastmix_table = qc::engines::nlerp_table("glm-fastmix", fastmix<float>, fastmix<double>);
const qc_impl_v1 squad_table = {
    "glm-squad", nullptr, nullptr,       squad<float>,        squad_setup<float>,
    nullptr,     nullptr, squad<double>, squad_setup<double>,
};

const char *const kMixDoc =
    "glm/ext/quaternion_common.hpp, mix: 'The interpolation is oriented and the rotation is performed at constant "
    "speed. For short path spherical linear interpolation, use the slerp function.' "
    "https://github.com/g-truc/glm/blob/0.9.9.8/glm/ext/quaternion_common.hpp#L40-L42";

}  // namespace

QC_REGISTER_IMPL_EX(slerp_table, "engine",
                    "glm::slerp(x, y, a): documented 'always take the short path and the rotation is performed at "
                    "constant speed'; lerps (unnormalised) when cos > 1 - epsilon",
                    kVersion, {});
QC_REGISTER_IMPL_EX(mix_table, "engine",
                    "glm::mix(x, y, a) on quaternions: documented spherical interpolation, 'oriented' (no short-path "
                    "sign flip), constant speed",
                    kVersion, {{"slerp", "shortest-arc", kMixDoc}, {"slerp", "sign-invariance", kMixDoc}});
QC_REGISTER_IMPL_EX(shortmix_table, "engine",
                    "glm::shortMix(x, y, a) (gtx/quaternion): documented 'Quaternion interpolation using the rotation "
                    "short path'",
                    kVersion, {});
QC_REGISTER_IMPL_EX(fastmix_table, "engine",
                    "glm::fastMix(x, y, a) (gtx/quaternion): documented 'Quaternion normalized linear interpolation' "
                    "(normalize(x(1-a) + y a), no sign flip)",
                    kVersion,
                    {{"nlerp", "constant-speed",
                      "glm/gtx/quaternion.hpp, fastMix: 'Quaternion normalized linear interpolation.' (normalised "
                      "lerp, not constant speed by construction) "
                      "https://github.com/g-truc/glm/blob/0.9.9.8/glm/gtx/quaternion.hpp#L146-L153"}});
QC_REGISTER_IMPL_EX(squad_table, "engine",
                    "glm::squad(q1, q2, s1, s2, h) with glm::intermediate(prev, curr, next) (gtx/quaternion): "
                    "documented 'a point on a path according squad equation'; built on glm::mix (no short-path flip)",
                    kVersion, {});
