// quatcheck threshold: the threshold selection study (harness/threshold/study.h, docs/threshold.md).
// Writes threshold.csv, threshold_summary.csv and threshold.json into --out.
#include "cli/command.h"
#include "cli/validators.h"
#include "isolate/eval.h"
#include "plugins/select.h"
#include "report/report_dir.h"
#include "base/parallel.h"
#include "threshold/study.h"

#include <fmt/format.h>

#include <cmath>
#include <memory>

namespace qc::cli {
namespace {

struct ThresholdArgs : SharedArgs {  // timeout_s: per batch of a --impl routine in another process
    std::vector<std::string> precisions;
    std::vector<std::string> impls;  // --impl: sweep these implementations' slerp_tau instead
    long long points = 64, cases = 4000;
    double min_time = 0.01, floor_factor = 2;
};

int threshold_command(const ThresholdArgs &a) {
    ThresholdOptions opt;
    if (!a.precisions.empty())
        opt.precisions = parse_names(a.precisions, "--precision", parse_precision,
                                     [](Precision p) { return std::string(to_string(p)); });
    opt.points = int(a.points);
    opt.cases = uint64_t(a.cases);
    opt.seed = a.seed;
    opt.reference = reference_mode(a.reference);
    opt.jobs = a.jobs;
    opt.min_time_s = a.min_time;
    opt.floor_factor = a.floor_factor;
    const RunContext ctx = command_context(a.timeout_s);
    std::vector<Impl> catalogue;
    if (!a.impls.empty()) {
        catalogue = load_catalogue(a.plugins, ctx);
        opt.impls = select_implementations(
            catalogue, a.impls, [](const Impl &i) { return i.supports_slerp_tau(); },
            "implementation with slerp_tau (a qc_impl_v2 plugin or a protocol-2 adapter)");
    } else if (!a.plugins.empty()) {
        throw UsageError("--plugin/--plugin-cmd: threshold studies a plugin's routine only with --impl NAME");
    }
    // Each thread of the accuracy pass measures one tau at a time and keeps its cases' angle errors (the three
    // families and each --impl routine, 8 bytes each: harness/threshold/study.cpp, measure_point).
    const double threads = double(std::min<long long>(resolve_jobs(a.jobs), a.points));
    const double routines = 3.0 + double(opt.impls.size());
    require_memory(fmt::format("--cases {}: the threshold study on {:.0f} threads", a.cases, threads),
                   threads * routines * 8 * double(a.cases), "--cases or --jobs");
    ReportDir dir(a.out, ctx.stop);  // fails early when the folder is not writable
    ThresholdResult r = run_threshold_study(opt, ctx);
    dir.write("threshold.csv", threshold_csv(r));
    dir.write("threshold_summary.csv", threshold_summary_csv(r));
    dir.write("threshold.json", threshold_json(r));
    dir.commit();
    std::fprintf(stderr, "quatcheck threshold: %zu rows, %llu cases per tau, %.1f s (timing %.1f s), report in %s\n",
                 r.rows.size(), (unsigned long long)opt.cases, r.wall_time_s, r.timing_wall_time_s, a.out.c_str());
    for (const ThresholdSummaryRow &s : r.summary) {
        if (opt.impls.empty()) break;  // the families' figures are in docs/threshold.md's block
        if (!s.tau_effect)
            std::fprintf(stderr, "  %s: no recommendation: tau changed no output (does slerp_tau use its tau?)\n",
                         s.routine.c_str());
        else if (!s.found)
            std::fprintf(
                stderr,
                "  %s: no recommendation: no tau of the grid keeps the error finite and within %g x the arc floor\n",
                s.routine.c_str(), opt.floor_factor);
        else
            std::fprintf(stderr,
                         "  %s: recommended tau = %.17g (1 - tau = %.3g), max angle error %.3g rad (arc floor %.3g)\n",
                         s.routine.c_str(), s.tau, s.one_minus_tau, s.max_angle_err_rad, s.arc_floor_rad);
    }
    return 0;
}

void setup(CLI::App *sub, int &status) {
    auto a = std::make_shared<ThresholdArgs>();
    sub->add_option("--precision", a->precisions, "f32 or f64 (repeatable; default: both)")
        ->check(known_name(parse_precision, "precision", "f32 or f64"));
    sub->add_option("--points", a->points,
                    "Log-grid points of 1 - tau per precision, before rounding to the format (>= 40)")
        ->check(whole_in(40, 100000, "40 to 100000 points"))
        ->capture_default_str();
    add_count_option(sub, "--cases", a->cases, "Cases per tau and precision");
    sub->add_option("--min-time", a->min_time,
                    "Google Benchmark minimum time per branch benchmark, seconds (0 = no timing)")
        ->check(number_where([](double s) { return s >= 0 && s <= 60; }, "seconds in [0, 60]"))
        ->capture_default_str();
    sub->add_option("--floor-factor", a->floor_factor, "tau* tolerance: max error <= this times the arc floor")
        ->check(at_least(1))
        ->capture_default_str();
    sub->add_option(
        "--impl", a->impls,
        "Sweep this implementation's own slerp_tau (a qc_impl_v2 plugin or protocol-2 adapter; name, family "
        "or glob; repeatable) instead of the built-in families");
    add_shared_options(
        sub, *a,
        {"Random seed; the same seed gives the same figures (all but the ns columns)",
         "Threads for the accuracy pass (0 = all cores); timing runs on one thread", kOutHelp,
         "Seconds a --impl routine in another process may take per batch of cases before the study stops", true, true});
    sub->callback([a, &status] { status = threshold_command(*a); });
}

}  // namespace

QC_COMMAND("threshold",
           "Threshold selection study: error and cost of the linear fallback against its dot-product threshold", setup);

}  // namespace qc::cli
