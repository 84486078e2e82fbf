// quatcheck tables: print the schema of every CSV table the tool writes (harness/tables/schemas.h) as JSON,
// for the Python report and README generators.
#include "cli/command.h"
#include "tables/schemas.h"

#include <cstdio>

namespace qc::cli {
namespace {

// Registers the subcommand: no options.
void setup(CLI::App *sub, int &status) {
    sub->callback([&status] {
        std::fputs((tables::to_json().dump(1) + "\n").c_str(), stdout);
        status = 0;
    });
}

}  // namespace

QC_COMMAND("tables", "Print the columns (name, type, unit) of every CSV table the tool writes, as JSON", setup);

}  // namespace qc::cli
