// A test engine module built "for another quatcheck" (tests/engine_modules_test.cpp): its file stamp is not the
// tool's, and its entry point would answer a count with no entries, which the loader must never read (nor call).
#include "quatcheck/engine_module.h"

extern "C" __attribute__((visibility("default"), used)) const char qc_engine_stamp_v1[] =
    QC_ENGINE_STAMP_OPEN "quatcheck 0.0.1; g++ 4.8}";

extern "C" __attribute__((visibility("default"))) const qc::EngineModuleV1 *qc_engine_module_v1() {
    static const qc::EngineModuleV1 m{"quatcheck 0.0.1; g++ 4.8; sizes 1/2/3/4/5", "other-stamp", nullptr, 7};
    return &m;
}
