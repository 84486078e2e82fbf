// `quatcheck findings DIR`: the findings of a report folder, written as DIR/findings/, one folder per library
// with at least one finding, for the library's maintainers (docs/findings.md). Three steps, one file each:
//
//   collect (collect.cpp)  the report's tables -> Findings. A finding is
//     - property: a `fail` verdict of conformance.csv or squad_conformance.csv (a promise the routine breaks);
//     - region: a slerp row of summary.csv whose max angle error (sampling or search) is more than
//       Options::factor times the format's rounding floor 8 eps (quatcheck compare's floor, docs/nightly.md),
//       or that returned NaN or inf; squad-region: the same of a squad_summary.csv row.
//     nlerp rows are measured against slerp there, which is their design, so only their properties count.
//     The broken group (planted defects) and bench are left out. `known` verdicts, and region findings the
//     library's card documents (library.h), are documented behaviour, not findings.
//   group (group.cpp)  Findings -> libraries (library.h: the families of one library share a folder) and
//     causes: findings one defect explains (Cause::formed says which rule joined them); for each cause the
//     routine's source, quoted from the installed library with the lines the evidence points to (source.h),
//     and the suggested fix measured on the cause's cases.
//   render (render_*.cpp)  README.md, the reproducer in the library's own API, repro.sh, the tests to paste,
//     case-N.csv and index.json; templates are data files (harness/findings/templates/, embedded.h).
//
// Only the folder's tables are read, through harness/tables, as untrusted input; the reference is evaluated
// again only on the calls of conformance counterexamples.
#pragma once

#include "findings/library.h"
#include "findings/source.h"
#include "base/context.h"
#include "tables/rows.h"

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace qc::findings {

struct Options {
    double factor = 100;  // a region is a finding above factor x 8 eps
    // Folders that may hold an npm library's package (node_modules): QC_NODE_MODULES, given by the CLI; the
    // node_modules beside each JavaScript adapter of run.json's origins are added by collect().
    std::vector<std::filesystem::path> source_roots;
    std::string command;                 // the command line that wrote the report, for the environment block
    std::filesystem::path findings_dir;  // DIR/findings, absolute: the replay commands name their case files by it
    std::filesystem::path history;       // --history: a `quatcheck history` folder (its transitions.csv), or empty
};

enum class Kind { property, region, squad_region };
const char *kind_name(Kind k);

// One call of the library in a reproducer: exact inputs, the reference's output and the check of the promise.
struct ReproCase {
    std::string label, op, family;
    int bits = 64;
    std::array<double, 4> q0{}, q1{}, expected{};
    double t = 0;
    std::string check;  // angle, unit, components, finite (the templates' measure())
    double tol = 0;
};

// Where the keys of a case lie, the input class the grouping uses.
enum class InputClass { equal, opposite, nearly_parallel, quarter_turn, general };
const char *class_words(InputClass c);  // "equal keys", ...

struct Finding {
    std::string impl, op, family;
    Kind kind = Kind::region;
    std::string what;      // the property or region name
    std::string sentence;  // what goes wrong, one sentence
    double worst = 0, tolerance = 0;
    std::string unit;        // of worst and tolerance
    bool nonfinite = false;  // the library returned NaN or inf
    // The worst case: inputs as hexfloats, the reference (decimal), what the library returned (hexfloats;
    // empty for a property, whose outputs the table does not hold).
    std::array<std::string, 4> q0, q1, out, ref;
    std::string t;
    double dot = NAN;  // a.b of the normalised keys of the worst case (NaN: no case)
    InputClass cls = InputClass::general;
    std::string source;     // "worst_cases.csv:LINE" or "conformance.csv:LINE"
    std::string reproduce;  // the quatcheck command, every word shell-quoted
    std::string case_csv;   // region findings: the file name of the one-row worst_cases.csv
    std::string origin;     // run.json's origin of the implementation (how quatcheck loads it again)
    WorstCaseRow row;       // region findings: that row
    std::vector<ReproCase> cases;
    int tie_cases = 0;  // cases left out: in the tie band |a.b| <= 4 eps, where either arc is a right answer
};

enum class Severity { nan, wrong_rotation, broken_promise, lost_precision };
const char *severity_name(Severity s);

// The suggested fix run on a cause's cases inside quatcheck (the reproducers run the ported fix itself).
struct FixCheck {
    std::string routine;  // what was run, e.g. "qc-slerp-narrow (the algorithm of impls/fixes/qc_slerp.mjs)"
    int cases = 0, failed = 0;
    double max_angle = 0;  // rad, over the angle checks
    bool offered = false;
    std::string why_not;  // when not offered
};

struct Cause {
    std::string key;       // the grouping key: which rule joined the findings, and on what
    std::string title;     // fit for an issue tracker
    std::string sentence;  // what the defect does, one sentence
    std::string formed;    // how the group was formed, one sentence
    Severity severity = Severity::broken_promise;
    std::vector<Finding> findings;
    std::string routine_family, routine_op;  // the family and op whose routine the quote is of
    Quote quote;
    FixCheck fix;
    std::vector<const ReproCase *> cases() const;
};

// A reproducer template of a family without a library card: one line of an impls/*/repro.txt.
struct ReproSpec {
    std::string glob, language;          // language: cpp, js, python
    std::vector<std::string> files;      // paths of the embedded files (the first is compiled / imported)
    std::vector<std::string> requires_;  // pkg:, header:, npm:, py:
    std::string flags;                   // cpp: compiler words for repro.sh
};

struct LibraryFindings {
    std::string name, folder, version, group, origin;
    const Library *card = nullptr;    // nullptr: a family of its own, reproduced through spec
    const ReproSpec *spec = nullptr;  // cardless families: the adapter-file reproducer (nullptr: none)
    std::vector<std::string> families;
    std::vector<Finding> findings;  // collected, before grouping
    std::vector<Cause> causes;
    std::vector<std::string> documented;  // documented behaviour and branch-map edges, one line each
    struct Edge {
        std::string impl, op;
        double dot_below = 0, dot_above = 0, jump = 0, err_below = 0, err_above = 0;
        int line = 0;
    };
    std::vector<Edge> edges;  // sweep/branch_map.csv rows of its families
    // From `quatcheck history` (--history): since which release, one line per change of its families.
    std::vector<std::string> history;
};

// The reproducer specs of every embedded impls/*/repro.txt, in file order.
const std::vector<ReproSpec> &repro_specs();
const ReproSpec *spec_for(const std::string &family);

// Step 1: the findings of a folder's tables, per library (causes not yet formed). Throws InputError on a
// malformed table.
std::vector<LibraryFindings> collect(const ReportTables &tables, const std::filesystem::path &dir, Options &o);
// Step 2: each library's findings grouped into causes, their source quoted and marked, their fix checked.
void group(std::vector<LibraryFindings> &libs, const Options &o);
// Step 3: the files of DIR/findings/ (path relative to findings/ -> content); repro.sh files are executable.
std::map<std::string, std::string> render(const std::vector<LibraryFindings> &libs, const ReportTables &tables,
                                          const Options &o);
// Reads DIR's tables and replaces DIR/findings/ atomically. Returns the number of library folders.
size_t write_findings(const std::filesystem::path &dir, Options o, StopToken stop);

}  // namespace qc::findings
