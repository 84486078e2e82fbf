// Every CSV table the tool writes, declared once: file, columns (name, type, unit), key. Writers build
// their text with CsvWriter(schema), readers validate with read_table(schema) (harness/tables/table.h);
// `quatcheck tables` prints them as JSON for the Python report and README generators.
// Column meanings are in docs/reports.md.
#pragma once

#include "tables/table.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace qc::tables {

// The verdicts each writer produces (the schemas' verdict choices): conform's Verdict values
// (conform/conform.cpp), and the squad's c1 verdicts ("untested": no key judged; squad/squad_report.cpp).
extern const std::vector<std::string> conform_verdicts;  // pass, fail, known, skip
extern const std::vector<std::string> squad_verdicts;    // pass, fail, known, untested
// The conformance properties that are informative (conform/properties.h, Property::informative): measured and
// reported, never counted as a failed promise. Written into schema.json's conformance.csv entry as
// "informative_properties", where the report's scripts read it (scripts/qc_tables.py, informative_properties).
extern const std::vector<std::string> informative_properties;  // correctly-rounded
bool is_informative_property(const std::string &name);

extern const Schema summary;            // quatcheck run: per impl x op x region
extern const Schema worst_cases;        // quatcheck run: the worst cases of each summary row
extern const Schema error_curve;        // quatcheck run: error per W bin
extern const Schema conformance;        // quatcheck conform: per impl x op x property
extern const Schema squad_summary;      // quatcheck squad: per impl x track region
extern const Schema squad_worst_cases;  // quatcheck squad
extern const Schema squad_conformance;  // quatcheck squad: the c1 properties, conformance.csv's columns
extern const Schema timing;             // quatcheck bench: ns per call
extern const Schema throughput;         // quatcheck bench: the harness's own ns per case
extern const Schema parallel;           // quatcheck bench: speed-up of run at 1 and 2 jobs
extern const Schema threshold;          // quatcheck threshold: per precision x family x tau
extern const Schema threshold_summary;  // quatcheck threshold: the recommended tau per precision x family
extern const Schema velocity_curve;     // quatcheck curves: angular-velocity error along t
extern const Schema sweep_summary;      // quatcheck sweep: per slice x impl x op
extern const Schema sweep_curve;        // quatcheck sweep: error per bin of the swept value
extern const Schema branch_map;         // quatcheck sweep --over dot: every branch edge found
extern const Schema t_branch_map;       // quatcheck sweep --over t: every edge found along t
extern const Schema history;            // quatcheck history: per version x impl x op x region
extern const Schema transitions;        // quatcheck history: each change between consecutive versions

// leaderboard.csv: its per-region columns depend on the regions of the report.
Schema leaderboard(const std::vector<std::string> &regions);

// Every fixed schema above, in the order of this header.
std::vector<const Schema *> all();

// The schemas as JSON: {"summary.csv": {"about": ..., "key": [...], "columns": [{"name", "type", "unit",
// "required", "may_be_empty", "choices"}]}, ...}; leaderboard.csv with "{region}" in its per-region names.
nlohmann::json to_json();

}  // namespace qc::tables
