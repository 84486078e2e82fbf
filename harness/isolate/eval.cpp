#include "isolate/eval.h"

#include "plugins/impls.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <type_traits>
#include <vector>

namespace qc {

namespace {
// Two-key cases as records (the worker's and the process plugins' format), and the answers back: slerp,
// nlerp, or slerp_tau with one tau for the whole batch (record[kEvalTauIndex]).
template <class T> void to_records(const SlerpCase<T> *cases, size_t n, EvalFn fn, T tau, std::vector<double> &in) {
    in.assign(n * kEvalRecord, 0.0);
    for (size_t i = 0; i < n; i++) {
        double *r = &in[i * kEvalRecord];
        for (int k = 0; k < 4; k++) r[k] = double(cases[i].q0[size_t(k)]), r[4 + k] = double(cases[i].q1[size_t(k)]);
        if (fn == EvalFn::slerp_tau) r[kEvalTauIndex] = double(tau);
        r[16] = double(cases[i].t);
    }
}
template <class T> void from_answers(const std::vector<double> &out, size_t done, Quat<T> *outs) {
    for (size_t i = 0; i < done; i++)
        for (int k = 0; k < 4; k++) outs[i][size_t(k)] = T(out[i * 4 + size_t(k)]);
}

template <class T>
EvalOutcome cases_as_records(EvalBackend &b, EvalFn fn, const SlerpCase<T> *cases, size_t n, Quat<T> *outs, T tau = T(0)) {
    std::vector<double> in, out(n * 4, 0.0);
    to_records(cases, n, fn, tau, in);
    EvalOutcome o = b.eval_records(Format<T>::precision, fn, in.data(), n, out.data());  // o.self_ns: the backend's own measurement, if any
    from_answers(out, o.done, outs);
    return o;
}
}  // namespace

EvalOutcome EvalBackend::eval_cases(Op op, const SlerpCase<float> *cases, size_t n, Quat<float> *outs) {
    return cases_as_records(*this, op == Op::slerp ? EvalFn::slerp : EvalFn::nlerp, cases, n, outs);
}
EvalOutcome EvalBackend::eval_cases(Op op, const SlerpCase<double> *cases, size_t n, Quat<double> *outs) {
    return cases_as_records(*this, op == Op::slerp ? EvalFn::slerp : EvalFn::nlerp, cases, n, outs);
}

namespace {
// Calls the table on the calling thread: no containment, and nothing between the harness and the function
// but one virtual call per batch.
class InProcessBackend final : public EvalBackend {
public:
    explicit InProcessBackend(const qc_impl_v1 *table) : t_(table) {}
    bool in_process() const override { return true; }

    EvalOutcome eval_cases(Op op, const SlerpCase<float> *cases, size_t n, Quat<float> *outs) override {
        return loop(op == Op::slerp ? t_->slerp_f32 : t_->nlerp_f32, cases, n, outs);
    }
    EvalOutcome eval_cases(Op op, const SlerpCase<double> *cases, size_t n, Quat<double> *outs) override {
        return loop(op == Op::slerp ? t_->slerp_f64 : t_->nlerp_f64, cases, n, outs);
    }
    EvalOutcome eval_records(Precision p, EvalFn fn, const double *in, size_t n, double *out) override {
        if (p == Precision::f32) return records<float>(fn, in, n, out);
        return records<double>(fn, in, n, out);
    }

private:
    template <class T>
    static EvalOutcome loop(void (*fn)(const T *, const T *, T, T *), const SlerpCase<T> *cases, size_t n, Quat<T> *outs) {
        for (size_t i = 0; i < n; i++) fn(cases[i].q0.data(), cases[i].q1.data(), cases[i].t, outs[i].data());
        EvalOutcome o;
        o.done = n;
        return o;
    }
    template <class T> EvalOutcome records(EvalFn fn, const double *in, size_t n, double *out) const {
        constexpr bool f32 = std::is_same_v<T, float>;
        for (size_t i = 0; i < n; i++) {
            const double *r = in + i * kEvalRecord;
            T a[4], b[4], c[4], d[4], res[4];
            for (int k = 0; k < 4; k++) a[k] = T(r[k]), b[k] = T(r[4 + k]), c[k] = T(r[8 + k]), d[k] = T(r[12 + k]);
            const T t = T(r[16]);
            if constexpr (f32) {
                switch (fn) {
                case EvalFn::slerp: t_->slerp_f32(a, b, t, res); break;
                case EvalFn::nlerp: t_->nlerp_f32(a, b, t, res); break;
                case EvalFn::squad: t_->squad_f32(a, b, c, d, t, res); break;
                case EvalFn::squad_setup: t_->squad_setup_f32(a, b, c, res); break;
                case EvalFn::slerp_tau: return no_slerp_tau(i);
                }
            } else {
                switch (fn) {
                case EvalFn::slerp: t_->slerp_f64(a, b, t, res); break;
                case EvalFn::nlerp: t_->nlerp_f64(a, b, t, res); break;
                case EvalFn::squad: t_->squad_f64(a, b, c, d, t, res); break;
                case EvalFn::squad_setup: t_->squad_setup_f64(a, b, c, res); break;
                case EvalFn::slerp_tau: return no_slerp_tau(i);
                }
            }
            for (int k = 0; k < 4; k++) out[i * 4 + size_t(k)] = double(res[k]);
        }
        EvalOutcome o;
        o.done = n;
        return o;
    }

