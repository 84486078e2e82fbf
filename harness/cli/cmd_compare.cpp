// quatcheck compare BASELINE CURRENT: match the rows of two report folders, print regressions and
// improvements, write junit.xml and compare.md; exit 1 on an accuracy regression. Rules: compare/compare.h.
#include "cli/command.h"
#include "cli/validators.h"
#include "compare/compare.h"
#include "report/report_dir.h"

#include <fmt/format.h>

#include <filesystem>

namespace qc::cli {
namespace {

struct CompareArgs {
    std::string baseline, current, out;
    CompareOptions options;
};

int compare_command(const CompareArgs &a) {
    const CompareOptions &o = a.options;
    // SIGINT/SIGTERM: reading and matching poll the stop flag (before each file, per row), and so do the
    // staged writes; main() prints "interrupted by SIGTERM" and exits 128 + sig with --out untouched.
    const StopToken stop = command_context().stop;
    ReportData baseline = read_report_folder(a.baseline, stop);
    ReportData current = read_report_folder(a.current, stop);
    Comparison c = compare_reports(baseline, current, o, stop);
    std::string out = a.out.empty() ? a.current : a.out;
    // junit.xml and compare.md are one output: both or neither (a full disk fails before either is seen).
    ReportDir dir(out, stop);
    dir.write("junit.xml", comparison_junit(c, stop));
    dir.write("compare.md", comparison_markdown(c, stop));
    // Formatted before the swap (and interruptible, as the two files are): once committed, only the printing
    // is left.
    const std::string text = comparison_text(c, stop);
    dir.commit();
    // The table and the line naming the outputs go to one stream: ctest reads a test's stdout and stderr
    // through two pipes and splices them in arbitrary chunks, so a stderr line could land inside a row.
    std::fputs(text.c_str(), stdout);
    std::fprintf(stdout, "quatcheck compare: junit.xml and compare.md in %s\n", out.c_str());
    return c.failed ? 1 : 0;
}

void options(CLI::App *sub, CompareArgs &a) {
    sub->add_option("BASELINE", a.baseline, "Baseline report folder (e.g. reports/baseline)")->required();
    sub->add_option("CURRENT", a.current, "Current report folder (e.g. reports/latest)")->required();
    sub->add_option("--ratio", a.options.ratio,
                    "An accuracy figure regresses when it exceeds RATIO x the baseline's and the rounding floor")
        ->check(at_least(1))
        ->capture_default_str();
    sub->add_option("--floor-ulp1", a.options.floor_ulp1,
                    "Rounding floor in ulp1 (the angle floor is 4 x this x eps: 8 eps by default)")
        ->check(at_least(0))
        ->capture_default_str();
    sub->add_option("--timing-ratio", a.options.timing_ratio, "Timing rows are slower beyond this ratio")
        ->check(at_least(1))
        ->capture_default_str();
    sub->add_flag("--fail-on-timing", a.options.fail_on_timing, "Exit 1 on a slower or missing timing row too");
    sub->add_flag("--allow-missing", a.options.allow_missing,
                  "Rows and tables of the baseline missing from the current run are listed but do not fail (by default "
                  "they do: an implementation or table that disappeared is not tested)");
    sub->add_option("--out", a.out, "Folder for junit.xml and compare.md (default: CURRENT)");
}

}  // namespace

QC_COMMAND("compare",
           "Compare two report folders: regressions and improvements, junit.xml, compare.md; exit 1 on a regression",
           args_setup(options, compare_command));

}  // namespace qc::cli
