// quatcheck tables: print the schema of every CSV table the tool writes (harness/tables/schemas.h) as JSON,
// for the Python report and README generators.
#include "cli/command.h"
#include "regions/regions.h"
#include "tables/schemas.h"

#include <cstdio>

namespace qc::cli {
namespace {

// The constants the report draws with (scripts/plot_report.py reads them here, so that 0.9995 and the
// region bounds have one definition: harness/regions/regions.h).
nlohmann::json constants_json() {
    return {{"seed_threshold", kSeedThreshold},
            {"regions",
             {{"min_offset", kRegionMinOffset},
              {"near_0_max_arc", kNear0MaxArc},
              {"near_half_pi_max_dot", kNearHalfPiMaxDot},
              {"near_pi_max_delta", kNearPiMaxDelta},
              {"threshold_max_below", kThresholdMaxBelow},
              {"threshold_max_above", kThresholdMaxAbove}}}};
}

// Registers the subcommand: --constants prints the report's constants instead of the tables.
void setup(CLI::App *sub, int &status) {
    auto constants = std::make_shared<bool>(false);
    sub->add_flag("--constants", *constants,
                  "Print the constants the report draws with (the seed threshold, the region bounds)");
    sub->callback([constants, &status] {
        const nlohmann::json j = *constants ? constants_json() : tables::to_json();
        std::fputs((j.dump(1) + "\n").c_str(), stdout);
        status = 0;
    });
}

}  // namespace

QC_COMMAND("tables", "Print the columns (name, type, unit) of every CSV table the tool writes, as JSON", setup);

}  // namespace qc::cli
