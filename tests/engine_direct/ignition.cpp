// ignition-math called directly (Quaternion<T>::Slerp and Squad, shortestPath false and true; the control point
// from its Inverse, Log and Exp) against the adapters ignition and ignition-shortest (impls/engines/ignition.cpp):
// bit-identical on 100 cases, f32 and f64, with the negative controls of direct.h.
#include "direct.h"

#include <ignition/math/Quaternion.hh>
#include <ignition/math/config.hh>

namespace {

using qc::direct::Case;
using qc::direct::expect_identical;

template <class T> using Q = ignition::math::Quaternion<T>;

template <class T> Q<T> key(const Case<T> &c, int k) { return qc::direct::wxyz<Q<T>>(c.q[k]); }

template <class T> void out(const Q<T> &q, T o[4]) {
    o[0] = q.W();
    o[1] = q.X();
    o[2] = q.Y();
    o[3] = q.Z();
}

// Shoemake's control point of q1 between q0 and q2, written here with the library's own operations.
template <class T> Q<T> control(const Case<T> &c) {
    const Q<T> inv = key(c, 1).Inverse();
    return key(c, 1) * (((inv * key(c, 2)).Log() + (inv * key(c, 0)).Log()) * T(-0.25)).Exp();
}

template <class T> void check_ignition(const qc_impl_v1 &a, bool shortest, const std::string &family) {
    const std::string p = sizeof(T) == 4 ? ".f32" : ".f64";
    auto slerp = qc::direct::pick<T>(a.slerp_f32, a.slerp_f64);
    auto squad = qc::direct::pick<T>(a.squad_f32, a.squad_f64);
    auto setup = qc::direct::pick<T>(a.squad_setup_f32, a.squad_setup_f64);
    ASSERT_TRUE(slerp && squad && setup) << family << p << ": a routine is missing";
    expect_identical<T>(
        family + p + " slerp", [&](const Case<T> &c, T o[4]) { slerp(c.q[0].data(), c.q[1].data(), c.t, o); },
        [&](const Case<T> &c, T o[4]) { out(Q<T>::Slerp(c.t, key(c, 0), key(c, 1), shortest), o); });
    // The adapter's squad(q0, q1, s0, s1, t) is Squad(t, q0, s0, s1, q1, shortestPath).
    expect_identical<T>(
        family + p + " squad",
        [&](const Case<T> &c, T o[4]) { squad(c.q[0].data(), c.q[1].data(), c.q[2].data(), c.q[3].data(), c.t, o); },
        [&](const Case<T> &c, T o[4]) {
            out(Q<T>::Squad(c.t, key(c, 0), key(c, 2), key(c, 3), key(c, 1), shortest), o);
        });
    expect_identical<T>(
        family + p + " squad_setup",
        [&](const Case<T> &c, T o[4]) { setup(c.q[0].data(), c.q[1].data(), c.q[2].data(), o); },
        [](const Case<T> &c, T o[4]) { out(control(c), o); });
}

}  // namespace

TEST(EngineDirect, Ignition) {
    QC_DIRECT_ENGINE(d, "ignition");
    QC_DIRECT_ENGINE(s, "ignition-shortest");
    EXPECT_EQ(d->version, IGNITION_MATH_VERSION_FULL);
    check_ignition<float>(*d->table, false, "ignition");
    check_ignition<double>(*d->table, false, "ignition");
    check_ignition<float>(*s->table, true, "ignition-shortest");
    check_ignition<double>(*s->table, true, "ignition-shortest");
}

// The flag reaches the library: the two families differ on the cases with a negative key dot product.
TEST(EngineDirect, IgnitionShortestPathFlag) {
    QC_DIRECT_ENGINE(d, "ignition");
    QC_DIRECT_ENGINE(s, "ignition-shortest");
    int differ = 0;
    for (const auto &c : qc::direct::cases<double>()) {
        double a[4], b[4];
        d->table->slerp_f64(c.q[0].data(), c.q[1].data(), c.t, a);
        s->table->slerp_f64(c.q[0].data(), c.q[1].data(), c.t, b);
        differ += std::memcmp(a, b, sizeof a) != 0;
    }
    EXPECT_GT(differ, 20) << "shortestPath = true and false agree on nearly every case";
}