    // slerp_tau (qc_impl_v2) reaches the harness only from plugins, which never run in process.
    static EvalOutcome no_slerp_tau(size_t i) {
        EvalOutcome o;
        o.status = EvalStatus::crashed;
        o.done = i;
        o.detail = "slerp_tau is not available in process";
        return o;
    }

    const qc_impl_v1 *t_;
};
}  // namespace

std::shared_ptr<EvalBackend> in_process_backend(const qc_impl_v1 *table) { return std::make_shared<InProcessBackend>(table); }

template <class T>
EvalOutcome eval_batch(const Impl &impl, Op op, const SlerpCase<T> *cases, size_t n, Quat<T> *outs) {
    return impl.backend->eval_cases(op, cases, n, outs);
}

template EvalOutcome eval_batch<float>(const Impl &, Op, const SlerpCase<float> *, size_t, Quat<float> *);
template EvalOutcome eval_batch<double>(const Impl &, Op, const SlerpCase<double> *, size_t, Quat<double> *);

template <class T> void PendingBatch<T>::start(const Impl &impl, Op op, const SlerpCase<T> *cases, size_t n, Quat<T> *outs) {
    pending_.reset();
    outcome_ = EvalOutcome{};
    outs_ = outs;
    if (!impl.backend->in_process()) {
        const EvalFn fn = op == Op::slerp ? EvalFn::slerp : EvalFn::nlerp;
        to_records(cases, n, fn, T(0), in_);
        out_.assign(n * 4, 0.0);
        pending_ = impl.backend->start_records(Format<T>::precision, fn, in_.data(), n, out_.data());
        if (!pending_) outcome_ = impl.backend->eval_records(Format<T>::precision, fn, in_.data(), n, out_.data());
        return;
    }
    in_.clear();
    outcome_ = eval_batch(impl, op, cases, n, outs);
}

template <class T> EvalOutcome PendingBatch<T>::finish() {
    if (in_.empty()) return outcome_;  // evaluated in process by start()
    EvalOutcome o = pending_ ? pending_->finish() : outcome_;
    pending_.reset();
    in_.clear();
    from_answers(out_, o.done, outs_);
    return o;
}

template class PendingBatch<float>;
template class PendingBatch<double>;

template <class T>
EvalOutcome eval_batch_tau(const Impl &impl, const SlerpCase<T> *cases, size_t n, T tau, Quat<T> *outs) {
    return cases_as_records(*impl.backend, EvalFn::slerp_tau, cases, n, outs, tau);
}

template EvalOutcome eval_batch_tau<float>(const Impl &, const SlerpCase<float> *, size_t, float, Quat<float> *);
template EvalOutcome eval_batch_tau<double>(const Impl &, const SlerpCase<double> *, size_t, double, Quat<double> *);

void CallLatch::trip(const Impl &impl, const char *what, const EvalOutcome &o) {
    if (o.ok() || o.status == EvalStatus::interrupted || tripped_.exchange(true)) return;
    std::fprintf(stderr, "quatcheck: %s %s: %s (%s); not called again: its later cases count as non-finite outputs\n",
                 impl.name.c_str(), what, to_string(o.status), o.detail.c_str());
}

bool stop_calling(const Impl &impl, const char *what, const EvalOutcome &o) {
    impl.latch->trip(impl, what, o);
    return impl.latch->tripped();
}

namespace {
template <class T> void call_one(const Impl &impl, Op op, const T q0[4], const T q1[4], T t, T out[4]) {
    SlerpCase<T> c;
    for (int k = 0; k < 4; k++) c.q0[size_t(k)] = q0[k], c.q1[size_t(k)] = q1[k];
    c.t = t;
    Quat<T> r{};
    // One case at a time (conform, curves, replay): a failure reads as a non-finite output, and ends the calls.
    if (stop_calling(impl, to_string(op))) r.fill(std::nan(""));
    else if (EvalOutcome o = impl.backend->eval_cases(op, &c, 1, &r); !o.ok()) {
        stop_calling(impl, to_string(op), o);
        r.fill(std::nan(""));
    }
    for (int k = 0; k < 4; k++) out[k] = r[size_t(k)];
}
}  // namespace

void Impl::call(Op op, const float q0[4], const float q1[4], float t, float out[4]) const {
    call_one(*this, op, q0, q1, t, out);
}
void Impl::call(Op op, const double q0[4], const double q1[4], double t, double out[4]) const {
    call_one(*this, op, q0, q1, t, out);
}

// A table for an implementation that lives in a worker: the parent never calls its pointers (Impl routes
// every call through the backend); they exist so that supports() reads the same as for a loaded table.
namespace {
[[noreturn]] void not_in_process() {
    std::fprintf(stderr, "quatcheck: internal error: an isolated implementation was called in process; "
                         "use eval_batch() or EvalBackend::eval_records()\n");
    std::abort();
}
void s32(const float *, const float *, float, float *) { not_in_process(); }
void q32(const float *, const float *, const float *, const float *, float, float *) { not_in_process(); }
void u32(const float *, const float *, const float *, float *) { not_in_process(); }
void s64(const double *, const double *, double, double *) { not_in_process(); }
void q64(const double *, const double *, const double *, const double *, double, double *) { not_in_process(); }
void u64(const double *, const double *, const double *, double *) { not_in_process(); }
}  // namespace

const qc_impl_v1 *isolated_table(const IsolatedDescriptor &d) {
    static std::mutex m;
    static std::deque<std::string> names;
    static std::deque<qc_impl_v1> tables;
    std::lock_guard<std::mutex> lock(m);
    names.push_back(d.family);
    qc_impl_v1 t{};
    t.family = names.back().c_str();
    auto has = [&](int k) { return (d.functions >> k) & 1u; };
    if (has(0)) t.slerp_f32 = s32;
    if (has(1)) t.nlerp_f32 = s32;
    if (has(2)) t.squad_f32 = q32;
    if (has(3)) t.squad_setup_f32 = u32;
    if (has(4)) t.slerp_f64 = s64;
    if (has(5)) t.nlerp_f64 = s64;
    if (has(6)) t.squad_f64 = q64;
    if (has(7)) t.squad_setup_f64 = u64;
    tables.push_back(t);
    return &tables.back();
}

void isolate_builtins(std::vector<Impl> &catalogue, const RunContext &ctx) {
    for (auto &i : catalogue)
        if (i.origin == "builtin" && i.backend->in_process()) i.backend = isolated_builtin_backend(i.family, ctx);
}

}  // namespace qc

