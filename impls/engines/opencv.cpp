// OpenCV adapters (opencv_core, cv::Quat<T>, header-inline in opencv2/core/quaternion.inl.hpp), f64 through
// cv::Quatd and, for nlerp only, f32 through cv::Quatf. In OpenCV 4.6 cv::Quat<float>::slerp and ::spline do not
// compile: both start with `Quatd v0(q0)` on Quat<float> arguments, and Quat has no converting constructor
// ("no matching function for call to cv::Quat<double>::Quat(const cv::Quat<float>&)"); squad calls slerp. So
// Quatf offers nlerp (and interPoint) only, and the f32 slerp, squad and spline slots stay empty.
//   opencv              Quat<T>::slerp (f64) / nlerp / squad + interPoint with assumeUnit = QUAT_ASSUME_NOT_UNIT (the
//                       header default: every input is normalised first) and directChange = true (the default)
//   opencv-unit         the same with QUAT_ASSUME_UNIT ("this function will save some computations")
//   opencv-spline       Quat<T>::spline(q0, q1, q2, q3, t) over a key track (a KeyCurve: the four keys around each
//                       segment, the end keys doubled as the header's example does: spline(v0, v0, v1, v2, t) for
//                       the first segment, spline(v0, v1, v2, v2, t) for the last); its squad + squad_setup
//                       (the refcp column of `quatcheck squad`) are the two calls spline makes itself: interPoint
//                       and squad(..., directChange = QUAT_ASSUME_NOT_UNIT, i.e. false)
//   opencv-spline-unit  the same with QUAT_ASSUME_UNIT
// Argument orders (opencv2/core/quaternion.hpp): slerp(q0, q1, t, assumeUnit, directChange),
// nlerp(q0, q1, t, assumeUnit), squad(q0, s0, s1, q1, t, assumeUnit, directChange) with q0, q1 the keys and
// s0, s1 their control points, interPoint(q0, q1, q2, assumeUnit) the control point of q1.
// Layout: cv::Quat(w, x, y, z), members w, x, y, z.
// Doc lines quoted below: https://docs.opencv.org/4.6.0/df/d57/classcv_1_1Quat.html
#include <opencv2/core/quaternion.hpp>
#include <opencv2/core/version.hpp>

#include "quatcheck/registry.h"
#include "adapter.h"

#include <algorithm>
#include <cstddef>

namespace {

const char *const kVersion = CV_VERSION;

template <class T> cv::Quat<T> in(const T q[4]) { return cv::Quat<T>(q[0], q[1], q[2], q[3]); }

template <class T> void put(const cv::Quat<T> &q, T out[4]) { qc::engines::put_wxyz_members(q, out); }

template <class T, cv::QuatAssumeType U> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    put(cv::Quat<T>::slerp(in(q0), in(q1), t, U), out);
}
template <class T, cv::QuatAssumeType U> void nlerp(const T q0[4], const T q1[4], T t, T out[4]) {
    put(cv::Quat<T>::nlerp(in(q0), in(q1), t, U), out);
}
template <class T, cv::QuatAssumeType U, bool DirectChange>
void squad(const T q0[4], const T q1[4], const T s0[4], const T s1[4], T t, T out[4]) {
    put(cv::Quat<T>::squad(in(q0), in(s0), in(s1), in(q1), t, U, DirectChange), out);
}
template <class T, cv::QuatAssumeType U> void inter_point(const T prev[4], const T cur[4], const T next[4], T s[4]) {
    put(cv::Quat<T>::interPoint(in(prev), in(cur), in(next), U), s);
}
// spline over the track: the four keys around segment k, the end keys standing in for missing neighbours.
template <class T, cv::QuatAssumeType U> void spline(const T *keys, size_t n, size_t k, T t, T out[4]) {
    auto key = [&](size_t i) { return in(keys + 4 * i); };
    const size_t before = k == 0 ? 0 : k - 1, after = std::min(k + 2, n - 1);
    put(cv::Quat<T>::spline(key(before), key(k), key(k + 1), key(after), t, U), out);
}

