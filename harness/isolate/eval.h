// Evaluating an implementation on a batch of cases: every Impl (harness/plugins/impls.h) holds an EvalBackend,
// and every driver (the runner, `conform`, `replay`, the worst-case writer) evaluates implementations through
// it (eval_batch(), declared beside Impl).
// Three backends exist:
//   in process       in_process_backend(): calls the qc_impl_v1 table directly (built-ins by default);
//   worker processes isolated_plugin_backend() / isolated_builtin_backend() (every shared-library plugin,
//                    and the built-ins under --isolate): `quatcheck worker` processes fed batches over shared
//                    memory, with a timeout per batch;
//   process plugins  start_process_plugin() (harness/isolate/process_plugin.h): --plugin-cmd adapters.
// Out of process, a crash, a hang or an out-of-bounds write ends that batch with a status and the index of
// the case that triggered it, and never the caller.
#pragma once

#include "quatcheck/types.h"
#include "base/context.h"

#include <atomic>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "quatcheck/plugin.h"

namespace qc {

enum class EvalStatus {
    ok,
    crashed,        // the worker died (signal or exit) while evaluating case `done`
    timeout,        // no answer within the batch timeout; case `done` was being evaluated
    out_of_bounds,  // case `done` wrote outside out[0..3] or into its inputs
    interrupted,    // SIGINT/SIGTERM arrived: the batch was abandoned (not the implementation's fault)
};
const char *to_string(EvalStatus s);  // "ok", "crashed", "timeout", "out-of-bounds", "interrupted"

struct EvalOutcome {
    EvalStatus status = EvalStatus::ok;
    size_t done = 0;     // outputs [0, done) are valid; when status != ok, case `done` is the one that failed
    std::string detail;  // e.g. "killed by SIGSEGV", "no answer within 5 s"
    // Nanoseconds the implementation spent on the batch, measured inside its own process (a process
    // plugin's adapter times its batch with a monotonic clock and reports it in the reply; summed over the
    // round trips of one call); nan when the backend does not measure it (in process, worker processes).
    double self_ns = std::nan("");
    bool ok() const { return status == EvalStatus::ok; }
};

// The functions of a qc_impl_v1 a worker can call. One record holds q0, q1, s0, s1 (4 each) and t; for
// squad_setup, q0 = prev, q1 = cur, s0 = next; for slerp_tau (qc_impl_v2), tau is s0[0] (record[8]).
enum class EvalFn : unsigned { slerp, nlerp, squad, squad_setup, slerp_tau };
constexpr int kEvalTauIndex = 8;
constexpr int kEvalRecord = 17;

// Where a squad implementation's own curve takes the two inner points of its squad(q0, q1, a, b, t) from
// (`quatcheck squad`, docs/squad.md): `setup` its own squad_setup (the plugin ABI; built-ins), `neighbours`
// the neighbouring keys a = q_{i-1}, b = q_{i+2} (Godot's cubic_slerp(b, pre_a, post_b, t) as Godot's own
// animation tracks call it), `caller` nowhere: the library leaves control points to its caller
// (wgpu-matrix's sqlerp), so its own curve is measured with the reference's control points. Process plugins
// declare neighbours and caller in their hello (docs/plugin-protocol.md, version 3).
enum class SquadControls { setup, neighbours, caller };

// What a backend's calls have cost so far (run.json's "process" entry), summed over its round trips to
// the implementation's process: their wall time (request sent to answer read, which the caller may have
// spent on other work, start_records()), the part of it the calling thread spent inside the backend
// (wait_s: encoding, writing, waiting, reading), the library's own time as the adapter measured it
// (self_s), the adapter process's CPU time while serving them (adapter_cpu_s), and the two overheads:
// per round trip, the caller's time in the backend beyond the library's (max(0, wait - self)) and the
// adapter's CPU time beyond the library's (max(0, cpu - self)). Adapters started during the command
// (after the first, which load-time checks start) and the wall time their start-up took are counted apart.
struct BackendCounters {
    uint64_t adapters_started = 0;
    double start_s = 0;
    uint64_t round_trips = 0;
    double round_trip_s = 0, wait_s = 0, self_s = 0, adapter_cpu_s = 0;
    double wait_overhead_s = 0, adapter_overhead_s = 0;
    // Answers whose reported library time exceeds their round trip (a protocol violation: each such batch
    // failed as out-of-bounds, and its time is in none of the figures above), and the largest time claimed.
    uint64_t time_violations = 0, time_violation_max_ns = 0;
};

// A batch an out-of-process backend has sent and not yet answered (EvalBackend::start_records()).
class PendingEval {
public:
    virtual ~PendingEval() = default;  // unfinished: the adapter serving it is stopped, never reused
    // Waits for the answer (the backend's timeout counts from here) and returns the outcome eval_records()
    // would have returned, failed batches localised to their case the same way. Call once.
    virtual EvalOutcome finish() = 0;
};

class EvalBackend {
public:
    virtual ~EvalBackend() = default;
    virtual BackendCounters counters() const { return {}; }  // process plugins count; others report zeros
    // Evaluates fn on records in[0..n) (kEvalRecord doubles each, exact values of the impl's format) into
    // out[0..n) (4 doubles each). Stops at the first failing case.
    virtual EvalOutcome eval_records(Precision p, EvalFn fn, const double *in, size_t n, double *out) = 0;
    // The same in two halves, so that the caller can work while the implementation's process does: sends
    // the batch and returns at once; in[0..n) and out[0..n) must stay valid until finish(). nullptr: this
    // backend (or this batch) has no such split, call eval_records() instead (the default).
    virtual std::unique_ptr<PendingEval> start_records(Precision, EvalFn, const double *, size_t, double *) {
        return nullptr;
    }
    // Evaluates a two-key op (slerp or nlerp) on cases[0..n) into outs[0..n): the runner's inner loop, one
    // virtual call per batch. By default the cases travel as records through eval_records().
    virtual EvalOutcome eval_cases(Op op, const SlerpCase<float> *cases, size_t n, Quat<float> *outs);
    virtual EvalOutcome eval_cases(Op op, const SlerpCase<double> *cases, size_t n, Quat<double> *outs);
    // True when calls run in this process, unguarded (the bench suite times only these; --isolate replaces
    // them with worker backends).
    virtual bool in_process() const { return false; }
};

// The backend that calls `table` (which must outlive it) in this process, on the calling thread.
std::shared_ptr<EvalBackend> in_process_backend(const qc_impl_v1 *table);

// A two-key op's cases (slerp, nlerp, or slerp_tau with one tau for the whole batch) as records through
// b.eval_records(), and the answers back into outs[0..done).
template <class T> EvalOutcome eval_cases_as_records(EvalBackend &b, EvalFn fn, const SlerpCase<T> *cases, size_t n,
                                                     Quat<T> *outs, T tau = T(0));
// The two halves of it: cases[0..n) as records into `in`, and the answers of out[0..done) into outs.
template <class T>
void cases_to_records(const SlerpCase<T> *cases, size_t n, EvalFn fn, T tau, std::vector<double> &in);
template <class T> void answers_to_outputs(const std::vector<double> &out, size_t done, Quat<T> *outs);

// One descriptor of a plugin as its worker reported it: the family and which of its functions are set, one
// FunctionBit each (the eight qc_impl_v1 pointers in declaration order, then qc_impl_v2's two slerp_tau).
struct IsolatedDescriptor {
    std::string family;
    unsigned functions = 0;
};
enum FunctionBit : unsigned {
    kSlerpF32 = 1u << 0,
    kNlerpF32 = 1u << 1,
    kSquadF32 = 1u << 2,
    kSquadSetupF32 = 1u << 3,
    kSlerpF64 = 1u << 4,
    kNlerpF64 = 1u << 5,
    kSquadF64 = 1u << 6,
    kSquadSetupF64 = 1u << 7,
    kSlerpTauF32 = 1u << 8,
    kSlerpTauF64 = 1u << 9,
};
// The qc_impl_v1 functions of one precision (slerp_tau needs slerp, so it adds no precision of its own).
constexpr unsigned kAnyF32 = kSlerpF32 | kNlerpF32 | kSquadF32 | kSquadSetupF32;
constexpr unsigned kAnyF64 = kSlerpF64 | kNlerpF64 | kSquadF64 | kSquadSetupF64;
// The FunctionBits of a descriptor table (t2: its qc_impl_v2, or nullptr).
unsigned function_bits(const qc_impl_v1 &t, const qc_impl_v2 *t2 = nullptr);

// Validates one plugin descriptor table (the worker checks every plugin's); returns an empty string when it
// is acceptable, otherwise the reason it is refused.
std::string check_descriptor(const qc_impl_v1 *table, size_t count);

// Loads the plugin at `path` in a worker process (never in this one) and returns its descriptors, checked
// by check_descriptor() in the worker. Throws InputError "PATH: reason" for a plugin that cannot be
// loaded, lacks the entry point, returns a malformed table, or crashes or hangs while loading (it has
// ctx.timeout_s, at least 1 s). Workers run ctx.worker_exe when set (QC_WORKER_EXE), else this executable.
std::vector<IsolatedDescriptor> describe_plugin_isolated(const std::string &path, const RunContext &ctx);

// A backend that evaluates descriptor `index` of the plugin at `path` in worker processes: ctx.timeout_s per
// batch of at most 1024 cases, and ctx.stop abandons a batch (status interrupted).
std::shared_ptr<EvalBackend> isolated_plugin_backend(const std::string &path, unsigned index, const std::string &family,
                                                     const RunContext &ctx);
// A backend that evaluates the built-in family `family` in worker processes (--isolate).
std::shared_ptr<EvalBackend> isolated_builtin_backend(const std::string &family, const RunContext &ctx);

// Entry point of `quatcheck worker`: serves one plugin (path) or one built-in family (its table, which the
// CLI looks up; nullptr when there is no such family) over fds 3 (commands), 4 (replies) and 5 (shared
// memory). Returns the process exit status.
int worker_main(const std::string &plugin_path, const std::string &builtin_family, const qc_impl_v1 *builtin_table);

// The parent's stand-in table for a descriptor that lives in a worker (pointers abort if called).
const qc_impl_v1 *isolated_table(const IsolatedDescriptor &d);

}  // namespace qc
