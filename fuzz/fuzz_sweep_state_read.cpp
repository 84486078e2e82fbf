// libFuzzer target for the sweep_state.json reader (merge_sweep_shards, harness/sweep/sweep_report.cpp), what
// `quatcheck merge` reads from the shards of `quatcheck sweep --shard K/N`. Any input must either be merged
// or raise qc::InputError/UsageError with one line "merge: ..."; anything else (another exception, a crash,
// a sanitizer report) is a bug. The whole input is the content of one shard's sweep_state.json.
// Built and run by tests/robust_fuzz.test.sh with Debian's clang (-fsanitize=fuzzer,address,undefined): this
// file and sweep_report.cpp are compiled with it, the rest of the harness comes from the build's libraries.
#include "sweep/sweep.h"
#include "merge_fuzz.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string &dir = qc_fuzz::scratch_dir("qc-fuzz-sweep-");
    qc_fuzz::write_input(dir + "/sweep_state.json", data, size);
    try {
        (void)qc::merge_sweep_shards({dir}, qc_fuzz::catalogue());
    } catch (const qc::InputError &e) {
        qc_fuzz::check_one_line(e);
    } catch (const qc::UsageError &e) {
        qc_fuzz::check_one_line(e);
    }
    return 0;
}
