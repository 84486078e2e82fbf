// The parent side of process plugins (docs/plugin-protocol.md): spawning an adapter program in its own
// process group with pipes for stdin/stdout, reading its hello, and exchanging batches under a timeout.
#include "isolate/child_process.h"
#include "isolate/process_plugin.h"
#include "isolate/text_wire.h"
#include "tables/quote.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>

static_assert(std::endian::native == std::endian::little, "the process-plugin wire format is little-endian");

namespace qc {

namespace {

constexpr char kTag[] = "\x1eprocess:";         // a record separator: no path a user types starts with it
constexpr uint32_t kRequestMagic = 0x31424351;  // bytes "QCB1"
constexpr uint32_t kReplyMagic = 0x31524351;    // bytes "QCR1"
constexpr size_t kRequestHeader = 24, kReplyHeader = 24;
constexpr int kOutputsPerCase = 4;

// Each op on the wire: its number and name, the protocol that brought it, and the values a case sends, as
// indices into an EvalFn record (eval.h: q0 0-3, q1 4-7, s0 8-11, s1 12-15, t 16; tau at 8; squad_setup's
// prev, cur, next at 0-11), in wire order.
struct WireOp {
    EvalFn fn;
    ProcessOp op;
    const char *name;
    int protocol;
    size_t per_case;
    size_t fields[kEvalRecord];
};
constexpr WireOp kWireOps[] = {
    {EvalFn::slerp, kProcessSlerp, "slerp", 1, 9, {0, 1, 2, 3, 4, 5, 6, 7, 16}},
    {EvalFn::nlerp, kProcessNlerp, "nlerp", 1, 9, {0, 1, 2, 3, 4, 5, 6, 7, 16}},
    {EvalFn::slerp_tau, kProcessSlerpTau, "slerp_tau", 2, 10, {0, 1, 2, 3, 4, 5, 6, 7, 16, kEvalTauIndex}},
    {EvalFn::squad, kProcessSquad, "squad", 3, 17, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
    {EvalFn::squad_setup, kProcessSquadSetup, "squad_setup", 3, 12, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
};
const WireOp *wire_op(EvalFn fn) {
    for (const auto &w : kWireOps)
        if (w.fn == fn) return &w;
    return nullptr;
}
const WireOp *wire_op(const std::string &name) {
    for (const auto &w : kWireOps)
        if (name == w.name) return &w;
    return nullptr;
}

using Clock = std::chrono::steady_clock;

// ---- hello ----------------------------------------------------------------------------------------------

bool name_chars(const std::string &s, size_t max, const char *extra) {
    if (s.empty() || s.size() > max) return false;
    for (char c : s) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || std::strchr(extra, c);
        if (!ok || c == '\0') return false;
    }
    return true;
}

// ---- one adapter process --------------------------------------------------------------------------------

class Adapter {
public:
    Child child;
    int to = -1, from = -1;  // the adapter's stdin (we write) and stdout (we read)
    uint32_t seq = 0;

    ~Adapter() { stop(); }

    // The adapter's CPU time (every thread of its process) since the last call, in nanoseconds; the first
    // call, right after its hello, leaves its start-up out. nan when the clock cannot be read.
    double cpu_since_last() {
        timespec ts{};
        if (!has_clock_ || ::clock_gettime(clock_, &ts) != 0) return std::nan("");
        const double now = double(ts.tv_sec) * 1e9 + double(ts.tv_nsec), d = now - cpu_mark_;
        cpu_mark_ = now;
        return d;
    }

    // Starts argv[0] (searched in PATH) and reads its hello text. Returns an empty string or the reason.
    std::string start(const std::vector<std::string> &argv, const RunContext &ctx, std::string &hello) {
        int in[2], out[2];
        if (::pipe2(in, O_CLOEXEC) != 0) return fmt::format("pipe: {}", std::strerror(errno));
        if (::pipe2(out, O_CLOEXEC) != 0) {
            ::close(in[0]), ::close(in[1]);
            return fmt::format("pipe: {}", std::strerror(errno));
        }
        // Pipes of 1 MiB (the unprivileged maximum, /proc/sys/fs/pipe-max-size) hold a whole batch (at most
        // 4096 x 10 doubles out, 4096 x 4 back): one write, no hand-over per 64 KiB. Best effort: a failure
        // leaves the default size, which only costs time.
        for (int fd : {in[1], out[1]}) ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
        SpawnSpec spec;
        spec.argv = argv;
        spec.search_path = true;
        spec.fds = {{in[0], 0}, {out[1], 1}};
        spec.keep_stderr = ctx.keep_child_stderr;  // QC_WORKER_STDERR=1, the same switch as for shared-library plugins
        spec.close_others = true;                  // pipes only: no other fd of ours leaks in
        const int rc = spawn_child(spec, child);
        ::close(in[0]), ::close(out[1]);
        to = in[1], from = out[0];
        ::fcntl(to, F_SETFL, O_NONBLOCK);
        ::fcntl(from, F_SETFL, O_NONBLOCK);
        if (rc != 0) {
            stop();
            return fmt::format("cannot start '{}': {}", argv[0], std::strerror(rc));
        }
        std::string error = read_hello(hello, ctx);
        has_clock_ = error.empty() && ::clock_getcpuclockid(child.pid, &clock_) == 0;
        cpu_since_last();
        return error;
    }

    // Kills the whole process group and reaps the adapter. `dying`: it closed its pipe, so give it a
    // moment to end by itself and return how it ended ("" when it had to be killed).
    std::string stop(bool dying = false) {
        std::string how;
        if (child.pid > 0) {
            const ChildEnd end = end_child(child, std::chrono::milliseconds(dying ? 200 : 0));
            if (end.by_itself) how = describe_exit(end.status);
        }
        if (to >= 0) ::close(to), to = -1;
        if (from >= 0) ::close(from), from = -1;
        return how;
    }

private:
    clockid_t clock_{};
    bool has_clock_ = false;
    double cpu_mark_ = 0;

    std::string read_hello(std::string &hello, const RunContext &ctx) {
        // Its own deadline, not --timeout's: a runtime such as node may load slowly on a busy machine.
        const double timeout = ctx.hello_timeout_s;
        auto deadline = Clock::now() + std::chrono::milliseconds(long(1000 * timeout));
        hello.clear();
        char buf[4096];
        for (;;) {
            size_t end = hello.rfind("\nend\n");
            if (end != std::string::npos || hello.rfind("end\n", 0) == 0) {
                size_t stop_at = end == std::string::npos ? 4 : end + 5;
                if (stop_at != hello.size()) return "sent data after its hello's 'end' line";
                return {};
            }
            if (hello.find('\n') != std::string::npos && hello.rfind("quatcheck-plugin ", 0) != 0)
                return "hello does not start with 'quatcheck-plugin VERSION' (is this a quatcheck adapter?)";
            if (hello.size() >= kProcessHelloMaxBytes)
                return fmt::format("its hello exceeds {} bytes without an 'end' line", kProcessHelloMaxBytes);
            size_t want = std::min(sizeof buf, kProcessHelloMaxBytes - hello.size());
            ssize_t k = ::read(from, buf, want);
            if (k > 0) {
                hello.append(buf, size_t(k));
                continue;
            }
            if (k < 0 && errno == EINTR) continue;
            if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                Io w = wait_fd(from, POLLIN, deadline, ctx.stop, child.pidfd);
                if (w == Io::timeout)
                    return fmt::format(
                        "no complete hello within {} s (a slow start? allow more with --hello-timeout "
                        "SECONDS)",
                        timeout);
                if (w == Io::interrupted) return "interrupted";
                if (w == Io::ok) continue;
            }
            std::string how = stop(true);
            return fmt::format("ended before its hello was complete ({}; QC_WORKER_STDERR=1 shows its stderr)",
                               how.empty() ? "closed its stdout" : how);
        }
    }
};

// ---- the pool of adapters of one command ----------------------------------------------------------------

// A request on its way: the adapter serving it (nobody else's until the answer is read), or the outcome
// that ended it before it was written.
struct Sent {
    std::unique_ptr<Adapter> adapter;
    uint32_t seq = 0;
    size_t n = 0, width = 8;
    EvalOutcome failed;         // status != ok: it never reached the adapter
    bool input_closed = false;  // the adapter had closed its stdin: the request was not (wholly) written
    double start_ns = 0;        // spent starting a new adapter for it (its start-up, not the round trip's cost)
    Clock::time_point sent_at;  // just before the request was written: the library's time lies within
};

// An answer: the outcome, and the adapter's CPU time over the round trip (nan if unknown or failed).
struct Answer {
    EvalOutcome outcome;
    double cpu_ns = std::nan("");
    double start_ns = 0;      // Sent::start_ns
    uint64_t claimed_ns = 0;  // a library time beyond the round trip, refused (outcome: out-of-bounds)
};

class ProcessPool {
public:
    ProcessPool(std::string command, std::vector<std::string> argv, std::string hello, std::unique_ptr<Adapter> first,
                const RunContext &ctx, bool text)
        : command_(std::move(command)), argv_(std::move(argv)), hello_(std::move(hello)), ctx_(ctx), text_(text) {
        idle_.give(std::move(first));
    }

