// libFuzzer target for the sweep_state.json reader (merge_sweep_shards, harness/sweep/sweep_report.cpp), what
// `quatcheck merge` reads from the shards of `quatcheck sweep --shard K/N`. Any input must either be merged
// or raise qc::InputError/UsageError with one line "merge: ..."; anything else (another exception, a crash,
// a sanitizer report) is a bug. The whole input is the content of one shard's sweep_state.json.
// Built and run by tests/robust_fuzz.test.sh with Debian's clang (-fsanitize=fuzzer,address,undefined): this
// file and sweep_report.cpp are compiled with it, the rest of the harness comes from the build's libraries.
#include "sweep/sweep.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

const std::vector<qc::Impl> &catalogue() {
    static const std::vector<qc::Impl> c = [] {
        std::vector<qc::Impl> v(2);
        v[0].name = "seed-c.f64", v[0].family = "seed-c", v[0].precision = qc::Precision::f64;
        v[1].name = "seed-c.f32", v[1].family = "seed-c", v[1].precision = qc::Precision::f32;
        return v;
    }();
    return c;
}

void check_one_line(const std::exception &e) {
    std::string m = e.what();
    if (m.find('\n') != std::string::npos || m.rfind("merge: ", 0) != 0) {
        std::fprintf(stderr, "malformed error message: %s\n", m.c_str());
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const std::string dir = std::string(std::getenv("QC_FUZZ_TMP") ? std::getenv("QC_FUZZ_TMP") : "/tmp") + "/qc-fuzz-sweep-" +
                                  std::to_string(::getpid());  // QC_FUZZ_TMP: the test's scratch folder
    static const bool made = std::filesystem::create_directories(dir) || std::filesystem::is_directory(dir);
    if (!made) std::abort();
    std::FILE *f = std::fopen((dir + "/sweep_state.json").c_str(), "wb");
    if (!f) std::abort();
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    try {
        (void)qc::merge_sweep_shards({dir}, catalogue());
    } catch (const qc::InputError &e) {
        check_one_line(e);
    } catch (const qc::UsageError &e) {
        check_one_line(e);
    }
    return 0;
}
