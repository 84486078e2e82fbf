// Where the cause lies: the routine's source quoted from the installed library, with the lines the evidence
// points to marked (docs/findings.md, "Where the cause lies"). The library's files are read as untrusted
// input: bounded, and never run.
#pragma once

#include "findings/library.h"

#include <filesystem>
#include <string>
#include <vector>

namespace qc::findings {

struct Mark {
    int line = 0;     // 1-based, in the file
    std::string why;  // one sentence
};

struct Quote {
    std::string path;                // the file read (empty: not found, see missing)
    int first = 0;                   // line number of lines[0]
    std::vector<std::string> lines;  // the routine, from the line that starts it to the one that ends it
    std::vector<Mark> marks;
    std::string missing;  // why there is no quote (the file or the routine not found)
    bool truncated = false;

    bool has(int line) const { return line >= first && line < first + int(lines.size()); }
};

// The routine REF of LIB: its file found under ROOTS (the folders that hold the package: node_modules, the
// crate registry; an absolute file is taken as it is, `*` matching a version folder) and the routine's extent
// (braces for C++, JavaScript and Rust, indentation for Python).
Quote quote_routine(const Library &lib, const SourceRef &ref, const std::vector<std::filesystem::path> &roots);

// The evidence's marks (each adds to Q.marks the lines it points to, none twice):
//   a branch-map edge: a numeric constant C whose switch point in a.b is the edge, under one of the usual
//     forms of the test (a.b > C, 1 - a.b < C, sin < C, angle < C, 1 - a.b^2 < C), and the tests that use
//     a constant so defined by name;
//   a non-finite output: the divisions by a sine, length or norm, and acos / asin (a domain error);
//   lost precision near a.b = 1: acos of a.b and sqrt(1 - c*c);
//   the shortest arc: the line computing a.b when the routine never tests its sign.
void mark_edge(Quote &q, double dot_below, double dot_above);
void mark_nonfinite(Quote &q);
void mark_precision(Quote &q);
void mark_missing_flip(Quote &q);

// The numeric literals of one line of code (comments and strings skipped), for tests.
std::vector<double> literals_of(const std::string &line);

}  // namespace qc::findings
