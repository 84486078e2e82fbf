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

#define QC_ENGINE_OR_SKIP(var, family, package)                                                                \
    const qc::BuiltinImpl *var = find_engine(family);                                                          \
    if (!var) GTEST_SKIP() << "adapter '" family "' not built: " package " was not found when configuring";      \
    EXPECT_EQ(var->group, "engine");                                                                           \
    EXPECT_FALSE(var->version.empty()) << family " registers no library version";                            \
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
            << what << ": component " << "wxyz"[i] << " (got " << got[i] << ", want " << want[i] << ")";
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