    // One round trip: the n cases (at most kProcessMaxCases) of `in` to family `family`; outputs into out.
    // On failure the adapter is killed and done = 0 (the caller localises the case).
    Answer batch(unsigned family, Precision p, EvalFn fn, const double *in, size_t n, double *out) {
        Sent s = send(family, p, fn, in, n);
        return receive(s, out);
    }

    // The first half: an idle adapter (or a new one) gets the request; its answer is left in the pipe.
    Sent send(unsigned family, Precision p, EvalFn fn, const double *in, size_t n) {
        Sent s;
        std::string error;
        s.adapter = acquire(error, s.start_ns);
        if (!s.adapter) {
            s.failed.status = error == "interrupted" ? EvalStatus::interrupted : EvalStatus::crashed;
            s.failed.detail = "adapter did not start: " + error;
            return s;
        }
        Adapter &a = *s.adapter;
        s.n = n;
        s.width = p == Precision::f32 ? 4 : 8;
        const size_t width = s.width;
        const WireOp &op = *wire_op(fn);  // the backend sends only the ops of kWireOps
        s.seq = ++a.seq;
        if (text_) {
            const std::string req =
                encode_text_request(s.seq, family, op.name, width, in, n, kEvalRecord, op.fields, op.per_case);
            s.sent_at = Clock::now();
            write_request(s, req.data(), req.size());
            return s;
        }
        std::vector<char> req(kRequestHeader + n * op.per_case * width);
        uint32_t head[6] = {kRequestMagic, s.seq, family, uint32_t(op.op) | uint32_t(width) << 8, uint32_t(n), 0};
        std::memcpy(req.data(), head, sizeof head);
        char *w = req.data() + kRequestHeader;
        for (size_t i = 0; i < n; i++) {
            const double *r = in + i * kEvalRecord;
            for (size_t k = 0; k < op.per_case; k++) {
                const double x = r[op.fields[k]];
                if (width == 4) {
                    float f = float(x);
                    std::memcpy(w, &f, 4);
                } else {
                    std::memcpy(w, &x, 8);
                }
                w += width;
            }
        }
        s.sent_at = Clock::now();
        write_request(s, req.data(), req.size());
        return s;
    }

