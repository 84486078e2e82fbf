// Writers of `quatcheck run`'s report: summary.csv, worst_cases.csv, error_curve.csv, run.json.
// Column meanings are in the README ("Reports").
#pragma once

#include "report/report_dir.h"
#include "run/runner.h"

#include <nlohmann/json.hpp>
#include <string>

namespace qc {

std::string summary_csv(const RunResult &r);
std::string worst_cases_csv(const RunResult &r);
std::string error_curve_csv(const RunResult &r);
nlohmann::json run_json(const RunResult &r, const std::vector<Impl> &catalogue);

// Facts about the build and its libraries, for run.json and `quatcheck list --versions`.
nlohmann::json build_info();

void write_run_report(const RunResult &r, const std::vector<Impl> &catalogue, ReportDir &dir);

// Decimal for people: 9 significant digits, no locale.
std::string num(double x);

}  // namespace qc
