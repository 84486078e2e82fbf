// The leaderboard: one row per implementation x op, built from the CSVs of one report folder.
//
// Inputs (all in the same folder; only the first two come from `quatcheck run` itself):
//   summary.csv            per impl x op x region: cases, nonfinite, max_angle_err_rad, max_ulp1   (run)
//   run.json               each implementation's group and library version                         (run)
//   squad_summary.csv      per impl x squad x track region: cases, nonfinite, max_angle_err_own_rad
//                          (the implementation's own control points: what a caller gets)  (optional, squad)
//   conformance.csv, squad_conformance.csv   impl,op,property,verdict,...      (optional, conformance)
//   timing.csv             impl,op,region,mode,ns_per_call,...                         (optional, bench)
// At least one of summary.csv and squad_summary.csv must exist. Rows of the `broken` group (negative
// controls) are left out; an implementation's group and library version come from run.json, or, for one
// run.json does not list (squad rows), from its built-in registration. Every maximum is a sampled maximum: a lower bound on the true one.
//
// Rows sort by their worst region's max angle error, smallest first (rank 1 is the most accurate); a row
// with any non-finite output sorts after every row without one (the harness ranks a non-finite output as
// an infinite error everywhere), a row whose implementation crashed or hung (status not ok) after those;
// ties by name.
//
// The inputs are read as typed tables (harness/tables/rows.h), with their rules: every problem in an input
// is an InputError "FILE:LINE: reason"; nothing is skipped silently.
#pragma once

#include "tables/rows.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace qc {

struct RegionFigures {
    std::string region;
    std::string status = "ok";  // summary.csv's containment status: ok, crashed, timeout, out-of-bounds, ...
    uint64_t cases = 0, nonfinite = 0;
    // The larger of the sampled maximum and the worst-case search's (when summary.csv has it): both are
    // lower bounds on the true maximum.
    double max_angle_err_rad = 0;
    std::optional<double> max_angle_err_search_rad;
    std::optional<double> max_ulp1;  // absent in squad_summary.csv
};

struct Verdict {
    std::string property, verdict;  // verdict: pass, fail, known or skip
};

struct LeaderboardRow {
    std::string impl, op, group, library_version;
    std::vector<RegionFigures> regions;  // in the order of the input file
    uint64_t cases = 0, nonfinite = 0;   // totals over the regions
    std::string status = "ok";           // or each failing region's status, "crashed in near-pi; ..."
    std::string worst_region;            // the region with the largest max angle error
    double worst_angle_err_rad = 0;
    std::optional<double> worst_ulp1;  // the largest max_ulp1 over the regions
    bool conformance_run = false;      // some conformance file had rows for this impl x op
    std::vector<Verdict> verdicts;     // one per property, in the order of the input file
    std::optional<double> ns_per_call_throughput, ns_per_call_latency;
};

struct Leaderboard {
    std::vector<LeaderboardRow> rows;  // sorted, see above
    std::vector<std::string> regions;  // every region of the two-key rows, in file order
    std::vector<std::string> squad_regions;
    bool have_conformance = false, have_timing = false, have_run_json = false, have_search = false;
    bool partial = false;             // an interrupted run's partial report (ReportTables::partial)
    std::vector<std::string> inputs;  // the files that were read, for the markdown's footer
};

// Builds the leaderboard from a report folder's tables. Throws InputError when neither summary is there.
Leaderboard build_leaderboard(const ReportTables &tables);

// "7/9 pass; fail: shortest-arc symmetry; known: constant-speed" (no commas: it is one CSV field).
// "not run" when the row had no conformance rows.
std::string compact_verdicts(const LeaderboardRow &row);

std::string leaderboard_csv(const Leaderboard &board);
std::string leaderboard_md(const Leaderboard &board);

}  // namespace qc
