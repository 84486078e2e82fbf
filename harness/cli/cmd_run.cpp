// quatcheck run: sample every region, measure every selected implementation, write the report.
#include "cli/command.h"
#include "cli/validators.h"
#include "pipeline/pipeline.h"
#include "isolate/eval.h"
#include "base/interrupt.h"
#include "report/run_report.h"
#include "base/progress.h"
#include "run/shard_file.h"

#include <fmt/format.h>

#include <filesystem>

#include <unistd.h>

namespace qc::cli {
namespace {

// Bytes per worst case kept by a run, from its ranking to worst_cases.csv's text: measured as the peak RSS of
// `run --impl seed-c.f64 --op slerp --region uniform --cases 50000 --jobs 1` with --worst-k 20000 and 50000
// against --worst-k 0 (2,596 and 2,531 bytes per worst case).
constexpr double kWorstCaseBytes = 2600;

struct RunArgs : SharedArgs {
    std::vector<std::string> impls, ops, regions;
    long long cases = 4000;
    int worst_k = 5;
    bool isolate = false;
    bool no_leaderboard = false;
    bool paranoid = false;
    std::string shard;                   // K/N, empty = the whole run
    std::vector<std::string> cases_for;  // GLOB=N
    SearchSettings search;
};

// The folder an interrupted run writes to, beside --out (which keeps its previous complete report).
std::string partial_folder(std::string out) {
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out + ".partial";
}

// Removes a previous partial report: first renamed away in one step (so a kill during the removal never
// leaves a half-deleted report under its name), then deleted.
void remove_partial(const std::string &out) {
    namespace fs = std::filesystem;
    fs::path p = partial_folder(out);
    std::error_code ec;
    if (!fs::exists(p / "PARTIAL", ec)) return;
    fs::path trash = p.parent_path() / fmt::format(".{}.removing-{}", p.filename().string(), ::getpid());
    fs::rename(p, trash, ec);
    if (!ec) fs::remove_all(trash, ec);
}

// --cases-for GLOB=N (repeatable): GLOB non-empty, N a decimal count from max(1, --worst-k) to --cases.
std::vector<std::pair<std::string, uint64_t>> parse_cases_for(const std::vector<std::string> &specs, long long cases,
                                                              int worst_k) {
    std::vector<std::pair<std::string, uint64_t>> caps;
    for (const std::string &spec : specs) {
        const size_t eq = spec.rfind('=');
        const std::string glob = eq == std::string::npos ? "" : spec.substr(0, eq), n = spec.substr(eq + 1);
        if (glob.empty() || n.empty() || n.size() > 12 || n.find_first_not_of("0123456789") != std::string::npos)
            throw UsageError(
                fmt::format("--cases-for: expected GLOB=N (an implementation glob and a count), got '{}'", spec));
        const unsigned long long v = std::stoull(n);
        if (v < uint64_t(std::max(1, worst_k)) || v > uint64_t(cases))
            throw UsageError(fmt::format("--cases-for {}: N must be from {} (--worst-k, at least 1) to --cases ({})",
                                         spec, std::max(1, worst_k), cases));
        caps.push_back({glob, v});
    }
    return caps;
}

}  // namespace

// Bytes a run holds at its peak (harness/run/runner.cpp): for every region and precision the slice it keeps
// until the report (8 bytes of arc per case, 8 of angle error per case and implementation-op), plus, while
// one region is sampled, the per-case metrics of that precision (48 bytes per case and implementation-op)
// and a few bytes per case; a sharded run also holds its shard.bin (8 bytes per case and implementation-op).
// The worst cases (--worst-k per row, at most the row's cases) are kept, re-evaluated and written:
// kWorstCaseBytes each (measured: see below).
double run_memory_estimate(const RunPlan &plan) {
    const RunOptions &opt = plan.options;
    const double nio[2] = {double(plan.rows(Precision::f32).size()), double(plan.rows(Precision::f64).size())};
    const double n = double(plan.last - plan.first);
    const double regions = double(plan.regions.size());
    const double precisions = double(nio[0] > 0) + double(nio[1] > 0), all = nio[0] + nio[1];
    const double kept = regions * (8 * precisions + 8 * all), sampling = 48 * std::max(nio[0], nio[1]) + 32;
    const double shard = opt.shard.count > 1 ? regions * 8 * all : 0;
    const double worst = regions * all * std::min(n, double(std::max(0, opt.worst_k))) * kWorstCaseBytes;
    return n * (kept + sampling + shard) + worst;
}

namespace {

int run_command(const RunArgs &a) {
    RunOptions opt;
    opt.impl_filters = a.impls;
    opt.ops = parse_ops(a.ops);
    opt.regions = parse_regions(a.regions);
    // No row keeps more worst cases than it has cases (each one is re-evaluated and written).
    if (a.worst_k > a.cases)
        throw UsageError(fmt::format("--worst-k: must be from 0 to --cases ({}), got {}", a.cases, a.worst_k));
    opt.cases = uint64_t(a.cases);
    opt.cases_for = parse_cases_for(a.cases_for, a.cases, a.worst_k);
    if (!opt.cases_for.empty() && !a.shard.empty())
        throw UsageError("--cases-for: not with --shard (a shard does not record the caps for merge)");
    opt.seed = a.seed;
    opt.paranoid = a.paranoid;
    opt.reference = reference_mode(a.reference);
    opt.jobs = a.jobs;
    opt.worst_k = a.worst_k;
    if (!a.shard.empty()) opt.shard = parse_shard(a.shard);
    std::atomic<uint64_t> cases_done{0};
    const RunContext ctx = command_context(a.timeout_s, &cases_done);
    std::vector<Impl> catalogue = load_catalogue(a.plugins, ctx);
    if (a.isolate) isolate_builtins(catalogue, ctx);
    const RunPlan plan = plan_run(opt, catalogue);
    for (const auto &[filter, n] : opt.cases_for)
        if (std::none_of(plan.selected.begin(), plan.selected.end(),
                         [&](const ImplOp &s) { return filter_matches(filter, *s.impl); }))
            throw UsageError(
                fmt::format("--cases-for {}={}: '{}' matches no selected implementation", filter, n, filter));
    // (--worst-k is named where it was given another value than its default: then it may be what does not fit.)
    require_memory(fmt::format("--cases {}{}: the run of {} implementation-ops", a.cases,
                               a.worst_k != RunArgs{}.worst_k ? fmt::format(" --worst-k {}", a.worst_k) : std::string(),
                               plan.selected.size()),
                   run_memory_estimate(plan), "--cases or --worst-k, or select fewer with --impl, --op, --region");
    ReportDir dir(a.out, ctx.stop);  // fails early when the folder is not writable
    ProgressLine progress("quatcheck run", plan.planned_cases(), cases_done);
    RunOutput result = run(plan, ctx, a.search);
    progress.stop();
    if (!result.partial && !result.plan.selected.empty()) {
        // The report of a complete run. A signal during the writing (or the search before it: the runner
        // then marks the result partial) turns it into a partial report, and --out stays as it was.
        try {
            write_run_report(result, dir, !a.no_leaderboard);
            // shard.bin (what quatcheck merge reads) belongs to a sharded run only: a stale one from an
            // earlier sharded run into this folder never survives into an unsharded report.
            if (!a.shard.empty()) dir.write("shard.bin", shard_file(result));
            else dir.discard("shard.bin");
            dir.commit();
        } catch (const Interrupted &) { result.partial = true; }
        if (!result.partial) {
            remove_partial(a.out);  // superseded by the complete report
            std::string caps;       // --cases-for, as given
            for (const auto &[filter, n] : opt.cases_for)
                caps += fmt::format("{}{}={}", caps.empty() ? "" : ", ", filter, n);
            std::fprintf(stderr, "quatcheck run: %zu rows, %llu cases per region%s, %.1f s, report in %s\n",
                         result.rows.size(), (unsigned long long)opt.cases,
                         caps.empty() ? "" : fmt::format(" (capped: {})", caps).c_str(), result.wall_time_s,
                         a.out.c_str());
            return 0;
        }
    }
    if (result.partial) {
        acknowledge_interrupt();  // a second signal still ends the process at once
        const int sig = interrupt_signal();
        const std::string where = partial_folder(a.out);
        remove_partial(a.out);     // never mix files of two interrupted runs
        ReportDir partial(where);  // no stop token: the signal is acknowledged, the partial report is written
        write_run_report(result, partial);
        partial.discard("shard.bin");
        partial.write("PARTIAL", fmt::format("interrupted by SIG{}: this report covers only part of the run "
                                             "(run.json: \"partial\": true)\n",
                                             sigabbrev_np(sig) ? sigabbrev_np(sig) : "?"));
        partial.commit();
        std::fprintf(stderr, "quatcheck run: interrupted: partial report (%zu rows) in %s; %s left as it was\n",
                     result.rows.size(), where.c_str(), a.out.c_str());
        return 128 + sig;
    }
    throw UsageError("run: the selection has no implementation supporting the requested ops");
}

void setup(CLI::App *sub, int &status) {
    auto a = std::make_shared<RunArgs>();
    sub->add_option("--impl", a->impls, "Implementation name, family or glob (repeatable; default: all but broken-*)");
    add_op_option(sub, a->ops, "slerp or nlerp (repeatable; default: both)");
    add_region_option(sub, a->regions);
    add_count_option(sub, "--cases", a->cases, "Cases per region and precision");
    sub->add_option("--cases-for", a->cases_for,
                    "At most N of those cases for the implementations GLOB matches, e.g. a slow adapter (repeatable; "
                    "the smallest N of the matching ones)")
        ->type_name("GLOB=N");
    add_worst_k_option(sub, a->worst_k);
    sub->add_option("--shard", a->shard,
                    "Run only slice K of N of the cases (1 <= K <= N) and write shard.bin for quatcheck merge")
        ->type_name("K/N")
        ->check(shard_spec());
    sub->add_flag("--no-leaderboard", a->no_leaderboard,
                  "Do not write leaderboard.csv/.md (scripts/run builds the leaderboard once, after every study)");
    sub->add_flag(
        "--paranoid", a->paranoid,
        "Validate the fast reference path on 1 certified case in 64 (the default: the rate that expects 1,500 "
        "checks per precision, at most 1 in 1024; run.json's reference.fast_check)");
    sub->add_flag("--isolate", a->isolate,
                  "Evaluate built-in implementations in worker processes too (plugins always are)");
    add_shared_options(
        sub, *a,
        {kSeedHelp, kJobsHelp, kOutHelp,
         "Seconds an isolated implementation may take per batch of cases before it is reported as timeout", true,
         true});
    add_search_max_block_option(sub, a->search.max_block);
    add_search_mode_option(sub, a->search.generations);
    sub->callback([a, &status] { status = run_command(*a); });
}

}  // namespace

QC_COMMAND("run", "Sample every region against the reference and write summary, worst cases and error curves", setup);

}  // namespace qc::cli
