// Containment (docs/containment.md): evaluate an implementation on a batch of cases, stop at its first failure
// (a crash, a timeout, an out-of-bounds write: EvalStatus), and record why. The one helper of every driver that
// evaluates two-key cases in batches: the runner's sampling, the sweep, conform's threshold screen and the
// worst-case search. (Case-by-case callers stop through the implementation's CallLatch: plugins/impls.h.)
//
//   eval_until_failure()  cases [0, n) in batches of at most `batch`, stopping at the first failure
//   FirstFailure          the first failure of one implementation over a range of cases, shared by the threads
//                         that evaluate its batches: the lowest-indexed failing case wins whatever the thread
//                         order, so the record, and the report, are the same for any --jobs
//   Failure, failure_at() the record: the failed batch's outcome, the failing case's index and its text
#pragma once

#include "plugins/impls.h"

#include <cstdint>
#include <limits>
#include <mutex>
#include <string>

namespace qc {

// Why an implementation's evaluation stopped early.
struct Failure {
    EvalOutcome outcome;      // status and detail ("killed by SIGSEGV", ...); ok: no failure
    uint64_t index = 0;       // the failing case, in the caller's numbering
    std::string failed_case;  // the case as case_text() writes it, when the caller records it
    bool failed() const { return !outcome.ok(); }
};

// The record of a failed outcome `o` on case c, number `index`.
template <class T> Failure failure_at(const EvalOutcome &o, uint64_t index, const SlerpCase<T> &c);

// A case as summary.csv's failed_case column writes it: "q0=(w;x;y;z) q1=(w;x;y;z) t=T" in hexfloats.
template <class T> std::string case_text(const SlerpCase<T> &c);

// Evaluates op of `impl` on cases[0, n) into outs[0, n), in batches of at most `batch` cases (one call each, a
// round trip for an implementation in another process), and stops at the first failure. The outcome is the
// last batch's, with done = the outputs evaluated in all: n when ok, else the index of the failing case.
template <class T> EvalOutcome eval_until_failure(const Impl &impl, Op op, const SlerpCase<T> *cases, size_t n,
                                                  Quat<T> *outs, size_t batch);

class FirstFailure {
public:
    // Records the failure of a batch that began at case `begin` (its case begin + o.done); ignores an ok outcome.
    // The lowest-indexed failure recorded is kept.
    void record(uint64_t begin, const EvalOutcome &o);
    bool failed() const;
    // Whether case `index` comes no later than every failure recorded: a batch starting there is evaluated.
    bool reaches(uint64_t index) const;
    // The cases [0, limit(n)) before the failure, at most n.
    uint64_t limit(uint64_t n) const;
    Failure get() const;  // (failed_case empty: the caller regenerates the case from index)

private:
    mutable std::mutex mutex_;
    uint64_t at_ = std::numeric_limits<uint64_t>::max();
    EvalOutcome outcome_;
};

}  // namespace qc
