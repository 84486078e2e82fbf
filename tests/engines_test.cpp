// Layout tests for the engine adapters (impls/engines): each adapter must convert quatcheck's (w, x, y, z)
// to the library's own layout and argument order and back. Each case has a known answer whose components
// are all different, so any permutation of w/x/y/z (or of the arguments) is caught:
//   A: identity -> 90 deg about x, t = 0.5:           slerp = (cos 22.5, sin 22.5, 0, 0) = (0.92388, 0.38268, 0, 0)
//   B: 90 deg about y -> 90 deg about z, t = 0.25:    slerp = (0.78868, 0, 0.57735, 0.21132)
//   C: 90 deg about z -> 90 deg about x, t = 0.25:    slerp = (0.78868, 0.21132, 0, 0.57735)
// (B and C: the two keys are 60 deg apart on the sphere, weights sin(45)/sin(60) and sin(15)/sin(60).)
// A family whose library was not found at configure time is skipped, not failed.
#include "quatcheck/registry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

const qc::BuiltinImpl *find_engine(const std::string &family) {
    for (const auto &b : qc::builtin_impls())
        if (family == b.table->family) return &b;
    return nullptr;
}

#define QC_ENGINE_OR_SKIP(var, family, package)                                                             \
    const qc::BuiltinImpl *var = find_engine(family);                                                       \
    if (!var) GTEST_SKIP() << "adapter '" family "' not built: " package " was not found when configuring"; \
    EXPECT_EQ(var->group, "engine");                                                                        \
    EXPECT_FALSE(var->version.empty()) << family " registers no library version";                           \
    EXPECT_EQ(var->version.find("VERSION"), std::string::npos) << "unexpanded version macro: " << var->version

const double kS45 = std::sqrt(0.5);
const double kA0[4] = {1, 0, 0, 0}, kA1[4] = {kS45, kS45, 0, 0};
const double kB0[4] = {kS45, 0, kS45, 0}, kB1[4] = {kS45, 0, 0, kS45};
const double kC0[4] = {kS45, 0, 0, kS45}, kC1[4] = {kS45, kS45, 0, 0};
const double kSlerpA[4] = {0.92387953251128674, 0.38268343236508978, 0, 0};
const double kSlerpB[4] = {0.78867513459481287, 0, 0.57735026918962573, 0.21132486540518708};
const double kSlerpC[4] = {0.78867513459481287, 0.21132486540518708, 0, 0.57735026918962573};

struct Case {
    const double *q0, *q1;
    double t;
    const double *slerp;
};
const Case kCases[] = {{kA0, kA1, 0.5, kSlerpA}, {kB0, kB1, 0.25, kSlerpB}, {kC0, kC1, 0.25, kSlerpC}};

// The plain lerp (1 - t) q0 + t q1 and its normalisation, for the linear routines.
void lerp(const double *q0, const double *q1, double t, double out[4], bool normalise) {
    for (int i = 0; i < 4; i++) out[i] = (1 - t) * q0[i] + t * q1[i];
    if (!normalise) return;
    double n = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
    for (int i = 0; i < 4; i++) out[i] /= n;
}

template <class T> void to(const double *in, T out[4]) {
    for (int i = 0; i < 4; i++) out[i] = static_cast<T>(in[i]);
}

template <class T> double tol() { return sizeof(T) == sizeof(float) ? 2e-5 : 1e-12; }

template <class T> void expect_near4(const T got[4], const double want[4], const std::string &what) {
    for (int i = 0; i < 4; i++)
        EXPECT_NEAR(static_cast<double>(got[i]), want[i], tol<T>())
            << what << ": component "
            << "wxyz"[i] << " (got " << got[i] << ", want " << want[i] << ")";
}

enum class Expect { slerp, nlerp, lerp };

template <class T, class Fn> void check_two_key(Fn fn, Expect e, const std::string &name) {
    ASSERT_NE(fn, nullptr) << name;
    int k = 0;
    for (const Case &c : kCases) {
        T q0[4], q1[4], out[4];
        to(c.q0, q0);
        to(c.q1, q1);
        fn(q0, q1, static_cast<T>(c.t), out);
        double want[4];
        if (e == Expect::slerp) {
            for (int i = 0; i < 4; i++) want[i] = c.slerp[i];
        } else {
            lerp(c.q0, c.q1, c.t, want, e == Expect::nlerp);
        }
        expect_near4(out, want, name + " case " + "ABC"[k]);
        k++;
    }
}

