// quatcheck replay FILE: re-run every row of a worst_cases.csv with the implementation it names and print
// its errors against a fresh reference: a recorded case is a reproducer.
#include "metrics/comparison.h"
#include "cli/command.h"
#include "metrics/metrics.h"
#include "plugins/impls.h"
#include "regions/regions.h"
#include "tables/rows.h"

#include <fmt/format.h>

namespace qc::cli {
namespace {

// Replays one row and prints it. `stop`: a signal during the call reads as a non-finite output (Impl::call);
// it is not the implementation's doing, so the row is not printed and the command ends as interrupted.
template <class T> bool replay_row(const Impl &impl, Op op, const WorstCaseRow &r, const std::string &file,
                                   ReferenceMode mode, const StopToken &stop) {
    auto parse = [&](const std::string &s, const char *col, bool nonfinite = false) -> T {
        if constexpr (std::is_same_v<T, float>) return parse_hexfloat_f32(s, file, r.line, col, nonfinite);
        else return parse_hexfloat(s, file, r.line, col, nonfinite);
    };
    static const char *q0n[] = {"q0_w", "q0_x", "q0_y", "q0_z"}, *q1n[] = {"q1_w", "q1_x", "q1_y", "q1_z"},
                      *on[] = {"out_w", "out_x", "out_y", "out_z"};
    // A row naming an unknown region is not a worst case of a run (the region is not used to replay); a sweep's
    // row (source sweep) names its slice instead: t=HEX or pair=NAME (harness/sweep).
    const bool sweep_slice = r.source == "sweep" && r.region.size() <= 64 &&
                             (r.region.rfind("t=", 0) == 0 || r.region.rfind("pair=", 0) == 0);
    if (!sweep_slice && !parse_region(r.region))
        throw InputError(
            fmt::format("{}:{}: column region: unknown region '{}' (expected uniform, near-0, near-half-pi, "
                        "near-pi or threshold)",
                        file, r.line, r.region.substr(0, 40)));
    SlerpCase<T> c;
    T recorded[4];
    for (int i = 0; i < 4; i++) {
        c.q0[i] = parse(r.q0[i], q0n[i]);
        c.q1[i] = parse(r.q1[i], q1n[i]);
        recorded[i] = parse(r.out[i], on[i], true);
    }
    c.t = parse(r.t, "t");
    T out[4] = {0, 0, 0, 0};
    impl.call(op, c.q0.data(), c.q1.data(), c.t, out);
    stop.throw_if_requested();
    Comparator cmp(Format<T>::precision, mode);
    auto &[reference, metric] = cmp;
    SlerpReference ref;
    reference.slerp(c, ref, true);
    CaseMetrics m = metric.measure(out, ref, op);
    bool same = true;
    for (int i = 0; i < 4; i++)
        same = same &&
               (std::memcmp(&out[i], &recorded[i], sizeof(T)) == 0 || (std::isnan(out[i]) && std::isnan(recorded[i])));
    std::string outs;
    for (T x : out) outs += (outs.empty() ? "" : " ") + hexfloat(x);
    std::printf("%s:%u %s %s %s  out=(%s)  angle_err_rad=%s (recorded %s)  ulp=%s  ulp1=%s  %s\n", file.c_str(), r.line,
                impl.name.c_str(), to_string(op), r.region.c_str(), outs.c_str(),
                m.nonfinite ? "nan" : num(m.angle_err_rad).c_str(), num(r.angle_err_rad).c_str(),
                m.nonfinite ? "nan" : num(m.ulp).c_str(), m.nonfinite ? "nan" : num(m.ulp1).c_str(),
                same ? "output identical" : "OUTPUT DIFFERS from the recorded one");
    return same;
}

void setup(CLI::App *sub, int &status) {
    auto file = std::make_shared<std::string>();
    auto plugins = std::make_shared<PluginList>();
    auto strict = std::make_shared<bool>(false);
    auto reference = std::make_shared<std::string>("fast");
    auto timeout_s = std::make_shared<double>(5);
    sub->add_option("FILE", *file, "A worst_cases.csv written by quatcheck run")->required();
    sub->add_flag("--strict", *strict, "Exit 1 when a replayed output differs from the recorded one");
    add_plugin_option(sub, *plugins);
    add_timeout_option(sub, *timeout_s);
    add_reference_option(sub, *reference);
    sub->callback([=, &status] {
        const ReferenceMode mode = reference_mode(*reference);
        const RunContext ctx = command_context(*timeout_s);
        std::vector<Impl> catalogue = load_catalogue(*plugins, ctx);
        std::vector<WorstCaseRow> rows = read_worst_cases(*file);
        size_t differ = 0;
        for (const auto &r : rows) {
            ctx.stop.throw_if_requested();  // SIGINT/SIGTERM: main() says so and exits 128 + the signal
            // No field quatcheck writes is longer than 256 bytes: an oversized one is refused, not echoed.
            for (const std::string *f : {&r.impl, &r.op, &r.region, &r.t, &r.source})
                if (f->size() > 256)
                    throw InputError(
                        fmt::format("{}:{}: a field of {} bytes (at most 256 expected)", *file, r.line, f->size()));
            const Impl *impl = nullptr;
            for (const auto &i : catalogue)
                if (i.name == r.impl) impl = &i;
            if (!impl)
                throw InputError(fmt::format("{}:{}: unknown implementation '{}' (load its plugin with --plugin?)",
                                             *file, r.line, r.impl));
            auto op = parse_op(r.op);
            if (!op || *op == Op::squad || !impl->supports(*op))
                throw InputError(fmt::format("{}:{}: '{}' does not support op '{}'", *file, r.line, r.impl, r.op));
            bool same = impl->precision == Precision::f32 ? replay_row<float>(*impl, *op, r, *file, mode, ctx.stop)
                                                          : replay_row<double>(*impl, *op, r, *file, mode, ctx.stop);
            differ += !same;
        }
        ctx.stop.throw_if_requested();
        std::printf("%zu rows replayed, %zu outputs differ from the recording\n", rows.size(), differ);
        status = (*strict && differ) ? 1 : 0;
    });
}

}  // namespace

QC_COMMAND("replay", "Re-evaluate the cases of a worst_cases.csv and print their errors", setup);

}  // namespace qc::cli
