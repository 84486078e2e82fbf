// quatcheck squad: draw key tracks in every track region, measure every squad implementation against the
// squad reference (own and reference control points) and its angular-velocity jump at the keys, and write
// squad_summary.csv, squad_worst_cases.csv and squad_conformance.csv (property c1). Exit 1 when c1 fails.
#include "cli/command.h"
#include "cli/validators.h"
#include "conform/conform.h"
#include "isolate/plugin_spec.h"
#include "report/report_dir.h"
#include "squad/squad_report.h"
#include "squad/squad_run.h"
#include "squad/tracks.h"

#include <fmt/format.h>

#include <climits>
#include <filesystem>

namespace qc::cli {
namespace {

struct SquadArgs : SharedArgs {
    std::vector<std::string> impls, regions;
    long long tracks = 200, track = -1;
    int worst_k = 5;
    bool allow_none = false;
};

int squad_command(const SquadArgs &a) {
    SquadOptions opt;
    opt.impl_filters = a.impls;
    opt.regions =
        parse_names(a.regions, "--region", parse_track_region, [](TrackRegion g) { return std::string(to_string(g)); });
    opt.tracks = uint64_t(a.tracks);
    if (a.track >= 0) opt.only_track = uint64_t(a.track);
    opt.seed = a.seed;
    opt.reference = reference_mode(a.reference);
    opt.jobs = a.jobs;
    opt.worst_k = a.worst_k;
    const RunContext ctx = command_context();
    std::vector<Impl> catalogue = load_catalogue(a.plugins, ctx);
    // The reproduce commands load each plugin by absolute paths: they run as printed from any working directory.
    const std::string cwd = std::filesystem::current_path().string();
    for (const PluginSpec &spec : a.plugins) opt.plugin_words[spec.text] = portable_plugin_words(spec, cwd);
    // --allow-none: a filter that matches no squad implementation is nothing to do, not an error.
    // (A filter of a misspelt name fails the gate's run step, which takes the same --impl.)
    auto provides_squad = [&] {
        try {
            return !select_squad_impls(catalogue, opt.impl_filters).empty();
        } catch (const UsageError &) { return false; }
    };
    if (a.allow_none && !provides_squad()) {
        // A gate's squad step (QuatcheckGate.cmake) for a plugin that may not provide squad: nothing to measure.
        std::fprintf(stderr,
                     "quatcheck squad: no selected implementation provides squad; nothing measured, "
                     "nothing written (--allow-none)\n");
        return 0;
    }
    // Every track of a region is kept until the region is summed up (harness/squad/squad_run.cpp): per query
    // (kTrackKeys - 1 segments of 8) its angle errors and output for each implementation of the precision,
    // and while one implementation is summed up its errors and a ranking entry: about 200 bytes per query and
    // implementation with the allocator's overhead (measured: 2000 tracks of one region, 4 f64 routines, 80 MiB).
    if (!opt.only_track) {
        double ni[2] = {0, 0};
        for (const Impl *i : select_squad_impls(catalogue, opt.impl_filters))
            ni[i->precision == Precision::f32 ? 0 : 1] += 1;
        const double queries = double((kTrackKeys - 1) * 8);
        require_memory(fmt::format("--tracks {}: squad on {:.0f} implementations", a.tracks, ni[0] + ni[1]),
                       double(a.tracks) * (queries * (200 * std::max(ni[0], ni[1]) + 128) + 512), "--tracks");
    }
    SquadResult result = run_squad(opt, catalogue, ctx);
    if (result.selected.empty()) throw UsageError("squad: no implementation supports squad (see quatcheck list)");
    ReportDir dir(a.out, ctx.stop);
    dir.write("squad_summary.csv", squad_summary_csv(result));
    dir.write("squad_worst_cases.csv", squad_worst_cases_csv(result));
    dir.write("squad_conformance.csv", squad_conformance_csv(result));
    dir.commit();
    int failed = 0;
    for (const Impl *i : result.selected)
        for (const char *property : {"c1", "c1-sign-flip"})
            if (c1_verdict(result, i, property) == "fail") ++failed;
    std::fprintf(stderr,
                 "quatcheck squad: %zu implementations, %zu rows, %.1f s, %d c1 verdicts failed, report in %s\n",
                 result.selected.size(), result.rows.size(), result.wall_time_s, failed, a.out.c_str());
    return failed ? 1 : 0;
}

void options(CLI::App *sub, SquadArgs &a) {
    sub->add_flag("--allow-none", a.allow_none,
                  "Exit 0 with one line, writing nothing, when no selected implementation provides squad (a gate's "
                  "squad step for a plugin that may not have one)");
    sub->add_option("--impl", a.impls,
                    "Squad implementation name, family or glob (repeatable; default: all but broken-*)");
    sub->add_option("--region", a.regions,
                    "random, near-equal, quarter-turn, threshold, sign-flip (repeatable; default: all)")
        ->check(
            known_name(parse_track_region, "track region", "random, near-equal, quarter-turn, threshold or sign-flip"));
    add_count_option(sub, "--tracks", a.tracks, "Tracks per region and precision");
    sub->add_option("--track", a.track, "Evaluate only this track index of each region (to reproduce a counterexample)")
        ->check(whole_in(0, LLONG_MAX, "a track index from 0"));
    add_worst_k_option(sub, a.worst_k);
    add_shared_options(sub, a, {.seed = kSeedHelp, .jobs = kJobsHelp, .out = kOutHelp, .reference = true});
}

}  // namespace

QC_COMMAND("squad", "Measure squad implementations on key tracks: angle error, C1 jump at the keys, c1 conformance",
           args_setup(options, squad_command));

}  // namespace qc::cli
