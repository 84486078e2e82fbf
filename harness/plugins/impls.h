// The catalogue of implementations under test: built-ins (registered in impls/) and plugins
// (shared libraries the user names with --plugin). Both expose the same qc_impl_v1 table.
#pragma once

#include "quatcheck/plugin.h"
#include "quatcheck/registry.h"
#include "quatcheck/types.h"
#include "isolate/eval.h"

#include <memory>
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
    std::vector<KnownDeviation> known;  // documented deviations (process plugins: their hello's `known` lines)
    KeyCurve curve;                     // a built-in's key-track curve (registry.h), unset for plugins
    bool has_curve() const { return precision == Precision::f32 ? curve.f32 != nullptr : curve.f64 != nullptr; }
    void curve_at(const float *keys, size_t n, size_t segment, float t, float out[4]) const { curve.f32(keys, n, segment, t, out); }
    void curve_at(const double *keys, size_t n, size_t segment, double t, double out[4]) const { curve.f64(keys, n, segment, t, out); }

    bool supports(Op op) const;
    // The documented deviation for (op, property), or nullptr.
    const KnownDeviation *known_deviation(Op op, const std::string &property) const;

    // How every call below is evaluated (harness/isolate/eval.h): in process through `table` (built-ins), or in
    // worker processes (every plugin; built-ins under --isolate). Never null in a loaded catalogue.
    std::shared_ptr<EvalBackend> backend;
    // Trips at the first failure of a case-by-case call (harness/isolate/eval.h); shared by copies.
    std::shared_ptr<CallLatch> latch = std::make_shared<CallLatch>();

    void slerp(const float q0[4], const float q1[4], float t, float out[4]) const { call(Op::slerp, q0, q1, t, out); }
    void slerp(const double q0[4], const double q1[4], double t, double out[4]) const { call(Op::slerp, q0, q1, t, out); }
    void nlerp(const float q0[4], const float q1[4], float t, float out[4]) const { call(Op::nlerp, q0, q1, t, out); }
    void nlerp(const double q0[4], const double q1[4], double t, double out[4]) const { call(Op::nlerp, q0, q1, t, out); }

    // Calls the two-key op (slerp or nlerp) on one case in this implementation's precision, through the
    // backend; a case the backend could not evaluate (crash, timeout) reads as a non-finite output. For many
    // cases prefer eval_batch() (harness/isolate/eval.h): one call (one round trip) per batch.
    void call(Op op, const float q0[4], const float q1[4], float t, float out[4]) const;
    void call(Op op, const double q0[4], const double q1[4], double t, double out[4]) const;
    // qc_impl_v2's slerp_tau in this precision (plugins exporting qc_plugin_v2, process plugins speaking
    // protocol 2; `quatcheck threshold --impl`), always through the backend.
    bool has_slerp_tau = false;
    bool supports_slerp_tau() const { return has_slerp_tau; }
    // squad and squad_setup in this precision (T = float or double), through the backend: drivers call these,
    // never table->squad_* (an isolated table's pointers abort when called).
    template <class T> void squad(const T q0[4], const T q1[4], const T s0[4], const T s1[4], T t, T out[4]) const;
    template <class T> void squad_setup(const T prev[4], const T cur[4], const T next[4], T s[4]) const;
    template <class T> void slerp_tau(const T q0[4], const T q1[4], T t, T tau, T out[4]) const;
};

// Loads the plugins at the given paths (only those paths: nothing is loaded implicitly) and returns
// the built-ins followed by the plugins' implementations. Throws InputError with a one-line reason
// naming the file for a plugin that cannot be loaded or whose table is malformed. The out-of-process
// backends keep ctx's timeout and stop token (harness/run/context.h); the default never stops.
std::vector<Impl> load_catalogue(const std::vector<std::string> &plugin_paths, const RunContext &ctx = {});

// Validates one plugin descriptor table; returns an empty string when it is acceptable, otherwise the
// reason it is refused. Exposed for tests.
std::string check_descriptor(const qc_impl_v1 *table, size_t count);

}  // namespace qc
