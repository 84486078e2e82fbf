// What several engine adapters share: the conversions between quatcheck's (w, x, y, z) arrays and a library's
// quaternion, and the tables of families with few routines (included by the adapter files of this folder only).
#pragma once

#include "quatcheck/plugin.h"

namespace qc::engines {

using InterpF32 = decltype(qc_impl_v1::slerp_f32);  // slerp_f32 and nlerp_f32
using InterpF64 = decltype(qc_impl_v1::slerp_f64);  // slerp_f64 and nlerp_f64

// The table of a family with only slerp (either precision may be nullptr).
constexpr qc_impl_v1 slerp_table(const char *family, InterpF32 f32, InterpF64 f64) {
    return {family, f32, nullptr, nullptr, nullptr, f64, nullptr, nullptr, nullptr};
}

// The table of a family with only nlerp (either precision may be nullptr).
constexpr qc_impl_v1 nlerp_table(const char *family, InterpF32 f32, InterpF64 f64) {
    return {family, nullptr, f32, nullptr, nullptr, nullptr, f64, nullptr, nullptr};
}

// The table of a family with f32 slerp and nlerp only.
constexpr qc_impl_v1 f32_table(const char *family, InterpF32 slerp, InterpF32 nlerp) {
    return {family, slerp, nlerp, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
}

// A Q made by Q's (x, y, z, w) constructor from quatcheck's (w, x, y, z) array.
template <class Q, class T> Q from_wxyz_as_xyzw(const T q[4]) { return Q(q[1], q[2], q[3], q[0]); }

// Writes Q's w() x() y() z() accessors to OUT in quatcheck's order.
template <class Q, class T> void put_wxyz_calls(const Q &q, T out[4]) {
    out[0] = q.w();
    out[1] = q.x();
    out[2] = q.y();
    out[3] = q.z();
}

// Writes Q's w, x, y, z members to OUT in quatcheck's order.
template <class Q, class T> void put_wxyz_members(const Q &q, T out[4]) {
    out[0] = q.w;
    out[1] = q.x;
    out[2] = q.y;
    out[3] = q.z;
}

}  // namespace qc::engines
