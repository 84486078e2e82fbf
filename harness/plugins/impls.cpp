#include "plugins/impls.h"

#include "isolate/process_hello.h"
#include "isolate/process_plugin.h"
#include "plugins/engines.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

#include <algorithm>
#include <filesystem>
#include <set>

namespace qc {

namespace {
std::vector<BuiltinImpl> &registry() {
    static std::vector<BuiltinImpl> r;
    return r;
}

void add_family(std::vector<Impl> &out, const qc_impl_v1 *t, const std::string &group, const std::string &summary,
                const std::string &version, const std::string &origin, const std::vector<KnownDeviation> &known,
                const std::vector<Claim> &claims, const std::shared_ptr<EvalBackend> &backend, unsigned functions) {
    for (Precision p : {Precision::f32, Precision::f64}) {
        if (!(function_bits(*t) & (p == Precision::f32 ? kAnyF32 : kAnyF64))) continue;
        Impl i;
        i.family = t->family;
        i.precision = p;
        i.name = fmt::format("{}.{}", t->family, to_string(p));
        i.group = group;
        i.summary = summary;
        i.version = version;
        i.origin = origin;
        i.table = t;
        i.known = known;
        i.claims = claims;
        i.backend = backend;
        i.has_slerp_tau = functions & (p == Precision::f32 ? kSlerpTauF32 : kSlerpTauF64);
        out.push_back(std::move(i));
    }
}
}  // namespace

BuiltinRegistrar::BuiltinRegistrar(BuiltinImpl impl) { registry().push_back(std::move(impl)); }

namespace {
struct Builtins {
    std::vector<BuiltinImpl> impls;
    std::vector<EngineModuleStatus> modules;
};

// The registered built-ins and the engine modules' (plugins/engines.h), loaded once: the first call is in main
// (or a test), after every registrar of the binary has run.
const Builtins &builtins() {
    static const Builtins b = [] {
        Builtins r;
        r.impls = registry();
        std::set<std::string> families;
        for (const auto &i : r.impls) families.insert(i.table->family);
        r.modules = load_engine_modules(engine_module_dir(), r.impls, families);
        for (const auto &m : r.modules)
            if (!m.loaded)
                std::fprintf(stderr, "quatcheck: engine module %s skipped: %s (its engine families are not listed)\n",
                             m.path.c_str(), m.why.c_str());
        std::stable_sort(r.impls.begin(), r.impls.end(), [](const BuiltinImpl &a, const BuiltinImpl &b) {
            return std::string(a.table->family) < std::string(b.table->family);
        });
        return r;
    }();
    return b;
}
}  // namespace

const std::vector<BuiltinImpl> &builtin_impls() { return builtins().impls; }

const std::vector<EngineModuleStatus> &engine_modules() { return builtins().modules; }

bool Impl::supports(Op op) const {
    bool f32 = precision == Precision::f32;
    switch (op) {
        case Op::slerp:
            return f32 ? table->slerp_f32 != nullptr : table->slerp_f64 != nullptr;
        case Op::nlerp:
            return f32 ? table->nlerp_f32 != nullptr : table->nlerp_f64 != nullptr;
        case Op::squad:
            // Without a squad_setup, only a family whose squad needs none (SquadControls) is a squad.
            return (f32 ? table->squad_f32 != nullptr : table->squad_f64 != nullptr) &&
                   (squad_controls != SquadControls::setup ||
                    (f32 ? table->squad_setup_f32 != nullptr : table->squad_setup_f64 != nullptr));
    }
    return false;
}

const Claim *Impl::claim(Op op, const std::string &kind) const {
    for (const auto &c : claims)
        if ((c.op == "*" || c.op == to_string(op)) && c.kind == kind) return &c;
    return nullptr;
}

const KnownDeviation *Impl::known_deviation(Op op, const std::string &property) const {
    for (const auto &k : known)
        if ((k.op == "*" || k.op == to_string(op)) && k.property == property) return &k;
    return nullptr;
}

std::vector<Impl> load_catalogue(const PluginList &plugins, const RunContext &ctx) {
    std::vector<Impl> out;
    std::set<std::string> families;
    for (const auto &b : builtin_impls()) {
        const size_t first = out.size();
        add_family(out, b.table, b.group, b.summary, b.version, "builtin", b.known, b.claims,
                   in_process_backend(b.table), function_bits(*b.table));
        for (size_t k = first; k < out.size(); k++) out[k].curve = b.curve;
        families.insert(b.table->family);
    }
    for (const PluginSpec &spec : plugins) {
        // A control character (a newline, a tab) in a path or command would go into the reports' `reproduce`
        // columns, where a line break makes the CSV unreadable for every later command: refused.
        const bool process = spec.is_command();
        const std::string &given = spec.text;
        for (size_t k = 0; k < given.size(); ++k)
            if ((unsigned char)given[k] < 0x20 || given[k] == 0x7f)
                throw UsageError(fmt::format(
                    "{}: the {} holds a control character (byte 0x{:02x} at offset {}); give it on one line "
                    "without control characters",
                    process ? "--plugin-cmd" : "--plugin", process ? "command" : "path", (unsigned char)given[k], k));
        // --plugin-cmd: a program speaking docs/plugin-protocol.md (harness/isolate/process_plugin.h).
        if (process) {
            const std::string &command = spec.text;
            const ProcessPlugin plugin = start_process_plugin(command, families, ctx);
            const std::string summary =
                fmt::format("{} {} through --plugin-cmd '{}'", plugin.library, plugin.version, command);
            for (const auto &f : plugin.families) {
                families.insert(f.descriptor.family);
                const size_t first = out.size();
                add_family(out, isolated_table(f.descriptor), "plugin", summary, plugin.version, command, f.known,
                           f.claims, f.backend, f.descriptor.functions);
                for (size_t k = first; k < out.size(); k++) out[k].squad_controls = f.squad_controls;
            }
            continue;
        }
        const std::string &path = spec.text;
        // The path is used exactly as given (a path without a
        // slash would make dlopen search the library path, so it is refused).
        if (path.empty()) throw UsageError("--plugin: empty path (name a shared library, e.g. ./libmyslerp.so)");
        if (path.find('/') == std::string::npos)
            throw InputError(fmt::format(
                "{}: plugin path must contain a '/' (e.g. ./{}); plugins are loaded only from paths you name", path,
                path));
        // A folder, a FIFO or a device is refused before anything reads it (a FIFO held the loader 5 s).
        if (std::error_code ec; std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
            throw InputError(fmt::format("{}: cannot load plugin: not a regular file", path));
        // The library is opened, its entry point called and its table checked (check_descriptor) in a
        // worker process, never in this one: a plugin that crashes or hangs while loading is refused too.
        std::vector<IsolatedDescriptor> descriptors = describe_plugin_isolated(path, ctx);
        for (unsigned i = 0; i < descriptors.size(); ++i) {
            const IsolatedDescriptor &d = descriptors[i];
            if (!families.insert(d.family).second)
                throw InputError(fmt::format("{}: refused: family '{}' already exists", path, d.family));
            add_family(out, isolated_table(d), "plugin", "loaded from " + path, "", path, {}, {},
                       isolated_plugin_backend(path, i, d.family, ctx), d.functions);
        }
    }
    return out;
}

template <class T> EvalOutcome eval_batch(const Impl &impl, Op op, const SlerpCase<T> *cases, size_t n, Quat<T> *outs) {
    return impl.backend->eval_cases(op, cases, n, outs);
}

template EvalOutcome eval_batch<float>(const Impl &, Op, const SlerpCase<float> *, size_t, Quat<float> *);
template EvalOutcome eval_batch<double>(const Impl &, Op, const SlerpCase<double> *, size_t, Quat<double> *);

template <class T>
void PendingBatch<T>::start(const Impl &impl, Op op, const SlerpCase<T> *cases, size_t n, Quat<T> *outs) {
    pending_.reset();
    outcome_ = EvalOutcome{};
    outs_ = outs;
    if (!impl.backend->in_process()) {
        const EvalFn fn = op == Op::slerp ? EvalFn::slerp : EvalFn::nlerp;
        cases_to_records(cases, n, fn, T(0), in_);
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
    answers_to_outputs(out_, o.done, outs_);
    return o;
}

template class PendingBatch<float>;
template class PendingBatch<double>;

template <class T>
EvalOutcome eval_batch_tau(const Impl &impl, const SlerpCase<T> *cases, size_t n, T tau, Quat<T> *outs) {
    return eval_cases_as_records(*impl.backend, EvalFn::slerp_tau, cases, n, outs, tau);
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

void isolate_builtins(std::vector<Impl> &catalogue, const RunContext &ctx) {
    for (auto &i : catalogue)
        if (i.origin == "builtin" && i.backend->in_process()) i.backend = isolated_builtin_backend(i.family, ctx);
}

void eval_records_latched(const Impl &impl, EvalFn fn, const double *in, size_t n, double *out) {
    const char *what = wire_op(fn)->name;  // the protocol's table names every EvalFn
    size_t done = 0;
    if (!stop_calling(impl, what)) {
        EvalOutcome o = impl.backend->eval_records(impl.precision, fn, in, n, out);
        done = o.ok() ? n : o.done;
        if (!o.ok()) stop_calling(impl, what, o);
    }
    for (size_t i = 4 * done; i < 4 * n; i++) out[i] = std::nan("");
}

namespace {
// One record through the backend (squad, squad_setup, slerp_tau: c = nullptr, tau in record[8]).
template <class T> void squad_record(const Impl &impl, EvalFn fn, const T *a, const T *b, const T *c, const T *d, T t,
                                     T out[4], T tau = T(0)) {
    double in[kEvalRecord] = {}, res[4] = {};
    for (int k = 0; k < 4; k++) {
        in[k] = double(a[k]), in[4 + k] = double(b[k]);
        if (c) in[8 + k] = double(c[k]);
        if (d) in[12 + k] = double(d[k]);
    }
    if (fn == EvalFn::slerp_tau) in[kEvalTauIndex] = double(tau);
    in[16] = double(t);
    eval_records_latched(impl, fn, in, 1, res);
    for (int k = 0; k < 4; k++) out[k] = T(res[k]);
}
}  // namespace

template <> void Impl::slerp_tau<float>(const float q0[4], const float q1[4], float t, float tau, float out[4]) const {
    squad_record<float>(*this, EvalFn::slerp_tau, q0, q1, nullptr, nullptr, t, out, tau);
}
template <>
void Impl::slerp_tau<double>(const double q0[4], const double q1[4], double t, double tau, double out[4]) const {
    squad_record<double>(*this, EvalFn::slerp_tau, q0, q1, nullptr, nullptr, t, out, tau);
}
template <> void Impl::squad<float>(const float q0[4], const float q1[4], const float s0[4], const float s1[4], float t,
                                    float out[4]) const {
    squad_record<float>(*this, EvalFn::squad, q0, q1, s0, s1, t, out);
}
template <> void Impl::squad<double>(const double q0[4], const double q1[4], const double s0[4], const double s1[4],
                                     double t, double out[4]) const {
    squad_record<double>(*this, EvalFn::squad, q0, q1, s0, s1, t, out);
}
template <> void Impl::squad_setup<float>(const float p[4], const float c[4], const float n[4], float s[4]) const {
    squad_record<float>(*this, EvalFn::squad_setup, p, c, n, nullptr, 0.0f, s);
}
template <> void Impl::squad_setup<double>(const double p[4], const double c[4], const double n[4], double s[4]) const {
    squad_record<double>(*this, EvalFn::squad_setup, p, c, n, nullptr, 0.0, s);
}

}  // namespace qc