    // The second half: reads and checks the answer (the timeout counts from here) and gives the adapter
    // back, or kills it and returns the failure.
    Answer receive(Sent &s, double *out) {
        Answer ans;
        ans.start_ns = s.start_ns;
        if (!s.failed.ok() || !s.adapter) {
            ans.outcome = s.failed;
            s.adapter.reset();
            return ans;
        }
        Adapter &a = *s.adapter;
        const size_t n = s.n, width = s.width;
        Await w{deadline(), false};
        if (s.input_closed) note_input_closed(w);
        auto fail = [&](EvalOutcome o) {
            ans.outcome = std::move(o);
            s.adapter.reset();
            return ans;
        };
        auto violation = [&](std::string what) {
            return fail(kill(a, EvalStatus::out_of_bounds, "protocol violation: " + what));
        };
        uint64_t self = 0;
        if (text_) {
            TextAnswer answer(s.seq, n, width, out);
            char buf[65536];
            while (!answer.complete()) {
                ssize_t k = ::read(a.from, buf, sizeof buf);
                if (k > 0) {
                    if (std::string why = answer.feed(buf, size_t(k)); !why.empty()) return violation(why);
                    continue;
                }
                if (k < 0 && errno == EINTR) continue;
                Io r = Io::closed;
                if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) r = await_output(a, w);
                if (r == Io::ok) continue;
                return fail(io_fail(a, r, w,
                                    answer.lines() == 0
                                        ? "the adapter ended without answering"
                                        : fmt::format("short answer: {} of {} lines", answer.lines(), n + 1)));
            }
            if (answer.extra_bytes() > 0 || unread(a) > 0)
                return violation(
                    fmt::format("{} more bytes after its answer", answer.extra_bytes() + size_t(unread(a))));
            self = answer.nanoseconds();
            return finish(s, ans, self);
        }
        uint32_t rh[6] = {};
        if (Io r = read_answer(a, reinterpret_cast<char *>(rh), kReplyHeader, w); r != Io::ok)
            return fail(io_fail(a, r, w, "the adapter ended without answering"));
        if (rh[0] != kReplyMagic)
            return violation(fmt::format("the answer does not start with QCR1 (got 0x{:08x})", rh[0]));
        if (rh[1] != s.seq)
            return violation(fmt::format("answer to batch {} carries sequence number {}", s.seq, rh[1]));
        if (rh[2] != n) return violation(fmt::format("{} outputs announced for a batch of {} cases", rh[2], n));
        if (rh[3] != 0) return violation(fmt::format("reserved field is {}, not 0", rh[3]));
        std::vector<char> body(n * kOutputsPerCase * width);
        size_t got = 0;
        if (Io r = read_answer(a, body.data(), body.size(), w, &got); r != Io::ok)
            return fail(io_fail(a, r, w, fmt::format("short answer: {} of {} output bytes", got, body.size())));
        // Bytes beyond the answer belong to this batch: left in the pipe, they would be read as the next
        // batch's answer and blame it.
        if (int more = unread(a); more > 0) return violation(fmt::format("{} more bytes after its answer", more));
        // Offset 16: the nanoseconds the adapter measured around its library calls (0: not measured). They
        // lie between the request's writing and the answer's reading: more is not a measurement.
        self = uint64_t(rh[4]) | uint64_t(rh[5]) << 32;
        const char *rp = body.data();
        for (size_t i = 0; i < n * kOutputsPerCase; i++, rp += width) {
            if (width == 4) {
                float f;
                std::memcpy(&f, rp, 4);
                out[i] = double(f);
            } else {
                std::memcpy(&out[i], rp, 8);
            }
        }
        return finish(s, ans, self);
    }

private:
    // The end of a well-formed answer (either wire): the library time it reports must lie within the round
    // trip; then the adapter goes back to the pool.
    Answer finish(Sent &s, Answer &ans, uint64_t self) {
        Adapter &a = *s.adapter;
        const auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - s.sent_at).count();
        if (self > uint64_t(std::max<int64_t>(0, wall))) {
            ans.claimed_ns = self;
            ans.outcome =
                kill(a, EvalStatus::out_of_bounds,
                     fmt::format("protocol violation: it reports {} ns in its library for a round trip of {} ns", self,
                                 wall));
            s.adapter.reset();
            return ans;
        }
        ans.outcome.done = s.n;
        ans.outcome.self_ns = self > 0 ? double(self) : std::nan("");
        ans.cpu_ns = a.cpu_since_last();
        idle_.give(std::move(s.adapter));
        return ans;
    }

