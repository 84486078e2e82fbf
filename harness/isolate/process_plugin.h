// Process plugins (--plugin-cmd 'COMMAND ARGS...'): an implementation under test that runs as its own
// program, in any language, and speaks the protocol of docs/plugin-protocol.md over its stdin/stdout: a
// text hello (protocol version, library name and version, families with their ops and precisions), then
// one binary batch per round trip (raw little-endian floats or doubles, a sequence number echoed back), or,
// when the hello says `wire text`, one batch of hexfloat lines (text_wire.h).
//
// The adapter runs in its own process group with only its three standard fds; every batch has the
// timeout of the RunContext's timeout_s (harness/base/context.h), and its stop token abandons a batch. A crash, a hang, garbage, a short answer or a wrong
// sequence number kills the whole group and ends the batch with a status (eval.h); the cases of a failed
// batch are then replayed one at a time so that the outcome names the triggering case.
#pragma once

#include "isolate/eval.h"
#include "isolate/plugin_spec.h"
#include "isolate/process_hello.h"
#include "quatcheck/registry.h"

#include <set>
#include <string>
#include <vector>

namespace qc {

constexpr uint32_t kProcessMaxCases = 4096;  // per batch

// A started process plugin: its library and version, and per family its functions (as a worker reports a
// shared-library plugin's) and the backend that evaluates it through a pool of adapter processes.
struct ProcessPlugin {
    std::string library, version;
    struct Family {
        IsolatedDescriptor descriptor;
        std::shared_ptr<EvalBackend> backend;
        std::vector<KnownDeviation> known;  // its hello's `known` lines
        std::vector<Claim> claims;          // its hello's `claim` lines
        SquadControls squad_controls = SquadControls::setup;
    };
    std::vector<Family> families;
};
// Starts the command, reads and checks its hello. `taken` holds the family names already in the catalogue.
// Throws InputError "--plugin-cmd 'COMMAND': reason".
ProcessPlugin start_process_plugin(const std::string &command, const std::set<std::string> &taken,
                                   const RunContext &ctx);

}  // namespace qc
