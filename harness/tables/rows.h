// Typed rows of the tables that are read back (by compare, the leaderboard and replay), their writers and
// their readers, and a report folder's tables read at once. The columns are declared in tables/schemas.h.
#pragma once

#include "tables/schemas.h"

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <cmath>
#include <string>
#include <vector>

namespace qc {

// One row of summary.csv (or, with the fields squad_summary.csv has, of squad_summary.csv). Figures are kept
// as written (9 significant digits), so a table in memory and the same table read back rank identically.
struct SummaryRow {
    unsigned line = 0;  // in the file it was read from; 0 in memory
    std::string impl, op, region;
    uint64_t cases = 0, nonfinite = 0, branch_disagree = 0, ties = 0;
    double max_angle_err_rad = 0;  // squad_summary.csv: max_angle_err_own_rad
    double p99_angle_err_rad = 0, max_ulp = 0, max_norm_err_ulp1 = 0;
    std::optional<double> max_ulp1;                          // absent in squad_summary.csv
    std::optional<double> max_angle_err_vs_exact_nlerp_rad;  // nlerp rows only
    std::string status = "ok";  // ok, or how the implementation failed (crashed, timeout, ...)
    std::string status_detail, failed_case;
    std::optional<double> max_angle_err_search_rad;  // when the worst-case search ran
};

// One row of conformance.csv or squad_conformance.csv (the columns compare and the leaderboard use).
struct ConformanceRow {
    unsigned line = 0;
    std::string impl, op, property, verdict, counterexample, reproduce;
    std::string failed_call;  // the call that broke the promise, e.g. op(q0,q1,1) ("" if not recorded)
    std::string calls;        // every call checked: "call=... t=... out=... expected=... ... verdict=...; ..."
};

// One row of timing.csv (the columns compare and the leaderboard use).
struct TimingRow {
    unsigned line = 0;
    std::string impl, op, region, mode;
    double ns_per_call = 0;
};

// One row of worst_cases.csv. The inputs and output are hexfloats as written: replay parses them per the
// implementation's precision; ref is the reference in decimal (40 digits).
struct WorstCaseRow {
    unsigned line = 0;
    std::string impl, op, region;
    std::string q0[4], q1[4], t, out[4], ref[4];
    double angle_err_rad = 0, ulp = 0, ulp1 = 0;  // nan for a non-finite output
    std::string source;                           // sampling or search
    double norm_err_ulp1 = std::nan("");          // | |out| - 1 | in ulp1 (nan: not recorded)
    // The figures of the summary row this case attains, space-separated summary.csv column names (e.g.
    // "max_angle_err_rad max_ulp1"); empty for a case that attains none (the rest of the worst K).
    std::string attains;
};

// The value a figure has once written and read back (9 significant digits).
double as_written(double x);

std::string summary_csv(const std::vector<SummaryRow> &rows);
std::string worst_cases_csv(const std::vector<WorstCaseRow> &rows);

std::vector<SummaryRow> read_summary(const Table &t);  // summary.csv or squad_summary.csv
std::vector<ConformanceRow> read_conformance(const Table &t);
std::vector<TimingRow> read_timing(const Table &t);
std::vector<WorstCaseRow> read_worst_cases(const Table &t);
// Reads a worst_cases.csv file (replay).
std::vector<WorstCaseRow> read_worst_cases(const std::string &path);

// What run.json says of an implementation.
struct ImplInfo {
    std::string group, version;
    std::string origin;  // "builtin", a plugin's path or a process plugin's command ("" when not recorded)
};

// The words that make quatcheck load an implementation of this origin again: {"--plugin", PATH} for a
// shared-library plugin (a path ending in .so), {"--plugin-cmd", COMMAND} for a process plugin, none for a
// built-in or an unrecorded origin.
std::vector<std::string> load_words(const std::string &origin);

// The tables of one report folder; a table is nullopt when its file is absent.
struct ReportTables {
    std::string dir;
    std::optional<std::vector<SummaryRow>> summary, squad_summary;
    std::optional<std::map<std::string, ImplInfo>> implementations;  // run.json's list
    std::optional<uint64_t> seed, cases_per_region;                  // run.json's, when it has them
    std::optional<std::vector<ConformanceRow>> conformance, squad_conformance;
    std::optional<std::vector<TimingRow>> timing;
    std::vector<WorstCaseRow> worst_cases;  // empty when worst_cases.csv is absent or has no rows
    // The partial report of an interrupted run (a PARTIAL file beside the tables, `quatcheck run`): its tables
    // may hold a header only (interrupted before any row finished), which a complete report may not.
    bool partial = false;
};

// The content of a report file by name ("summary.csv"); nullopt when it is absent.
using ReportFiles = std::function<std::optional<std::string>(const std::string &name)>;
// The files of a folder, `overlay` first.
ReportFiles files_in(const std::filesystem::path &dir, std::map<std::string, std::string> overlay = {});

// Reads every table of a folder that `known` does not already hold, in the order of ReportTables. `dir`
// names the files in messages ("DIR/summary.csv:12: ..."). Throws InputError "FILE:LINE: reason".
ReportTables read_report_tables(const ReportFiles &files, const std::filesystem::path &dir, ReportTables known = {});
// The same from a folder on disk.
ReportTables read_report_tables(const std::filesystem::path &dir);

}  // namespace qc
