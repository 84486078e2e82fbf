// broken-matrix-lerp (negative control): the second "obvious method" seed 003 warns about: convert both ends
// to 3x3 rotation matrices, lerp the nine entries, convert back with the trace method (Shepperd's largest-
// diagonal branch), with no re-orthonormalisation. The lerped matrix shears and shrinks, so the quaternion
// read back is not unit. Meant to be caught by `unit`.
#include "quatcheck/registry.h"

#include <cmath>

namespace {

template <class T> void to_matrix(const T q[4], T m[3][3]) {
    T w = q[0], x = q[1], y = q[2], z = q[3];
    m[0][0] = 1 - 2 * (y * y + z * z);
    m[0][1] = 2 * (x * y - w * z);
    m[0][2] = 2 * (x * z + w * y);
    m[1][0] = 2 * (x * y + w * z);
    m[1][1] = 1 - 2 * (x * x + z * z);
    m[1][2] = 2 * (y * z - w * x);
    m[2][0] = 2 * (x * z - w * y);
    m[2][1] = 2 * (y * z + w * x);
    m[2][2] = 1 - 2 * (x * x + y * y);
}

template <class T> void from_matrix(const T m[3][3], T q[4]) {
    T tr = m[0][0] + m[1][1] + m[2][2];
    if (tr > m[0][0] && tr > m[1][1] && tr > m[2][2]) {
        T s = std::sqrt(T(1) + tr) * T(2);  // 4w
        q[0] = s / 4;
        q[1] = (m[2][1] - m[1][2]) / s;
        q[2] = (m[0][2] - m[2][0]) / s;
        q[3] = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        T s = std::sqrt(T(1) + m[0][0] - m[1][1] - m[2][2]) * T(2);  // 4x
        q[0] = (m[2][1] - m[1][2]) / s;
        q[1] = s / 4;
        q[2] = (m[0][1] + m[1][0]) / s;
        q[3] = (m[0][2] + m[2][0]) / s;
    } else if (m[1][1] > m[2][2]) {
        T s = std::sqrt(T(1) + m[1][1] - m[0][0] - m[2][2]) * T(2);  // 4y
        q[0] = (m[0][2] - m[2][0]) / s;
        q[1] = (m[0][1] + m[1][0]) / s;
        q[2] = s / 4;
        q[3] = (m[1][2] + m[2][1]) / s;
    } else {
        T s = std::sqrt(T(1) + m[2][2] - m[0][0] - m[1][1]) * T(2);  // 4z
        q[0] = (m[1][0] - m[0][1]) / s;
        q[1] = (m[0][2] + m[2][0]) / s;
        q[2] = (m[1][2] + m[2][1]) / s;
        q[3] = s / 4;
    }
}

template <class T> void slerp(const T q0[4], const T q1[4], T t, T out[4]) {
    T m0[3][3], m1[3][3], m[3][3];
    to_matrix(q0, m0);
    to_matrix(q1, m1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m[i][j] = m0[i][j] + t * (m1[i][j] - m0[i][j]);
    from_matrix(m, out);
}

const qc_impl_v1 table = {"broken-matrix-lerp", slerp<float>, nullptr, nullptr, nullptr,
                          slerp<double>,        nullptr,      nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "broken", "negative control: entry-wise lerp of rotation matrices (caught by unit)");
