// quatcheck report DIR: draw DIR/report.html (the overview), DIR/cards/IMPL.html (a library card per
// implementation) and DIR/plots/*.png from the CSVs of a report folder, by running scripts/plot_report.py with
// Debian's python3 and matplotlib. Every page is self-contained (images embedded, script inline).
#include "cli/command.h"
#include "report/report_dir.h"
#include "tables/rows.h"
#include "base/subprocess.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace qc::cli {
namespace {

namespace fs = std::filesystem;

// The plotting script: --script, else find_script (cli/command.h).
std::string find_plot_script(const std::string &given) {
    if (!given.empty()) {
        if (!fs::is_regular_file(given)) throw UsageError(fmt::format("report: --script: {}: no such file", given));
        return given;
    }
    std::string found = find_script("plot_report.py");
    if (found.empty())
        throw UsageError(
            "report: cannot find plot_report.py in <exe>/../share/quatcheck/scripts, beside the build or in ./scripts "
            "(use --script)");
    return found;
}

int report_command(const std::string &dir, const std::string &script_option, const std::string &python) {
    if (!fs::is_directory(dir)) throw InputError(fmt::format("report: {}: not a report folder", dir));
    // The tables are read first by the same strict readers as compare and leaderboard (harness/tables):
    // a nan, an abc or a negative count in a number column is refused here, with FILE:LINE, before
    // anything is drawn from it.
    (void)read_report_tables(fs::path(dir));
    std::string script = find_plot_script(script_option);
    if (::access(python.c_str(), X_OK) != 0)
        throw UsageError(fmt::format("report: {}: not executable (install python3-matplotlib: scripts/setup)", python));
    // Like every command, report replaces its outputs in one step under the folder's lock (report_dir.h): the
    // script writes report.html, plots/ and cards/ into the staging folder, and only a complete set is
    // swapped in; a failure, a kill or an interrupt leaves DIR as it was.
    ReportDir out(fs::path(dir), command_context().stop);
    const std::string staging = out.staging().string();
    // The script's stderr is relayed: passed on as it is, and when a failing Python said nothing at all, one line
    // of ours says what failed. A folder without schema.json (written before it existed) is read with this
    // binary's schema (QC_QUATCHECK).
    ToolRun run;
    run.argv = {python, script, dir, staging};
    std::error_code ec;
    if (fs::path exe = fs::read_symlink("/proc/self/exe", ec); !ec) run.env = {{"QC_QUATCHECK", exe.string()}};
    run.env_keep_existing = true;
    run.relay_stderr = true;
    const ToolResult r = run_tool(run);
    if (r.spawn_errno) throw UsageError(fmt::format("report: cannot run {}: {}", python, std::strerror(r.spawn_errno)));
    const int status = r.status;
    const bool said = r.said_on_stderr;
    // The script prints its own one-line error; pass its status on (2 for bad input), never a crash.
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        for (const char *name : {"report.html", "plots", "cards"})
            if (fs::exists(out.staging() / name)) out.adopt(name);
        out.commit();
        return 0;
    }
    // The script prints its own one-line error for bad input; a Python that fails without a word (e.g.
    // --python /bin/false) still gets a line saying what failed.
    if (WIFEXITED(status) && said) return 2;
    if (WIFEXITED(status)) {
        std::fprintf(stderr, "quatcheck: report: %s %s exited with status %d; report.html not written\n",
                     python.c_str(), script.c_str(), WEXITSTATUS(status));
        return 2;
    }
    std::fprintf(stderr, "quatcheck: report: %s was killed by signal %d\n", script.c_str(), WTERMSIG(status));
    return 2;
}

void setup(CLI::App *sub, int &status) {
    auto dir = std::make_shared<std::string>();
    auto script = std::make_shared<std::string>();
    auto python = std::make_shared<std::string>("/usr/bin/python3");
    sub->add_option("DIR", *dir, "Report folder written by quatcheck run (and the other commands)")->required();
    sub->add_option("--script", *script,
                    "The plotting script (default: share/quatcheck/scripts/plot_report.py of the install, else "
                    "scripts/plot_report.py of the source tree)");
    sub->add_option("--python", *python, "Python with matplotlib (Debian's python3-matplotlib)")->capture_default_str();
    sub->callback([=, &status] { status = report_command(*dir, *script, *python); });
}

}  // namespace

QC_COMMAND("report",
           "Draw report.html (overview), cards/*.html (one per implementation) and plots/*.png from the CSVs of a "
           "report folder",
           setup);

}  // namespace qc::cli
