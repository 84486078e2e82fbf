// The catalogue of implementations under test: built-ins (registered in impls/) and plugins
// (shared libraries the user names with --plugin). Both expose the same qc_impl_v1 table.
#pragma once

#include "quatcheck/plugin.h"
#include "quatcheck/registry.h"
#include "quatcheck/types.h"
#include "isolate/eval.h"
#include "isolate/plugin_spec.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace qc {

struct Impl;

// Case-by-case callers (conform, curves, replay, squad: Impl::call, squad, squad_setup, slerp_tau, and
// conform's batched screens through stop_calling()) stop at an implementation's first failure (a crash, a
// timeout, an out-of-bounds write or a protocol violation; an interruption is not one): it is reported once
// on stderr, "quatcheck: IMPL OP: STATUS (DETAIL); not called again: its later cases count as non-finite
// outputs", and the implementation is not called again in this process. Without it, a crashing adapter
// gave one line per case and a hanging one cost a full --timeout per case. The runner's batches are not
// latched: there the first failure ends the row (one region and op), and the row says so.
class CallLatch {
public:
    bool tripped() const { return tripped_.load(); }
    // Records a failed outcome (not ok, not interrupted) of `impl` on `what` (an op); reports the first.
    void trip(const Impl &impl, const char *what, const EvalOutcome &o);

private:
    std::atomic<bool> tripped_{false};
};

// One implementation in one precision, e.g. "seed-c.f32".
struct Impl {
    std::string name;  // FAMILY.f32 or FAMILY.f64
    std::string family;
    Precision precision = Precision::f64;
    std::string group;  // seed, engine, broken, example, plugin
    std::string summary;
    std::string version;  // library version (engine adapters), empty otherwise
    std::string origin;   // "builtin" or the plugin's path
    const qc_impl_v1 *table = nullptr;
    std::vector<KnownDeviation> known;  // documented deviations (process plugins: their hello's `known` lines)
    std::vector<Claim> claims;          // documented figures (registry.h; process plugins: their hello's `claim` lines)
    KeyCurve curve;                     // a built-in's key-track curve (registry.h), unset for plugins
    SquadControls squad_controls = SquadControls::setup;  // isolate/eval.h; process plugins may say otherwise
    bool has_curve() const { return precision == Precision::f32 ? curve.f32 != nullptr : curve.f64 != nullptr; }
    void curve_at(const float *keys, size_t n, size_t segment, float t, float out[4]) const {
        curve.f32(keys, n, segment, t, out);
    }
    void curve_at(const double *keys, size_t n, size_t segment, double t, double out[4]) const {
        curve.f64(keys, n, segment, t, out);
    }

    bool supports(Op op) const;
    // The documented deviation for (op, property), or nullptr.
    const KnownDeviation *known_deviation(Op op, const std::string &property) const;
    // The documented claim of a kind ("accuracy", "threshold", "t-clamp") for op, or nullptr.
    const Claim *claim(Op op, const std::string &kind) const;

    // How every call below is evaluated (harness/isolate/eval.h): in process through `table` (built-ins), or in
    // worker processes (every plugin; built-ins under --isolate). Never null in a loaded catalogue.
    std::shared_ptr<EvalBackend> backend;
    // Trips at the first failure of a case-by-case call (harness/isolate/eval.h); shared by copies.
    std::shared_ptr<CallLatch> latch = std::make_shared<CallLatch>();

    void slerp(const float q0[4], const float q1[4], float t, float out[4]) const { call(Op::slerp, q0, q1, t, out); }
    void slerp(const double q0[4], const double q1[4], double t, double out[4]) const {
        call(Op::slerp, q0, q1, t, out);
    }
    void nlerp(const float q0[4], const float q1[4], float t, float out[4]) const { call(Op::nlerp, q0, q1, t, out); }
    void nlerp(const double q0[4], const double q1[4], double t, double out[4]) const {
        call(Op::nlerp, q0, q1, t, out);
    }

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
// backends keep ctx's timeout and stop token (harness/base/context.h); the default never stops.
std::vector<Impl> load_catalogue(const PluginList &plugins, const RunContext &ctx = {});

// True when `impl` must not be called (again) by a case-by-case caller: its latch has tripped, or `o` (an
// outcome just returned for it) is a failure, which trips it.
bool stop_calling(const Impl &impl, const char *what, const EvalOutcome &o = {});

// Evaluates a two-key op (slerp or nlerp) of `impl` on cases[0..n) into outs[0..n), through its backend.
template <class T> EvalOutcome eval_batch(const Impl &impl, Op op, const SlerpCase<T> *cases, size_t n, Quat<T> *outs);

// eval_batch() in two halves (EvalBackend::start_records()): start() sends the batch to an implementation
// that lives in another process and returns; finish() waits for it. In process, and for backends without
// the split, start() evaluates the batch at once and finish() returns its outcome.
template <class T> class PendingBatch {
public:
    void start(const Impl &impl, Op op, const SlerpCase<T> *cases, size_t n, Quat<T> *outs);
    EvalOutcome finish();

private:
    std::vector<double> in_, out_;  // the records (the replay of a failed batch reads them) and the answer
    std::unique_ptr<PendingEval> pending_;
    EvalOutcome outcome_;
    Quat<T> *outs_ = nullptr;
};

// Evaluates fn (any EvalFn: slerp, nlerp, squad, squad_setup, slerp_tau) of `impl` on records in[0..n) (kEvalRecord doubles each, eval.h) into
// out[0..n) (4 each) in its precision, through its backend, as a case-by-case caller (CallLatch): once it has
// failed, the failing case and every later one (all of them once tripped) read as non-finite outputs. One
// call, so one round trip for an implementation in another process (`quatcheck squad` batches a track,
// `quatcheck curves` a curve).
void eval_records_latched(const Impl &impl, EvalFn fn, const double *in, size_t n, double *out);

// Evaluates qc_impl_v2's slerp_tau(q0, q1, t, tau) of `impl` (impl.supports_slerp_tau()) on cases[0..n)
// with one tau for the whole batch, into outs[0..n).
template <class T>
EvalOutcome eval_batch_tau(const Impl &impl, const SlerpCase<T> *cases, size_t n, T tau, Quat<T> *outs);

// --isolate: evaluate every built-in in worker processes too (with ctx's timeout and stop token).
void isolate_builtins(std::vector<Impl> &catalogue, const RunContext &ctx);

}  // namespace qc
