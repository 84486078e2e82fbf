// `quatcheck run`'s report: its typed tables are computed from the result (its rows and search rows,
// pipeline/pipeline.h; the worst cases re-evaluated against the reference), then written: summary.csv, worst_cases.csv, error_curve.csv, run.json, and the
// leaderboard. Column meanings are in docs/reports.md; the columns in harness/tables/schemas.h.
#pragma once

#include "report/report_dir.h"
#include "pipeline/pipeline.h"
#include "tables/rows.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace qc {

// A row whose worst cases could not be re-evaluated: the implementation crashed, hung or wrote out of bounds
// on one of them (worst_case_rows()). Its summary row then has that status, as for a failure in the sampling.
struct RowFailure {
    EvalStatus status = EvalStatus::ok;
    std::string detail, failed_case;
};

// summary.csv's rows, one per row of the result; failures (if given: one per row, from worst_case_rows())
// mark the rows that were ok until their worst cases were re-evaluated.
std::vector<SummaryRow> summary_rows(const RunOutput &r, const std::vector<RowFailure> *failures = nullptr);
// worst_cases.csv's rows: each kept worst case regenerated, re-run and measured against the reference. A row's
// cases are re-run in one batch, as the sampling runs them; when the implementation fails on one, that case
// and the row's later ones have no output (NaN), and failures (if given) gets the row's status and case.
std::vector<WorstCaseRow> worst_case_rows(const RunOutput &r, std::vector<RowFailure> *failures = nullptr);
std::string error_curve_csv(const RunResult &r);
nlohmann::json run_json(const RunOutput &r);
// run.json's implementation list as the leaderboard reads it.
std::map<std::string, ImplInfo> implementations(const RunResult &r);

// The leaderboard's files (harness/leaderboard/): builds it from the tables the run holds in memory (`known`)
// plus the other tables already in the folder, and stages leaderboard.csv and leaderboard.md beside them.
void stage_leaderboard(ReportDir &dir, ReportTables known);
// `quatcheck leaderboard`: builds the leaderboard from `dir` and writes its two files there atomically
// (`stop`: the command's RunContext::stop, polled before the swap).
void write_leaderboard(const std::filesystem::path &dir, const StopToken &stop = {});

// Stages every file of the run's report in `dir`, the leaderboard included.
void write_run_report(const RunOutput &r, ReportDir &dir, bool leaderboard = true);

}  // namespace qc
