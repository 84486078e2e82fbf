// quatcheck::testing, include/quatcheck/properties.h: one conformance property of a user's routine, checked by
// the harness's driver (conform/conform.h: generator, check, greedy shrinking, probe) with the routine wrapped
// as an implementation whose backend calls it in this process.
#include "quatcheck/properties.h"

#include "conform/conform.h"
#include "isolate/eval.h"
#include "plugins/impls.h"
#include "testing_internal.h"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

namespace qc::detail {

namespace {

// The nine of docs/conformance.md; the table may hold more (squad's), which take another shape of case.
const char *const kNine[] = {"finite",   "endpoints", "unit",           "shortest-arc",        "sign-invariance",
                             "symmetry", "monotone",  "constant-speed", "threshold-continuity"};

// The routine as an evaluation backend: every record (q0, q1, ..., t; isolate/eval.h) is one call.
class RoutineBackend : public EvalBackend {
public:
    explicit RoutineBackend(const Routine &routine) : routine_(routine) {}
    EvalOutcome eval_records(Precision, EvalFn fn, const double *in, size_t n, double *out) override {
        if (fn != EvalFn::slerp && fn != EvalFn::nlerp) throw std::logic_error("quatcheck: testing: not a two-key op");
        for (size_t i = 0; i < n; i++) {
            const double *r = in + i * kEvalRecord;
            routine_(r, r + 4, r[16], out + 4 * i);
        }
        EvalOutcome o;
        o.done = n;
        return o;
    }
    bool in_process() const override { return true; }

private:
    const Routine &routine_;
};

// The descriptor's pointers only say which op and precision exist: every call goes through the backend.
void never_f32(const float *, const float *, float, float *) { std::abort(); }
void never_f64(const double *, const double *, double, double *) { std::abort(); }

Impl routine_impl(OpKind op, bool f32, const Routine &routine, qc_impl_v1 &table) {
    table = qc_impl_v1{};
    table.family = "routine";
    const bool sl = op == OpKind::slerp;
    if (f32) (sl ? table.slerp_f32 : table.nlerp_f32) = never_f32;
    else (sl ? table.slerp_f64 : table.nlerp_f64) = never_f64;
    Impl impl;
    impl.family = "routine";
    impl.precision = f32 ? Precision::f32 : Precision::f64;
    impl.name = std::string("routine.") + to_string(impl.precision);
    impl.group = "plugin";
    impl.origin = "quatcheck::testing";
    impl.table = &table;
    impl.backend = std::make_shared<RoutineBackend>(routine);
    return impl;
}

std::string failure_text(const ConformRow &row, const std::string &label, Precision p) {
    const CaseValues &c = row.counterexample;
    std::string s = fmt::format(
        "quatcheck property {} fails for {} ({}): worst {:.4g} > tolerance {:.4g} [{}], {} cases", row.property->name,
        label, to_string(p), row.worst.measured, row.worst.tolerance, row.property->tolerance, row.cases);
    s += fmt::format("\n  counterexample: {}", format_case(c));
    if (c.size() >= 9) {  // q0, q1, t (monotone: t2 after; threshold-continuity: q1 above, then t)
        const double t = c.size() == 13 ? c[12] : c[8];
        s += fmt::format(" (region {})", region_list(p == Precision::f32, c.data(), c.data() + 4, t));
        s += fmt::format("\n    q0 = {}\n    q1 = {}", dec_quat(c.data(), p == Precision::f32),
                         dec_quat(c.data() + 4, p == Precision::f32));
    }
    if (const std::string line = failed_call_line(row.calls); !line.empty()) s += fmt::format("\n  {}", line);
    s += fmt::format("\n{}", explain_calls_text(row.calls, p));
    return s;
}

}  // namespace

std::vector<std::string> property_names() { return {std::begin(kNine), std::end(kNine)}; }

PropertyOutcome check_property(const std::string &property, OpKind op, bool f32, const Routine &routine,
                               const std::string &label, uint64_t cases, uint64_t seed) {
    const Property *prop = find_property(property);
    if (!prop) throw std::invalid_argument("quatcheck: testing: no property named '" + property + "'");
    qc_impl_v1 table;
    const Impl impl = routine_impl(op, f32, routine, table);
    ConformOptions options;
    options.seed = seed;
    options.cases = cases;
    options.jobs = 1;  // on the calling thread: GoogleTest's, with the routine as the user wrote it
    options.properties = {property};
    const Op o = op == OpKind::slerp ? Op::slerp : Op::nlerp;
    const std::vector<ConformRow> rows = conform({ImplOp{&impl, o}}, options);
    PropertyOutcome out;
    const ConformRow &row = rows.at(0);
    if (row.verdict == Verdict::skip) {
        out.applies = false;
        out.message = fmt::format("{} does not apply to {}", property, to_string(o));
        return out;
    }
    out.pass = row.verdict == Verdict::pass;
    out.message = out.pass ? fmt::format("{}: pass, {} cases, worst {:.4g} of tolerance {:.4g}", property, row.cases,
                                         row.worst.measured, row.worst.tolerance)
                           : failure_text(row, label, impl.precision);
    return out;
}

}  // namespace qc::detail