// squad(q0, q1, s0, s1, t): with s0 = q0 and s1 = q1 the segment is the slerp of the keys; with control
// points different from the keys, t = 0 and t = 1 must return the keys (catches a control point passed in a
// key's slot). squad_setup(prev, cur, next) for three rotations about y by 0, 60 and 180 degrees:
// s = cur exp(-(log(cur^-1 next) + log(cur^-1 prev)) / 4) = rotation by 45 degrees about y.
template <class T, class Squad, class Setup> void check_squad(Squad squad, Setup setup, const std::string &name) {
    ASSERT_NE(squad, nullptr) << name;
    ASSERT_NE(setup, nullptr) << name;
    for (const Case &c : {kCases[1], kCases[2]}) {
        T q0[4], q1[4], out[4];
        to(c.q0, q0);
        to(c.q1, q1);
        squad(q0, q1, q0, q1, static_cast<T>(c.t), out);
        expect_near4(out, c.slerp, name + " squad with s = keys");
    }
    {
        T q0[4], q1[4], s0[4], s1[4], out[4];
        to(kB0, q0);
        to(kB1, q1);
        to(kA1, s0);
        to(kC0, s1);
        squad(q0, q1, s0, s1, T(0), out);
        expect_near4(out, kB0, name + " squad t = 0");
        squad(q0, q1, s0, s1, T(1), out);
        expect_near4(out, kB1, name + " squad t = 1");
    }
    {
        const double pi = 3.14159265358979323846;
        auto about_y = [](double deg, T q[4]) {
            double h = deg * 3.14159265358979323846 / 360;
            q[0] = static_cast<T>(std::cos(h));
            q[1] = 0;
            q[2] = static_cast<T>(std::sin(h));
            q[3] = 0;
        };
        T prev[4], cur[4], next[4], s[4];
        about_y(0, prev);
        about_y(60, cur);
        about_y(180, next);
        setup(prev, cur, next, s);
        const double want[4] = {std::cos(pi / 8), 0, std::sin(pi / 8), 0};
        expect_near4(s, want, name + " squad_setup");
    }
}

void check_slerp(const qc_impl_v1 &t, bool f32, bool f64) {
    if (f32) check_two_key<float>(t.slerp_f32, Expect::slerp, std::string(t.family) + ".f32 slerp");
    if (f64) check_two_key<double>(t.slerp_f64, Expect::slerp, std::string(t.family) + ".f64 slerp");
}

void check_nlerp(const qc_impl_v1 &t, bool f32, bool f64) {
    if (f32) check_two_key<float>(t.nlerp_f32, Expect::nlerp, std::string(t.family) + ".f32 nlerp");
    if (f64) check_two_key<double>(t.nlerp_f64, Expect::nlerp, std::string(t.family) + ".f64 nlerp");
}

}  // namespace

TEST(EngineAdapters, GlmSlerp) {
    QC_ENGINE_OR_SKIP(e, "glm-slerp", "glm (libglm-dev)");
    check_slerp(*e->table, true, true);
}

TEST(EngineAdapters, GlmMix) {
    QC_ENGINE_OR_SKIP(e, "glm-mix", "glm (libglm-dev)");
    check_slerp(*e->table, true, true);  // all cases have q0 . q1 > 0, where mix and slerp agree
}

TEST(EngineAdapters, GlmShortMix) {
    QC_ENGINE_OR_SKIP(e, "glm-shortmix", "glm (libglm-dev)");
    check_slerp(*e->table, true, true);
}

TEST(EngineAdapters, GlmFastMix) {
    QC_ENGINE_OR_SKIP(e, "glm-fastmix", "glm (libglm-dev)");
    check_nlerp(*e->table, true, true);
}