namespace qc {

namespace {
// One record through the backend (squad, squad_setup, slerp_tau: c = nullptr, tau in record[8]).
template <class T>
void squad_record(const Impl &impl, EvalFn fn, const T *a, const T *b, const T *c, const T *d, T t, T out[4], T tau = T(0)) {
    double in[kEvalRecord] = {}, res[4] = {};
    for (int k = 0; k < 4; k++) {
        in[k] = double(a[k]), in[4 + k] = double(b[k]);
        if (c) in[8 + k] = double(c[k]);
        if (d) in[12 + k] = double(d[k]);
    }
    if (fn == EvalFn::slerp_tau) in[kEvalTauIndex] = double(tau);
    in[16] = double(t);
    const char *what = fn == EvalFn::squad ? "squad" : fn == EvalFn::slerp_tau ? "slerp_tau" : "squad_setup";
    if (stop_calling(impl, what)) {
        for (double &x : res) x = std::nan("");
    } else if (EvalOutcome o = impl.backend->eval_records(Format<T>::precision, fn, in, 1, res); !o.ok()) {
        stop_calling(impl, what, o);
        for (double &x : res) x = std::nan("");
    }
    for (int k = 0; k < 4; k++) out[k] = T(res[k]);
}
}  // namespace

template <> void Impl::slerp_tau<float>(const float q0[4], const float q1[4], float t, float tau, float out[4]) const {
    squad_record<float>(*this, EvalFn::slerp_tau, q0, q1, nullptr, nullptr, t, out, tau);
}
template <> void Impl::slerp_tau<double>(const double q0[4], const double q1[4], double t, double tau, double out[4]) const {
    squad_record<double>(*this, EvalFn::slerp_tau, q0, q1, nullptr, nullptr, t, out, tau);
}
template <> void Impl::squad<float>(const float q0[4], const float q1[4], const float s0[4], const float s1[4], float t, float out[4]) const {
    squad_record<float>(*this, EvalFn::squad, q0, q1, s0, s1, t, out);
}
template <> void Impl::squad<double>(const double q0[4], const double q1[4], const double s0[4], const double s1[4], double t, double out[4]) const {
    squad_record<double>(*this, EvalFn::squad, q0, q1, s0, s1, t, out);
}
template <> void Impl::squad_setup<float>(const float p[4], const float c[4], const float n[4], float s[4]) const {
    squad_record<float>(*this, EvalFn::squad_setup, p, c, n, nullptr, 0.0f, s);
}
template <> void Impl::squad_setup<double>(const double p[4], const double c[4], const double n[4], double s[4]) const {
    squad_record<double>(*this, EvalFn::squad_setup, p, c, n, nullptr, 0.0, s);
}

}  // namespace qc
