// libFuzzer target for the sweep_state.json reader (merge_sweep_shards, harness/sweep/sweep_report.cpp), what
// `quatcheck merge` reads from the shards of `quatcheck sweep --shard K/N`. Any input must either be merged
// or raise qc::InputError/UsageError with one line "merge: ..."; anything else (another exception, a crash,
// a sanitizer report) is a bug. Input layout, as fuzz_shard_read.cpp's: first byte 'F' -> the rest is a
// sweep_state.json whose checksum is set to its content's before it is read (so that mutations reach the
// parser behind the checksum check); anything else -> the rest is a sweep_state.json as it is.
// Built and run by tests/robust_fuzz.test.sh with Debian's clang (-fsanitize=fuzzer,address,undefined): this
// file and sweep_report.cpp are compiled with it, the rest of the harness comes from the build's libraries.
#include "sweep/sweep.h"
#include "merge_fuzz.h"
#include "base/shard.h"

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace {

// A state that is a JSON object: the same with the checksum of its content (as sweep_report.cpp seals it).
std::string fix_checksum(const std::string &text) {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return text;
    j.erase("checksum_fnv1a64");
    const std::string content = j.dump();
    j["checksum_fnv1a64"] = qc::fnv1a64_hex(content.data(), content.size());
    return j.dump(1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string &dir = qc_fuzz::scratch_dir("qc-fuzz-sweep-");
    std::string file(reinterpret_cast<const char *>(data), size);
    const bool fix = !file.empty() && file[0] == 'F';
    if (!file.empty()) file.erase(0, 1);
    if (fix) file = fix_checksum(file);
    qc_fuzz::write_input(dir + "/sweep_state.json", file.data(), file.size());
    try {
        (void)qc::merge_sweep_shards({dir}, qc_fuzz::catalogue());
    } catch (const qc::InputError &e) { qc_fuzz::check_one_line(e); } catch (const qc::UsageError &e) {
        qc_fuzz::check_one_line(e);
    }
    return 0;
}
