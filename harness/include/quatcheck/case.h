// The two-key case and the sampling regions: the vocabulary the harness and the installed testing library
// (quatcheck::testing, include/quatcheck/reference.h) share, so that a case or a region means one thing in
// both. C++17, standard headers only; installed with the testing library's headers.
#pragma once

#include <array>

namespace qc {

// A quaternion (w, x, y, z), scalar part first, in the implementation's format.
template <class T> using Quat = std::array<T, 4>;

// One two-key case: interpolate from q0 to q1 at parameter t. A plain aggregate, so that
// `auto [q0, q1, t] = c;` works.
template <class T> struct SlerpCase {
    Quat<T> q0{}, q1{};
    T t{};
};

// Where the tool samples cases (docs/regions.md; the bounds and samplers are in harness/regions/regions.h).
enum class Region { uniform, near_0, near_half_pi, near_pi, threshold };

}  // namespace qc
