// The parent side of containment: spawning `quatcheck worker` processes, feeding them batches, and
// turning a death, a silence or a scribble into an EvalOutcome.
#include "isolate/child_process.h"
#include "isolate/protocol.h"
#include "quatcheck/names.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <random>
#include <sstream>
#include <vector>

namespace qc {

namespace {
constexpr std::array kEvalStatusNames{
    Named{EvalStatus::ok, "ok"}, Named{EvalStatus::crashed, "crashed"}, Named{EvalStatus::timeout, "timeout"},
    Named{EvalStatus::out_of_bounds, "out-of-bounds"}, Named{EvalStatus::interrupted, "interrupted"}};
static_assert(distinct_names(kEvalStatusNames));
}  // namespace

const char *to_string(EvalStatus s) { return name_of(kEvalStatusNames, s); }

namespace {

// The quatcheck binary: the context's worker_exe (QC_WORKER_EXE; tests, whose own binary is not the tool), else
// this executable.
std::string worker_exe(const RunContext &ctx) {
    if (!ctx.worker_exe.empty()) return ctx.worker_exe;
    char buf[4096];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "quatcheck";
    return std::string(buf, size_t(n));
}

class WorkerProcess {
public:
    Child child;
    int cmd_fd = -1, reply_fd = -1;
    uint32_t seq = 0;  // the next batch's sequence number (random start: protocol.h)
    isolate::Shared *shm = nullptr;
    std::string exit_detail;

    ~WorkerProcess() { kill_and_reap(); }

    // Starts a worker; on failure returns a reason. On success `hello` holds the worker's hello text. The
    // plugin has ctx.timeout_s (at least 1 s) to load; a stop request abandons the wait.
    std::string start(const std::vector<std::string> &args, const RunContext &ctx, std::string &hello) {
        int cmd[2], rep[2];
        if (std::string why = open_pipe_pair(cmd, rep); !why.empty()) return why;
        int mem = ::memfd_create("quatcheck-worker", MFD_CLOEXEC);
        if (mem < 0 || ::ftruncate(mem, sizeof(isolate::Shared)) != 0) {
            for (int fd : {cmd[0], cmd[1], rep[0], rep[1], mem})
                if (fd >= 0) ::close(fd);
            return fmt::format("memfd: {}", std::strerror(errno));
        }
        void *m = ::mmap(nullptr, sizeof(isolate::Shared), PROT_READ | PROT_WRITE, MAP_SHARED, mem, 0);
        shm = m == MAP_FAILED ? nullptr : static_cast<isolate::Shared *>(m);
        cmd_fd = cmd[1], reply_fd = rep[0];
        SpawnSpec spec;
        spec.argv = {worker_exe(ctx), "worker"};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.fds = {{cmd[0], isolate::kCommandFd}, {rep[1], isolate::kReplyFd}, {mem, isolate::kSharedFd}};
        spec.discard_stdout = true;
        spec.keep_stderr = ctx.keep_child_stderr;
        const int rc = spawn_child(spec, child);
        ::close(cmd[0]), ::close(rep[1]), ::close(mem);
        seq = std::random_device{}();
        if (rc != 0 || !shm)
            return fmt::format("cannot start worker {}: {}", spec.argv[0], std::strerror(rc ? rc : errno));
        // The hello: the plugin is loaded and described inside the worker.
        const double load_s = std::max(1.0, ctx.timeout_s);
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(1000 * load_s));
        Io w = wait_fd(reply_fd, POLLIN, deadline, ctx.stop);
        if (w == Io::timeout) {
            kill_and_reap();
            return fmt::format("the plugin did not finish loading within {} s", load_s);
        }
        if (w == Io::interrupted) {
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

    // Kills the worker's process group (whatever the plugin forked goes with it) and reaps it; `dying`: the
    // worker has closed its pipe, so give it a moment to end by itself. exit_detail says how it ended.
    void kill_and_reap(bool dying = false) {
        if (child.pid > 0) {
            const ChildEnd end = end_child(child, std::chrono::milliseconds(dying ? 1000 : 0));
            if (exit_detail.empty()) exit_detail = describe_exit(end.status);
        }
        if (cmd_fd >= 0) ::close(cmd_fd), cmd_fd = -1;
        if (reply_fd >= 0) ::close(reply_fd), reply_fd = -1;
        if (shm) ::munmap(shm, sizeof(isolate::Shared)), shm = nullptr;
    }

    // The worker has died by itself (EOF): reap it and say how.
    void reap_dead() { kill_and_reap(true); }
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
        isolate::Command cmd{isolate::kMagic, ++w->seq,   descriptor_, p == Precision::f32 ? 0u : 1u,
                             unsigned(fn),    uint32_t(n)};
        bool sent = ::write(w->cmd_fd, &cmd, sizeof cmd) == ssize_t(sizeof cmd);
        const double timeout = ctx_.timeout_s;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(1000 * timeout));
        const Io r = sent ? wait_fd(w->reply_fd, POLLIN, deadline, ctx_.stop, w->child.pidfd) : Io::ok;
        auto progress = [&] { return std::min<size_t>(w->shm->progress.load(), n - 1); };
        auto copy_out = [&](size_t k) { std::memcpy(out, w->shm->out, k * 4 * sizeof(double)); };
        auto died = [&] {  // the worker is gone: the outputs it finished, then how it ended
            o.done = progress();
            copy_out(o.done);
            w->reap_dead();
            o.status = EvalStatus::crashed;
            o.detail = w->exit_detail;
            return o;
        };
        if (r == Io::timeout || r == Io::interrupted) {
            o.done = progress();
            copy_out(o.done);
            o.status = r == Io::timeout ? EvalStatus::timeout : EvalStatus::interrupted;
            o.detail = r == Io::timeout ? fmt::format("no answer within {} s", timeout) : "interrupted";
            return o;  // w is killed by its destructor
        }
        if (r == Io::closed) return died();  // the worker ended; something it forked keeps its pipe open
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
                           : "protocol violation: bytes on the reply pipe that are not an answer (did the plugin write "
                             "to a descriptor it does not own?)";
            return o;  // w is killed by its destructor
        }
        if (!got) return died();
        if (reply.status == isolate::kReplyFdWrite) {
            o.done = std::min<size_t>(reply.done, n - 1);
            copy_out(o.done);
            o.status = EvalStatus::out_of_bounds;
            o.detail = fmt::format("wrote {} bytes to file descriptors {}-{} (the worker's, not the plugin's)",
                                   reply.bytes, isolate::kTrapFdFirst, isolate::kTrapFdLast);
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
