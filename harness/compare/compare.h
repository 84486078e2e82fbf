// Comparison of two report folders (`quatcheck compare BASELINE CURRENT`): rows are matched by
// implementation, op and region (conformance: by property; timing: by region and mode), and every figure
// that got worse or better beyond a tolerance is listed. Rows present on one side only are listed too.
//
// Accuracy regression (exit 1), per matched summary row:
//   - status: the baseline row was ok and the current one is not (crashed, timeout, out-of-bounds);
//   - nonfinite: the baseline had none and the current run has some;
//   - max_angle_err_rad: current > ratio x baseline and current > the angle floor of the precision;
//   - max_ulp1: current > ratio x baseline and current > floor_ulp1.
// The rounding floor: floor_ulp1 (default 2) units of eps = 2^(1-p) in each component, which is an angle
// of about 4 x floor_ulp1 x eps (|r - R| <= 2 max|r_i - R_i|, angle ~ 2|r - R|): 8 eps by default, 9.5e-7
// rad for f32 and 1.8e-15 rad for f64. Below it, a doubling is a last-bit change, not a regression.
// Conformance regression: a `fail` verdict where the baseline had none (another verdict or no row).
// Missing (exit 1 unless allow_missing): a summary or conformance row of the baseline that the current run
// does not have, or a whole table (conformance.csv) of the baseline that it lacks, e.g. an adapter whose
// library was not installed; timing rows and timing.csv only with fail_on_timing.
// Timing (ns_per_call) is compared with a wider ratio and fails the comparison only when asked.
#pragma once

#include "base/context.h"
#include "tables/rows.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace qc {

// What compare reads of one report folder: summary.csv's rows and squad_summary.csv's (op squad, the angle
// error against its own control points, no ulp1), conformance.csv's and squad_conformance.csv's, timing.csv,
// worst_cases.csv (empty when absent).
struct ReportData {
    std::string dir;
    std::vector<SummaryRow> summary;
    std::optional<std::vector<ConformanceRow>> conformance;
    std::optional<std::vector<TimingRow>> timing;
    std::vector<WorstCaseRow> worst;
    // run.json's seed, cases per region and implementations (their origins), for the reproduce commands.
    std::optional<uint64_t> seed, cases_per_region;
    std::map<std::string, ImplInfo> implementations;
    // The options that load every plugin of the report (each origin once, in name order), computed once when the
    // folder is read: what `quatcheck replay` of its whole worst_cases.csv needs. A compare of two 100,000-row
    // folders names it on every regressed row; rebuilt per row, it cost 80 % of such a compare.
    std::string all_plugin_options;
};
// Reads a folder's tables; summary.csv is required. Throws InputError "FILE:LINE: reason", and Interrupted
// when `stop` is requested (polled before each file).
ReportData read_report_folder(const std::string &dir, StopToken stop = {});

struct CompareOptions {
    double ratio = 2.0;         // accuracy: worse when current > ratio x baseline (and above the floor)
    double floor_ulp1 = 2.0;    // rounding floor in ulp1; the angle floor is 4 x floor_ulp1 x eps
    double timing_ratio = 1.5;  // timing: slower when current > timing_ratio x baseline
    bool fail_on_timing = false;
    bool allow_missing = false;  // rows and tables only in the baseline are listed but do not fail
};

// eps = 2^(1-p) of the precision named by the implementation's suffix (.f32 / .f64; f64 otherwise).
double eps_of_impl(const std::string &impl);
double angle_floor_rad(const std::string &impl, const CompareOptions &o);

enum class Change { regression, improvement, only_baseline, only_current, timing_slower, timing_faster };
const char *to_string(Change c);

// One line of the comparison table.
struct Finding {
    Change change;
    std::string suite;          // "accuracy", "conformance", "timing"
    std::string impl, op, key;  // key: region, property, or region/mode
    std::string metric, baseline, current, note;
};

// One JUnit test case: impl x op x region (accuracy), impl x op x property (conformance), or timing.
struct CompareCase {
    std::string suite, name;  // name: "impl op key"
    bool failed = false, skipped = false;
    std::string message;  // failure or skip reason, one line
    std::string detail;   // failure body: the figures and the worst case
};

struct Comparison {
    std::string baseline_dir, current_dir;
    std::vector<Finding> findings;
    std::vector<CompareCase> cases;
    std::vector<std::string> notes;  // e.g. different case counts, missing optional files
    size_t matched_rows = 0;
    size_t missing = 0;  // rows and tables of the baseline missing from the current run that fail it
    // Known failures: failing in the baseline and still failing now (a property's fail verdict, a row's failed
    // status or non-finite outputs). They do not fail the comparison; a passing gate lists them (issue 38), and
    // junit.xml records each as a skipped test case with its reason. One line each: "suite impl op key: why".
    std::vector<std::string> known;

    bool failed = false;  // exit status 1
    size_t count(Change c) const;
};

// Matches the rows through hash indexes: time and memory linear in the rows. Throws Interrupted when `stop`
// is requested (polled per row).
Comparison compare_reports(const ReportData &baseline, const ReportData &current, const CompareOptions &o,
                           const StopToken &stop = {});

// The options that load an implementation's plugin again, from run.json's origin: " --plugin PATH" for a
// shared library (a path ending in .so), " --plugin-cmd 'COMMAND'" for a process plugin, "" for a built-in.
std::string plugin_option_of(const ReportData &d, const std::string &impl);
// The command that measures one summary row again (the same seed and cases per region as d's run.json).
std::string reproduce_row_command(const ReportData &d, const SummaryRow &row);

// Human table and every failed case with its figures and reproduce commands (stdout), markdown for a PR
// comment, and JUnit XML. Each throws Interrupted when `stop` is requested (polled per row).
std::string comparison_text(const Comparison &c, const StopToken &stop = {});
std::string comparison_markdown(const Comparison &c, const StopToken &stop = {});
std::string comparison_junit(const Comparison &c, const StopToken &stop = {});

std::string xml_escape(const std::string &s);

}  // namespace qc
