// command_context(): where the signal flag enters the RunContext every command passes down.
#include "cli/command.h"
#include "isolate/interrupt.h"

namespace qc::cli {

RunContext command_context(double timeout_s, std::atomic<uint64_t> *progress) {
    RunContext ctx;
    ctx.stop = signal_stop_token();
    ctx.timeout_s = timeout_s;
    ctx.progress = progress;
    return ctx;
}

}  // namespace qc::cli