TEST(EngineAdapters, GlmSquad) {
    QC_ENGINE_OR_SKIP(e, "glm-squad", "glm (libglm-dev)");
    check_squad<float>(e->table->squad_f32, e->table->squad_setup_f32, "glm-squad.f32");
    check_squad<double>(e->table->squad_f64, e->table->squad_setup_f64, "glm-squad.f64");
}

TEST(EngineAdapters, Eigen) {
    QC_ENGINE_OR_SKIP(e, "eigen", "Eigen3 (libeigen3-dev)");
    check_slerp(*e->table, true, true);
}

TEST(EngineAdapters, Bullet) {
    QC_ENGINE_OR_SKIP(e, "bullet", "Bullet (libbullet-dev)");
    check_slerp(*e->table, true, false);
    EXPECT_EQ(e->table->slerp_f64, nullptr);
}

TEST(EngineAdapters, BulletDouble) {
    QC_ENGINE_OR_SKIP(e, "bullet-double", "Bullet double precision (libbullet-dev, bullet-float64)");
    check_slerp(*e->table, false, true);
    EXPECT_EQ(e->table->slerp_f32, nullptr);
}

TEST(EngineAdapters, OgreShortest) {
    QC_ENGINE_OR_SKIP(e, "ogre-shortest", "OGRE (libogre-1.12-dev)");
    check_slerp(*e->table, true, false);
    check_nlerp(*e->table, true, false);
    check_squad<float>(e->table->squad_f32, e->table->squad_setup_f32, "ogre-shortest.f32");
}

TEST(EngineAdapters, OgreNoShortest) {
    QC_ENGINE_OR_SKIP(e, "ogre-noshortest", "OGRE (libogre-1.12-dev)");
    check_slerp(*e->table, true, false);
    check_nlerp(*e->table, true, false);
    check_squad<float>(e->table->squad_f32, e->table->squad_setup_f32, "ogre-noshortest.f32");
}

// The flag must reach OGRE: with q0 . q1 < 0 the two OGRE families go different ways.
TEST(EngineAdapters, OgreShortestPathFlag) {
    QC_ENGINE_OR_SKIP(s, "ogre-shortest", "OGRE (libogre-1.12-dev)");
    const qc::BuiltinImpl *n = find_engine("ogre-noshortest");
    ASSERT_NE(n, nullptr);
    const float q0[4] = {1, 0, 0, 0};
    const float q1[4] = {-0.70710678f, -0.70710678f, 0, 0};  // 90 deg about x, other hemisphere
    float a[4], b[4];
    s->table->slerp_f32(q0, q1, 0.5f, a);
    n->table->slerp_f32(q0, q1, 0.5f, b);
    const double shortw = 0.92387953251128674, shortx = 0.38268343236508978;  // toward -q1, the short way
    EXPECT_NEAR(a[0], shortw, 2e-5);
    EXPECT_NEAR(a[1], shortx, 2e-5);
    EXPECT_GT(std::fabs(b[0] - a[0]), 0.1f) << "shortestPath=false took the short way too";
}

TEST(EngineAdapters, Assimp) {
    QC_ENGINE_OR_SKIP(e, "assimp", "Assimp (libassimp-dev)");
    check_slerp(*e->table, true, true);
}

TEST(EngineAdapters, Irrlicht) {
    QC_ENGINE_OR_SKIP(e, "irrlicht", "Irrlicht (libirrlicht-dev)");
    check_slerp(*e->table, true, false);  // every case has q0 . q1 <= 0.71, below the lerp switch at 0.95
}

TEST(EngineAdapters, IrrlichtLerp) {
    QC_ENGINE_OR_SKIP(e, "irrlicht-lerp", "Irrlicht (libirrlicht-dev)");
    // Irrlicht's lerp does not normalise: the known answer is the raw component lerp.
    check_two_key<float>(e->table->nlerp_f32, Expect::lerp, "irrlicht-lerp.f32 nlerp");
}

TEST(EngineAdapters, Osg) {
    QC_ENGINE_OR_SKIP(e, "osg", "OpenSceneGraph (libopenscenegraph-dev)");
    check_slerp(*e->table, false, true);
}

