#include "base/build_info.h"

#include "git_commit.h"  // generated: QC_GIT_COMMIT (cmake/QuatcheckCommit.cmake)

#include <boost/version.hpp>
#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace qc {

// The processor the tool runs on (/proc/cpuinfo "model name"), for timing figures.
static std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
            std::string v = line.substr(line.find(':') + 1);
            return v.substr(std::min(v.size(), v.find_first_not_of(' ')));
        }
    return "unknown";
}

nlohmann::json build_info() {
    nlohmann::json j;
    j["quatcheck_version"] = QC_VERSION;
    j["commit"] = QC_GIT_COMMIT;
    j["compiler"] = __VERSION__;
    j["cpu_model"] = cpu_model();
    j["cxx_flags"] = QC_CXX_FLAGS;
    j["build_type"] = QC_BUILD_TYPE;
    j["mpfr_version"] = mpfr_get_version();
    j["gmp_version"] = gmp_version;
    j["boost_version"] = BOOST_LIB_VERSION;
    return j;
}

}  // namespace qc
