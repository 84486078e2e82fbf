// Stand-in for quatcheck's quatcheck/registry.h in a standalone reproducer (written by `quatcheck findings`).
// The source file compiled here registers its routines with QC_REGISTER_IMPL / QC_REGISTER_IMPL_EX; in
// quatcheck that adds them to the tool's catalogue, here it only records the table so that repro.cpp can
// find the family by name. Nothing else of quatcheck is needed.
#pragma once

#include "quatcheck/plugin.h"

#include <cstddef>
#include <string>
#include <vector>

namespace qc {
struct KnownDeviation {
    std::string op, property, why;
};
struct KeyCurve {  // a key-track curve (quatcheck's registry.h); a reproducer replays slerp/nlerp cases only
    void (*f32)(const float *keys, size_t n, size_t segment, float t, float out[4]) = nullptr;
    void (*f64)(const double *keys, size_t n, size_t segment, double t, double out[4]) = nullptr;
};
inline std::vector<const qc_impl_v1 *> &repro_tables() {
    static std::vector<const qc_impl_v1 *> tables;
    return tables;
}
struct ReproRegistrar {
    explicit ReproRegistrar(const qc_impl_v1 *table) { repro_tables().push_back(table); }
};
}  // namespace qc

#define QC_CONCAT_INNER(a, b) a##b
#define QC_CONCAT(a, b) QC_CONCAT_INNER(a, b)
#define QC_REGISTER_IMPL(table, group, summary) \
    static const ::qc::ReproRegistrar QC_CONCAT(qc_registrar_, __LINE__) { &(table) }
#define QC_REGISTER_IMPL_EX(table, group, summary, version, ...) \
    static const ::qc::ReproRegistrar QC_CONCAT(qc_registrar_, __LINE__) { &(table) }
#define QC_REGISTER_CURVE(table, curve, group, summary, version, ...) \
    static const ::qc::ReproRegistrar QC_CONCAT(qc_registrar_, __LINE__) { &(table) }