    Clock::time_point deadline() const { return Clock::now() + std::chrono::milliseconds(long(1000 * ctx_.timeout_s)); }

    // Writes a request. A write that fails because the adapter has closed its stdin (EPIPE) does not decide
    // the batch's outcome by itself: receive() waits for the adapter's answer or end as it does when the
    // adapter closes its stdin after the request was written, so that both orders of the same race give the
    // same status and detail (issue 44 item 7).
    void write_request(Sent &s, const char *p, size_t size) {
        Adapter &a = *s.adapter;
        const Io r = write_all(a.to, p, size, deadline(), ctx_.stop, a.child.pidfd);
        if (r == Io::input_closed || r == Io::closed) s.input_closed = true;  // closed: it ended, stdin with it
        else if (r != Io::ok) s.failed = io_fail(a, r, {}, "");               // timeout, interrupted
    }

    // Waiting for an answer. The adapter's stdin is watched as well as its stdout: once it has closed its
    // stdin it reads no more requests, so the wait is cut to kInputClosedGrace (within the batch's
    // deadline), time enough for an adapter that is ending to end (its end, or a last answer, is then read as
    // usual); one still running when the grace is over has stopped serving (io_fail: crashed, a fixed
    // detail), not timed out. A full --timeout is never spent on a pipe known to be broken.
    struct Await {
        Clock::time_point until;
        bool input_closed;
    };
    static constexpr auto kInputClosedGrace = std::chrono::milliseconds(500);
    static void note_input_closed(Await &w) {
        w.input_closed = true;
        w.until = std::min(w.until, Clock::now() + kInputClosedGrace);
    }
    Io await_output(Adapter &a, Await &w) const {
        for (;;) {
            const Io r = wait_fd(a.from, POLLIN, w.until, ctx_.stop, a.child.pidfd, w.input_closed ? -1 : a.to);
            if (r != Io::input_closed) return r;
            note_input_closed(w);
        }
    }
    // Reads exactly n bytes of a binary answer, waiting as await_output() does; *got: how many arrived.
    Io read_answer(Adapter &a, char *p, size_t n, Await &w, size_t *got = nullptr) const {
        size_t have = 0;
        Io r;
        for (;;) {
            size_t k = 0;
            r = read_exact(a.from, p + have, n - have, w.until, ctx_.stop, a.child.pidfd, &k,
                           w.input_closed ? -1 : a.to);
            have += k;
            if (r != Io::input_closed) break;
            note_input_closed(w);
        }
        if (got) *got = have;
        return r;
    }

    // Bytes waiting in the adapter's output (0 when none, or unknown).
    static int unread(const Adapter &a) {
        int n = 0;
        return ::ioctl(a.from, FIONREAD, &n) == 0 ? n : 0;
    }

    // Stops the adapter (it has failed; `dying`: it closed its pipe, so say how it ended) and says why.
    EvalOutcome kill(Adapter &a, EvalStatus st, std::string detail, bool dying) const {
        std::string how = a.stop(dying);
        EvalOutcome o;
        o.status = st;
        o.detail = how.empty() ? detail : fmt::format("{} ({})", detail, how);
        return o;
    }
    EvalOutcome kill(Adapter &a, EvalStatus st, std::string detail) const {
        return kill(a, st, std::move(detail), st == EvalStatus::crashed);
    }
    // The failure of a wait for the answer (`what`: what an end of its output means at this point).
    EvalOutcome io_fail(Adapter &a, Io r, const Await &w, const std::string &what) const {
        // Its stdin closed and, after the grace, neither an answer nor its end: it has stopped serving. Killed
        // without waiting to see how it ends, so the detail is the same however soon it would have.
        if (r == Io::timeout && w.input_closed)
            return kill(a, EvalStatus::crashed, "the adapter closed its stdin without answering (it reads no requests)",
                        false);
        if (r == Io::timeout) return kill(a, EvalStatus::timeout, fmt::format("no answer within {} s", ctx_.timeout_s));
        if (r == Io::interrupted) return kill(a, EvalStatus::interrupted, "interrupted");
        return kill(a, EvalStatus::crashed, what);
    }

    std::unique_ptr<Adapter> acquire(std::string &error, double &start_ns) {
        // An idle adapter that has written since its last answer was read (bytes too late for receive() to
        // see) is not used: they would be read as this batch's answer, and blame it.
        while (auto a = idle_.take())
            if (unread(*a) == 0) return a;
        const auto t0 = Clock::now();
        auto a = std::make_unique<Adapter>();
        std::string hello;
        error = a->start(argv_, ctx_, hello);
        start_ns = double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
        if (error.empty() && hello != hello_) error = "its hello differs from the one it sent first";
        if (!error.empty()) return nullptr;
        return a;
    }

