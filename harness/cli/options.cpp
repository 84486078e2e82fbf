// The options several commands share (cli/command.h), each added with its validator (cli/validators.h), and
// the parsers that turn their checked text into values.
#include "cli/command.h"
#include "cli/validators.h"
#include "isolate/process_plugin.h"
#include "regions/regions.h"

#include <fmt/format.h>

#include <climits>

namespace qc::cli {

namespace {
double g_hello_timeout_s = kDefaultHelloTimeout;  // --hello-timeout of the command this process runs
}  // namespace

double hello_timeout_s() { return g_hello_timeout_s; }

void add_plugin_option(CLI::App *sub, PluginList &plugins) {
    sub->add_option_function<std::vector<std::string>>(
           "--plugin",
           [&plugins](const std::vector<std::string> &paths) {
               for (const auto &p : paths) plugins.push_back(PluginSpec::library(p));
           },
           "Load implementations from this shared library (repeatable). A plugin is code quatcheck "
           "runs: load only libraries you trust.")
        ->type_name("PATH.so");
    // Kept in the same list as --plugin, so every command that takes --plugin takes this too.
    sub->add_option_function<std::vector<std::string>>(
           "--plugin-cmd",
           [&plugins](const std::vector<std::string> &cmds) {
               for (const auto &c : cmds) plugins.push_back(PluginSpec::command(c));
           },
           "Run this program as a process plugin speaking docs/plugin-protocol.md on stdin/stdout "
           "(repeatable; words split as by a shell, no expansion), e.g. 'node impls/js/three.js'. It is code "
           "quatcheck runs: name only programs you trust.")
        ->type_name("'COMMAND ARGS...'");
    sub->add_option("--hello-timeout", g_hello_timeout_s,
                    "Seconds a --plugin-cmd adapter may take to start and send its hello (each time one starts) "
                    "before it is refused; raise it for a runtime that loads slowly on a busy machine")
        ->check(number_where([](double s) { return s > 0 && s <= 3600; }, "seconds in (0, 3600]"))
        ->capture_default_str();
}

void add_timeout_option(CLI::App *sub, double &timeout_s, const char *help) {
    sub->add_option("--timeout", timeout_s, help)
        ->check(number_where([](double s) { return s > 0 && s <= 3600; }, "seconds in (0, 3600]"))
        ->capture_default_str();
}

void add_reference_option(CLI::App *sub, std::string &mode) {
    sub->add_option("--reference", mode,
                    "Reference arithmetic: fast (double-double with a certified error bound, MPFR where the bound "
                    "cannot decide) or mpfr (MPFR for every case, and the MPFR metric engine)")
        ->check(CLI::IsMember({"fast", "mpfr"}))
        ->capture_default_str();
}

void add_search_max_block_option(CLI::App *sub, size_t &max_block) {
    sub->add_option(
           "--search-max-block", max_block,
           "Largest batch of mutants the worst-case search sends to an implementation in another process at once "
           "(1 = one case per call, as in process)")
        ->check(whole_in(1, kProcessMaxCases, fmt::format("a batch of 1 to {} mutants", kProcessMaxCases)))
        ->capture_default_str();
}

void add_search_mode_option(CLI::App *sub, bool &generations) {
    sub->add_option_function<std::string>(
           "--search-mode", [&generations](const std::string &m) { generations = m == "generations"; },
           "How the worst-case search climbs in process: steps (default: one mutant per step, each from the pool "
           "the last step left) or generations (up to 16 mutants drawn from the pool at a time and evaluated as one "
           "batch, up to the first that changes the pool: the same path and figures; docs/worst-case-search.md)")
        ->check(CLI::IsMember({"generations", "steps"}))
        ->default_str("steps");
}

namespace {

// --seed is 0..2^64-1 in decimal digits, checked on its text (CLI11 would wrap -1 to 2^64-1).
void add_seed_option(CLI::App *sub, unsigned long long &seed, const char *help) {
    sub->add_option("--seed", seed, help)->check(seed_number())->capture_default_str();
}

// --jobs is 0..kMaxJobs: more threads than that is a typo, and std::thread would abort the process.
void add_jobs_option(CLI::App *sub, int &jobs, const char *help) {
    sub->add_option("--jobs", jobs, help)
        ->check(whole_in(0, kMaxJobs, fmt::format("0 (all cores) to {} threads", kMaxJobs)))
        ->capture_default_str();
}

void add_out_option(CLI::App *sub, std::string &out, const char *help) {
    sub->add_option("--out", out, help)->capture_default_str();
}

}  // namespace

void add_shared_options(CLI::App *sub, SharedArgs &a, const SharedHelp &help) {
    if (help.seed) add_seed_option(sub, a.seed, help.seed);
    if (help.jobs) add_jobs_option(sub, a.jobs, help.jobs);
    if (help.out) add_out_option(sub, a.out, help.out);
    if (help.timeout) add_timeout_option(sub, a.timeout_s, help.timeout);
    if (help.plugins) add_plugin_option(sub, a.plugins);
    if (help.reference) add_reference_option(sub, a.reference);
}

void add_count_option(CLI::App *sub, const char *flag, long long &count, const char *help) {
    sub->add_option(flag, count, help)->check(whole_in(1, LLONG_MAX, "a positive count"))->capture_default_str();
}

void add_worst_k_option(CLI::App *sub, int &worst_k) {
    sub->add_option("--worst-k", worst_k, "Worst cases kept per row")
        ->check(whole_in(0, INT_MAX, "a count >= 0"))
        ->capture_default_str();
}

void add_op_option(CLI::App *sub, std::vector<std::string> &ops, const char *help) {
    sub->add_option("--op", ops, help)->check(known_name(parse_op, "op", "slerp, nlerp or squad"));
}

void add_region_option(CLI::App *sub, std::vector<std::string> &regions, const char *help) {
    sub->add_option("--region", regions, help)
        ->check(known_name(parse_region, "region", "uniform, near-0, near-half-pi, near-pi or threshold"));
}

ReferenceMode reference_mode(const std::string &mode) {
    auto m = parse_reference_mode(mode);
    if (!m) throw UsageError(fmt::format("--reference: expected fast or mpfr, got '{}'", mode));
    return *m;
}

std::vector<Op> parse_ops(const std::vector<std::string> &names, const char *flag) {
    return parse_names(names, flag, parse_op, [](Op op) { return std::string(to_string(op)); });
}

std::optional<Precision> parse_precision(std::string_view s) {
    for (Precision p : {Precision::f32, Precision::f64})
        if (s == to_string(p)) return p;
    return std::nullopt;
}

std::vector<Region> parse_regions(const std::vector<std::string> &names) {
    return parse_names(names, "--region", parse_region, [](Region g) { return std::string(to_string(g)); });
}

}  // namespace qc::cli
