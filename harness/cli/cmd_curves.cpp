// quatcheck curves: angular-velocity error curves of slerp, nlerp and squad on fixed arcs and key tracks,
// written to velocity_curve.csv (docs/curves.md).
#include "cli/command.h"
#include "curves/velocity.h"
#include "report/report_dir.h"

#include <fmt/format.h>

#include <chrono>

namespace qc::cli {
namespace {

struct CurvesArgs {
    std::vector<std::string> impls, ops, plugins;
    int points = 1001;
    std::string out = "reports/latest";
};

int curves_command(const CurvesArgs &a) {
    auto t0 = std::chrono::steady_clock::now();
    CurveOptions opt;
    opt.impl_filters = a.impls;
    opt.ops = parse_ops(a.ops);
    opt.points = a.points;
    const RunContext ctx = command_context();
    std::vector<Impl> catalogue = load_catalogue(a.plugins, ctx);
    ReportDir dir(a.out, ctx.stop);  // fails early when the folder is not writable
    std::vector<CurveRow> rows = velocity_curves(opt, catalogue, ctx);
    if (rows.empty()) throw UsageError("curves: the selection has no implementation supporting the requested ops");
    dir.write("velocity_curve.csv", velocity_curve_csv(rows));
    dir.commit();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "quatcheck curves: %zu rows, %.1f s, report in %s\n", rows.size(), s, a.out.c_str());
    return 0;
}

void setup(CLI::App *sub, int &status) {
    auto a = std::make_shared<CurvesArgs>();
    sub->add_option("--impl", a->impls, "Implementation name, family or glob (repeatable; default: all but broken-*)");
    sub->add_option("--op", a->ops, "slerp, nlerp or squad (repeatable; default: all three)");
    sub->add_option("--points", a->points, "Points of the t grid on [0, 1]")->capture_default_str();
    sub->add_option("--out", a->out, "Report folder")->capture_default_str();
    add_plugin_option(sub, a->plugins);
    sub->callback([a, &status] { status = curves_command(*a); });
}

}  // namespace

QC_COMMAND("curves", "Angular-velocity error curves of slerp, nlerp and squad on fixed arcs and tracks (velocity_curve.csv)", setup);

}  // namespace qc::cli