    std::string command_;
    std::vector<std::string> argv_;
    std::string hello_;
    RunContext ctx_;  // its timeout and stop token
    bool text_;       // the hello chose the text wire (text_wire.h)
    IdlePool<Adapter> idle_;
};

// The backend of one family: batches of at most kProcessMaxCases; a failed batch is replayed case by case
// (fresh adapters) so that the outcome names the case that triggers the failure.
class ProcessFamilyBackend : public EvalBackend {
public:
    ProcessFamilyBackend(std::shared_ptr<ProcessPool> pool, unsigned family)
        : pool_(std::move(pool)), family_(family) {}

    EvalOutcome eval_records(Precision p, EvalFn fn, const double *in, size_t n, double *out) override {
        EvalOutcome total;
        double self_ns = 0;  // summed over the batches; nan as soon as one batch was not measured
        if (!supported(fn)) return unsupported();
        for (size_t base = 0; base < n; base += kProcessMaxCases) {
            size_t m = std::min<size_t>(kProcessMaxCases, n - base);
            const double *bi = in + base * kEvalRecord;
            double *bo = out + base * 4;
            auto t0 = Clock::now();
            Answer a = pool_->batch(family_, p, fn, bi, m, bo);
            count(t0, 0, t0, a);
            EvalOutcome o = localise(p, fn, bi, m, bo, a.outcome);
            self_ns += o.self_ns;
            if (!o.ok()) {
                total.status = o.status;
                total.detail = o.detail;
                total.done = base + o.done;
                return total;
            }
        }
        total.done = n;
        total.self_ns = self_ns;
        return total;
    }

    std::unique_ptr<PendingEval> start_records(Precision p, EvalFn fn, const double *in, size_t n,
                                               double *out) override {
        if (!supported(fn) || n == 0 || n > kProcessMaxCases) return nullptr;
        auto t0 = Clock::now();
        Sent s = pool_->send(family_, p, fn, in, n);
        const double send_ns = ns_since(t0);
        return std::make_unique<Pending>(*this, p, fn, in, n, out, std::move(s), t0, send_ns);
    }

    BackendCounters counters() const override {
        BackendCounters c;
        c.round_trips = round_trips_.load();
        c.adapters_started = starts_.load();
        c.start_s = double(start_ns_.load()) * 1e-9;
        c.round_trip_s = double(round_trip_ns_.load()) * 1e-9;
        c.wait_s = double(wait_ns_.load()) * 1e-9;
        c.self_s = double(self_ns_.load()) * 1e-9;
        c.adapter_cpu_s = double(cpu_ns_.load()) * 1e-9;
        c.wait_overhead_s = double(wait_over_ns_.load()) * 1e-9;
        c.adapter_overhead_s = double(cpu_over_ns_.load()) * 1e-9;
        c.time_violations = time_violations_.load();
        c.time_violation_max_ns = time_violation_max_ns_.load();
        return c;
    }

private:
    class Pending final : public PendingEval {
    public:
        Pending(ProcessFamilyBackend &b, Precision p, EvalFn fn, const double *in, size_t n, double *out, Sent s,
                Clock::time_point t0, double send_ns)
            : b_(b), p_(p), fn_(fn), in_(in), n_(n), out_(out), sent_(std::move(s)), t0_(t0), send_ns_(send_ns) {}
        EvalOutcome finish() override {
            auto t1 = Clock::now();
            Answer a = b_.pool_->receive(sent_, out_);
            b_.count(t0_, send_ns_, t1, a);
            return b_.localise(p_, fn_, in_, n_, out_, a.outcome);
        }

    private:
        ProcessFamilyBackend &b_;
        Precision p_;
        EvalFn fn_;
        const double *in_;
        size_t n_;
        double *out_;
        Sent sent_;  // an unfinished request's adapter dies with it
        Clock::time_point t0_;
        double send_ns_;
    };

