// VTK adapters (CommonMath): vtkQuaternion<T> (header template, vtkQuaternion.txx) in f32 and f64, and
// vtkQuaternionInterpolator (libvtkCommonMath, double only) as a curve through a key track:
//   vtk                 vtkQuaternion<T>::Slerp(t, q1) -> slerp; squad = the three Slerps vtkQuaternionInterpolator
//                       composes (Slerp(Slerp(q_i, q_i+1, t), Slerp(s_i, s_i+1, t), 2t(1-t))), squad_setup =
//                       InnerPoint: prev.InnerPoint(cur, next) is the control point of cur, as the interpolator
//                       calls it ("q0.InnerPoint(q1, q2)")
//   vtk-spline          vtkQuaternionInterpolator, SetInterpolationTypeToSpline() (the default), keys added at
//                       t = 0, 1, ..., n-1, InterpolateQuaternion(segment + t, q): the KeyCurve. Its squad +
//                       squad_setup (the refcp column of `quatcheck squad`) are vtk's.
//   vtk-spline-radians  the same curve with the output's w converted back from degrees: in Spline mode VTK 9.1
//                       ends with q.NormalizeWithAngleInDegrees(), which normalises and then multiplies w by
//                       180/pi (at every t strictly inside the track; the end keys are returned as given). This
//                       family undoes that one step (w * pi/180, vtkMath::RadiansFromDegrees) to measure the
//                       curve VTK computes; vtk-spline is what a caller receives.
//   vtk-linear          vtkQuaternionInterpolator, SetInterpolationTypeToLinear(): a Slerp per segment; its squad
//                       slot is Slerp of the keys (control points unused), squad_setup returns the key.
// Layout: vtkQuaternion(w, x, y, z); Get(T[4]) writes (w, x, y, z); the interpolator's double q[4] is (w, x, y, z).
// Doc lines quoted below: https://vtk.org/doc/release/9.1/html/classvtkQuaternionInterpolator.html and
// https://vtk.org/doc/release/9.1/html/classvtkQuaternion.html
#include <vtkMath.h>
#include <vtkNew.h>
#include <vtkQuaternion.h>
#include <vtkQuaternionInterpolator.h>
#include <vtkVersionMacros.h>

#include "quatcheck/registry.h"

#include <cstddef>

namespace {

const char *const kVersion = VTK_VERSION;

template <class T> vtkQuaternion<T> in(const T q[4]) { return vtkQuaternion<T>(q[0], q[1], q[2], q[3]); }

template <class T> void put(const vtkQuaternion<T> &q, T out[4]) { q.Get(out); }

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) { put(in(q0).Slerp(t, in(q1)), out); }
template <class T> void squad(const T q0[4], const T q1[4], const T s0[4], const T s1[4], T t, T out[4]) {
    const vtkQuaternion<T> qc = in(q0).Slerp(t, in(q1)), qd = in(s0).Slerp(t, in(s1));
    put(qc.Slerp(T(2) * t * (T(1) - t), qd), out);
}
template <class T> void inner_point(const T prev[4], const T cur[4], const T next[4], T s[4]) {
    put(in(prev).InnerPoint(in(cur), in(next)), s);
}
// vtk-linear's squad slot: the segment's Slerp, control points unused; its squad_setup returns the key.
void linear_squad(const double q0[4], const double q1[4], const double *, const double *, double t, double out[4]) {
    slerp(q0, q1, t, out);
}
void key_as_control(const double *, const double cur[4], const double *, double s[4]) {
    for (int i = 0; i < 4; i++) s[i] = cur[i];
}

// One interpolator per thread, refilled per call (the keys differ from call to call).
template <int Type, bool Radians>
void interpolate(const double *keys, size_t n, size_t segment, double t, double out[4]) {
    thread_local vtkNew<vtkQuaternionInterpolator> ip;
    ip->Initialize();
    ip->SetInterpolationType(Type);
    for (size_t i = 0; i < n; i++) {
        double q[4] = {keys[4 * i], keys[4 * i + 1], keys[4 * i + 2], keys[4 * i + 3]};
        ip->AddQuaternion(double(i), q);
    }
    ip->InterpolateQuaternion(double(segment) + t, out);
    const bool inside = double(segment) + t > 0 && double(segment) + t < double(n - 1);
    if (Radians && inside) out[0] = vtkMath::RadiansFromDegrees(out[0]);
}

const qc_impl_v1 vtk_table = {
    "vtk",         slerp<float>, nullptr,       squad<float>,        inner_point<float>,
    slerp<double>, nullptr,      squad<double>, inner_point<double>,
};
const qc_impl_v1 spline_table = {
    "vtk-spline", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, squad<double>, inner_point<double>,
};
const qc_impl_v1 spline_radians_table = {
    "vtk-spline-radians", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, squad<double>, inner_point<double>,
};
const qc_impl_v1 linear_table = {
    "vtk-linear", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, linear_squad, key_as_control,
};
const qc::KeyCurve spline_curve{nullptr, interpolate<vtkQuaternionInterpolator::INTERPOLATION_TYPE_SPLINE, false>};
const qc::KeyCurve spline_radians_curve{nullptr,
                                        interpolate<vtkQuaternionInterpolator::INTERPOLATION_TYPE_SPLINE, true>};
const qc::KeyCurve linear_curve{nullptr, interpolate<vtkQuaternionInterpolator::INTERPOLATION_TYPE_LINEAR, false>};

const char *const kLinearDoc =
    "vtkQuaternionInterpolator.h: 'The interpolation may be linear in form (using spherical linear interpolation "
    "SLERP)': one Slerp per segment, so the angular velocity jumps at the keys "
    "https://vtk.org/doc/release/9.1/html/classvtkQuaternionInterpolator.html";

}  // namespace

QC_REGISTER_IMPL_EX(
    vtk_table, "engine",
    "vtkQuaternion<T>::Slerp(t, q1), and squad as vtkQuaternionInterpolator composes it from Slerp with "
    "InnerPoint control points: documented spherical linear interpolation; lerp (unnormalised) when "
    "1 - |cos| < 1e-6",
    kVersion, {});
QC_REGISTER_CURVE(spline_table, spline_curve, "engine",
                  "vtkQuaternionInterpolator, Spline mode (the default), keys at t = 0..n-1: documented 'spline "
                  "interpolation (using SQUAD)'; returns w in degrees (NormalizeWithAngleInDegrees) inside the track",
                  kVersion, {});
QC_REGISTER_CURVE(spline_radians_table, spline_radians_curve, "engine",
                  "vtkQuaternionInterpolator, Spline mode, with the output's w converted back from degrees "
                  "(vtkMath::RadiansFromDegrees): the SQUAD curve VTK computes",
                  kVersion, {});
QC_REGISTER_CURVE(linear_table, linear_curve, "engine",
                  "vtkQuaternionInterpolator, Linear mode, keys at t = 0..n-1: documented SLERP between each pair of "
                  "quaternions (not C1 at the keys by design)",
                  kVersion, {{"squad", "c1", kLinearDoc}, {"squad", "c1-sign-flip", kLinearDoc}});
