// quatcheck history's versions, transitions, bisection and outputs (cmd_history.cpp runs the versions).
#pragma once

#include "compare/compare.h"
#include "report/report_dir.h"
#include "base/shard.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace qc::cli {

// One version of a series: an npm release (package set) or a build given with --version (series "builds").
struct Version {
    std::string series, label, package, adapter;
    std::vector<std::string> plugin;  // {"--plugin" or "--plugin-cmd", VALUE}
    std::vector<std::string> impls, env;
    std::string integrity, resolved;
    std::string skip;  // why the adapter does not support it ("": supported)
    bool installed_now = false;
    double seconds = 0;
    std::optional<ReportData> data;  // its run and conform, once measured
    bool measured() const { return data.has_value() || !skip.empty(); }
    // Its folder under versions/ and logs/: LABEL for a build, PACKAGE@VERSION ('/' as '+') for a release.
    std::string folder() const;
};

// A label is a folder name: letters, digits, '.', '_', '-', '+', '@'; not starting with '.'.
bool is_safe_label(const std::string &label);
void check_unique_labels(const std::vector<Version> &vs);

// One change between two versions of a series: compare's regression (regressed) or improvement (fixed) of a
// figure of a summary row (status, nonfinite, max_angle_err_rad, max_ulp1) or a property's verdict.
struct Transition {
    std::string series, family, op, precision, key, metric, from, to, before, after;
    bool regressed = false;
};

struct HistoryResult {
    std::vector<Transition> transitions;
    bool bisect = false;
    std::vector<std::string> probes;  // bisect: the versions measured, in order ("SERIES LABEL")
    size_t installs = 0;
    double wall_s = 0;
    std::vector<double> shard_wall_s;  // a merged scan (merge of history --shard K/N): each shard's wall time
};

// The transitions between a and b (both measured, not skipped) by compare's rules.
std::vector<Transition> transitions_between(const Version &a, const Version &b);
// Every consecutive pair of measured versions of each series.
HistoryResult scan_history(const std::vector<Version> &vs);
// Bisection: measure(indexes) measures those versions of vs (in parallel as it may). Each series' first and
// last supported versions are measured; a span whose ends show no transition is not probed further, a span
// with one is halved until its ends are consecutive. With at most one transition per figure in a series this
// finds what scan_history finds; a figure that changes and changes back inside an unprobed span is missed.
HistoryResult bisect_history(std::vector<Version> &vs, const std::function<void(std::vector<size_t>)> &measure);

// history.csv, transitions.csv, history.json and history.html into dir.
void write_history(ReportDir &dir, const std::vector<Version> &vs, const HistoryResult &h);
// Sharded scans (history --shard K/N, docs/history.md "Slurm"). Shard K of N measures versions K, K+N, K+2N, ...
// (1-based, in range order) and writes only their versions/ and logs/ folders and history_shard.json: the
// scan's identity (its options, the build and the whole ordered list of versions, so that shards of other
// ranges, seeds or registry answers are never merged) and one record per version it measured.
std::vector<size_t> shard_versions(size_t count, const Shard &s);
nlohmann::json version_identity(const std::vector<Version> &vs);
std::string history_shard_json(const nlohmann::json &identity, const Shard &s, const std::vector<Version> &vs,
                               const std::vector<size_t> &mine, size_t installs, double wall_s);
// DIR holds a history scan's output or a shard of one (quatcheck merge dispatches on it).
bool is_history_folder(const std::string &dir);
// quatcheck merge of the N shard folders of one scan: checks they are one scan's N shards (each once), reads
// each version's report from its shard, copies versions/ and logs/ into dir and writes history.csv,
// transitions.csv, history.json and history.html exactly as the unsharded scan does. Throws InputError
// "merge: SHARD_DIR...: why" naming the shard at fault. Returns the summary history_text prints.
std::string merge_history_shards(const std::vector<std::string> &dirs, ReportDir &dir);

// The summary printed at the end: transitions, versions measured, installs, wall time.
std::string history_text(const std::vector<Version> &vs, const HistoryResult &h);

}  // namespace qc::cli
