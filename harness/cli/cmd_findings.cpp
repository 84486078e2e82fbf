// quatcheck findings DIR [--factor F]: writes DIR/findings/, one folder per implementation family with at least
// one finding (a failed conformance property, or a slerp region more than F times the rounding floor 8 eps),
// each with README.md for the library's maintainers and a standalone reproducer in the library's language
// (harness/findings/findings.h, docs/findings.md).
#include "cli/command.h"
#include "cli/validators.h"
#include "findings/findings.h"
#include "tables/quote.h"

#include <fmt/format.h>

#include <cmath>

namespace qc::cli {
namespace {

void setup(CLI::App *sub, int &status) {
    auto dir = std::make_shared<std::string>();
    auto opt = std::make_shared<findings::Options>();
    sub->add_option("DIR", *dir,
                    "Report folder (e.g. reports/latest) with summary.csv, and conformance.csv when conform ran")
        ->required();
    sub->add_option("--factor", opt->factor,
                    "A slerp region is a finding when its max angle error exceeds F x the rounding floor 8 eps")
        ->check(number_where([](double f) { return f >= 1 && f <= 1e12; }, "a factor from 1 to 1e12"))
        ->capture_default_str();
    sub->add_option(
        "--history", opt->history,
        "A `quatcheck history` folder: each library's README says since which release (its transitions.csv)");
    sub->callback([dir, opt, &status] {
        if (const std::string nm = node_modules_env(); !nm.empty()) opt->source_roots.push_back(nm);
        opt->command = shell_join({"quatcheck", "findings", *dir, "--factor", fmt::format("{:g}", opt->factor)});
        size_t n = findings::write_findings(*dir, *opt, command_context().stop);
        std::fprintf(stderr, "quatcheck findings: wrote %s/findings/ (%zu librar%s with findings)\n", dir->c_str(), n,
                     n == 1 ? "y" : "ies");
        status = 0;
    });
}

}  // namespace

QC_COMMAND("findings",
           "Write DIR/findings/: per library, its findings grouped by cause, with the source line, a reproducer in its "
           "own API, a fix shown to work and a test to paste",
           setup);

}  // namespace qc::cli
