// SIGINT / SIGTERM: the first one asks the run to stop (the runner finishes its current chunk, abandons
// isolated batches, and the caller writes a partial report); a second one ends the process at once.
#pragma once

#include <stdexcept>

namespace qc {

// Thrown by throw_if_interrupted() from any long phase (search, conform, squad, threshold, curves, report
// writing); main() answers it with one line on stderr and exit 128 + sig, and --out is left untouched
// (ReportDir's destructor removes its staging folder).
struct Interrupted : std::runtime_error {
    int sig;
    explicit Interrupted(int s);
};
// Throws Interrupted when a stop was requested (cheap: one relaxed atomic load). Long loops call it per
// task and per case.
void throw_if_interrupted();

void install_interrupt_handlers();
// True from the first signal until acknowledge_interrupt().
bool interrupt_requested();
// The signal that asked to stop (0 if none), also after acknowledge_interrupt().
int interrupt_signal();
// The caller has stopped; writing the partial report may proceed (a second signal still kills).
void acknowledge_interrupt();
// For tests: behave as if `sig` had arrived.
void request_interrupt_for_test(int sig);
void reset_interrupt_for_test();

}  // namespace qc
