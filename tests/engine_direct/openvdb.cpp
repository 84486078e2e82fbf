// OpenVDB called directly (math::slerp of math::Quat<T>, the header's default tolerance) against the adapter
// openvdb (impls/engines/openvdb.cpp): bit-identical on 100 cases, f32 and f64, with the negative controls of
// direct.h.
#include "direct.h"

#include <openvdb/math/Quat.h>
#include <openvdb/version.h>

namespace {

using qc::direct::Case;

template <class T> using Q = openvdb::math::Quat<T>;

// OpenVDB's quaternion of key K: its constructor takes (x, y, z, w).
template <class T> Q<T> key(const Case<T> &c, int k) { return Q<T>(c.q[k][1], c.q[k][2], c.q[k][3], c.q[k][0]); }

template <class T> void check_openvdb(const qc_impl_v1 &a) {
    const std::string p = sizeof(T) == 4 ? ".f32" : ".f64";
    auto slerp = qc::direct::pick<T>(a.slerp_f32, a.slerp_f64);
    ASSERT_NE(slerp, nullptr) << "openvdb" << p;
    qc::direct::expect_identical<T>(
        "openvdb" + p + " slerp", [&](const Case<T> &c, T o[4]) { slerp(c.q[0].data(), c.q[1].data(), c.t, o); },
        [](const Case<T> &c, T o[4]) {
            const Q<T> r = openvdb::math::slerp(key(c, 0), key(c, 1), c.t);
            o[0] = r.w();
            o[1] = r.x();
            o[2] = r.y();
            o[3] = r.z();
        });
}

}  // namespace

TEST(EngineDirect, Openvdb) {
    QC_DIRECT_ENGINE(e, "openvdb");
    EXPECT_EQ(e->version, OPENVDB_LIBRARY_VERSION_STRING);
    check_openvdb<float>(*e->table);
    check_openvdb<double>(*e->table);
}
