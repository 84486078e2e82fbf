#include "isolate/child_process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char **environ;

namespace qc {

int spawn_child(const SpawnSpec &spec, Child &child) {
    prepare_to_spawn();
    child = Child{};
    // First every descriptor to a number above the targets, so that the dup2s cannot clobber each other.
    std::vector<int> high;
    for (const auto &[from, to] : spec.fds) {
        const int h = ::fcntl(from, F_DUPFD_CLOEXEC, 100);
        if (h < 0) {
            const int e = errno;
            for (int k : high) ::close(k);
            return e;
        }
        high.push_back(h);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    for (size_t k = 0; k < high.size(); k++) posix_spawn_file_actions_adddup2(&fa, high[k], spec.fds[k].second);
    if (spec.discard_stdout) posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (!spec.keep_stderr) posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    if (spec.close_others) {
        int floor = 3;
        for (const auto &m : spec.fds) floor = std::max(floor, m.second + 1);
        posix_spawn_file_actions_addclosefrom_np(&fa, floor);
    }
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t none, dflt;
    sigemptyset(&none);
    sigemptyset(&dflt);
    for (int s : {SIGINT, SIGTERM, SIGPIPE}) sigaddset(&dflt, s);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &dflt);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    std::vector<std::string> args = spec.argv;
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = spec.search_path ? ::posix_spawnp(&pid, argv[0], &fa, &at, argv.data(), environ)
                                    : ::posix_spawn(&pid, argv[0], &fa, &at, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    for (int h : high) ::close(h);
    if (rc != 0) return rc;
    child.pid = pid;
    child.pidfd = int(::syscall(SYS_pidfd_open, pid, 0));
    return 0;
}

std::string describe_exit(int status) {
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *abbrev = sigabbrev_np(sig);
        return fmt::format("killed by SIG{}", abbrev ? abbrev : std::to_string(sig).c_str());
    }
    if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
    return "ended";
}

ChildEnd end_child(Child &child, std::chrono::milliseconds grace) {
    ChildEnd end;
    if (child.pid > 0) {
        const pid_t pid = child.pid;
        pid_t r = ::waitpid(pid, &end.status, WNOHANG);
        for (auto waited = std::chrono::milliseconds(0); r == 0 && waited < grace;
             waited += std::chrono::milliseconds(5)) {
            ::usleep(5000);
            r = ::waitpid(pid, &end.status, WNOHANG);
        }
        end.by_itself = r == pid;
        // The group: whatever the child started goes with it. (The group outlives its leader while the
        // children live; the number stays reserved for the group until they are gone.)
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
        if (r == 0)
            while (::waitpid(pid, &end.status, 0) < 0 && errno == EINTR) {}
        reap_group(pid);
        child.pid = -1;
    }
    if (child.pidfd >= 0) ::close(child.pidfd), child.pidfd = -1;
    return end;
}

void prepare_to_spawn() {
    static std::once_flag once;
    std::call_once(once, [] {
        ::signal(SIGPIPE, SIG_IGN);
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);  // best effort: without it, init reaps them
    });
}

void reap_group(pid_t pgid) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    for (;;) {
        int st = 0;
        const pid_t r = ::waitpid(-pgid, &st, WNOHANG);
        if (r > 0 || (r < 0 && errno == EINTR)) continue;
        if (r < 0 || std::chrono::steady_clock::now() >= until) return;  // ECHILD: none of the group is ours
        ::usleep(1000);                                                  // a member killed but not yet dead
    }
}

namespace {
// Calls CALL(fd, c, n) (::read or ::write) until all N bytes at C have passed, again after EINTR; false on end of
// file or an error.
template <class Char, class Call> bool transfer_all(int fd, Char *c, size_t n, Call call) {
    while (n) {
        ssize_t k = call(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        c += k, n -= size_t(k);
    }
    return true;
}
}  // namespace

bool read_all(int fd, void *p, size_t n) {
    return transfer_all(fd, static_cast<char *>(p), n, [](int f, char *c, size_t k) { return ::read(f, c, k); });
}

bool write_all(int fd, const void *p, size_t n) {
    return transfer_all(fd, static_cast<const char *>(p), n,
                        [](int f, const char *c, size_t k) { return ::write(f, c, k); });
}

Io wait_fd(int fd, short events, Deadline deadline, const StopToken &stop, int pidfd, int input) {
    for (;;) {
        if (stop.requested()) return Io::interrupted;
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) return Io::timeout;
        // Unused slots have fd -1, which poll skips. A pipe's write end asked for no event reports POLLERR
        // once its reader has closed it.
        pollfd p[3] = {{fd, events, 0}, {pidfd, POLLIN, 0}, {input, 0, 0}};
        int r = ::poll(p, 3, int(std::min<long long>(left, 100)));
        if (r > 0 && p[0].revents) return Io::ok;
        if (r > 0 && (p[1].revents || p[2].revents)) {
            pollfd q{fd, events, 0};
            if (::poll(&q, 1, 0) > 0) return Io::ok;
            return p[1].revents ? Io::closed : Io::input_closed;
        }
        if (r < 0 && errno != EINTR) return Io::closed;
    }
}

Io write_all(int fd, const char *p, size_t n, Deadline deadline, const StopToken &stop, int pidfd) {
    while (n) {
        ssize_t k = ::write(fd, p, n);
        if (k > 0) {
            p += k, n -= size_t(k);
            continue;
        }
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (Io w = wait_fd(fd, POLLOUT, deadline, stop, pidfd); w != Io::ok) return w;
            continue;
        }
        // EPIPE: the child has closed its end (it may have ended too: the caller finds out which).
        return k < 0 && errno == EPIPE ? Io::input_closed : Io::closed;
    }
    return Io::ok;
}

Io read_exact(int fd, char *p, size_t n, Deadline deadline, const StopToken &stop, int pidfd, size_t *got, int input) {
    size_t have = 0;
    Io result = Io::ok;
    while (have < n) {
        ssize_t k = ::read(fd, p + have, n - have);
        if (k > 0) {
            have += size_t(k);
            continue;
        }
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (Io w = wait_fd(fd, POLLIN, deadline, stop, pidfd, input); w != Io::ok) {
                result = w;
                break;
            }
            continue;
        }
        result = Io::closed;  // end of file or an error
        break;
    }
    if (got) *got = have;
    return result;
}

std::string open_pipe_pair(int a[2], int b[2]) {
    if (::pipe2(a, O_CLOEXEC) != 0) return fmt::format("pipe: {}", std::strerror(errno));
    if (::pipe2(b, O_CLOEXEC) != 0) {
        ::close(a[0]), ::close(a[1]);
        return fmt::format("pipe: {}", std::strerror(errno));
    }
    return "";
}

}  // namespace qc
