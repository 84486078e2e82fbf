// `quatcheck run`'s report: its typed tables are computed from the result (the worst cases re-evaluated
// against the reference), then written: summary.csv, worst_cases.csv, error_curve.csv, run.json, and the
// leaderboard. Column meanings are in docs/reports.md; the columns in harness/tables/schemas.h.
#pragma once

#include "report/report_dir.h"
#include "run/runner.h"
#include "tables/rows.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace qc {

// summary.csv's rows, one per row of the result.
std::vector<SummaryRow> summary_rows(const RunResult &r);
// worst_cases.csv's rows: each kept worst case regenerated, re-run and measured against the reference.
std::vector<WorstCaseRow> worst_case_rows(const RunResult &r);
std::string error_curve_csv(const RunResult &r);
nlohmann::json run_json(const RunResult &r);
// run.json's implementation list as the leaderboard reads it.
std::map<std::string, ImplInfo> implementations(const RunResult &r);

// Stages every file of the run's report in `dir`, the leaderboard included.
void write_run_report(const RunResult &r, ReportDir &dir, bool leaderboard = true);

}  // namespace qc
