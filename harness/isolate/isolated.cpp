// The parent side of containment: spawning `quatcheck worker` processes, feeding them batches, and
// turning a death, a silence or a scribble into an EvalOutcome.
#include "isolate/process_common.h"
#include "isolate/protocol.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <random>
#include <sstream>
#include <vector>

extern char **environ;

namespace qc {

const char *to_string(EvalStatus s) {
    switch (s) {
    case EvalStatus::ok: return "ok";
    case EvalStatus::crashed: return "crashed";
    case EvalStatus::timeout: return "timeout";
    case EvalStatus::out_of_bounds: return "out-of-bounds";
    case EvalStatus::interrupted: return "interrupted";
    }
    return "?";
}

namespace {

// The quatcheck binary: QC_WORKER_EXE (tests, whose own binary is not the tool), else this executable.
std::string worker_exe() {
    if (const char *e = std::getenv("QC_WORKER_EXE"); e && *e) return e;
    char buf[4096];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "quatcheck";
    return std::string(buf, size_t(n));
}


// Waits until fd is readable, the deadline passes, or a stop is requested. Returns 1 readable, 0 timeout,
// -1 interrupted, 2 the worker (pidfd, when >= 0) has ended without a word: a process the plugin forked
// may still hold the pipe open, so no end of file would ever come.
int wait_readable(int fd, std::chrono::steady_clock::time_point deadline, const StopToken &stop, int pidfd = -1) {
    for (;;) {
        if (stop.requested()) return -1;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return 0;
        pollfd p[2] = {{fd, POLLIN, 0}, {pidfd, POLLIN, 0}};
        int r = ::poll(p, pidfd >= 0 ? 2 : 1, int(std::min<long long>(left.count(), 100)));
        if (r > 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) return 1;
        if (r > 0 && pidfd >= 0 && p[1].revents) {
            // One last look: an answer written just before the end still counts.
            pollfd q{fd, POLLIN, 0};
            return ::poll(&q, 1, 0) > 0 ? 1 : 2;
        }
        if (r < 0 && errno != EINTR) return 1;  // let the read report it
    }
}

bool read_all(int fd, void *p, size_t n) {
    auto *c = static_cast<char *>(p);
    while (n) {
        ssize_t k = ::read(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        c += k, n -= size_t(k);
    }
    return true;
}

class WorkerProcess {
public:
    pid_t pid = -1;
    int cmd_fd = -1, reply_fd = -1, pidfd = -1;
    uint32_t seq = 0;  // the next batch's sequence number (random start: protocol.h)
    isolate::Shared *shm = nullptr;
    std::string exit_detail;

    ~WorkerProcess() { kill_and_reap(); }

    // Starts a worker; on failure returns a reason. On success `hello` holds the worker's hello text. The
    // plugin has ctx.timeout_s (at least 1 s) to load; a stop request abandons the wait.
    std::string start(const std::vector<std::string> &args, const RunContext &ctx, std::string &hello) {
        prepare_to_spawn();
        int cmd[2], rep[2];
        if (::pipe2(cmd, O_CLOEXEC) != 0) return fmt::format("pipe: {}", std::strerror(errno));
        if (::pipe2(rep, O_CLOEXEC) != 0) {
            ::close(cmd[0]), ::close(cmd[1]);
            return fmt::format("pipe: {}", std::strerror(errno));
        }
        int mem = ::memfd_create("quatcheck-worker", MFD_CLOEXEC);
        if (mem < 0 || ::ftruncate(mem, sizeof(isolate::Shared)) != 0) {
            for (int fd : {cmd[0], cmd[1], rep[0], rep[1], mem})
                if (fd >= 0) ::close(fd);
            return fmt::format("memfd: {}", std::strerror(errno));
        }
        void *m = ::mmap(nullptr, sizeof(isolate::Shared), PROT_READ | PROT_WRITE, MAP_SHARED, mem, 0);
        shm = m == MAP_FAILED ? nullptr : static_cast<isolate::Shared *>(m);
        // Move the child's ends above the target numbers so the dup2s below cannot clobber each other.
        int hi_cmd = ::fcntl(cmd[0], F_DUPFD_CLOEXEC, 100), hi_rep = ::fcntl(rep[1], F_DUPFD_CLOEXEC, 100),
            hi_mem = ::fcntl(mem, F_DUPFD_CLOEXEC, 100);
        ::close(cmd[0]), ::close(rep[1]), ::close(mem);
        cmd_fd = cmd[1], reply_fd = rep[0];

        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, hi_cmd, isolate::kCommandFd);
        posix_spawn_file_actions_adddup2(&fa, hi_rep, isolate::kReplyFd);
        posix_spawn_file_actions_adddup2(&fa, hi_mem, isolate::kSharedFd);
        // A chatty or crashing plugin (or a sanitizer report from the worker) must not break the tool's
        // one-line output: the worker's stdout and stderr go to /dev/null unless QC_WORKER_STDERR=1.
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        if (const char *e = std::getenv("QC_WORKER_STDERR"); !e || std::string(e) != "1")
            posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        posix_spawnattr_t at;
        posix_spawnattr_init(&at);
        sigset_t none, dflt;
        sigemptyset(&none);
        sigemptyset(&dflt);
        for (int s : {SIGINT, SIGTERM, SIGPIPE}) sigaddset(&dflt, s);
        posix_spawnattr_setsigmask(&at, &none);
        posix_spawnattr_setsigdefault(&at, &dflt);
        posix_spawnattr_setpgroup(&at, 0);  // Ctrl-C goes to the parent, which stops its workers itself
        posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
        std::string exe = worker_exe();
        std::vector<std::string> full = {exe, "worker"};
        full.insert(full.end(), args.begin(), args.end());
        std::vector<char *> argv;
        for (auto &a : full) argv.push_back(a.data());
        argv.push_back(nullptr);
        int rc = ::posix_spawn(&pid, exe.c_str(), &fa, &at, argv.data(), environ);
        posix_spawn_file_actions_destroy(&fa);
        posix_spawnattr_destroy(&at);
        ::close(hi_cmd), ::close(hi_rep), ::close(hi_mem);
        if (rc == 0) pidfd = int(::syscall(SYS_pidfd_open, pid, 0));  // -1 on kernels before 5.3: EOF only
        seq = std::random_device{}();
        if (rc != 0 || !shm) {
            pid = -1;
            return fmt::format("cannot start worker {}: {}", exe, std::strerror(rc ? rc : errno));
        }
        // The hello: the plugin is loaded and described inside the worker.
        const double load_s = std::max(1.0, ctx.timeout_s);
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(1000 * load_s));
        int w = wait_readable(reply_fd, deadline, ctx.stop);
        if (w == 0) {
            kill_and_reap();
            return fmt::format("the plugin did not finish loading within {} s", load_s);
        }
        if (w < 0) {
            kill_and_reap();
            return "interrupted";
        }
        uint32_t len = 0;
        if (!read_all(reply_fd, &len, sizeof len) || len > (1u << 20)) {
            kill_and_reap();
            return fmt::format("the plugin crashed while loading ({})", exit_detail);
        }
        hello.assign(len, '\0');
        if (!read_all(reply_fd, hello.data(), len)) {
            kill_and_reap();
            return fmt::format("the plugin crashed while loading ({})", exit_detail);
        }
        return {};
    }

