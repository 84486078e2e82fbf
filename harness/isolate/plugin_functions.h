// One precision's functions of a plugin table (qc_impl_v1, and qc_impl_v2's slerp_tau where the plugin has it),
// and one call of any of them with a record's arguments: used by the worker (isolate/worker.cpp) and by the
// in-process backend (isolate/eval.cpp), so that the op-to-function mapping is written once.
#pragma once

#include "isolate/eval.h"
#include "quatcheck/plugin.h"

#include <type_traits>

namespace qc {

template <class T> struct PluginFunctions {
    void (*slerp)(const T *, const T *, T, T *);
    void (*nlerp)(const T *, const T *, T, T *);
    void (*squad)(const T *, const T *, const T *, const T *, T, T *);
    void (*squad_setup)(const T *, const T *, const T *, T *);
    void (*slerp_tau)(const T *, const T *, T, T, T *);

    bool has(EvalFn fn) const {
        switch (fn) {
            case EvalFn::slerp:
                return slerp != nullptr;
            case EvalFn::nlerp:
                return nlerp != nullptr;
            case EvalFn::squad:
                return squad != nullptr;
            case EvalFn::squad_setup:
                return squad_setup != nullptr;
            case EvalFn::slerp_tau:
                return slerp_tau != nullptr;
        }
        return false;
    }

    // Calls fn (has(fn) checked by the caller) with q0, q1, the squad operands s0, s1 (squad_setup: prev,
    // cur, next = q0, q1, s0), t and tau (slerp_tau only).
    void call(EvalFn fn, const T *q0, const T *q1, const T *s0, const T *s1, T t, T tau, T *out) const {
        switch (fn) {
            case EvalFn::slerp:
                slerp(q0, q1, t, out);
                break;
            case EvalFn::nlerp:
                nlerp(q0, q1, t, out);
                break;
            case EvalFn::squad:
                squad(q0, q1, s0, s1, t, out);
                break;
            case EvalFn::squad_setup:
                squad_setup(q0, q1, s0, out);
                break;
            case EvalFn::slerp_tau:
                slerp_tau(q0, q1, t, tau, out);
                break;
        }
    }
};

// t2: the table's version-2 part, or nullptr (then slerp_tau is nullptr).
template <class T> PluginFunctions<T> plugin_functions(const qc_impl_v1 &t, const qc_impl_v2 *t2) {
    if constexpr (std::is_same_v<T, float>)
        return {t.slerp_f32, t.nlerp_f32, t.squad_f32, t.squad_setup_f32, t2 ? t2->slerp_tau_f32 : nullptr};
    else return {t.slerp_f64, t.nlerp_f64, t.squad_f64, t.squad_setup_f64, t2 ? t2->slerp_tau_f64 : nullptr};
}

}  // namespace qc
