// libFuzzer target for the reader of the tool's own tables (harness/tables/table.cpp): the hexfloat
// parser and the worst_cases.csv reader. Any input must either parse or raise qc::InputError with a
// one-line "FILE:LINE: reason"; anything else (another exception, a crash, a sanitizer report) is a bug.
//
// Input layout: first byte 'h' -> the rest is one hexfloat cell (parsed as double and as float);
// first byte 'R' -> the rest is a report folder read by read_report_tables (what compare, leaderboard and
// report read back: summary.csv, squad_summary.csv, run.json, conformance.csv, squad_conformance.csv,
// timing.csv, worst_cases.csv), one file per section "\x01NAME\n" followed by its content;
// anything else -> the whole input is the content of a worst_cases.csv.
// (shard.bin, the other reader of the tool's own output, has its own target: fuzz/fuzz_shard_read.cpp.)
// Built and run by tests/robust_fuzz.test.sh with Debian's clang (-fsanitize=fuzzer,address,undefined).
#include "tables/rows.h"

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
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
    static const std::string path = std::string(std::getenv("QC_FUZZ_TMP") ? std::getenv("QC_FUZZ_TMP") : "/tmp") +
                                    "/qc-fuzz-" + std::to_string(::getpid()) +
                                    ".csv";  // QC_FUZZ_TMP: the test's scratch folder
    if (size > 0 && data[0] == 'h') {
        std::string cell(reinterpret_cast<const char *>(data) + 1, size - 1);
        try {
            qc::parse_hexfloat(cell, "cell", 2, "t", true);
        } catch (const qc::InputError &e) { check_one_line(e, "cell:2: "); }
        try {
            qc::parse_hexfloat_f32(cell, "cell", 2, "t", false);
        } catch (const qc::InputError &e) { check_one_line(e, "cell:2: "); }
        return 0;
    }
    if (size > 0 && data[0] == 'R') {
        std::map<std::string, std::string> files;
        std::string rest(reinterpret_cast<const char *>(data) + 1, size - 1);
        for (size_t at = rest.find('\x01'); at != std::string::npos;) {
            size_t eol = rest.find('\n', at), next = rest.find('\x01', at + 1);
            if (eol == std::string::npos || (next != std::string::npos && next < eol)) {
                at = next;
                continue;
            }
            size_t end = next == std::string::npos ? rest.size() : next;
            files[rest.substr(at + 1, eol - at - 1)] = rest.substr(eol + 1, end - eol - 1);
            at = next;
        }
        try {
            qc::ReportTables t = qc::read_report_tables(
                [&](const std::string &name) -> std::optional<std::string> {
                    auto it = files.find(name);
                    if (it == files.end()) return std::nullopt;
                    return it->second;
                },
                "fuzzdir");
            // What the readers promise of what they return: counts are counts, figures are numbers.
            for (const auto *rows : {t.summary ? &*t.summary : nullptr, t.squad_summary ? &*t.squad_summary : nullptr})
                if (rows)
                    for (const auto &r : *rows)
                        if (std::isnan(r.max_angle_err_rad) || r.max_angle_err_rad < 0 || r.impl.empty()) std::abort();
        } catch (const qc::InputError &e) { check_one_line(e, "fuzzdir/"); }
        return 0;
    }
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    try {
        auto rows = qc::read_worst_cases(path);
        if (rows.empty()) std::abort();  // the reader promises at least one row or an error
    } catch (const qc::InputError &e) { check_one_line(e, path + ":"); }
    return 0;
}
