// The parent side of process plugins (docs/plugin-protocol.md): the backend of each family, which sends batches
// through the command's pool of adapters (process_pool.h) and localises a failure to its case, and
// start_process_plugin, which starts the first adapter and checks its hello (process_hello.h).
#include "isolate/process_plugin.h"
#include "isolate/process_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

namespace qc {

namespace {

using process_pool::Adapter;
using process_pool::Answer;
using process_pool::Clock;
using process_pool::ProcessPool;
using process_pool::Sent;

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

}  // namespace

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
        out.families.push_back({{f.name, f.functions},
                                std::make_shared<ProcessFamilyBackend>(pool, k),
                                f.known,
                                f.claims,
                                f.squad_controls});
    }
    return out;
}

}  // namespace qc