    void kill_and_reap() {
        if (pid > 0) {
            ::kill(-pid, SIGKILL);  // the worker's process group: whatever the plugin forked goes with it
            ::kill(pid, SIGKILL);
            int st = 0;
            while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
            }
            reap_group(pid);
            // Prefer the status the worker ended with by itself, if it had already died.
            if (exit_detail.empty()) exit_detail = describe_exit(st);
            pid = -1;
        }
        if (cmd_fd >= 0) ::close(cmd_fd), cmd_fd = -1;
        if (reply_fd >= 0) ::close(reply_fd), reply_fd = -1;
        if (pidfd >= 0) ::close(pidfd), pidfd = -1;
        if (shm) ::munmap(shm, sizeof(isolate::Shared)), shm = nullptr;
    }

    // The worker has died by itself (EOF): reap it and say how.
    void reap_dead() {
        if (pid > 0) {
            int st = 0;
            // It closed its pipe; give it a moment to finish dying before killing it.
            for (int k = 0; k < 200; k++) {
                pid_t r = ::waitpid(pid, &st, WNOHANG);
                if (r == pid) {
                    exit_detail = describe_exit(st);
                    // The group outlives its leader while the plugin's children live; the number stays
                    // reserved for the group until they are gone.
                    ::kill(-pid, SIGKILL);
                    reap_group(pid);
                    pid = -1;
                    break;
                }
                ::usleep(5000);
            }
        }
        kill_and_reap();
    }
};

