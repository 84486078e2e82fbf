// The pool of adapter processes behind one --plugin-cmd (process_plugin.cpp): starting an adapter and reading its
// hello (Adapter), and round trips of one batch on the binary or the text wire (text_wire.h) under the
// RunContext's timeout, with idle adapters kept for the next batch and a failed one killed with its process
// group (ProcessPool). Only process_plugin.cpp includes it.
#pragma once

#include "isolate/child_process.h"
#include "isolate/process_plugin.h"
#include "isolate/text_wire.h"

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
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>

static_assert(std::endian::native == std::endian::little, "the process-plugin wire format is little-endian");

namespace qc::process_pool {

constexpr uint32_t kRequestMagic = 0x31424351;  // bytes "QCB1"
constexpr uint32_t kReplyMagic = 0x31524351;    // bytes "QCR1"
constexpr size_t kRequestHeader = 24, kReplyHeader = 24;
constexpr int kOutputsPerCase = 4;

using Clock = std::chrono::steady_clock;

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
        if (std::string why = open_pipe_pair(in, out); !why.empty()) return why;
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
        uint32_t head[6] = {kRequestMagic, s.seq, family, uint32_t(op.number) | uint32_t(width) << 8, uint32_t(n), 0};
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

}  // namespace qc::process_pool
