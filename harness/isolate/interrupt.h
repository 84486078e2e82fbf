// SIGINT / SIGTERM: the first one asks the run to stop (the runner finishes its current chunk, abandons
// isolated batches, and the caller writes a partial report); a second one ends the process at once.
#pragma once

namespace qc {

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
