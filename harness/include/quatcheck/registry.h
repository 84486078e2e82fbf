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

struct BuiltinImpl {
    const qc_impl_v1 *table = nullptr;
    std::string group;    // "seed", "engine", "broken", "example"
    std::string summary;  // one line: routine called, what it promises
    std::string version;  // library version for engine adapters, empty otherwise
    std::vector<KnownDeviation> known;
};

// All built-in implementations, in registration order sorted by family name.
const std::vector<BuiltinImpl> &builtin_impls();

struct BuiltinRegistrar {
    explicit BuiltinRegistrar(BuiltinImpl impl);
};

}  // namespace qc

#define QC_CONCAT_INNER(a, b) a##b
#define QC_CONCAT(a, b) QC_CONCAT_INNER(a, b)

#define QC_REGISTER_IMPL(table, group, summary)                                              \
    static const ::qc::BuiltinRegistrar QC_CONCAT(qc_registrar_, __LINE__) {                 \
        ::qc::BuiltinImpl { &(table), (group), (summary), std::string(), {} }                \
    }

// QC_REGISTER_IMPL_EX(table, group, summary, version, { {"nlerp", "constant-speed", "why"} })
#define QC_REGISTER_IMPL_EX(table, group, summary, version, ...)                             \
    static const ::qc::BuiltinRegistrar QC_CONCAT(qc_registrar_, __LINE__) {                 \
        ::qc::BuiltinImpl { &(table), (group), (summary), (version), __VA_ARGS__ }           \
    }
