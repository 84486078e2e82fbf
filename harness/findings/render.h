// Step 3 of `quatcheck findings` (findings.h): the files of one library's folder.
#pragma once

#include "findings/findings.h"

#include <map>
#include <string>

namespace qc::findings {

// The reproducer, repro.sh, the tests to paste and the fix's files of library L (path in its folder -> content).
std::map<std::string, std::string> reproducer(const LibraryFindings &l);
// L's README.md, for the library's maintainers.
std::string readme(const LibraryFindings &l, const std::map<std::string, std::string> &files, const ReportTables &t,
                   const Options &o);

}  // namespace qc::findings
