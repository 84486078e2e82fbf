// The glue compiled into every engine module (quatcheck-engine-NAME.so, impls/engines/CMakeLists.txt): the
// module's own BuiltinRegistrar, which the adapter's QC_REGISTER_* lines call while the module is being loaded,
// the stamp the loader reads from the file before opening it, and the entry point it then asks for
// (harness/include/quatcheck/engine_module.h). The module is
// compiled with hidden visibility, so these registrars bind inside the module and it needs no symbol of the
// executable; only the entry point is exported.
#include "quatcheck/engine_module.h"

#include <utility>
#include <vector>

#ifndef QC_ENGINE_MODULE_NAME
#error "QC_ENGINE_MODULE_NAME must name the module (impls/engines/CMakeLists.txt defines it)"
#endif

namespace {
std::vector<qc::BuiltinImpl> &entries() {
    static std::vector<qc::BuiltinImpl> v;
    return v;
}
}  // namespace

QC_ENGINE_DEFINE_STAMP();

qc::BuiltinRegistrar::BuiltinRegistrar(BuiltinImpl impl) { entries().push_back(std::move(impl)); }

extern "C" __attribute__((visibility("default"))) const qc::EngineModuleV1 *qc_engine_module_v1() {
    static const std::string stamp = qc::engine_module_stamp();
    static qc::EngineModuleV1 m{};
    m = {stamp.c_str(), QC_ENGINE_MODULE_NAME, entries().data(), entries().size()};
    return &m;
}
