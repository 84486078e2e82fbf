#include "run_binary.h"

#include <sys/wait.h>

#include <cstdio>

namespace qc::test {

Ran sh(const std::string &cmd) {
    Ran r{-1, ""};
    std::FILE *p = ::popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
    int st = ::pclose(p);
    if (st != -1 && WIFEXITED(st)) r.status = WEXITSTATUS(st);
    return r;
}

std::string quatcheck_bin() { return std::string(QC_BINARY_DIR) + "/quatcheck"; }

RunContext worker_context(double timeout_s) {
    RunContext ctx;
    ctx.worker_exe = quatcheck_bin();
    ctx.timeout_s = timeout_s;
    return ctx;
}

Ran quatcheck(const std::string &args) { return sh(quatcheck_bin() + " " + args); }

Ran quatcheck_err(const std::string &args) { return sh(quatcheck_bin() + " " + args + " 2>&1 >/dev/null"); }

}  // namespace qc::test
