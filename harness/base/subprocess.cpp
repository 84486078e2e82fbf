#include "base/subprocess.h"

#include "quatcheck/types.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>

extern char **environ;

namespace qc {

namespace {

// The child's environment: this one's, with run.env set over it (or beside it, env_keep_existing).
std::vector<std::string> child_environment(const ToolRun &run) {
    std::map<std::string, std::string> vars;
    std::vector<std::string> order;
    for (char **e = environ; e && *e; ++e) {
        const std::string kv = *e;
        const size_t eq = kv.find('=');
        const std::string name = kv.substr(0, eq);
        if (!vars.count(name)) order.push_back(name);
        vars[name] = kv;
    }
    for (const auto &[name, value] : run.env) {
        if (vars.count(name) && run.env_keep_existing) continue;
        if (!vars.count(name)) order.push_back(name);
        vars[name] = name + "=" + value;
    }
    std::vector<std::string> out;
    for (const auto &name : order) out.push_back(vars[name]);
    return out;
}

struct Pipe {
    int fd[2] = {-1, -1};
    explicit Pipe(bool want) {
        if (want && ::pipe2(fd, O_CLOEXEC) != 0)
            throw InputError(fmt::format("cannot run a tool: pipe: {}", std::strerror(errno)));
    }
    ~Pipe() {
        for (int f : fd)
            if (f >= 0) ::close(f);
    }
    void close_write() {
        if (fd[1] >= 0) ::close(fd[1]);
        fd[1] = -1;
    }
};

// Reads the captured stdout and the relayed stderr until both reach end of file.
void drain(const ToolRun &run, Pipe &out, Pipe &err, ToolResult &r) {
    char buf[4096];
    while (out.fd[0] >= 0 || err.fd[0] >= 0) {
        pollfd p[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
        if (::poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return;
        }
        for (int k = 0; k < 2; k++) {
            Pipe &pipe = k == 0 ? out : err;
            if (pipe.fd[0] < 0 || !(p[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t n = ::read(pipe.fd[0], buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                ::close(pipe.fd[0]);
                pipe.fd[0] = -1;
                continue;
            }
            if (k == 1) {
                r.said_on_stderr = true;
                if (::write(2, buf, size_t(n)) < 0) {}  // our stderr gone: the tool's words are lost, not fatal
            } else if (r.out.size() + size_t(n) > run.capture_max) {
                r.out_truncated = true;
            } else {
                r.out.append(buf, size_t(n));
            }
        }
    }
}

}  // namespace

bool ToolResult::ok() const { return spawn_errno == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

std::string ToolResult::describe() const {
    if (spawn_errno) return fmt::format("could not start: {}", std::strerror(spawn_errno));
    if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    return "ended";
}

ToolResult run_tool(const ToolRun &run) {
    ToolResult r;
    if (run.argv.empty()) throw InputError("cannot run a tool: no command");
    Pipe out(run.out == ToolRun::Out::capture), err(run.relay_stderr && !run.err_to_out_file);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (run.stdin_null) posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (run.out == ToolRun::Out::capture) posix_spawn_file_actions_adddup2(&fa, out.fd[1], 1);
    if (run.out == ToolRun::Out::file) {
        posix_spawn_file_actions_addopen(&fa, 1, run.out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (run.err_to_out_file) posix_spawn_file_actions_adddup2(&fa, 1, 2);
    }
    if (err.fd[1] >= 0) posix_spawn_file_actions_adddup2(&fa, err.fd[1], 2);
    std::vector<char *> argv, envp;
    for (const auto &a : run.argv) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    const std::vector<std::string> env = child_environment(run);
    for (const auto &e : env) envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);
    std::fflush(nullptr);  // what this process printed comes before what the tool prints
    pid_t pid = -1;
    const int rc = run.search_path ? posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), envp.data())
                                   : posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    out.close_write();
    err.close_write();
    if (rc != 0) {
        r.spawn_errno = rc;
        return r;
    }
    drain(run, out, err, r);
    while (::waitpid(pid, &r.status, 0) < 0)
        if (errno != EINTR)
            throw InputError(fmt::format("cannot run {}: waitpid: {}", run.argv[0], std::strerror(errno)));
    return r;
}

}  // namespace qc
