// quatcheck history's npm side: PACKAGE@RANGE, the registry's list of releases, and the cache of installed
// versions (one npm prefix per version under $XDG_CACHE_HOME/quatcheck/npm/PACKAGE/VERSION, used offline
// once there). Errors are UsageError (a bad spec, an unknown version) or InputError (npm failed), one line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace qc::cli {

// Semver order of "MAJOR.MINOR.PATCH[-PRE]" (a pre-release sorts before its release; identifiers of PRE
// compare numerically when both are numbers). Both must pass is_version.
int compare_versions(const std::string &a, const std::string &b);
bool is_version(const std::string &v);
bool is_prerelease(const std::string &v);

// --npm PACKAGE@RANGE: RANGE is A..B (every stable release from A to B inclusive, in semver order, and A or B
// themselves when they are pre-releases) or a comma list V1,V2,... (those versions, in the order given).
struct NpmSpec {
    std::string package;
    bool range = false;
    std::string from, to;             // range
    std::vector<std::string> listed;  // comma list
};
NpmSpec parse_npm_spec(const std::string &text);
// The versions a spec selects from the registry's list `known` (any order). An endpoint or listed version the
// registry does not have is a UsageError naming it.
std::vector<std::string> select_versions(const NpmSpec &spec, const std::vector<std::string> &known);

// The cache: $XDG_CACHE_HOME/quatcheck (else $HOME/.cache/quatcheck).
std::filesystem::path cache_root();

// An installed version: its prefix (holding node_modules/PACKAGE) and what the registry said it is.
struct Installed {
    std::filesystem::path prefix;
    std::string version, integrity, resolved;
    bool installed_now = false;  // false: taken from the cache
};

// The registry's list of PACKAGE's versions: the cached list when it has every version `needed` names, else
// `npm view PACKAGE versions --json` (the list is then cached). npm is $QC_NPM, else "npm" on the PATH.
std::vector<std::string> registry_versions(const std::string &package, const std::vector<std::string> &needed);
// PACKAGE@VERSION from the cache, installing it there first when absent (into a temporary prefix renamed into
// place, so a failed or concurrent install never leaves a half-installed version). `log` gets npm's output.
Installed ensure_installed(const std::string &package, const std::string &version, const std::filesystem::path &log);

// The last non-empty line of a child's log (its one-line error), for a message: the logs live in the staging
// folder, which a failed history removes.
std::string last_line(const std::filesystem::path &log);

// Runs argv (argv[0] looked up on the PATH; base/subprocess.h's run_tool) with `env` ("NAME=VALUE") set over the
// environment, stdin from /dev/null and stdout and stderr into `log`; returns the exit status (128 + signal when
// killed). Throws InputError when it cannot be started.
int run_logged(const std::vector<std::string> &argv, const std::vector<std::string> &env,
               const std::filesystem::path &log);

}  // namespace qc::cli
