// The engine modules' loader (harness/include/quatcheck/engine_module.h): the engine adapters are the tool's own
// shared libraries, quatcheck-engine-NAME.so, read from one fixed place: BUILD/engines/ for a binary of the
// build folder (quatcheck, qc_tests, qc_bench), PREFIX/LIBDIR/quatcheck/engines/ for an installed one (found
// from /proc/self/exe, so a moved prefix still works). builtin_impls() loads them once, before its sort.
#pragma once

#include "quatcheck/registry.h"

#include <set>
#include <string>
#include <vector>

namespace qc {

struct EngineModuleStatus {
    std::string path;  // DIR/quatcheck-engine-NAME.so
    bool loaded = false;
    std::string why;                    // why it was skipped (empty when loaded)
    std::vector<std::string> families;  // what it added
};

// The folder the engine modules are read from, for the running executable (it may not exist: the core package
// and a QC_ENGINES=off build have none).
std::string engine_module_dir();

// Loads every DIR/quatcheck-engine-*.so (a regular file; in name order) and appends its entries to `out`. A module
// that cannot be opened (a missing engine library, not a shared library), has no entry point, was built for another
// tool or compiler (its stamp differs), holds an entry without a table, or adds a family that exists (`families`,
// which grows with each module loaded) is skipped whole, with the reason in its status; nothing is printed. A folder
// that does not exist gives no status.
std::vector<EngineModuleStatus> load_engine_modules(const std::string &dir, std::vector<BuiltinImpl> &out,
                                                    std::set<std::string> &families);

// The modules builtin_impls() loaded (it prints one warning line per skipped module, once per process).
const std::vector<EngineModuleStatus> &engine_modules();

}  // namespace qc