    static bool supported(EvalFn fn) { return wire_op(fn) != nullptr; }
    static EvalOutcome unsupported() {
        EvalOutcome o;
        o.status = EvalStatus::crashed;
        o.detail = "the process protocol has no such op";
        return o;
    }
    static double ns_since(Clock::time_point t) {
        return double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t).count());
    }

    // A failed batch of m cases (o from one round trip) replayed one case at a time, so that the outcome
    // names the case that fails alone; an interruption is not replayed.
    EvalOutcome localise(Precision p, EvalFn fn, const double *in, size_t m, double *out, EvalOutcome o) {
        if (o.ok() || o.status == EvalStatus::interrupted || m <= 1) return o;
        for (size_t at = 0; at < m; at++) {
            auto t1 = Clock::now();
            Answer one = pool_->batch(family_, p, fn, in + at * kEvalRecord, 1, out + at * 4);
            count(t1, 0, t1, one);
            if (!one.outcome.ok()) {
                one.outcome.done = at;
                return one.outcome;
            }
        }
        o.done = 0;  // every case passed alone: the batch as a whole failed
        o.detail += " (the batch failed; none of its cases did alone)";
        return o;
    }

    // One round trip sent at t0 (send_ns of it spent sending) and waited for from t1 on. A new adapter's
    // start-up (a.start_ns) is counted apart.
    void count(Clock::time_point t0, double send_ns, Clock::time_point t1, const Answer &a) {
        const double wait = std::max(0.0, send_ns + ns_since(t1) - a.start_ns);
        const double self = a.outcome.self_ns > 0 ? a.outcome.self_ns : 0.0;
        round_trips_++;
        if (a.start_ns > 0) starts_++, start_ns_ += uint64_t(a.start_ns);
        round_trip_ns_ += uint64_t(std::max(0.0, ns_since(t0) - a.start_ns));
        wait_ns_ += uint64_t(wait);
        self_ns_ += uint64_t(self);
        wait_over_ns_ += uint64_t(std::max(0.0, wait - self));
        if (a.cpu_ns >= 0) {
            cpu_ns_ += uint64_t(a.cpu_ns);
            cpu_over_ns_ += uint64_t(std::max(0.0, a.cpu_ns - self));
        }
        if (a.claimed_ns > 0) {
            time_violations_++;
            uint64_t was = time_violation_max_ns_.load();
            while (a.claimed_ns > was && !time_violation_max_ns_.compare_exchange_weak(was, a.claimed_ns)) {}
        }
    }

    std::shared_ptr<ProcessPool> pool_;
    unsigned family_;
    std::atomic<uint64_t> starts_{0}, start_ns_{0}, round_trips_{0}, round_trip_ns_{0}, wait_ns_{0}, self_ns_{0},
        cpu_ns_{0}, wait_over_ns_{0}, cpu_over_ns_{0}, time_violations_{0}, time_violation_max_ns_{0};
};

// A family's functions as a worker reports a shared-library plugin's (eval.h's FunctionBit).
unsigned function_bits(const ProcessHello::Family &f) {
    const std::pair<ProcessOp, FunctionBit> f32[] = {{kProcessSlerp, kSlerpF32},
                                                     {kProcessNlerp, kNlerpF32},
                                                     {kProcessSlerpTau, kSlerpTauF32},
                                                     {kProcessSquad, kSquadF32},
                                                     {kProcessSquadSetup, kSquadSetupF32}};
    const std::pair<ProcessOp, FunctionBit> f64[] = {{kProcessSlerp, kSlerpF64},
                                                     {kProcessNlerp, kNlerpF64},
                                                     {kProcessSlerpTau, kSlerpTauF64},
                                                     {kProcessSquad, kSquadF64},
                                                     {kProcessSquadSetup, kSquadSetupF64}};
    unsigned m = 0;
    for (const auto &[op, bit] : f32)
        if (f.has[op][precision_index(Precision::f32)]) m |= bit;
    for (const auto &[op, bit] : f64)
        if (f.has[op][precision_index(Precision::f64)]) m |= bit;
    return m;
}

}  // namespace

std::string process_plugin_spec(const std::string &command) { return kTag + command; }

bool is_process_plugin_spec(const std::string &spec, std::string *command) {
    if (spec.rfind(kTag, 0) != 0) return false;
    if (command) *command = spec.substr(std::strlen(kTag));
    return true;
}

std::vector<std::string> plugin_spec_args(const std::string &spec) {
    std::string c;
    if (is_process_plugin_spec(spec, &c)) return {"--plugin-cmd", c};
    return {"--plugin", spec};
}

std::string plugin_spec_label(const std::string &spec) { return shell_join(plugin_spec_args(spec)); }

std::vector<std::string> split_command(const std::string &command) {
    if (command.size() > 4096) throw InputError("--plugin-cmd: the command is longer than 4096 characters");
    std::vector<std::string> out;
    std::string cur;
    bool in_word = false;
    for (size_t i = 0; i < command.size(); i++) {
        char c = command[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) out.push_back(cur), cur.clear(), in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\'') {
            size_t j = command.find('\'', i + 1);
            if (j == std::string::npos)
                throw InputError(fmt::format("--plugin-cmd '{}': unterminated ' quote", command));
            cur += command.substr(i + 1, j - i - 1);
            i = j;
        } else if (c == '"') {
            size_t j = i + 1;
            for (; j < command.size() && command[j] != '"'; j++) {
                if (command[j] == '\\' && j + 1 < command.size() && (command[j + 1] == '"' || command[j + 1] == '\\'))
                    j++;
                cur += command[j];
            }
            if (j >= command.size()) throw InputError(fmt::format("--plugin-cmd '{}': unterminated \" quote", command));
            i = j;
        } else if (c == '\\') {
            if (i + 1 >= command.size())
                throw InputError(fmt::format("--plugin-cmd '{}': trailing backslash", command));
            cur += command[++i];
        } else {
            cur += c;
        }
    }
    if (in_word) out.push_back(cur);
    if (out.empty()) throw InputError("--plugin-cmd: empty command");
    return out;
}

