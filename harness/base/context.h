// What a command hands down to the studies, the runner and the evaluation backends besides its options:
// the stop token, the per-batch timeout of out-of-process implementations and the progress counter. The CLI
// builds one per command (harness/cli: command_context()); nothing below it reads process-wide settings,
// environment variables (scripts/check_layers.py refuses getenv below harness/cli) or the signal flag directly. A default RunContext never stops, waits 5 s per batch (60 s for an adapter's hello) and shows no progress.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace qc {

// Thrown by StopToken::throw_if_requested() from any long phase (search, conform, squad, threshold, curves,
// sweep, report writing); main() answers it with one line on stderr and exit 128 + sig, and --out is left
// untouched (ReportDir's destructor removes its staging folder).
struct Interrupted : std::runtime_error {
    int sig;
    explicit Interrupted(int s);
};

// Reads a stop request set elsewhere (a signal handler, a test's StopSource). Cheap to copy and to poll (one
// relaxed atomic load); a default token never stops. The flags it points at must outlive it.
class StopToken {
public:
    StopToken() = default;
    StopToken(const std::atomic<bool> *pending, const std::atomic<int> *signal) : pending_(pending), signal_(signal) {}
    bool requested() const { return pending_ && pending_->load(std::memory_order_relaxed); }
    // The signal that asked to stop (0 if none).
    int signal() const { return signal_ ? signal_->load() : 0; }
    // Throws Interrupted when a stop was requested. Long loops call it per task and per case.
    void throw_if_requested() const {
        if (requested()) throw Interrupted(signal());
    }

private:
    const std::atomic<bool> *pending_ = nullptr;
    const std::atomic<int> *signal_ = nullptr;
};

// Owns a stop request (tests; the signal handler has its own, harness/base/interrupt.h).
class StopSource {
public:
    void request(int sig) {
        signal_.store(sig);
        pending_.store(true);
    }
    StopToken token() const { return StopToken(&pending_, &signal_); }

private:
    std::atomic<bool> pending_{false};
    std::atomic<int> signal_{0};
};

struct RunContext {
    StopToken stop;                             // polled by long loops and by waits on worker processes
    double timeout_s = 5;                       // per batch of an out-of-process implementation (--timeout)
    double hello_timeout_s = 60;                // for a process plugin's hello, at each start (--hello-timeout)
    std::atomic<uint64_t> *progress = nullptr;  // when set, advanced as cases complete (the progress line)
    // The program run as `PROGRAM worker` for isolated implementations; empty: this executable. The CLI sets it
    // from QC_WORKER_EXE; tests set it, their own binary not being the tool.
    std::string worker_exe;
    // Whether a child process's (worker's, process plugin's) stderr is kept instead of discarded (the CLI: from
    // QC_WORKER_STDERR=1, to see a chatty library or a sanitizer report).
    bool keep_child_stderr = false;
};

}  // namespace qc
