// Facts about the build and its libraries (version from CMake's project(), compiler, flags, CPU, MPFR,
// GMP, Boost), for run.json, threshold.json, bench_build.json and `quatcheck list --versions`.
#pragma once

#include <nlohmann/json.hpp>

namespace qc {

nlohmann::json build_info();

}  // namespace qc
