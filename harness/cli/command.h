// Subcommand registry: each harness/cli/cmd_*.cpp adds its subcommand with one QC_COMMAND line.
#pragma once

#include "quatcheck/types.h"
#include "reference/reference.h"
#include "isolate/context.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <functional>
#include <string>
#include <vector>

namespace qc {
struct RunPlan;
}  // namespace qc

namespace qc::cli {

// A subcommand's setup: add options to `sub`, and set sub->callback to the action. The action returns
// the exit status (0 success, 1 failed verdict); it throws UsageError/InputError for status 2.
using Setup = std::function<void(CLI::App *sub, int &exit_status)>;

struct CommandRegistrar {
    CommandRegistrar(const char *name, const char *help, Setup setup);
};

struct CommandEntry {
    std::string name, help;
    Setup setup;
};
std::vector<CommandEntry> &commands();

// Shared option helpers.
// Strict checks of --seed and --jobs wherever a command has them (harness/cli/main.cpp).
constexpr long long kMaxJobs = 1024;
void add_strict_number_checks(CLI::App *sub);
void add_plugin_option(CLI::App *sub, std::vector<std::string> &plugins);
// --timeout SECONDS: what an out-of-process implementation may take per batch (or per case, for the commands
// that call case by case) before it is reported as timeout; refused at parse time outside (0, 3600].
void add_timeout_option(CLI::App *sub, double &timeout_s);
std::vector<Op> parse_ops(const std::vector<std::string> &names, const char *flag = "--op");
// Refuses a value given twice to a repeatable flag (--region, --op, sweep --t, squad --region): a repeat would
// only repeat the same work (issue 28: 3,000 copies of --region grew to 24 GB). show(v) names the value.
template <class T, class Show> void refuse_repeated(const std::vector<T> &values, const char *flag, Show show) {
    for (size_t i = 0; i < values.size(); i++)
        for (size_t j = 0; j < i; j++)
            if (values[i] == values[j])
                throw UsageError(
                    fmt::format("{}: '{}' is given more than once (name each value once)", flag, show(values[i])));
}
// --reference fast|mpfr (default fast): CLI11 rejects any other value with a one-line usage error.
void add_reference_option(CLI::App *sub, std::string &mode);
// --search-max-block N (run, merge): the largest generation of mutants the worst-case search sends to another
// process in one batch, 1 to the protocol's largest batch (search/search.h SearchSettings::max_block).
void add_search_max_block_option(CLI::App *sub, size_t &max_block);
ReferenceMode reference_mode(const std::string &mode);
// The context a command hands down to the catalogue, the studies and the report writer: the signal handlers'
// stop token (harness/isolate/interrupt.h), `timeout_s` (--timeout where the command has it) and `progress`.
RunContext command_context(double timeout_s = 5, std::atomic<uint64_t> *progress = nullptr);

// A script of scripts/ that a command runs (plot_report.py, bench_peers.py): installed,
// <exe>/../share/quatcheck/scripts (cmake --install, the .deb: docs/install.md); in a checkout,
// <exe>/../scripts (build dir inside the source tree, as scripts/setup makes it); else ./scripts from the
// current folder. Empty when none of them has it.
std::string find_script(const std::string &file);

// Memory (harness/cli/main.cpp). A request too large for memory is refused before anything is allocated,
// with one line and exit 2, instead of a bad_alloc, an OOM kill or swapping the machine to a halt:
// require_memory("--cases 10^14: the run", estimated bytes, "--cases") throws UsageError
// "--cases 10^14: the run needs about 3.5 PiB of memory, more than the 21.0 GiB available; nothing was started
// (lower --cases)" when the estimate exceeds available_memory_bytes(): the least of MemAvailable, what is left
// of the cgroup's memory.max, and what is left under ulimit -v and -d. The estimates are each command's own
// (beside the command); main() still turns a bad_alloc into the same kind of line as a last resort.
uint64_t available_memory_bytes();
void require_memory(const std::string &what, double bytes, const std::string &lower);
// The memory a run holds at its peak (harness/cli/cmd_run.cpp; run and bench's parallel suite).
double run_memory_estimate(const RunPlan &plan);

}  // namespace qc::cli

#define QC_COMMAND(name, help, setup) \
    static const ::qc::cli::CommandRegistrar QC_CLI_CONCAT(qc_command_, __LINE__)(name, help, setup)
#define QC_CLI_CONCAT_INNER(a, b) a##b
#define QC_CLI_CONCAT(a, b) QC_CLI_CONCAT_INNER(a, b)
