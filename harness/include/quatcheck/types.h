// Vocabulary shared by every part of the harness: precisions, operations, quaternions, cases, errors.
#pragma once

#include "quatcheck/case.h"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace qc {

enum class Precision { f32, f64 };
enum class Op { slerp, nlerp, squad };

const char *to_string(Precision p);
const char *to_string(Op op);
std::optional<Op> parse_op(std::string_view s);

// The floating-point format of an implementation: precision p (significand bits), the smallest
// normal exponent emin, and eps = 2^(1-p), the spacing of the format at 1.
template <class T> struct Format;
template <> struct Format<float> {
    static constexpr Precision precision = Precision::f32;
    static constexpr int p = 24;
    static constexpr int emin = -126;
    static constexpr double eps = 0x1p-23;
    static constexpr const char *name = "f32";
};
template <> struct Format<double> {
    static constexpr Precision precision = Precision::f64;
    static constexpr int p = 53;
    static constexpr int emin = -1022;
    static constexpr double eps = 0x1p-52;
    static constexpr const char *name = "f64";
};

inline int precision_bits(Precision p) { return p == Precision::f32 ? 24 : 53; }
inline double precision_eps(Precision p) { return p == Precision::f32 ? 0x1p-23 : 0x1p-52; }

// Errors that end the program with a one-line message "quatcheck: <what>: <why>".
// UsageError and InputError exit with status 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace qc
