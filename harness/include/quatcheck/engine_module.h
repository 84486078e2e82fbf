// Engine modules: the engine adapters (impls/engines/*.cpp) built as the tool's own shared libraries,
// quatcheck-engine-NAME.so, one per adapter file, so that the tool itself (and the core package) depends on no
// engine library. They are not user plugins: they register BuiltinImpl entries exactly as a built-in does
// (group "engine", version, known deviations, KeyCurve, in-process evaluation), and builtin_impls() adds them to
// the built-ins it returns, so every consumer (quatcheck, the worker, qc_tests, qc_bench) sees the same list.
//
// Each module compiles impls/engines/module.cpp, its own BuiltinRegistrar, and exports one C entry point,
// qc_engine_module_v1, returning an EngineModuleV1. The loader (harness/plugins/engines.cpp) compares the stamp
// first, as a C string, and reads the C++ entries only when it equals its own: the same tool version, the same
// compiler and the same layout of the types that cross the boundary.
#pragma once

#include "quatcheck/registry.h"

#include <cstddef>
#include <string>

#define QC_ENGINE_MODULE_ENTRY "qc_engine_module_v1"
#define QC_ENGINE_MODULE_PREFIX "quatcheck-engine-"

namespace qc {

struct EngineModuleV1 {
    const char *stamp;  // engine_module_stamp() of the module's build
    const char *name;   // "opencv" for quatcheck-engine-opencv.so
    const BuiltinImpl *impls;
    size_t count;
};

// What must match between the tool and a module for the entries to be read: the tool version, the compiler,
// the standard library's string ABI, the sanitizers, and the sizes of the types the entries hold.
inline std::string engine_module_stamp() {
    std::string s = "quatcheck ";
#ifdef QC_VERSION
    s += QC_VERSION;
#else
    s += "unknown";
#endif
    s += "; g++ " __VERSION__;
#ifdef _GLIBCXX_USE_CXX11_ABI
    s += "; cxx11-abi " + std::to_string(_GLIBCXX_USE_CXX11_ABI);
#endif
#ifdef _GLIBCXX_DEBUG
    s += "; glibcxx-debug";
#endif
#if defined(__SANITIZE_ADDRESS__)
    s += "; asan";
#endif
    s += "; sizes " + std::to_string(sizeof(BuiltinImpl)) + "/" + std::to_string(sizeof(KnownDeviation)) + "/" +
         std::to_string(sizeof(KeyCurve)) + "/" + std::to_string(sizeof(qc_impl_v1)) + "/" +
         std::to_string(sizeof(std::string));
    return s;
}

}  // namespace qc

// The entry point each module exports (impls/engines/module.cpp defines it).
extern "C" const qc::EngineModuleV1 *qc_engine_module_v1();
