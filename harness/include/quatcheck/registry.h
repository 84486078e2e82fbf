// Registration of built-in implementations.
//
// An in-tree implementation is one .cpp file under impls/<group>/ that fills a qc_impl_v1 (the same
// struct a plugin exports) and registers it with one line:
//
//     QC_REGISTER_IMPL(my_table, "seed", "one line: which routine this calls and what it promises");
//
// Optional extras (library version, documented deviations) go through QC_REGISTER_IMPL_EX.
#pragma once

#include "quatcheck/plugin.h"

#include <cstddef>
#include <string>
#include <vector>

namespace qc {

// A deviation an implementation documents, so that a failing conformance property is reported as
// `known` instead of `fail`. Never available to plugins.
struct KnownDeviation {
    std::string op;        // "slerp", "nlerp", "squad" or "*"
    std::string property;  // conformance property name, e.g. "constant-speed"
    std::string why;       // one line, with a link to the documentation line where there is one
};

// A key-track curve that a library evaluates from the keys themselves rather than from per-key control points
// (OpenCV's Quat::spline takes the four keys around a segment, VTK's vtkQuaternionInterpolator the whole
// track): curve(keys, n, segment, t, out), with keys the n keys' 4n components (w, x, y, z each), writes the curve at parameter t in [0, 1] of segment
// keys[segment] -> keys[segment + 1]. `quatcheck squad` measures a family that has one through it (the
// `own` columns and the c1 check; the family's squad + squad_setup give the `refcp` column). Built-ins
// only, always called in process; NULL in a precision the library does not offer.
struct KeyCurve {
    void (*f32)(const float *keys, size_t n, size_t segment, float t, float out[4]) = nullptr;
    void (*f64)(const double *keys, size_t n, size_t segment, double t, double out[4]) = nullptr;
};

// A figure or behaviour the implementation's library documents, held to its own conformance property on the
// family's rows (the claimed-* properties, docs/conformance.md "Claims"), so that a broken claim is a finding.
// kind "accuracy": every output component is within VALUE of the exact op (VALUE > 0);
// kind "threshold": the routine is the slerp where the keys' |cos| is below VALUE and the normalised lerp of
//   the short arc from VALUE on (0 < VALUE < 1);
// kind "t-clamp": t outside [0, 1] gives the output at the nearer end of [0, 1], bit for bit (VALUE 0).
struct Claim {
    std::string op;    // "slerp", "nlerp" or "*"
    std::string kind;  // "accuracy", "threshold" or "t-clamp"
    double value = 0;
    std::string why;  // the library's words, one line, with where it says so
};

struct BuiltinImpl {
    const qc_impl_v1 *table = nullptr;
    std::string group;    // "seed", "engine", "broken", "example"
    std::string summary;  // one line: routine called, what it promises
    std::string version;  // library version for engine adapters, empty otherwise
    std::vector<KnownDeviation> known;
    KeyCurve curve;  // only for families registered with QC_REGISTER_CURVE
    std::vector<Claim> claims;
};

// All built-in implementations, in registration order sorted by family name.
const std::vector<BuiltinImpl> &builtin_impls();

struct BuiltinRegistrar {
    explicit BuiltinRegistrar(BuiltinImpl impl);
};

}  // namespace qc

#define QC_CONCAT_INNER(a, b) a##b
#define QC_CONCAT(a, b) QC_CONCAT_INNER(a, b)

#define QC_REGISTER_IMPL(table, group, summary)                                   \
    static const ::qc::BuiltinRegistrar QC_CONCAT(qc_registrar_, __LINE__) {      \
        ::qc::BuiltinImpl {                                                       \
            &(table), (group), (summary), std::string(), {}, ::qc::KeyCurve{}, {} \
        }                                                                         \
    }

// QC_REGISTER_CURVE(table, curve, group, summary, version, { ... }): as QC_REGISTER_IMPL_EX, with a KeyCurve.
#define QC_REGISTER_CURVE(table, curve, group, summary, version, ...)         \
    static const ::qc::BuiltinRegistrar QC_CONCAT(qc_registrar_, __LINE__) {  \
        ::qc::BuiltinImpl {                                                   \
            &(table), (group), (summary), (version), __VA_ARGS__, (curve), {} \
        }                                                                     \
    }

// QC_REGISTER_IMPL_CLAIMS(table, group, summary, version, QC_KNOWN({...}), QC_CLAIMS({"slerp", "t-clamp", 0, "why"}))
#define QC_KNOWN(...) \
    std::vector<::qc::KnownDeviation> { __VA_ARGS__ }
#define QC_CLAIMS(...) \
    std::vector<::qc::Claim> { __VA_ARGS__ }
#define QC_REGISTER_IMPL_CLAIMS(table, group, summary, version, known, claims)                             \
    static const ::qc::BuiltinRegistrar QC_CONCAT(qc_registrar_, __LINE__) {                               \
        ::qc::BuiltinImpl { &(table), (group), (summary), (version), (known), ::qc::KeyCurve{}, (claims) } \
    }

// QC_REGISTER_IMPL_EX(table, group, summary, version, { {"nlerp", "constant-speed", "why"} })
#define QC_REGISTER_IMPL_EX(table, group, summary, version, ...)                       \
    static const ::qc::BuiltinRegistrar QC_CONCAT(qc_registrar_, __LINE__) {           \
        ::qc::BuiltinImpl {                                                            \
            &(table), (group), (summary), (version), __VA_ARGS__, ::qc::KeyCurve{}, {} \
        }                                                                              \
    }
