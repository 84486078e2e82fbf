// Running an external tool to its end: Python for the report's plots and bench's peers, npm for history. One
// routine for all of them (posix_spawn, no fork of this multi-threaded process, EINTR retried, a bounded
// capture), so that each command says only what it runs and what it does with the output. Process plugins and
// workers, which talk to the tool while it runs, use isolate/child_process.h instead.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace qc {

struct ToolRun {
    std::vector<std::string> argv;  // argv[0]: a path, or a name looked up in PATH when search_path
    bool search_path = false;
    std::vector<std::pair<std::string, std::string>> env;  // set in the child, over this process's environment
    bool env_keep_existing = false;  // true: a variable already set in this environment is not overridden
    bool stdin_null = false;         // stdin from /dev/null instead of this process's
    // stdout: this process's (default), captured (at most capture_max bytes kept; more sets out_truncated), or
    // written to out_file (created or truncated, stderr too when err_to_out_file).
    enum class Out { inherit, capture, file } out = Out::inherit;
    size_t capture_max = size_t(1) << 20;
    std::string out_file;
    bool err_to_out_file = false;
    // stderr (unless err_to_out_file): this process's; relayed through a pipe when relay_stderr, so that the
    // result says whether the tool wrote anything there (a failing tool that said nothing gets a line of ours).
    bool relay_stderr = false;
};

struct ToolResult {
    int spawn_errno = 0;  // nonzero: the tool could not be started (then nothing else is set)
    int status = 0;       // waitpid status
    std::string out;      // the captured stdout (Out::capture)
    bool out_truncated = false;
    bool said_on_stderr = false;  // relay_stderr: the tool wrote to stderr
    bool ok() const;              // started and exited with status 0
    // "exited with status 3", "killed by signal 9 (Killed)", "could not start: No such file or directory".
    std::string describe() const;
};

// Runs the tool and waits for it. Throws InputError only for a failure of this process's own plumbing (a pipe,
// the output file); a tool that cannot start or fails is in the result.
ToolResult run_tool(const ToolRun &run);

}  // namespace qc
