// Subcommand registry: each harness/cli/cmd_*.cpp adds its subcommand with one QC_COMMAND line.
#pragma once

#include "quatcheck/types.h"
#include "reference/reference.h"
#include "base/context.h"
#include "isolate/plugin_spec.h"
#include "regions/regions.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace qc {
struct RunPlan;
}  // namespace qc

namespace qc::cli {

// A subcommand's setup: add options to `sub`, and set sub->callback to the action. The action returns
// the exit status (0 success, 1 failed verdict); it throws UsageError/InputError for status 2.
using Setup = std::function<void(CLI::App *sub, int &exit_status)>;

// The Setup of a command whose options all fill one ARGS: OPTIONS(sub, args) adds them, and the action is
// COMMAND(args).
template <class Args> Setup args_setup(void (*options)(CLI::App *, Args &), int (*command)(const Args &)) {
    return [options, command](CLI::App *sub, int &status) {
        auto a = std::make_shared<Args>();
        options(sub, *a);
        sub->callback([a, &status, command] { status = command(*a); });
    };
}

struct CommandRegistrar {
    CommandRegistrar(const char *name, const char *help, Setup setup);
};

struct CommandEntry {
    std::string name, help;
    Setup setup;
};
std::vector<CommandEntry> &commands();

// Shared options (harness/cli/options.cpp). Each is added with its validator (cli/validators.h): a bad value
// is refused while the command line is parsed, "quatcheck: COMMAND: --flag: expected ..., got 'TEXT'", exit 2.
constexpr long long kMaxJobs = 1024;
// --plugin PATH.so and --plugin-cmd 'COMMAND' (both into `plugins`), and with them --hello-timeout SECONDS: how
// long a process plugin may take to send its hello, each time an adapter starts, before it is refused (a
// runtime loading on a busy machine); (0, 3600], default kDefaultHelloTimeout. One command runs per process:
// the value is kept here, and command_context() hands it down (RunContext::hello_timeout_s).
inline constexpr double kDefaultHelloTimeout = 60;
void add_plugin_option(CLI::App *sub, PluginList &plugins);
double hello_timeout_s();
// The options most commands share. A command's arguments derive from SharedArgs, and add_shared_options adds
// the ones SharedHelp names (a help text, or true), each with its check: --seed 0 to 2^64-1 in decimal digits,
// --jobs 0 (all cores) to kMaxJobs, --timeout as add_timeout_option, --reference fast|mpfr.
struct SharedArgs {
    PluginList plugins;  // --plugin and --plugin-cmd, in the order given
    unsigned long long seed = 1;
    int jobs = 0;
    std::string out = "reports/latest";
    double timeout_s = 5;
    std::string reference = to_string(kDefaultReferenceMode);
};
inline constexpr const char *kSeedHelp = "Random seed; the same seed gives byte-identical CSVs";
inline constexpr const char *kJobsHelp = "Threads (0 = all cores)";
inline constexpr const char *kOutHelp = "Report folder";
inline constexpr const char *kTimeoutHelp =
    "Seconds an implementation in another process (a plugin, an adapter) may take per call before it is reported as "
    "timeout and not called again";
struct SharedHelp {
    const char *seed = nullptr, *jobs = nullptr, *out = nullptr, *timeout = nullptr;  // nullptr: no such option
    bool plugins = true, reference = false;
};
void add_shared_options(CLI::App *sub, SharedArgs &a, const SharedHelp &help);
// --timeout SECONDS: what an out-of-process implementation may take per batch (or per case, for the commands
// that call case by case) before it is reported as timeout; refused outside (0, 3600].
void add_timeout_option(CLI::App *sub, double &timeout_s, const char *help = kTimeoutHelp);
// A count flag (--cases, --tracks, --parallel-cases): a whole number from 1.
void add_count_option(CLI::App *sub, const char *flag, long long &count, const char *help);
// --worst-k: a whole number from 0 (the command checks it against its count).
void add_worst_k_option(CLI::App *sub, int &worst_k);
// --op and --region (repeatable): names parse_op and parse_region know; parse_ops/parse_regions turn them into
// values and refuse a repeat.
void add_op_option(CLI::App *sub, std::vector<std::string> &ops, const char *help);
void add_region_option(
    CLI::App *sub, std::vector<std::string> &regions,
    const char *help = "uniform, near-0, near-half-pi, near-pi, threshold (repeatable; default: all)");
std::vector<Op> parse_ops(const std::vector<std::string> &names, const char *flag = "--op");
std::vector<Region> parse_regions(const std::vector<std::string> &names);
// f32 or f64 (threshold --precision).
std::optional<Precision> parse_precision(std::string_view s);
// Refuses a value given twice to a repeatable flag (--region, --op, sweep --t, squad --region): a repeat would
// only repeat the same work (issue 28: 3,000 copies of --region grew to 24 GB). show(v) names the value.
template <class T, class Show> void refuse_repeated(const std::vector<T> &values, const char *flag, Show show) {
    for (size_t i = 0; i < values.size(); i++)
        for (size_t j = 0; j < i; j++)
            if (values[i] == values[j])
                throw UsageError(
                    fmt::format("{}: '{}' is given more than once (name each value once)", flag, show(values[i])));
}
// The values of a repeatable name flag: parse(name) for each (an optional; the flag's validator has refused an
// unknown name already), then refuse_repeated.
template <class Parse, class Show>
auto parse_names(const std::vector<std::string> &names, const char *flag, Parse parse, Show show) {
    std::vector<typename decltype(parse(std::string_view()))::value_type> values;
    for (const auto &n : names) {
        auto v = parse(n);
        if (!v) throw UsageError(fmt::format("{}: unknown value '{}'", flag, n));
        values.push_back(*v);
    }
    refuse_repeated(values, flag, show);
    return values;
}
// --reference fast|mpfr (default fast): CLI11 rejects any other value with a one-line usage error.
void add_reference_option(CLI::App *sub, std::string &mode);
// --search-max-block N (run, merge): the largest generation of mutants the worst-case search sends to another
// process in one batch, 1 to the protocol's largest batch (search/search.h SearchSettings::max_block).
void add_search_max_block_option(CLI::App *sub, size_t &max_block);
// --search-mode generations|steps (run, merge): SearchSettings::generations.
void add_search_mode_option(CLI::App *sub, bool &generations);
ReferenceMode reference_mode(const std::string &mode);
// The context a command hands down to the catalogue, the studies and the report writer: the signal handlers'
// stop token (harness/base/interrupt.h), `timeout_s` (--timeout where the command has it), `progress`,
// --hello-timeout, and worker_exe and keep_child_stderr from QC_WORKER_EXE and QC_WORKER_STDERR=1.
RunContext command_context(double timeout_s = 5, std::atomic<uint64_t> *progress = nullptr);
// QC_NODE_MODULES: a node_modules folder holding the npm libraries (findings quotes their source from it).
std::string node_modules_env();
// The negative controls' switch, QC_DAMAGE_FAST_PATH (sine_coefficient | bound_too_small | batch_lane | screen:
// a deliberately damaged fast reference, AVX2 batch or search screen, docs/reference.md), and QC_FORCE_SCALAR=1
// (the fast reference's batch on its scalar path), applied once by main().
void apply_damage_environment();

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
