// What the two libFuzzer targets of `quatcheck merge`'s readers share (fuzz_shard_read.cpp,
// fuzz_sweep_state_read.cpp): a scratch folder for the one file an input becomes, the catalogue the merge
// resolves names against, and the rule every refusal must follow (one line starting "merge: ").
#pragma once

#include "plugins/impls.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

namespace qc_fuzz {

// A folder of this process's own under QC_FUZZ_TMP (the test's scratch folder) or /tmp, made once.
inline const std::string &scratch_dir(const char *prefix) {
    static const std::string dir = [prefix] {
        const char *base = std::getenv("QC_FUZZ_TMP");
        std::string d = std::string(base ? base : "/tmp") + "/" + prefix + std::to_string(::getpid());
        if (!std::filesystem::create_directories(d) && !std::filesystem::is_directory(d)) std::abort();
        return d;
    }();
    return dir;
}

// Writes the bytes as the file `path` (an input becomes the file the reader is given).
inline void write_input(const std::string &path, const void *data, size_t size) {
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    std::fwrite(data, 1, size, f);
    std::fclose(f);
}

inline const std::vector<qc::Impl> &catalogue() {
    static const std::vector<qc::Impl> c = [] {
        std::vector<qc::Impl> v(2);
        v[0].name = "seed-c.f64", v[0].family = "seed-c", v[0].precision = qc::Precision::f64;
        v[1].name = "seed-c.f32", v[1].family = "seed-c", v[1].precision = qc::Precision::f32;
        return v;
    }();
    return c;
}

inline void check_one_line(const std::exception &e) {
    std::string m = e.what();
    if (m.find('\n') != std::string::npos || m.rfind("merge: ", 0) != 0) {
        std::fprintf(stderr, "malformed error message: %s\n", m.c_str());
        std::abort();
    }
}

}  // namespace qc_fuzz
