// quatcheck curves: angular-velocity error curves of slerp, nlerp and squad on fixed arcs and key tracks,
// written to velocity_curve.csv (docs/curves.md).
#include "cli/command.h"
#include "cli/validators.h"
#include "curves/velocity.h"
#include "plugins/select.h"
#include "report/report_dir.h"

#include <fmt/format.h>

#include <chrono>
#include <climits>

namespace qc::cli {
namespace {

struct CurvesArgs : SharedArgs {
    std::vector<std::string> impls, ops;
    int points = 1001;
};

int curves_command(const CurvesArgs &a) {
    auto t0 = std::chrono::steady_clock::now();
    CurveOptions opt;
    opt.impl_filters = a.impls;
    opt.ops = parse_ops(a.ops);
    opt.points = a.points;
    opt.jobs = a.jobs;
    const RunContext ctx = command_context(a.timeout_s);
    std::vector<Impl> catalogue = load_catalogue(a.plugins, ctx);
    // Every row is kept until the CSV is written, and written once: about 300 bytes a row with the slack of
    // the vector and the string (measured: 1.56 million rows, 444 MiB); each curve also holds its points'
    // reference values.
    double rows_per_point = 0;
    const std::vector<Op> ops = opt.ops.empty() ? std::vector<Op>{Op::slerp, Op::nlerp, Op::squad} : opt.ops;
    for (const Impl *impl : select_implementations(catalogue, opt.impl_filters))
        for (Op op : ops)
            if (impl->supports(op))
                rows_per_point += double(curve_arcs_deg().size() + (op == Op::squad ? curve_tracks().size() : 0));
    require_memory(fmt::format("--points {}: the curves of {:.0f} rows per point", a.points, rows_per_point),
                   double(a.points) * (rows_per_point * 300 + 1024), "--points, or select fewer with --impl, --op");
    ReportDir dir(a.out, ctx.stop);  // fails early when the folder is not writable
    std::vector<CurveRow> rows = velocity_curves(opt, catalogue, ctx);
    if (rows.empty()) throw UsageError("curves: the selection has no implementation supporting the requested ops");
    dir.write("velocity_curve.csv", velocity_curve_csv(rows));
    dir.commit();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "quatcheck curves: %zu rows, %.1f s, report in %s\n", rows.size(), s, a.out.c_str());
    return 0;
}

void options(CLI::App *sub, CurvesArgs &a) {
    sub->add_option("--impl", a.impls, "Implementation name, family or glob (repeatable; default: all but broken-*)");
    add_op_option(sub, a.ops, "slerp, nlerp or squad (repeatable; default: all three)");
    sub->add_option("--points", a.points, "Points of the t grid on [0, 1]")
        ->check(whole_in(3, INT_MAX, "at least 3 grid points"))
        ->capture_default_str();
    add_shared_options(sub, a, {.jobs = kJobsHelp, .out = kOutHelp, .timeout = kTimeoutHelp});
}

}  // namespace

QC_COMMAND("curves",
           "Angular-velocity error curves of slerp, nlerp and squad on fixed arcs and tracks (velocity_curve.csv)",
           args_setup(options, curves_command));

}  // namespace qc::cli
