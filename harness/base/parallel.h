// The harness's one way of spreading work over threads, and its one nearest-rank percentile.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <thread>
#include <vector>

namespace qc {

// The thread count a --jobs value asks for: 0 means every core (at least one).
inline int resolve_jobs(int jobs) { return jobs > 0 ? jobs : int(std::max(1u, std::thread::hardware_concurrency())); }

// The nearest-rank q-quantile of [first, last) (0 for an empty range); reorders the range.
inline double percentile_of(double *first, double *last, double q) {
    if (first == last) return 0;
    size_t k = size_t(std::ceil(q * double(last - first)));
    k = k == 0 ? 0 : k - 1;
    std::nth_element(first, first + k, last);
    return first[k];
}
// The same of v; reorders v.
inline double percentile(std::vector<double> &v, double q) { return percentile_of(v.data(), v.data() + v.size(), q); }

// Runs worker(w) for w = 0 .. jobs-1, worker 0 on the calling thread, and joins them all. When a worker
// throws, stop() is called so the others stop taking work, and after the join the exception of the
// lowest-numbered failing worker is rethrown (an exception never escapes a std::thread).
template <class Worker, class Stop> void run_workers(int jobs, Worker &&worker, Stop &&stop) {
    jobs = std::max(1, jobs);
    std::vector<std::exception_ptr> errors(static_cast<size_t>(jobs));
    auto guarded = [&](int w) {
        try {
            worker(w);
        } catch (...) {
            errors[size_t(w)] = std::current_exception();
            stop();
        }
    };
    std::vector<std::thread> threads;
    for (int w = 1; w < jobs; w++) threads.emplace_back(guarded, w);
    guarded(0);
    for (auto &t : threads) t.join();
    for (auto &e : errors)
        if (e) std::rethrow_exception(e);
}

// Runs body(w, i) for i = 0 .. n-1 on at most `jobs` workers (run_workers; w is the worker's number, for its own
// scratch), each taking the next index in order; a throwing body ends the loop and its exception is rethrown.
template <class Body> void for_each_index(int jobs, size_t n, Body &&body) {
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    run_workers(
        int(std::min<size_t>(size_t(std::max(1, jobs)), std::max<size_t>(1, n))),
        [&](int w) {
            for (size_t i; !failed && (i = next++) < n;) body(w, i);
        },
        [&] { failed = true; });
}

}  // namespace qc