std::string parse_process_hello(const std::string &text, ProcessHello &out) {
    out = ProcessHello{};
    if (text.size() > kProcessHelloMaxBytes) return fmt::format("hello longer than {} bytes", kProcessHelloMaxBytes);
    std::vector<std::string> lines;
    size_t i = 0;
    while (i < text.size()) {
        size_t j = text.find('\n', i);
        if (j == std::string::npos) return "hello does not end with a newline";
        lines.push_back(text.substr(i, j - i));
        i = j + 1;
    }
    for (size_t k = 0; k < lines.size(); k++) {
        const std::string &l = lines[k];
        if (l.size() > 512) return fmt::format("hello line {} is longer than 512 bytes", k + 1);
        for (char c : l)
            if (c < 0x20 || c > 0x7e) return fmt::format("hello line {} has a byte that is not printable ASCII", k + 1);
    }
    if (lines.empty() || lines[0].rfind("quatcheck-plugin ", 0) != 0)
        return "hello does not start with 'quatcheck-plugin VERSION' (is this a quatcheck adapter?)";
    if (lines[0] != "quatcheck-plugin 1" && lines[0] != "quatcheck-plugin 2" && lines[0] != "quatcheck-plugin 3")
        return fmt::format("protocol '{}' is not supported (this quatcheck speaks 'quatcheck-plugin 1', '2' and '3')",
                           lines[0].substr(0, 40));
    out.protocol = lines[0][17] - '0';
    if (lines.back() != "end") return "hello does not end with an 'end' line";
    std::set<std::string> seen;
    for (size_t k = 1; k + 1 < lines.size(); k++) {
        auto w = split_words(lines[k]);
        const std::string where = fmt::format("hello line {}", k + 1);
        if (w[0] == "library") {
            if (k != 1) return where + ": 'library' must be the second line, once";
            if (w.size() != 3) return where + ": expected 'library NAME VERSION'";
            if (!name_chars(w[1], 64, "@/._-")) return where + ": library name is not [A-Za-z0-9@/._-]{1,64}";
            if (!name_chars(w[2], 64, "._+-")) return where + ": library version is not [A-Za-z0-9._+-]{1,64}";
            out.library = w[1], out.version = w[2];
        } else if (w[0] == "wire") {
            if (k != 2) return where + ": 'wire' must be the third line, once";
            if (w.size() != 2 || (w[1] != "binary" && w[1] != "text"))
                return where + ": expected 'wire binary' or 'wire text'";
            out.text = w[1] == "text";
        } else if (w[0] == "known") {
            // A deviation the library documents: `known FAMILY OP PROPERTY WHY...` (conform's verdict "known").
            if (w.size() < 5) return where + ": expected 'known FAMILY OP PROPERTY WHY...'";
            auto f =
                std::find_if(out.families.begin(), out.families.end(), [&](const auto &x) { return x.name == w[1]; });
            if (f == out.families.end())
                return fmt::format("{}: 'known' names family '{}', not declared above it", where, w[1].substr(0, 64));
            if (w[2] != "slerp" && w[2] != "nlerp" && w[2] != "squad" && w[2] != "*")
                return where + ": the op of 'known' is not slerp, nlerp, squad or *";
            if (!name_chars(w[3], 64, "-")) return where + ": the property of 'known' is not [A-Za-z0-9-]{1,64}";
            const size_t why = lines[k].find(' ', lines[k].find(' ', lines[k].find(' ', 6) + 1) + 1) + 1;
            f->known.push_back(KnownDeviation{w[2], w[3], lines[k].substr(why)});
        } else if (w[0] == "squad-controls") {
            // `squad-controls FAMILY neighbours|caller`: where a squad without squad_setup gets its a and b.
            if (w.size() != 3 || (w[2] != "neighbours" && w[2] != "caller"))
                return where + ": expected 'squad-controls FAMILY neighbours' or 'squad-controls FAMILY caller'";
            auto f =
                std::find_if(out.families.begin(), out.families.end(), [&](const auto &x) { return x.name == w[1]; });
            if (f == out.families.end())
                return fmt::format("{}: 'squad-controls' names family '{}', not declared above it", where,
                                   w[1].substr(0, 64));
            const bool squad = f->has[kProcessSquad][0] || f->has[kProcessSquad][1];
            const bool setup = f->has[kProcessSquadSetup][0] || f->has[kProcessSquadSetup][1];
            if (!squad || setup || f->squad_controls != SquadControls::setup)
                return fmt::format("{}: 'squad-controls' is for a family with squad and without squad_setup, once",
                                   where);
            f->squad_controls = w[2] == "neighbours" ? SquadControls::neighbours : SquadControls::caller;
        } else if (w[0] == "family") {
            if (out.library.empty()) return where + ": 'family' before 'library'";
            if (w.size() < 3) return where + ": expected 'family NAME OP.PRECISION...'";
            if (!name_chars(w[1], 64, "_-")) return where + ": family name is not [A-Za-z0-9_-]{1,64}";
            if (!seen.insert(w[1]).second) return fmt::format("{}: family '{}' is declared twice", where, w[1]);
            if (out.families.size() >= kProcessMaxFamilies)
                return fmt::format("{}: more than {} families", where, kProcessMaxFamilies);
            ProcessHello::Family f;
            f.name = w[1];
            for (size_t t = 2; t < w.size(); t++) {
                const std::string &s = w[t];
                const size_t dot = s.rfind('.');
                const WireOp *op = dot == std::string::npos ? nullptr : wire_op(s.substr(0, dot));
                const std::string suffix = dot == std::string::npos ? "" : s.substr(dot + 1);
                const int prec = suffix == "f32"   ? int(precision_index(Precision::f32))
                                 : suffix == "f64" ? int(precision_index(Precision::f64))
                                                   : -1;
                if (!op || prec < 0)
                    return fmt::format(
                        "{}: '{}' is not OP.f32 or OP.f64 with OP one of slerp, nlerp, slerp_tau, "
                        "squad, squad_setup",
                        where, s.substr(0, 40));
                if (op->protocol > out.protocol)
                    return fmt::format("{}: '{}' needs 'quatcheck-plugin {}'", where, s.substr(0, 40), op->protocol);
                if (f.has[op->op][prec]) return fmt::format("{}: '{}' is listed twice", where, s);
                f.has[op->op][prec] = true;
            }
            for (Precision p : {Precision::f32, Precision::f64}) {
                const unsigned i = precision_index(p);
                if (f.has[kProcessSlerpTau][i] && !f.has[kProcessSlerp][i])
                    return fmt::format("{}: slerp_tau.{} without slerp.{}", where, to_string(p), to_string(p));
                if (f.has[kProcessSquadSetup][i] && !f.has[kProcessSquad][i])
                    return fmt::format("{}: squad_setup.{} without squad.{}", where, to_string(p), to_string(p));
            }
            out.families.push_back(f);
        } else {
            return fmt::format("{}: unknown record '{}' (expected library, wire, family, known, squad-controls or end)",
                               where, w[0].substr(0, 40));
        }
    }
    if (out.library.empty()) return "hello has no 'library NAME VERSION' line";
    if (out.families.empty()) return "hello declares no family";
    for (const auto &f : out.families)
        for (Precision p : {Precision::f32, Precision::f64})
            if (f.has[kProcessSquad][precision_index(p)] && !f.has[kProcessSquadSetup][precision_index(p)] &&
                f.squad_controls == SquadControls::setup)
                return fmt::format(
                    "family '{}': squad.{} needs squad_setup.{} or a 'squad-controls {} neighbours|caller' line",
                    f.name, to_string(p), to_string(p), f.name);
    return {};
}

