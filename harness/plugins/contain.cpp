#include "plugins/contain.h"

#include "tables/table.h"

#include <fmt/format.h>

#include <algorithm>

namespace qc {

template <class T> std::string case_text(const SlerpCase<T> &c) {
    auto q = [](const Quat<T> &v) {
        return fmt::format("({};{};{};{})", hexfloat(v[0]), hexfloat(v[1]), hexfloat(v[2]), hexfloat(v[3]));
    };
    return fmt::format("q0={} q1={} t={}", q(c.q0), q(c.q1), hexfloat(c.t));
}
template std::string case_text<float>(const SlerpCase<float> &);
template std::string case_text<double>(const SlerpCase<double> &);

template <class T> Failure failure_at(const EvalOutcome &o, uint64_t index, const SlerpCase<T> &c) {
    return {o, index, case_text(c)};
}
template Failure failure_at<float>(const EvalOutcome &, uint64_t, const SlerpCase<float> &);
template Failure failure_at<double>(const EvalOutcome &, uint64_t, const SlerpCase<double> &);

template <class T> EvalOutcome eval_until_failure(const Impl &impl, Op op, const SlerpCase<T> *cases, size_t n,
                                                  Quat<T> *outs, size_t batch) {
    EvalOutcome o;
    size_t done = 0;
    while (done < n) {
        const size_t m = std::min(batch, n - done);
        o = eval_batch(impl, op, cases + done, m, outs + done);
        done += o.done;
        if (!o.ok()) break;
    }
    o.done = done;
    return o;
}
template EvalOutcome eval_until_failure<float>(const Impl &, Op, const SlerpCase<float> *, size_t, Quat<float> *,
                                               size_t);
template EvalOutcome eval_until_failure<double>(const Impl &, Op, const SlerpCase<double> *, size_t, Quat<double> *,
                                                size_t);

void FirstFailure::record(uint64_t begin, const EvalOutcome &o) {
    if (o.ok()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (begin + o.done < at_) at_ = begin + o.done, outcome_ = o;
}

bool FirstFailure::failed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !outcome_.ok();
}

bool FirstFailure::reaches(uint64_t index) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return index <= at_;
}

uint64_t FirstFailure::limit(uint64_t n) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::min(n, at_);
}

Failure FirstFailure::get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return {outcome_, at_, ""};
}

}  // namespace qc
