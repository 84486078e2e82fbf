// `quatcheck bench --suite slerp-cr` (docs/slerp-cr.md "Speed"): the figures of the BM_SlerpCr benchmarks of one
// run side by side, their ratios, the second phase's rate and the slowest call, with the machine's state.
#pragma once

#include "bench/suites.h"

#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace qc::cli {

// The machine's state beside a timing: load average (1, 5, 15 min) and the thread variables that change what a
// process runs beside it. Read by the CLI (the layer that reads the environment).
struct MachineState {
    std::array<double, 3> load{-1, -1, -1};
    std::vector<std::pair<std::string, std::string>> env;  // name, value ("" where unset)
};
MachineState machine_state();

// Prints the suite's table, ratios, phase-2 rates and slowest calls on stdout and returns them as JSON text
// (slerp_cr.json). ns: registered benchmark name -> CPU ns per call (the mean over the repetitions); a benchmark
// missing from it (filtered out) leaves its row's figures out.
std::string report_slerp_cr(const std::vector<std::pair<std::string, bench::BenchKey>> &keys,
                            const std::map<std::string, double> &ns, const bench::BenchOptions &o,
                            const bench::SlerpCrCases &cases, const MachineState &before, const MachineState &after);

}  // namespace qc::cli
