// Qt adapter (QtGui, float only): QQuaternion::slerp -> slerp, QQuaternion::nlerp -> nlerp.
// Qt documents (https://doc.qt.io/qt-6/qquaternion.html):
//   slerp: "Interpolates along the shortest spherical path between the rotational positions q1 and q2. The
//          value t should be between 0 and 1 ... If t is less than or equal to 0, then q1 will be returned.
//          If t is greater than or equal to 1, then q2 will be returned."
//   nlerp: "Interpolates along the shortest linear path between the rotational positions q1 and q2 ... The
//          result will be normalized() ... The nlerp() function is typically faster than slerp() and will give
//          approximate results to spherical interpolation that are good enough for some applications."
// Layout: QQuaternion(scalar, x, y, z) constructor and scalar() x() y() z() accessors.
#include <QtCore/qglobal.h>
#include <QtGui/QQuaternion>

#include "quatcheck/registry.h"
#include "adapter.h"

namespace {

QQuaternion in(const float q[4]) { return QQuaternion(q[0], q[1], q[2], q[3]); }

void put(const QQuaternion &q, float out[4]) {
    out[0] = q.scalar();
    out[1] = q.x();
    out[2] = q.y();
    out[3] = q.z();
}

void slerp(const float q0[4], const float q1[4], float t, float out[4]) {
    put(QQuaternion::slerp(in(q0), in(q1), t), out);
}
void nlerp(const float q0[4], const float q1[4], float t, float out[4]) {
    put(QQuaternion::nlerp(in(q0), in(q1), t), out);
}

const qc_impl_v1 table = qc::engines::f32_table("qt", slerp, nlerp);

}  // namespace

QC_REGISTER_IMPL_EX(table, "engine",
                    "QQuaternion::slerp / QQuaternion::nlerp(q1, q2, t): documented 'shortest spherical path' and "
                    "'shortest linear path', result normalized; nlerp 'approximate results to spherical interpolation'",
                    QT_VERSION_STR,
                    {{"nlerp", "constant-speed",
                      "QQuaternion::nlerp: 'will give approximate results to spherical interpolation that are good "
                      "enough for some applications' https://doc.qt.io/qt-6/qquaternion.html#nlerp"}});