TEST(EngineAdapters, Qt) {
    QC_ENGINE_OR_SKIP(e, "qt", "Qt Gui (qt6-base-dev or qtbase5-dev)");
    check_slerp(*e->table, true, false);
    check_nlerp(*e->table, true, false);
}

TEST(EngineAdapters, Cglm) {
    QC_ENGINE_OR_SKIP(e, "cglm", "cglm (libcglm-dev)");
    check_slerp(*e->table, true, false);
    check_nlerp(*e->table, true, false);
}

TEST(EngineAdapters, Tf2) {
    QC_ENGINE_OR_SKIP(e, "tf2", "tf2 (libtf2-dev)");
    check_slerp(*e->table, false, true);
}

// ---- issue 30: OpenCV, VTK, MRPT ----
namespace {

// A key track of rotations about one axis a = (1, 2, 3)/sqrt(14) by 0, 60, 120 and 180 degrees: equally spaced
// keys on one great circle, where Shoemake's control points are the keys themselves, so the squad curve of
// segment 1 (60 -> 120 degrees) at t = 0.25 is the rotation by 75 degrees about a (all four components differ).
// Computed here from cos and sin, independently of any library.
template <class T> void coaxial_track(T keys[16]) {
    const double a[3] = {1 / std::sqrt(14.0), 2 / std::sqrt(14.0), 3 / std::sqrt(14.0)};
    for (int k = 0; k < 4; k++) {
        const double h = k * 60.0 * 3.14159265358979323846 / 360;
        keys[4 * k] = static_cast<T>(std::cos(h));
        for (int c = 0; c < 3; c++) keys[4 * k + 1 + c] = static_cast<T>(std::sin(h) * a[c]);
    }
}
void about_axis(double deg, double q[4]) {
    const double h = deg * 3.14159265358979323846 / 360;
    q[0] = std::cos(h);
    for (int c = 0; c < 3; c++) q[1 + c] = std::sin(h) * (c + 1) / std::sqrt(14.0);
}

template <class T> bool near4(const T got[4], const double want[4]) {
    for (int i = 0; i < 4; i++)
        if (!(std::fabs(static_cast<double>(got[i]) - want[i]) <= tol<T>())) return false;
    return true;
}

// curve(keys, 4, 1, 0.25) is the 75-degree rotation; negative control: the same curve one segment off
// (segment 0 at t = 0.25) is not accepted by the same check.
template <class T, class Curve> void check_coaxial_curve(Curve curve, const std::string &name) {
    ASSERT_NE(curve, nullptr) << name;
    T keys[16], out[4];
    coaxial_track(keys);
    double want[4];
    about_axis(75, want);
    curve(keys, 4, 1, T(0.25), out);
    EXPECT_TRUE(near4(out, want)) << name << ": segment 1, t = 0.25: got " << out[0] << " " << out[1] << " " << out[2]
                                  << " " << out[3];
    curve(keys, 4, 0, T(0.25), out);
    EXPECT_FALSE(near4(out, want)) << name << ": the check cannot tell segment 0 from segment 1";
    // the keys themselves at t = 0 of segment 1 and t = 1 of segment 2
    double k1[4], k3[4];
    about_axis(60, k1);
    about_axis(180, k3);
    curve(keys, 4, 1, T(0), out);
    EXPECT_TRUE(near4(out, k1)) << name << ": t = 0 of segment 1";
    curve(keys, 4, 2, T(1), out);
    EXPECT_TRUE(near4(out, k3)) << name << ": t = 1 of the last segment";
}

}  // namespace

TEST(EngineAdapters, OpenCV) {
    QC_ENGINE_OR_SKIP(d, "opencv", "OpenCV core (libopencv-core-dev)");
    for (const char *family : {"opencv", "opencv-unit"}) {
        const qc::BuiltinImpl *e = find_engine(family);
        ASSERT_NE(e, nullptr) << family;
        check_slerp(*e->table, false, true);  // every case has q0 . q1 <= 0.71, below OpenCV's nlerp switch at 0.995
        check_nlerp(*e->table, true, true);
        // cv::Quat<float>::slerp (and squad, which calls it) does not compile in OpenCV 4.6: no f32 slerp, squad.
        EXPECT_EQ(e->table->slerp_f32, nullptr);
        EXPECT_EQ(e->table->squad_f32, nullptr);
        check_squad<double>(e->table->squad_f64, e->table->squad_setup_f64, std::string(family) + ".f64");
    }
}

