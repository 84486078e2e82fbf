#include "isolate/eval.h"
#include "isolate/plugin_functions.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <type_traits>
#include <vector>

namespace qc {

template <class T>
void cases_to_records(const SlerpCase<T> *cases, size_t n, EvalFn fn, T tau, std::vector<double> &in) {
    in.assign(n * kEvalRecord, 0.0);
    for (size_t i = 0; i < n; i++) {
        double *r = &in[i * kEvalRecord];
        for (int k = 0; k < 4; k++) r[k] = double(cases[i].q0[size_t(k)]), r[4 + k] = double(cases[i].q1[size_t(k)]);
        if (fn == EvalFn::slerp_tau) r[kEvalTauIndex] = double(tau);
        r[16] = double(cases[i].t);
    }
}
template <class T> void answers_to_outputs(const std::vector<double> &out, size_t done, Quat<T> *outs) {
    for (size_t i = 0; i < done; i++)
        for (int k = 0; k < 4; k++) outs[i][size_t(k)] = T(out[i * 4 + size_t(k)]);
}

template <class T> EvalOutcome eval_cases_as_records(EvalBackend &b, EvalFn fn, const SlerpCase<T> *cases, size_t n,
                                                     Quat<T> *outs, T tau) {
    std::vector<double> in, out(n * 4, 0.0);
    cases_to_records(cases, n, fn, tau, in);
    EvalOutcome o = b.eval_records(Format<T>::precision, fn, in.data(), n,
                                   out.data());  // o.self_ns: the backend's own measurement, if any
    answers_to_outputs(out, o.done, outs);
    return o;
}

template void cases_to_records<float>(const SlerpCase<float> *, size_t, EvalFn, float, std::vector<double> &);
template void cases_to_records<double>(const SlerpCase<double> *, size_t, EvalFn, double, std::vector<double> &);
template void answers_to_outputs<float>(const std::vector<double> &, size_t, Quat<float> *);
template void answers_to_outputs<double>(const std::vector<double> &, size_t, Quat<double> *);
template EvalOutcome eval_cases_as_records<float>(EvalBackend &, EvalFn, const SlerpCase<float> *, size_t,
                                                  Quat<float> *, float);
template EvalOutcome eval_cases_as_records<double>(EvalBackend &, EvalFn, const SlerpCase<double> *, size_t,
                                                   Quat<double> *, double);

EvalOutcome EvalBackend::eval_cases(Op op, const SlerpCase<float> *cases, size_t n, Quat<float> *outs) {
    return eval_cases_as_records(*this, op == Op::slerp ? EvalFn::slerp : EvalFn::nlerp, cases, n, outs);
}
EvalOutcome EvalBackend::eval_cases(Op op, const SlerpCase<double> *cases, size_t n, Quat<double> *outs) {
    return eval_cases_as_records(*this, op == Op::slerp ? EvalFn::slerp : EvalFn::nlerp, cases, n, outs);
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
    template <class T> static EvalOutcome loop(void (*fn)(const T *, const T *, T, T *), const SlerpCase<T> *cases,
                                               size_t n, Quat<T> *outs) {
        for (size_t i = 0; i < n; i++) fn(cases[i].q0.data(), cases[i].q1.data(), cases[i].t, outs[i].data());
        EvalOutcome o;
        o.done = n;
        return o;
    }
    template <class T> EvalOutcome records(EvalFn fn, const double *in, size_t n, double *out) const {
        const PluginFunctions<T> f = plugin_functions<T>(*t_, nullptr);
        for (size_t i = 0; i < n; i++) {
            const double *r = in + i * kEvalRecord;
            T a[4], b[4], c[4], d[4], res[4];
            for (int k = 0; k < 4; k++) a[k] = T(r[k]), b[k] = T(r[4 + k]), c[k] = T(r[8 + k]), d[k] = T(r[12 + k]);
            const T t = T(r[16]);
            if (fn == EvalFn::slerp_tau) return no_slerp_tau(i);
            f.call(fn, a, b, c, d, t, T(0), res);
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

std::shared_ptr<EvalBackend> in_process_backend(const qc_impl_v1 *table) {
    return std::make_shared<InProcessBackend>(table);
}

// A table for an implementation that lives in a worker: the parent never calls its pointers (Impl routes
// every call through the backend); they exist so that supports() reads the same as for a loaded table.
namespace {
[[noreturn]] void not_in_process() {
    std::fprintf(stderr,
                 "quatcheck: internal error: an isolated implementation was called in process; "
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
    auto has = [&](FunctionBit b) { return (d.functions & b) != 0; };
    if (has(kSlerpF32)) t.slerp_f32 = s32;
    if (has(kNlerpF32)) t.nlerp_f32 = s32;
    if (has(kSquadF32)) t.squad_f32 = q32;
    if (has(kSquadSetupF32)) t.squad_setup_f32 = u32;
    if (has(kSlerpF64)) t.slerp_f64 = s64;
    if (has(kNlerpF64)) t.nlerp_f64 = s64;
    if (has(kSquadF64)) t.squad_f64 = q64;
    if (has(kSquadSetupF64)) t.squad_setup_f64 = u64;
    tables.push_back(t);
    return &tables.back();
}

}  // namespace qc
