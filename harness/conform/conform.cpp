#include "conform/conform.h"
#include "isolate/eval.h"
#include "quatcheck/names.h"
#include "base/parallel.h"

#include "tables/schemas.h"
#include "tables/quote.h"

#include <fmt/format.h>

#include <atomic>
#include <bit>
#include <filesystem>
#include <thread>

namespace qc {

namespace {
constexpr std::array kVerdictNames{Named{Verdict::pass, "pass"}, Named{Verdict::fail, "fail"},
                                   Named{Verdict::known, "known"}, Named{Verdict::skip, "skip"}};
static_assert(distinct_names(kVerdictNames));
}  // namespace

const char *to_string(Verdict v) { return name_of(kVerdictNames, v); }

std::vector<const Property *> select_properties(const std::vector<std::string> &names) {
    std::vector<const Property *> out;
    if (names.empty()) {
        for (const auto &p : properties()) out.push_back(&p);
        return out;
    }
    for (const auto &n : names) {
        const Property *p = find_property(n);
        if (!p) {
            std::string known;
            for (const auto &q : properties()) known += (known.empty() ? "" : ", ") + q.name;
            throw UsageError(fmt::format("--property: unknown property '{}' (expected one of {})", n, known));
        }
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
    return out;
}

namespace {

uint64_t fnv1a(uint64_t h, const std::string &s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

void finish_verdict(ConformRow &row) {
    if (row.verdict != Verdict::fail) return;
    if (const KnownDeviation *k = row.impl->known_deviation(row.op, row.property->name)) {
        row.verdict = Verdict::known;
        row.known_why = k->why;
    }
}

ConformRow run_task(CheckContext &cx, const Impl &impl, Op op, const Property &prop, const ConformOptions &opt) {
    ConformRow row;
    row.impl = &impl;
    row.op = op;
    row.property = &prop;
    if (!prop.applies(op) || !impl.supports(op)) return row;  // skip
    if (prop.probe) {
        Property::ProbeResult r = prop.probe(cx, impl, op);
        row.cases = r.cases;
        row.worst = r.worst;
        row.counterexample = r.worst_case;
        row.verdict = r.worst.pass() ? Verdict::pass : Verdict::fail;
        finish_verdict(row);
        if (row.verdict != Verdict::pass) row.calls = explain_case(cx, impl, op, prop, row.counterexample);
        return row;
    }
    auto check = [&](const CaseValues &c) { return prop.check(cx, impl, op, c); };
    const rc::Gen<CaseValues> gen = prop.cases_for(impl, op);
    const uint64_t task_seed =
        fnv1a(fnv1a(fnv1a(0xcbf29ce484222325ull ^ opt.seed, impl.name), to_string(op)), prop.name);
    bool failed = false, have_worst = false;
    for (uint64_t i = 0; i < opt.cases; i++) {
        cx.stop.throw_if_requested();  // SIGINT/SIGTERM: conform ends with 128 + sig, --out untouched
        rc::Shrinkable<CaseValues> s = gen(rc::Random(task_seed + i * 0x9E3779B97F4A7C15ull), rc::kNominalSize);
        CaseValues v = s.value();
        CaseOutcome o = check(v);
        row.cases++;
        if (!have_worst || o.ratio() > row.worst.ratio()) {
            row.worst = o;
            have_worst = true;
            if (!failed) row.counterexample = v;
        }
        if (o.pass() || failed) continue;
        // First failure: shrink greedily (the first simpler case that still fails, repeatedly).
        failed = true;
        rc::Shrinkable<CaseValues> cur = s;
        int budget = opt.shrink_budget;
        for (bool progressed = true; progressed && budget > 0;) {
            progressed = false;
            auto seq = cur.shrinks();
            while (auto next = seq.next()) {
                if (--budget < 0) break;
                if (!check(next->value()).pass()) {
                    cur = *next;
                    progressed = true;
                    break;
                }
            }
        }
        row.counterexample = cur.value();
    }
    row.verdict = failed ? Verdict::fail : Verdict::pass;
    finish_verdict(row);
    if (failed) row.calls = explain_case(cx, impl, op, prop, row.counterexample);  // fail or known
    return row;
}

}  // namespace

std::vector<ConformRow> conform(const std::vector<ImplOp> &selected, const ConformOptions &opt, const RunContext &ctx) {
    std::vector<const Property *> props = select_properties(opt.properties);
    struct Task {
        const Impl *impl;
        Op op;
        const Property *prop;
    };
    std::vector<Task> tasks;
    for (const auto &io : selected)
        for (const Property *p : props)
            if (p->runs_on(*io.impl, io.op)) tasks.push_back({io.impl, io.op, p});
    std::vector<ConformRow> rows(tasks.size());
    int jobs = resolve_jobs(opt.jobs);
    std::atomic<size_t> next{0};
    auto worker = [&](int) {
        CheckContext f32(Precision::f32, opt.reference), f64(Precision::f64, opt.reference);
        f32.stop = f64.stop = ctx.stop;
        for (;;) {
            size_t k = next.fetch_add(1);
            if (k >= tasks.size()) break;
            const Task &t = tasks[k];
            CheckContext &cx = t.impl->precision == Precision::f32 ? f32 : f64;
            rows[k] = run_task(cx, *t.impl, t.op, *t.prop, opt);
        }
    };
    run_workers(jobs, worker, [&] { next.store(tasks.size()); });
    return rows;
}

ConformRow check_case(const Impl &impl, Op op, const Property &prop, const CaseValues &c, ReferenceMode mode) {
    CheckContext cx(impl.precision, mode);
    ConformRow row;
    row.impl = &impl;
    row.op = op;
    row.property = &prop;
    if (!prop.applies(op) || !impl.supports(op) || !prop.runs_on(impl, op)) return row;
    row.cases = 1;
    row.worst = prop.check(cx, impl, op, c);
    row.counterexample = c;
    row.verdict = row.worst.pass() ? Verdict::pass : Verdict::fail;
    finish_verdict(row);
    row.calls = explain_case(cx, impl, op, prop, c);
    return row;
}

std::string reproduce_command(const ConformRow &row, const std::string &plugin_args) {
    if (row.verdict == Verdict::skip || row.counterexample.empty()) return {};
    return "quatcheck conform" + plugin_args + " " +
           shell_join({"--impl", row.impl->name, "--op", to_string(row.op), "--property", row.property->name, "--case",
                       format_case(row.counterexample)});
}

std::string conformance_csv(const std::vector<ConformRow> &rows, const std::string &plugin_args) {
    CsvWriter w(tables::conformance);
    for (const auto &r : rows) {
        bool measured = r.verdict != Verdict::skip;
        std::string tol = measured ? fmt::format("{} [{}]", num(r.worst.tolerance), r.property->tolerance) : "";
        w.row({r.impl->name, std::string(to_string(r.op)), r.property->name, std::string(to_string(r.verdict)),
               uint64_t(r.cases), tol, measured ? Cell(r.worst.measured) : Cell(),
               measured ? format_case(r.counterexample) : std::string(), reproduce_command(r, plugin_args),
               failed_calls(r.calls), format_calls(r.calls)});
    }
    return w.text();
}

std::string bits_of(double x, Precision p) {
    if (p == Precision::f32) return fmt::format("0x{:08x}", std::bit_cast<uint32_t>(float(x)));
    return fmt::format("0x{:016x}", std::bit_cast<uint64_t>(x));
}

namespace {

std::string quat_text(const std::array<double, 4> &q, Precision p, bool round) {
    std::string values, bits;
    for (size_t i = 0; i < 4; i++) {
        const double x = round && p == Precision::f32 ? double(float(q[i])) : q[i];
        values += fmt::format("{}{:a}", i ? ", " : "", x);
        bits += fmt::format("{}{}", i ? " " : "", bits_of(x, p));
    }
    return fmt::format("({})\n              bits {}", values, bits);
}

std::string budget_text(const CallRecord &r) {
    return fmt::format("{} {} {} {} {}", num(r.err), r.unit, r.failed() ? ">" : "<=", num(r.tol), r.unit);
}

}  // namespace

std::string explain_calls_text(const std::vector<CallRecord> &calls, Precision p) {
    std::string s;
    for (const CallRecord &r : calls) {
        s += fmt::format("  call {}: {}  error {}\n", r.label, r.failed() ? "FAIL" : "pass", budget_text(r));
        s += fmt::format("    q0        {}\n", quat_text(r.q0, p, false));
        s += fmt::format("    q1        {}\n", quat_text(r.q1, p, false));
        s += fmt::format("    t         {:a}  bits {}\n", r.t, bits_of(r.t, p));
        s += fmt::format("    output    {}\n", quat_text(r.out, p, false));
        s += fmt::format("    reference {}\n", quat_text(r.expected, p, true));
        s += fmt::format("              (the exact value rounded to {}; output - reference in ulp1:", to_string(p));
        for (size_t i = 0; i < 4; i++) s += fmt::format(" {}", num((r.out[i] - r.expected[i]) / precision_eps(p)));
        s += ")\n";
    }
    return s;
}

std::string failed_call_line(const std::vector<CallRecord> &calls) {
    for (const CallRecord &r : calls) {
        if (!r.failed()) continue;
        auto q = [](const std::array<double, 4> &v) {
            return fmt::format("({:a}, {:a}, {:a}, {:a})", v[0], v[1], v[2], v[3]);
        };
        return fmt::format("{} at t = {:a} returned {}, expected {}: {}", r.label, r.t, q(r.out), q(r.expected),
                           budget_text(r));
    }
    return {};
}

}  // namespace qc
