// What the testing library's own files share (not installed).
#pragma once

#include "quatcheck/reference.h"
#include "reference/reference.h"

#include <string>

namespace qc::detail {

// The harness's reference of (q0, q1, t) in the format (f32: float), in the tool's default mode. Throws
// std::invalid_argument with one line for a non-finite or zero quaternion or a non-finite t.
void evaluate_reference(bool f32, const double q0[4], const double q1[4], double t, SlerpReference &out);

// Text of one number or quaternion: hexfloat, and decimal with the digits that identify the value in the
// format (9 for float, 17 for double).
std::string hex(double x);
std::string dec(double x, bool f32);
std::string hex_quat(const double q[4]);
std::string dec_quat(const double q[4], bool f32);
// "near-0, threshold" or "uniform", from regions_of().
std::string region_list(bool f32, const double q0[4], const double q1[4], double t);

}  // namespace qc::detail