std::vector<IsolatedDescriptor> parse_hello(const std::string &hello, std::string &error) {
    std::vector<IsolatedDescriptor> out;
    if (hello.rfind("error\t", 0) == 0) {
        error = hello.substr(6);
        while (!error.empty() && error.back() == '\n') error.pop_back();
        return out;
    }
    std::istringstream in(hello);
    std::string line;
    std::getline(in, line);
    if (line != "ok") {
        error = "the worker sent a malformed hello";
        return out;
    }
    while (std::getline(in, line)) {
        auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        out.push_back({line.substr(0, tab), unsigned(std::stoul(line.substr(tab + 1)))});
    }
    return out;
}

class IsolatedBackend : public EvalBackend {
public:
    IsolatedBackend(std::vector<std::string> args, unsigned descriptor, std::string family, const RunContext &ctx)
        : args_(std::move(args)), descriptor_(descriptor), family_(std::move(family)), ctx_(ctx) {}

    EvalOutcome eval_records(Precision p, EvalFn fn, const double *in, size_t n, double *out) override {
        EvalOutcome total;
        for (size_t base = 0; base < n; base += isolate::kMaxBatch) {
            size_t m = std::min<size_t>(isolate::kMaxBatch, n - base);
            EvalOutcome o = one_batch(p, fn, in + base * kEvalRecord, m, out + base * 4);
            total.done = base + o.done;
            if (!o.ok()) {
                total.status = o.status;
                total.detail = o.detail;
                return total;
            }
        }
        total.done = n;
        return total;
    }

private:
    std::unique_ptr<WorkerProcess> acquire(std::string &error) {
        if (auto w = idle_.take()) return w;
        auto w = std::make_unique<WorkerProcess>();
        std::string hello;
        error = w->start(args_, ctx_, hello);
        if (!error.empty()) return nullptr;
        auto d = parse_hello(hello, error);
        if (!error.empty()) return nullptr;
        if (descriptor_ >= d.size() || d[descriptor_].family != family_) {
            error = fmt::format("the plugin no longer declares family '{}' at index {}", family_, descriptor_);
            return nullptr;
        }
        return w;
    }