ProcessPlugin start_process_plugin(const std::string &command, const std::set<std::string> &taken,
                                   const RunContext &ctx) {
    const std::string who = fmt::format("--plugin-cmd '{}'", command);
    std::vector<std::string> argv = split_command(command);
    auto first = std::make_unique<Adapter>();
    std::string hello_text;
    std::string error = first->start(argv, ctx, hello_text);
    if (!error.empty()) ctx.stop.throw_if_requested();  // a signal ended the wait: not the adapter's fault
    if (!error.empty()) throw InputError(fmt::format("{}: refused: {}", who, error));
    ProcessHello hello;
    error = parse_process_hello(hello_text, hello);
    if (!error.empty()) throw InputError(fmt::format("{}: refused: {}", who, error));
    for (const auto &f : hello.families)
        if (taken.count(f.name)) throw InputError(fmt::format("{}: refused: family '{}' already exists", who, f.name));
    auto pool = std::make_shared<ProcessPool>(command, argv, hello_text, std::move(first), ctx, hello.text);
    ProcessPlugin out{hello.library, hello.version, {}};
    for (unsigned k = 0; k < hello.families.size(); k++) {
        const auto &f = hello.families[k];
        out.families.push_back(
            {{f.name, function_bits(f)}, std::make_shared<ProcessFamilyBackend>(pool, k), f.known, f.squad_controls});
    }
    return out;
}

namespace {

// PATH made absolute against cwd (lexically: no symbolic link is resolved, nothing need exist).
std::string absolute_against(const std::string &path, const std::string &cwd) {
    std::filesystem::path p(path);
    if (p.is_absolute()) return path;
    return (std::filesystem::path(cwd) / p).lexically_normal().string();
}

bool names_file(const std::string &word, const std::string &cwd) {
    std::error_code ec;
    return !word.empty() && word[0] != '/' && std::filesystem::exists(std::filesystem::path(cwd) / word, ec);
}

}  // namespace

std::vector<std::string> portable_plugin_words(const std::string &spec, const std::string &cwd) {
    std::string command;
    if (!is_process_plugin_spec(spec, &command)) return {"--plugin", absolute_against(spec, cwd)};
    std::vector<std::string> words;
    try {
        words = split_command(command);
    } catch (const std::exception &) {
        return {"--plugin-cmd", command};  // not loadable as given either: repeated as given
    }
    bool changed = false;
    for (size_t i = 0; i < words.size(); i++) {
        const std::string &w = words[i];
        const bool path = i == 0 ? w.find('/') != std::string::npos && w[0] != '/' : w[0] != '-' && names_file(w, cwd);
        if (!path) continue;
        words[i] = absolute_against(w, cwd);
        changed = true;
    }
    return {"--plugin-cmd", changed ? shell_join(words) : command};
}

std::string portable_plugin_args(const std::vector<std::string> &specs, const std::string &cwd) {
    std::string s;
    for (const auto &spec : specs) s += " " + shell_join(portable_plugin_words(spec, cwd));
    return s;
}

}  // namespace qc
