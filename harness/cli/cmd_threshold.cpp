// quatcheck threshold: the threshold selection study (harness/threshold/study.h, docs/threshold.md).
// Writes threshold.csv, threshold_summary.csv and threshold.json into --out.
#include "cli/command.h"
#include "report/report_dir.h"
#include "run/parallel.h"
#include "threshold/study.h"

#include <fmt/format.h>

#include <cmath>
#include <memory>

namespace qc::cli {
namespace {

struct ThresholdArgs {
    std::vector<std::string> precisions;
    long long points = 64, cases = 4000;
    unsigned long long seed = 1;
    int jobs = 0;
    double min_time = 0.01, floor_factor = 2;
    std::string out = "reports/latest";
    std::string reference = "fast";
};

int threshold_command(const ThresholdArgs &a) {
    ThresholdOptions opt;
    if (!a.precisions.empty()) {
        opt.precisions.clear();
        for (const auto &p : a.precisions) {
            if (p == "f32") opt.precisions.push_back(Precision::f32);
            else if (p == "f64") opt.precisions.push_back(Precision::f64);
            else throw UsageError(fmt::format("--precision: unknown precision '{}' (expected f32 or f64)", p));
        }
    }
    if (a.points < 40 || a.points > 100000)
        throw UsageError(fmt::format("--points: must be between 40 and 100000, got {}", a.points));
    if (a.cases <= 0) throw UsageError(fmt::format("--cases: must be a positive count, got {}", a.cases));
    if (a.jobs < 0) throw UsageError(fmt::format("--jobs: must be 0 (all cores) or positive, got {}", a.jobs));
    if (!std::isfinite(a.min_time) || a.min_time < 0 || a.min_time > 60)
        throw UsageError(fmt::format("--min-time: must be seconds in [0, 60], got {}", a.min_time));
    if (!std::isfinite(a.floor_factor) || a.floor_factor < 1)
        throw UsageError(fmt::format("--floor-factor: must be a finite number >= 1, got {}", a.floor_factor));
    opt.points = int(a.points);
    opt.cases = uint64_t(a.cases);
    opt.seed = a.seed;
    opt.reference = reference_mode(a.reference);
    opt.jobs = a.jobs;
    opt.min_time_s = a.min_time;
    opt.floor_factor = a.floor_factor;
    // Each thread of the accuracy pass measures one tau at a time and keeps its cases' angle errors (three
    // families, 8 bytes each: harness/threshold/study.cpp, measure_point).
    const double threads = double(std::min<long long>(resolve_jobs(a.jobs), a.points));
    require_memory(fmt::format("--cases {}: the threshold study on {:.0f} threads", a.cases, threads),
                   threads * 24 * double(a.cases), "--cases or --jobs");
    ReportDir dir(a.out);  // fails early when the folder is not writable
    ThresholdResult r = run_threshold_study(opt);
    dir.write("threshold.csv", threshold_csv(r));
    dir.write("threshold_summary.csv", threshold_summary_csv(r));
    dir.write("threshold.json", threshold_json(r));
    dir.commit();
    std::fprintf(stderr, "quatcheck threshold: %zu rows, %llu cases per tau, %.1f s (timing %.1f s), report in %s\n",
                 r.rows.size(), (unsigned long long)opt.cases, r.wall_time_s, r.timing_wall_time_s, a.out.c_str());
    return 0;
}

void setup(CLI::App *sub, int &status) {
    auto a = std::make_shared<ThresholdArgs>();
    sub->add_option("--precision", a->precisions, "f32 or f64 (repeatable; default: both)");
    sub->add_option("--points", a->points, "Log-grid points of 1 - tau per precision, before rounding to the format (>= 40)")
        ->capture_default_str();
    sub->add_option("--cases", a->cases, "Cases per tau and precision")->capture_default_str();
    sub->add_option("--seed", a->seed, "Random seed; the same seed gives the same figures (all but the ns columns)")
        ->capture_default_str();
    sub->add_option("--jobs", a->jobs, "Threads for the accuracy pass (0 = all cores); timing runs on one thread")
        ->capture_default_str();
    sub->add_option("--min-time", a->min_time, "Google Benchmark minimum time per branch benchmark, seconds (0 = no timing)")
        ->capture_default_str();
    sub->add_option("--floor-factor", a->floor_factor, "tau* tolerance: max error <= this times the arc floor")
        ->capture_default_str();
    sub->add_option("--out", a->out, "Report folder")->capture_default_str();
    add_reference_option(sub, a->reference);
    sub->callback([a, &status] { status = threshold_command(*a); });
}

}  // namespace

QC_COMMAND("threshold", "Threshold selection study: error and cost of the linear fallback against its dot-product threshold",
           setup);

}  // namespace qc::cli