    EvalOutcome one_batch(Precision p, EvalFn fn, const double *in, size_t n, double *out) {
        EvalOutcome o;
        std::string error;
        auto w = acquire(error);
        if (!w) {
            o.status = error == "interrupted" ? EvalStatus::interrupted : EvalStatus::crashed;
            o.detail = "worker did not start: " + error;
            return o;
        }
        std::memcpy(w->shm->in, in, n * kEvalRecord * sizeof(double));
        w->shm->progress.store(0);
        isolate::Command cmd{isolate::kMagic, ++w->seq, descriptor_, p == Precision::f32 ? 0u : 1u, unsigned(fn), uint32_t(n)};
        bool sent = ::write(w->cmd_fd, &cmd, sizeof cmd) == ssize_t(sizeof cmd);
        const double timeout = ctx_.timeout_s;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(1000 * timeout));
        int r = sent ? wait_readable(w->reply_fd, deadline, ctx_.stop, w->pidfd) : 1;
        auto progress = [&] { return std::min<size_t>(w->shm->progress.load(), n - 1); };
        auto copy_out = [&](size_t k) { std::memcpy(out, w->shm->out, k * 4 * sizeof(double)); };
        if (r == 0 || r < 0) {
            o.done = progress();
            copy_out(o.done);
            o.status = r == 0 ? EvalStatus::timeout : EvalStatus::interrupted;
            o.detail = r == 0 ? fmt::format("no answer within {} s", timeout) : "interrupted";
            return o;  // w is killed by its destructor
        }
        if (r == 2) {  // the worker ended; something it forked keeps its pipe open
            o.done = progress();
            copy_out(o.done);
            w->reap_dead();
            o.status = EvalStatus::crashed;
            o.detail = w->exit_detail;
            return o;
        }
        isolate::Reply reply{};
        bool got = sent && read_all(w->reply_fd, &reply, sizeof reply);
        if (got && (reply.magic != isolate::kMagic || reply.seq != cmd.seq)) {
            // Bytes that are not this batch's answer: a forked copy of the worker answering, or the plugin
            // writing to the reply pipe. The outputs cannot be trusted.
            o.done = progress();
            copy_out(o.done);
            o.status = EvalStatus::crashed;
            o.detail = reply.magic == isolate::kMagic
                           ? "protocol violation: an answer to another batch (did the plugin fork?)"
                           : "protocol violation: bytes on the reply pipe that are not an answer (did the plugin write to a descriptor it does not own?)";
            return o;  // w is killed by its destructor
        }
        if (!got) {
            o.done = progress();
            copy_out(o.done);
            w->reap_dead();
            o.status = EvalStatus::crashed;
            o.detail = w->exit_detail;
            return o;
        }
        if (reply.status == isolate::kReplyFdWrite) {
            o.done = std::min<size_t>(reply.done, n - 1);
            copy_out(o.done);
            o.status = EvalStatus::out_of_bounds;
            o.detail = fmt::format("wrote {} bytes to file descriptors {}-{} (the worker's, not the plugin's)", reply.bytes,
                                   isolate::kTrapFdFirst, isolate::kTrapFdLast);
            return o;
        }
        if (reply.status != isolate::kReplyOk) {
            o.done = std::min<size_t>(reply.done, n - 1);
            copy_out(o.done);
            o.status = EvalStatus::out_of_bounds;
            o.detail = "wrote outside out[0..3] or into its inputs";
            return o;
        }
        copy_out(n);
        o.done = n;
        idle_.give(std::move(w));
        return o;
    }

    std::vector<std::string> args_;
    unsigned descriptor_;
    std::string family_;
    RunContext ctx_;  // its timeout and stop token (progress is not used here)
    IdlePool<WorkerProcess> idle_;
};

}  // namespace

std::string describe_exit(int status) {
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *abbrev = sigabbrev_np(sig);
        return fmt::format("killed by SIG{}", abbrev ? abbrev : std::to_string(sig).c_str());
    }
    if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
    return "ended";
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
        ::usleep(1000);  // a member killed but not yet dead
    }
}

std::vector<IsolatedDescriptor> describe_plugin_isolated(const std::string &path, const RunContext &ctx) {
    WorkerProcess w;
    std::string hello;
    std::string error = w.start({"--plugin", path}, ctx, hello);
    if (!error.empty()) ctx.stop.throw_if_requested();  // a signal ended the wait: not the plugin's fault
    if (!error.empty()) throw InputError(fmt::format("{}: refused: {}", path, error));
    auto d = parse_hello(hello, error);
    if (!error.empty()) throw InputError(fmt::format("{}: {}", path, error));
    return d;
}

std::shared_ptr<EvalBackend> isolated_plugin_backend(const std::string &path, unsigned index, const std::string &family,
                                                     const RunContext &ctx) {
    return std::make_shared<IsolatedBackend>(std::vector<std::string>{"--plugin", path}, index, family, ctx);
}

std::shared_ptr<EvalBackend> isolated_builtin_backend(const std::string &family, const RunContext &ctx) {
    return std::make_shared<IsolatedBackend>(std::vector<std::string>{"--builtin", family}, 0, family, ctx);
}

}  // namespace qc
