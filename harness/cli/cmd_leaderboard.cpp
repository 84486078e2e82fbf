// quatcheck leaderboard DIR: rebuild leaderboard.csv and leaderboard.md from the CSVs in a report folder
// (summary.csv, run.json, and when present squad_summary.csv, conformance.csv, squad_conformance.csv,
// timing.csv). `quatcheck run` writes both files itself; this regenerates them once the other commands
// have added their files.
#include "cli/command.h"
#include "report/run_report.h"

#include <fmt/format.h>

#include <filesystem>

namespace qc::cli {
namespace {

int leaderboard_command(const std::string &dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) throw UsageError(fmt::format("leaderboard: {}: not a folder", dir));
    write_leaderboard(dir, command_context().stop);
    std::fprintf(stderr, "quatcheck leaderboard: wrote %s/leaderboard.csv and leaderboard.md\n", dir.c_str());
    return 0;
}

void setup(CLI::App *sub, int &status) {
    auto dir = std::make_shared<std::string>();
    sub->add_option("DIR", *dir, "Report folder (e.g. reports/latest)")->required();
    sub->callback([dir, &status] { status = leaderboard_command(*dir); });
}

}  // namespace

QC_COMMAND("leaderboard", "Rebuild leaderboard.csv and leaderboard.md from the CSVs in a report folder", setup);

}  // namespace qc::cli
