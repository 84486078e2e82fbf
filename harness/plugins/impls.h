// The catalogue of implementations under test: built-ins (registered in impls/) and plugins
// (shared libraries the user names with --plugin). Both expose the same qc_impl_v1 table.
#pragma once

#include "quatcheck/plugin.h"
#include "quatcheck/registry.h"
#include "quatcheck/types.h"

#include <string>
#include <vector>

namespace qc {

// One implementation in one precision, e.g. "seed-c.f32".
struct Impl {
    std::string name;     // FAMILY.f32 or FAMILY.f64
    std::string family;
    Precision precision = Precision::f64;
    std::string group;    // seed, engine, broken, example, plugin
    std::string summary;
    std::string version;  // library version (engine adapters), empty otherwise
    std::string origin;   // "builtin" or the plugin's path
    const qc_impl_v1 *table = nullptr;
    std::vector<KnownDeviation> known;  // always empty for plugins

    bool supports(Op op) const;
    // The documented deviation for (op, property), or nullptr.
    const KnownDeviation *known_deviation(Op op, const std::string &property) const;

    void slerp(const float q0[4], const float q1[4], float t, float out[4]) const { table->slerp_f32(q0, q1, t, out); }
    void slerp(const double q0[4], const double q1[4], double t, double out[4]) const { table->slerp_f64(q0, q1, t, out); }
    void nlerp(const float q0[4], const float q1[4], float t, float out[4]) const { table->nlerp_f32(q0, q1, t, out); }
    void nlerp(const double q0[4], const double q1[4], double t, double out[4]) const { table->nlerp_f64(q0, q1, t, out); }

    // Calls the two-key op (slerp or nlerp) in this implementation's precision.
    template <class T> void call(Op op, const T q0[4], const T q1[4], T t, T out[4]) const {
        if (op == Op::slerp) slerp(q0, q1, t, out);
        else nlerp(q0, q1, t, out);
    }
};

// Loads the plugins at the given paths (only those paths: nothing is loaded implicitly) and returns
// the built-ins followed by the plugins' implementations. Throws InputError with a one-line reason
// naming the file for a plugin that cannot be loaded or whose table is malformed.
std::vector<Impl> load_catalogue(const std::vector<std::string> &plugin_paths);

// Validates one plugin descriptor table; returns an empty string when it is acceptable, otherwise the
// reason it is refused. Exposed for tests.
std::string check_descriptor(const qc_impl_v1 *table, size_t count);

}  // namespace qc
