// quatcheck publish FROM --out DIR: DIR's report files replaced by FROM's, in one step (issue 44: the
// <NAME>_baseline target of QuatcheckGate.cmake wrote its baseline with two swaps, run then conform, and a
// kill between them left a committed baseline that mixed two runs). The baseline target runs and conforms
// into a scratch folder, then publishes it. Every file the tool writes that FROM lacks is dropped from DIR,
// so no table of an older run survives beside the new ones; the user's own files in DIR stay.
#include "cli/command.h"
#include "report/report_dir.h"
#include "tables/schemas.h"
#include "tables/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace qc::cli {
namespace {

namespace fs = std::filesystem;

// The top-level files the tool writes into a report folder (tables::all() and the rest).
std::set<std::string> tool_files() {
    std::set<std::string> names = {"run.json",       "schema.json",        "bench.json", "bench_build.json",
                                   "threshold.json", "machine_state.json", "junit.xml",  "compare.md",
                                   "leaderboard.md", "leaderboard.csv",    "shard.bin",  "PARTIAL"};
    for (const Schema *s : tables::all()) names.insert(s->file);
    return names;
}

struct PublishArgs {
    std::string from, out;
};

int publish_command(const PublishArgs &a) {
    std::error_code ec;
    if (!fs::is_directory(a.from, ec)) throw UsageError(fmt::format("publish: {}: not a folder", a.from));
    if (!fs::exists(fs::path(a.from) / "run.json", ec))
        throw UsageError(fmt::format("publish: {}: no run.json (not a report folder of quatcheck run)", a.from));
    // Read first, whole: nothing of DIR changes unless every file of FROM could be read.
    std::vector<std::pair<std::string, std::string>> files;
    for (const auto &e : fs::directory_iterator(a.from, ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        if (e.is_directory(ec))
            throw UsageError(
                fmt::format("publish: {}: a folder; publish copies the report's files only", e.path().string()));
        std::optional<std::string> text = read_text_file(e.path());
        if (text) files.emplace_back(name, std::move(*text));
    }
    if (ec) throw UsageError(fmt::format("publish: {}: cannot read: {}", a.from, ec.message()));
    ReportDir dir(a.out, command_context().stop);
    for (const auto &name : tool_files())
        if (std::none_of(files.begin(), files.end(), [&](const auto &f) { return f.first == name; })) dir.discard(name);
    for (const auto &[name, content] : files) dir.write(name, content);
    dir.commit();
    std::fprintf(stderr, "quatcheck publish: %zu files of %s in %s\n", files.size(), a.from.c_str(), a.out.c_str());
    return 0;
}

void options(CLI::App *sub, PublishArgs &a) {
    sub->add_option("FROM", a.from, "Report folder to publish (e.g. a run and conform into a scratch folder)")
        ->required();
    sub->add_option("--out", a.out, "Folder whose report files are replaced, in one step (e.g. a committed baseline)")
        ->required();
}

}  // namespace

QC_COMMAND("publish",
           "Replace a folder's report files by another report folder's, in one step (a gate's baseline refresh)",
           args_setup(options, publish_command));

}  // namespace qc::cli
