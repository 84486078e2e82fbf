// SIGINT / SIGTERM: the first one asks the command to stop (the runner finishes its current chunk, abandons
// out-of-process batches, and the caller writes a partial report); a second one ends the process at once.
// The handler only sets a flag (async-signal-safe); the CLI hands signal_stop_token() down in its
// RunContext (harness/base/context.h), and code below the CLI reads the flag only through that token.
#pragma once

#include "base/context.h"

namespace qc {

void install_interrupt_handlers();
// The token that reads the handlers' flag: requested from the first signal until acknowledge_interrupt().
StopToken signal_stop_token();
// The signal that asked to stop (0 if none), also after acknowledge_interrupt().
int interrupt_signal();
// The caller has stopped; writing the partial report may proceed (a second signal still kills).
void acknowledge_interrupt();

}  // namespace qc
