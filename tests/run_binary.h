// Calling programs from the C++ tests: a command line through sh, or this build's quatcheck binary, with its
// exit status and what it printed. One place for popen/pclose and the wait-status decoding.
#pragma once

#include "base/context.h"

#include <string>

namespace qc::test {

struct Ran {
    int status;          // the exit status; -1 when the command could not start or was killed by a signal
    std::string output;  // what it printed on the stream asked for
};

// Runs CMD with sh -c; output is its stdout (redirect inside CMD, e.g. "2>&1", to get more).
Ran sh(const std::string &cmd);

// This build's quatcheck binary (QC_BINARY_DIR/quatcheck).
std::string quatcheck_bin();

// A context whose worker processes are this build's quatcheck (the test runner is not the tool) and whose
// out-of-process implementations time out after timeout_s per batch. Every test that loads a shared-library
// plugin or isolates a built-in passes one.
RunContext worker_context(double timeout_s = 5);

// Runs `quatcheck ARGS` (ARGS as sh words); output is its stdout.
Ran quatcheck(const std::string &args);

// Runs `quatcheck ARGS`; output is its stderr, stdout is discarded.
Ran quatcheck_err(const std::string &args);

}  // namespace qc::test
