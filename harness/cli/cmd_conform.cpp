// quatcheck conform: run the conformance properties on every selected implementation and op, write
// conformance.csv, exit 1 when any verdict is fail. With --case, replay one case of one property (the
// `reproduce` column) and print its verdict instead.
#include "cli/command.h"
#include "cli/validators.h"
#include "conform/conform.h"
#include "isolate/plugin_spec.h"
#include "report/report_dir.h"
#include "tables/table.h"

#include <fmt/format.h>

#include <filesystem>

namespace qc::cli {
namespace {

struct ConformArgs : SharedArgs {
    std::vector<std::string> impls, ops, properties;
    long long cases = 300;
    std::string one_case;
};

int replay_case(const ConformArgs &a, const std::vector<Impl> &catalogue) {
    if (a.impls.size() != 1 || a.ops.size() != 1 || a.properties.size() != 1)
        throw UsageError("--case: give exactly one --impl NAME.f32|NAME.f64, one --op and one --property");
    const Impl *impl = nullptr;
    for (const auto &i : catalogue)
        if (i.name == a.impls[0]) impl = &i;
    if (!impl) throw UsageError(fmt::format("--impl: no implementation named '{}' (see quatcheck list)", a.impls[0]));
    Op op = parse_ops(a.ops)[0];
    if (!impl->supports(op)) throw UsageError(fmt::format("--op: '{}' does not support {}", impl->name, to_string(op)));
    const Property *prop = select_properties(a.properties)[0];
    if (!prop->check) throw UsageError(fmt::format("--property: '{}' cannot check a single case", prop->name));
    CaseValues c = parse_case(a.one_case, prop->arity, impl->precision);
    ConformRow row = check_case(*impl, op, *prop, c, reference_mode(a.reference));
    std::printf("%s %s %s: %s  measured=%s  tolerance=%s [%s]  case=%s%s%s\n", impl->name.c_str(), to_string(op),
                prop->name.c_str(), to_string(row.verdict), num(row.worst.measured).c_str(),
                num(row.worst.tolerance).c_str(), prop->tolerance.c_str(), format_case(c).c_str(),
                row.known_why.empty() ? "" : "  known: ", row.known_why.c_str());
    // Everything needed to reproduce the failure by hand: per call its inputs, output and reference, with bits.
    std::fputs(explain_calls_text(row.calls, impl->precision).c_str(), stdout);
    return row.verdict == Verdict::fail ? 1 : 0;
}

int conform_command(const ConformArgs &a) {
    const RunContext ctx = command_context(a.timeout_s);
    std::vector<Impl> catalogue = load_catalogue(a.plugins, ctx);
    if (!a.one_case.empty()) return replay_case(a, catalogue);
    ConformOptions opt;
    opt.seed = a.seed;
    opt.reference = reference_mode(a.reference);
    opt.cases = uint64_t(a.cases);
    opt.jobs = a.jobs;
    opt.properties = a.properties;
    select_properties(opt.properties);  // unknown names fail before any work
    std::vector<ImplOp> selected = select_impls(catalogue, a.impls, parse_ops(a.ops));
    if (selected.empty()) throw UsageError("conform: the selection has no implementation supporting the requested ops");
    ReportDir dir(a.out, ctx.stop);  // fails early when the folder is not writable
    std::vector<ConformRow> rows = conform(selected, opt, ctx);
    // Absolute plugin paths: the reproduce commands run as printed from any working directory.
    const std::string cwd = std::filesystem::current_path().string();
    dir.write("conformance.csv", conformance_csv(rows, portable_plugin_args(a.plugins, cwd)));
    dir.commit();
    // An informative property (Property::informative: correctly-rounded) is counted apart: its failures are a
    // measurement, not a broken promise, and do not make the exit status 1.
    size_t counts[4] = {0, 0, 0, 0}, info_all = 0, info_rows = 0, info_fail = 0;
    for (const auto &r : rows) {
        if (r.property->informative) {
            info_all++, info_rows += r.verdict != Verdict::skip, info_fail += r.verdict == Verdict::fail;
            continue;
        }
        counts[size_t(r.verdict)]++;
    }
    std::fprintf(stderr,
                 "quatcheck conform: %zu rows: %zu pass, %zu fail, %zu known, %zu skip; report in %s/conformance.csv\n",
                 rows.size() - info_all, counts[0], counts[1], counts[2], counts[3], a.out.c_str());
    if (info_rows)
        std::fprintf(stderr,
                     "quatcheck conform: informative (not counted above): %zu of %zu rows not correctly "
                     "rounded (property correctly-rounded)\n",
                     info_fail, info_rows);
    for (const auto &r : rows) {
        if (r.verdict != Verdict::fail || r.property->informative) continue;
        const std::string why = failed_call_line(r.calls);  // the call that broke the promise
        std::fprintf(stderr, "  fail: %s %s %s  worst %s (tolerance %s)%s%s\n", r.impl->name.c_str(), to_string(r.op),
                     r.property->name.c_str(), num(r.worst.measured).c_str(), num(r.worst.tolerance).c_str(),
                     why.empty() ? "" : "; counterexample: ", why.c_str());
    }
    return counts[size_t(Verdict::fail)] ? 1 : 0;
}

void options(CLI::App *sub, ConformArgs &a) {
    sub->add_option("--impl", a.impls, "Implementation name, family or glob (repeatable; default: all but broken-*)");
    add_op_option(sub, a.ops, "slerp or nlerp (repeatable; default: both)");
    sub->add_option("--property", a.properties, "Property name (repeatable; default: all)");
    add_count_option(sub, "--cases", a.cases, "Generated cases per implementation, op and property");
    sub->add_option(
           "--case", a.one_case,
           "Replay one case (hexfloats, as in the counterexample column) of one --property on one --impl and --op; "
           "prints the verdict, exit 1 on fail, writes nothing")
        ->check(number_list());
    add_shared_options(sub, a,
                       {"Random seed; the same seed gives a byte-identical conformance.csv", kJobsHelp, kOutHelp,
                        kTimeoutHelp, true, true});
}

}  // namespace

QC_COMMAND("conform",
           "Check the conformance properties (finite, endpoints, unit, shortest-arc, ...) and write conformance.csv",
           args_setup(options, conform_command));

}  // namespace qc::cli
