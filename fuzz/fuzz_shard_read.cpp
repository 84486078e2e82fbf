// libFuzzer target for the shard.bin reader (read_shards, harness/run/shard_file.cpp), what `quatcheck merge`
// reads. Any input must either be accepted as a whole run or raise qc::InputError/UsageError with one line
// "merge: ..."; anything else (another exception, a crash, a sanitizer report) is a bug.
//
// Input layout: first byte 'F' -> the rest is a shard.bin whose header checksum is set to the payload's
// before it is read (so that mutations reach the payload and header parsers behind the checksum check);
// anything else -> the rest is a shard.bin as it is (the checksum check itself).
// Built and run by tests/robust_fuzz.test.sh with Debian's clang (-fsanitize=fuzzer,address,undefined): this
// file, shard_file.cpp and shard.cpp are compiled with it, the rest of the harness comes from the build's static libraries.
#include "run/shard_file.h"
#include "merge_fuzz.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace {

// FNV-1a 64, as shard_file.cpp computes it over the payload.
std::string fnv1a64(const char *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ uint8_t(p[i])) * 0x100000001b3ull;
    return fmt::format("{:016x}", h);
}

// A file whose header is JSON with a payload checksum: the same file with the checksum of its payload.
std::string fix_checksum(const std::string &file) {
    if (file.size() < 24 || file.compare(0, 8, "QCSHARD1") != 0) return file;
    uint64_t len = 0;
    std::memcpy(&len, file.data() + 8, 8);
    if (len > file.size() - 16 || file.size() - 16 - len < 8) return file;
    nlohmann::json h = nlohmann::json::parse(file.substr(16, len), nullptr, false);
    if (h.is_discarded() || !h.is_object()) return file;
    const std::string payload = file.substr(16 + len, file.size() - 16 - len - 8);
    h["payload_fnv1a64"] = fnv1a64(payload.data(), payload.size());
    const std::string header = h.dump();
    std::string out = "QCSHARD1";
    const uint64_t n = header.size();
    out.append(reinterpret_cast<const char *>(&n), 8);
    return out + header + payload + file.substr(file.size() - 8);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string &dir = qc_fuzz::scratch_dir("qc-fuzz-shard-");
    std::string file(reinterpret_cast<const char *>(data), size);
    const bool fix = !file.empty() && file[0] == 'F';
    if (!file.empty()) file.erase(0, 1);
    if (fix) file = fix_checksum(file);
    qc_fuzz::write_input(dir + "/shard.bin", file.data(), file.size());
    try {
        qc::RunResult r = qc::read_shards({dir}, qc_fuzz::catalogue());
        // Accepted: what read_shards promises of a run it returns.
        for (const auto &sl : r.parts) {
            if (sl.end < sl.begin || sl.end > r.plan.options.cases || sl.arc_w.size() != sl.end - sl.begin)
                std::abort();
            for (const auto &row : sl.rows)
                if (row.angle_err_rad.size() > sl.end - sl.begin) std::abort();
        }
    } catch (const qc::InputError &e) { qc_fuzz::check_one_line(e); } catch (const qc::UsageError &e) {
        qc_fuzz::check_one_line(e);
    }
    return 0;
}