constexpr cv::QuatAssumeType kNotUnit = cv::QUAT_ASSUME_NOT_UNIT, kUnit = cv::QUAT_ASSUME_UNIT;

// The table of FAMILY: the routines with assumeUnit = U and directChange = true.
template <cv::QuatAssumeType U> constexpr qc_impl_v1 assume_table(const char *family) {
    return {family,
            nullptr,
            nlerp<float, U>,
            nullptr,
            nullptr,
            slerp<double, U>,
            nlerp<double, U>,
            squad<double, U, true>,
            inter_point<double, U>};
}
const qc_impl_v1 default_table = assume_table<kNotUnit>("opencv");
const qc_impl_v1 unit_table = assume_table<kUnit>("opencv-unit");
// Quat::spline normalises the keys (unless assumeUnit), flips each key into the previous one's hemisphere,
// takes interPoint(..., QUAT_ASSUME_UNIT) and calls squad(..., assumeUnit, QUAT_ASSUME_NOT_UNIT): the
// enumerator 0 in the bool directChange, so no short-path flip in its slerps.
// The table of a spline family: squad with assumeUnit = U and directChange = false, interPoint assuming unit keys.
template <cv::QuatAssumeType U> constexpr qc_impl_v1 spline_squad_table(const char *family) {
    return {family,
            nullptr,
            nullptr,
            nullptr,
            nullptr,
            nullptr,
            nullptr,
            squad<double, U, false>,
            inter_point<double, kUnit>};
}
const qc_impl_v1 spline_table = spline_squad_table<kNotUnit>("opencv-spline");
const qc_impl_v1 spline_unit_table = spline_squad_table<kUnit>("opencv-spline-unit");
const qc::KeyCurve spline_curve{nullptr, spline<double, kNotUnit>};
const qc::KeyCurve spline_unit_curve{nullptr, spline<double, kUnit>};

const char *const kApi = " https://docs.opencv.org/4.6.0/df/d57/classcv_1_1Quat.html";
const std::string kNlerpDoc =
    std::string(
        "quaternion.hpp, nlerp: 'The interpolation will always choose the shortest path but the constant "
        "speed is not guaranteed.'") +
    kApi;
const std::string kSlerpDoc =
    std::string(
        "quaternion.hpp, slerp: 'If the interpolation angle is small, the error between Nlerp and Slerp is "
        "not so large. To improve efficiency and avoid zero division error, we use Nlerp instead of Slerp.' "
        "(the code switches at q0.q1 > 0.995, about 11.5 degrees of rotation)") +
    kApi;

}  // namespace

QC_REGISTER_IMPL_EX(default_table, "engine",
                    "cv::Quat<T>::slerp / nlerp / squad + interPoint (assumeUnit = QUAT_ASSUME_NOT_UNIT, the default; "
                    "directChange = true): documented shortest path; slerp takes nlerp for 'small' angles",
                    kVersion, {{"nlerp", "constant-speed", kNlerpDoc}, {"slerp", "constant-speed", kSlerpDoc}});
QC_REGISTER_IMPL_EX(unit_table, "engine",
                    "cv::Quat<T>::slerp / nlerp / squad + interPoint with QUAT_ASSUME_UNIT (inputs taken as unit, "
                    "'save some computations'); directChange = true",
                    kVersion, {{"nlerp", "constant-speed", kNlerpDoc}, {"slerp", "constant-speed", kSlerpDoc}});
QC_REGISTER_CURVE(spline_table, spline_curve, "engine",
                  "cv::Quat<T>::spline(q0, q1, q2, q3, t) over the track (end keys doubled, as the header's example): "
                  "documented 'C1 continuous spline curve constructed by squad'",
                  kVersion, {});
QC_REGISTER_CURVE(spline_unit_table, spline_unit_curve, "engine",
                  "cv::Quat<T>::spline(q0, q1, q2, q3, t, QUAT_ASSUME_UNIT) over the track (end keys doubled): "
                  "documented 'C1 continuous spline curve constructed by squad'",
                  kVersion, {});