// Quat::slerp switches to nlerp above q0 . q1 = 0.995 (documented "we use Nlerp instead of Slerp"): two keys 10
// degrees apart (dot 0.9962) get the normalised lerp, not the arc.
TEST(EngineAdapters, OpenCVSlerpNlerpSwitch) {
    QC_ENGINE_OR_SKIP(e, "opencv", "OpenCV core (libopencv-core-dev)");
    double q0[4], q1[4], out[4], want_lerp[4], want_slerp[4];
    about_axis(0, q0);
    about_axis(20, q1);  // 20 degrees of rotation: dot cos(10 deg) = 0.9848, the arc
    e->table->slerp_f64(q0, q1, 0.3, out);
    about_axis(6, want_slerp);
    expect_near4(out, want_slerp, "opencv.f64 slerp at dot 0.985");
    about_axis(10, q1);  // dot cos(5 deg) = 0.9962 > 0.995: nlerp
    e->table->slerp_f64(q0, q1, 0.3, out);
    lerp(q0, q1, 0.3, want_lerp, true);
    about_axis(3, want_slerp);
    expect_near4(out, want_lerp, "opencv.f64 slerp at dot 0.996 is the nlerp");
    EXPECT_FALSE(near4(out, want_slerp)) << "nlerp and slerp agree to 1e-12 here: the case cannot tell them apart";
}

TEST(EngineAdapters, OpenCVSpline) {
    QC_ENGINE_OR_SKIP(e, "opencv-spline", "OpenCV core (libopencv-core-dev)");
    for (const char *family : {"opencv-spline", "opencv-spline-unit"}) {
        const qc::BuiltinImpl *s = find_engine(family);
        ASSERT_NE(s, nullptr) << family;
        EXPECT_EQ(s->curve.f32, nullptr);  // cv::Quat<float>::spline does not compile in OpenCV 4.6
        check_coaxial_curve<double>(s->curve.f64, std::string(family) + ".f64");
        check_squad<double>(s->table->squad_f64, s->table->squad_setup_f64, std::string(family) + ".f64");
    }
}

TEST(EngineAdapters, Vtk) {
    QC_ENGINE_OR_SKIP(e, "vtk", "VTK (libvtk9-dev)");
    check_slerp(*e->table, true, true);
    check_squad<float>(e->table->squad_f32, e->table->squad_setup_f32, "vtk.f32");
    check_squad<double>(e->table->squad_f64, e->table->squad_setup_f64, "vtk.f64");
}

TEST(EngineAdapters, VtkInterpolator) {
    QC_ENGINE_OR_SKIP(e, "vtk-spline-radians", "VTK (libvtk9-dev)");
    check_coaxial_curve<double>(e->curve.f64, "vtk-spline-radians");
    const qc::BuiltinImpl *lin = find_engine("vtk-linear");
    ASSERT_NE(lin, nullptr);
    check_coaxial_curve<double>(lin->curve.f64, "vtk-linear");  // equally spaced coaxial keys: slerp = squad
    // Linear mode is a slerp per segment: keys B0, B1, C1 (case B then 60 degrees on), segment 0 at t = 0.25.
    double keys[12], out[4];
    for (int c = 0; c < 4; c++) keys[c] = kB0[c], keys[4 + c] = kB1[c], keys[8 + c] = kC1[c];
    lin->curve.f64(keys, 3, 0, 0.25, out);
    expect_near4(out, kSlerpB, "vtk-linear segment 0");
    // Spline mode as a caller receives it: the same 75-degree rotation with w in degrees.
    const qc::BuiltinImpl *raw = find_engine("vtk-spline");
    ASSERT_NE(raw, nullptr);
    double track[16], want[4];
    coaxial_track(track);
    about_axis(75, want);
    raw->curve.f64(track, 4, 1, 0.25, out);
    want[0] *= 180 / 3.14159265358979323846;
    expect_near4(out, want, "vtk-spline (w in degrees)");
}

