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
#include "quatcheck/registry.h"

#include <set>
#include <string>
#include <vector>

namespace qc {

// The entries of a plugin list (the vector every command's --plugin fills) that came from --plugin-cmd
// carry this tag in front of the command, so one list keeps the user's order of both kinds.
std::string process_plugin_spec(const std::string &command);
// True when `spec` came from --plugin-cmd; then *command (if given) is the command without the tag.
bool is_process_plugin_spec(const std::string &spec, std::string *command = nullptr);
// {"--plugin", PATH} or {"--plugin-cmd", COMMAND}: the arguments that name a plugin list entry again.
std::vector<std::string> plugin_spec_args(const std::string &spec);
// The same as one shell-quoted string (tables/quote.h), e.g. --plugin-cmd 'node impls/js/three.js'.
std::string plugin_spec_label(const std::string &spec);

// The words that load a plugin list entry (the vector --plugin and --plugin-cmd fill) again from any working
// directory: {"--plugin", ABSOLUTE_PATH}; {"--plugin-cmd", COMMAND} where every word of COMMAND that names an
// existing file relative to the working directory (the program only when it holds a '/', as the shell looks a
// bare name up in PATH; an argument when it does not start with '-') is made absolute. Other words are kept;
// the command is kept verbatim when no word changes. `cwd` is the working directory the paths are relative to.
std::vector<std::string> portable_plugin_words(const std::string &spec, const std::string &cwd);
// The same for a whole list, shell-quoted, each entry's words with a space in front (the plugin_args above).
std::string portable_plugin_args(const std::vector<std::string> &specs, const std::string &cwd);

// Splits a --plugin-cmd string into words: blanks separate words, '...' is literal, "..." and a
// backslash escape as in the shell (no expansion of any kind). Throws InputError for an empty command,
// an unterminated quote or more than 4096 characters.
std::vector<std::string> split_command(const std::string &command);

// The ops of the protocol, numbered as in a request's op field (docs/plugin-protocol.md).
enum ProcessOp : unsigned {
    kProcessSlerp = 0,
    kProcessNlerp = 1,
    kProcessSlerpTau = 2,    // protocol 2
    kProcessSquad = 3,       // protocol 3: q0, q1, a, b, t as plugin.h's squad takes them
    kProcessSquadSetup = 4,  // protocol 3: prev, cur, next -> the control point of cur
};
constexpr unsigned kProcessOps = 5;
// A precision's index in ProcessHello::Family::has: 0 f32, 1 f64.
constexpr unsigned precision_index(Precision p) { return p == Precision::f32 ? 0 : 1; }

// One process plugin's hello (protocol version 1; 2: version 1 plus the op slerp_tau; 3: version 2 plus the
// ops squad and squad_setup and the record `squad-controls`).
struct ProcessHello {
    struct Family {
        std::string name;
        bool has[kProcessOps][2] = {};                        // [ProcessOp][precision_index()]
        std::vector<KnownDeviation> known;                    // its `known` lines: deviations the library documents
        SquadControls squad_controls = SquadControls::setup;  // its `squad-controls` line, if any
    };
    int protocol = 1;
    bool text = false;  // `wire text`: batches as hexfloat lines (text_wire.h), else binary
    std::string library, version;
    std::vector<Family> families;
};
constexpr size_t kProcessHelloMaxBytes = 16384;
constexpr unsigned kProcessMaxFamilies = 64;
constexpr uint32_t kProcessMaxCases = 4096;  // per batch

// Parses a complete hello text (every line ends in '\n', the last line is "end"). Returns an empty string
// on success, otherwise the reason it is refused. Exposed for tests.
std::string parse_process_hello(const std::string &text, ProcessHello &out);

// A started process plugin: its library and version, and per family its functions (as a worker reports a
// shared-library plugin's) and the backend that evaluates it through a pool of adapter processes.
struct ProcessPlugin {
    std::string library, version;
    struct Family {
        IsolatedDescriptor descriptor;
        std::shared_ptr<EvalBackend> backend;
        std::vector<KnownDeviation> known;  // its hello's `known` lines
        SquadControls squad_controls = SquadControls::setup;
    };
    std::vector<Family> families;
};
// Starts the command, reads and checks its hello. `taken` holds the family names already in the catalogue.
// Throws InputError "--plugin-cmd 'COMMAND': reason".
ProcessPlugin start_process_plugin(const std::string &command, const std::set<std::string> &taken,
                                   const RunContext &ctx);

}  // namespace qc
