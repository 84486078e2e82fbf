// Imath called directly (Imath::slerp, slerpShortestArc, squad, intermediate, spline) against the adapters
// imath, imath-shortestarc and imath-spline (impls/engines/imath.cpp): bit-identical on 100 cases, f32 and f64,
// with the negative controls of direct.h.
#include "direct.h"

#include <Imath/ImathConfig.h>
#include <Imath/ImathQuat.h>

namespace {

using qc::direct::Case;
using qc::direct::expect_identical;

template <class T> Imath::Quat<T> key(const Case<T> &c, int k) { return qc::direct::wxyz<Imath::Quat<T>>(c.q[k]); }

template <class T> void out(const Imath::Quat<T> &q, T o[4]) {
    o[0] = q.r;
    o[1] = q.v.x;
    o[2] = q.v.y;
    o[3] = q.v.z;
}

template <class T> void check_imath(const qc_impl_v1 &a, const qc_impl_v1 &shortest, const qc::KeyCurve &curve) {
    const std::string p = sizeof(T) == 4 ? ".f32" : ".f64";
    auto slerp = qc::direct::pick<T>(a.slerp_f32, a.slerp_f64);
    auto squad = qc::direct::pick<T>(a.squad_f32, a.squad_f64);
    auto setup = qc::direct::pick<T>(a.squad_setup_f32, a.squad_setup_f64);
    auto sslerp = qc::direct::pick<T>(shortest.slerp_f32, shortest.slerp_f64);
    auto spline = qc::direct::pick<T>(curve.f32, curve.f64);
    ASSERT_TRUE(slerp && squad && setup && sslerp && spline) << "imath" << p << ": a routine is missing";
    expect_identical<T>(
        "imath" + p + " slerp", [&](const Case<T> &c, T o[4]) { slerp(c.q[0].data(), c.q[1].data(), c.t, o); },
        [](const Case<T> &c, T o[4]) { out(Imath::slerp(key(c, 0), key(c, 1), c.t), o); });
    expect_identical<T>(
        "imath-shortestarc" + p + " slerp",
        [&](const Case<T> &c, T o[4]) { sslerp(c.q[0].data(), c.q[1].data(), c.t, o); },
        [](const Case<T> &c, T o[4]) { out(Imath::slerpShortestArc(key(c, 0), key(c, 1), c.t), o); });
    // The adapter's squad(q0, q1, s0, s1, t) is Imath's squad(q0, s0, s1, q1, t).
    expect_identical<T>(
        "imath" + p + " squad",
        [&](const Case<T> &c, T o[4]) { squad(c.q[0].data(), c.q[1].data(), c.q[2].data(), c.q[3].data(), c.t, o); },
        [](const Case<T> &c, T o[4]) { out(Imath::squad(key(c, 0), key(c, 2), key(c, 3), key(c, 1), c.t), o); });
    expect_identical<T>(
        "imath" + p + " squad_setup",
        [&](const Case<T> &c, T o[4]) { setup(c.q[0].data(), c.q[1].data(), c.q[2].data(), o); },
        [](const Case<T> &c, T o[4]) { out(Imath::intermediate(key(c, 0), key(c, 1), key(c, 2)), o); });
    // The curve over the four keys as a track, at the case's segment: spline of the four keys around it, the end
    // keys doubled.
    expect_identical<T>(
        "imath-spline" + p + " curve", [&](const Case<T> &c, T o[4]) { spline(c.q[0].data(), 4, c.segment, c.t, o); },
        [](const Case<T> &c, T o[4]) {
            const int s = static_cast<int>(c.segment), before = s == 0 ? 0 : s - 1, after = s == 2 ? 3 : s + 2;
            out(Imath::spline(key(c, before), key(c, s), key(c, s + 1), key(c, after), c.t), o);
        });
}

}  // namespace

TEST(EngineDirect, Imath) {
    QC_DIRECT_ENGINE(a, "imath");
    QC_DIRECT_ENGINE(s, "imath-shortestarc");
    QC_DIRECT_ENGINE(sp, "imath-spline");
    EXPECT_EQ(a->version, IMATH_VERSION_STRING);
    check_imath<float>(*a->table, *s->table, sp->curve);
    check_imath<double>(*a->table, *s->table, sp->curve);
}