TEST(EngineAdapters, Mrpt) {
    QC_ENGINE_OR_SKIP(e, "mrpt", "MRPT (libmrpt-dev)");
    check_slerp(*e->table, false, true);
    EXPECT_EQ(e->table->slerp_f32, nullptr);
    double q0[4], q1[4], out[4], want[4];
    // Below a half-angle sine of 0.001 MRPT lerps the components without normalising: 0.1 degrees of rotation.
    about_axis(0, q0);
    about_axis(0.1, q1);
    e->table->slerp_f64(q0, q1, 0.5, out);
    lerp(q0, q1, 0.5, want, false);
    expect_near4(out, want, "mrpt.f64 slerp, small angle (raw lerp)");
    EXPECT_LT(std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]), 1 - 1e-8);
    // CQuaternion's constructor refuses a key whose squared norm is off by 1e-3 or more: NaN, not an exception.
    const double big[4] = {1.01, 0, 0, 0};
    e->table->slerp_f64(big, q1, 0.5, out);
    EXPECT_TRUE(std::isnan(out[0]));
}

// ---- issue 41: Imath, ignition-math, KDL (tests/engine_direct/ compares each with its library bit for bit) ----

TEST(EngineAdapters, Imath) {
    QC_ENGINE_OR_SKIP(e, "imath", "Imath (libimath-dev)");
    check_slerp(*e->table, true, true);  // every case has q0 . q1 > 0, where slerp and the short arc agree
    check_squad<float>(e->table->squad_f32, e->table->squad_setup_f32, "imath.f32");
    check_squad<double>(e->table->squad_f64, e->table->squad_setup_f64, "imath.f64");
    const qc::BuiltinImpl *s = find_engine("imath-shortestarc");
    ASSERT_NE(s, nullptr);
    check_slerp(*s->table, true, true);
}

TEST(EngineAdapters, ImathSpline) {
    QC_ENGINE_OR_SKIP(e, "imath-spline", "Imath (libimath-dev)");
    check_coaxial_curve<float>(e->curve.f32, "imath-spline.f32");
    check_coaxial_curve<double>(e->curve.f64, "imath-spline.f64");
    check_squad<double>(e->table->squad_f64, e->table->squad_setup_f64, "imath-spline.f64");
}

TEST(EngineAdapters, Ignition) {
    QC_ENGINE_OR_SKIP(e, "ignition", "ignition-math (libignition-math-dev)");
    for (const char *family : {"ignition", "ignition-shortest"}) {
        const qc::BuiltinImpl *i = find_engine(family);
        ASSERT_NE(i, nullptr) << family;
        check_slerp(*i->table, true, true);  // every case has |q0 . q1| <= 0.71, far from the lerp switch at 0.999
        check_squad<float>(i->table->squad_f32, i->table->squad_setup_f32, std::string(family) + ".f32");
        check_squad<double>(i->table->squad_f64, i->table->squad_setup_f64, std::string(family) + ".f64");
    }
}

TEST(EngineAdapters, Kdl) {
    QC_ENGINE_OR_SKIP(e, "kdl-singleaxis", "Orocos KDL (liborocos-kdl-dev)");
    check_slerp(*e->table, false, true);  // every answer has w > 0, the sign GetQuaternion gives back here
    EXPECT_EQ(e->table->slerp_f32, nullptr);
}

// ---- issue 41: Coin3D, OpenVDB (tests/engine_direct/ compares each with its library bit for bit) ----

TEST(EngineAdapters, Coin) {
    QC_ENGINE_OR_SKIP(e, "coin", "Coin3D (libcoin-dev)");
    check_slerp(*e->table, true, false);  // SbRotation is float: f32 only
    EXPECT_EQ(e->table->slerp_f64, nullptr);
}

TEST(EngineAdapters, Openvdb) {
    QC_ENGINE_OR_SKIP(e, "openvdb", "OpenVDB (libopenvdb-dev)");
    check_slerp(*e->table, true, true);  // every case has q0 . q1 > 0, where the keys' own arc is the short one
}
