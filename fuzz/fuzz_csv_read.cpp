// libFuzzer target for the reader of the tool's own tables (harness/tables/table.cpp): the hexfloat
// parser and the worst_cases.csv reader. Any input must either parse or raise qc::InputError with a
// one-line "FILE:LINE: reason"; anything else (another exception, a crash, a sanitizer report) is a bug.
//
// Input layout: first byte 'h' -> the rest is one hexfloat cell (parsed as double and as float);
// anything else -> the whole input is the content of a worst_cases.csv.
// Built and run by tests/robust_fuzz.test.sh with Debian's clang (-fsanitize=fuzzer,address,undefined).
#include "tables/rows.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
void check_one_line(const qc::InputError &e, const std::string &prefix) {
    std::string m = e.what();
    if (m.find('\n') != std::string::npos || m.rfind(prefix, 0) != 0) {
        std::fprintf(stderr, "malformed error message: %s\n", m.c_str());
        std::abort();
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const std::string path = "/tmp/qc-fuzz-" + std::to_string(::getpid()) + ".csv";
    if (size > 0 && data[0] == 'h') {
        std::string cell(reinterpret_cast<const char *>(data) + 1, size - 1);
        try {
            qc::parse_hexfloat(cell, "cell", 2, "t", true);
        } catch (const qc::InputError &e) {
            check_one_line(e, "cell:2: ");
        }
        try {
            qc::parse_hexfloat_f32(cell, "cell", 2, "t", false);
        } catch (const qc::InputError &e) {
            check_one_line(e, "cell:2: ");
        }
        return 0;
    }
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    try {
        auto rows = qc::read_worst_cases(path);
        if (rows.empty()) std::abort();  // the reader promises at least one row or an error
    } catch (const qc::InputError &e) {
        check_one_line(e, path + ":");
    }
    return 0;
}
