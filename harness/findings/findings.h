// `quatcheck findings DIR`: the findings of a report folder, written as DIR/findings/, one folder per
// implementation family with at least one finding, for the library's maintainers (docs/findings.md).
//
// A finding is
//   - property: a `fail` verdict of conformance.csv (a promise the routine breaks; `known` verdicts, the
//     deviations an adapter documents, are listed beside the findings, not as findings);
//   - region: a slerp row of summary.csv whose max angle error (sampling or search) is more than
//     Options::factor times the format's rounding floor 8 eps (quatcheck compare's floor, docs/nightly.md),
//     or that returned NaN or inf; squad-region: the same of a squad_summary.csv row (error against the
//     reference curve with the routine's own control points); a `fail` of squad_conformance.csv is a property. nlerp rows are measured against slerp there, which is their design, so
//     only their conformance verdicts count.
// The broken group (planted defects) and bench are left out. Only the folder's tables are read (summary.csv,
// conformance.csv, worst_cases.csv, run.json, sweep/branch_map.csv), through harness/tables, as untrusted
// input; the reference is evaluated again only on the counterexamples of conformance.csv.
//
// Each folder holds README.md, a standalone reproducer in the library's language (repro.cpp / repro.mjs /
// repro.py, built from the templates and adapter sources embedded in the binary, harness/findings/embedded.h;
// which adapter file and build flags a family uses is one line of its folder's impls/*/repro.txt), repro.sh,
// and case-N.csv (one worst_cases.csv row each, for `quatcheck replay`). findings/index.json lists them all.
#pragma once

#include "isolate/context.h"
#include "tables/rows.h"

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace qc::findings {

struct Options {
    double factor = 100;  // a region is a finding above factor x 8 eps
};

// One call of the library in a reproducer: exact inputs, the reference's output and the check of the promise.
struct ReproCase {
    std::string label, op;
    int bits = 64;
    std::array<double, 4> q0{}, q1{}, expected{};
    double t = 0;
    std::string check;  // angle, unit, components, finite (the templates' measure())
    double tol = 0;
};

struct Finding {
    std::string impl, op;
    std::string kind;      // "property", "region" or "squad-region"
    std::string what;      // the property or region name
    std::string sentence;  // what goes wrong, one sentence
    double worst = 0, tolerance = 0;
    std::string unit;  // of worst and tolerance
    // The worst case: inputs as hexfloats, the reference (decimal), what the library returned (hexfloats;
    // empty for a property, whose outputs the table does not hold).
    std::array<std::string, 4> q0, q1, out, ref;
    std::string t;
    std::string source;     // "worst_cases.csv:LINE" or "conformance.csv:LINE"
    std::string reproduce;  // the quatcheck command, every word shell-quoted
    std::string case_csv;   // region findings: the file name of the one-row worst_cases.csv
    WorstCaseRow row;       // region findings: that row
    std::vector<ReproCase> cases;
};

// A reproducer template of a family: one line of an impls/*/repro.txt.
struct ReproSpec {
    std::string glob, language;          // language: cpp, js, python
    std::vector<std::string> files;      // paths of the embedded files (the first is compiled / imported)
    std::vector<std::string> requires_;  // pkg:, header:, npm:, py:
    std::string flags;                   // cpp: compiler words for repro.sh
};

struct FamilyFindings {
    std::string family, group, version, origin;
    std::vector<Finding> findings;
    std::vector<std::string> documented;  // known verdicts and branch-map edges, one line each
    const ReproSpec *spec = nullptr;      // nullptr: no standalone reproducer for this family
};

// The reproducer specs of every embedded impls/*/repro.txt, in file order.
const std::vector<ReproSpec> &repro_specs();
const ReproSpec *spec_for(const std::string &family);

// The findings of a folder's tables. Throws InputError on a malformed table.
std::vector<FamilyFindings> collect(const ReportTables &tables, const std::filesystem::path &dir, const Options &o);
// The files of DIR/findings/ (path relative to findings/ -> content); repro.sh files are executable.
std::map<std::string, std::string> render(const std::vector<FamilyFindings> &families, const ReportTables &tables,
                                          const Options &o);
// Reads DIR's tables and replaces DIR/findings/ atomically. Returns the number of family folders.
size_t write_findings(const std::filesystem::path &dir, const Options &o, StopToken stop);

}  // namespace qc::findings
