// Engine modules: the engine adapters (impls/engines/*.cpp) built as the tool's own shared libraries,
// quatcheck-engine-NAME.so, one per adapter file, so that the tool itself (and the core package) depends on no
// engine library. They are not user plugins: they register BuiltinImpl entries exactly as a built-in does
// (group "engine", version, known deviations, KeyCurve, in-process evaluation), and builtin_impls() adds them to
// the built-ins it returns, so every consumer (quatcheck, the worker, qc_tests, qc_bench) sees the same list.
//
// Each module compiles impls/engines/module.cpp, its own BuiltinRegistrar, and exports one C entry point,
// qc_engine_module_v1, returning an EngineModuleV1. Two checks keep a module of another build out:
//   - before the module is opened (none of its code runs, not even a sanitizer run time's initialiser), the loader
//     (harness/plugins/engines.cpp) finds in the file the text QC-ENGINE-STAMP{...} that QC_ENGINE_DEFINE_STAMP
//     puts there, and compares it with its own QC_ENGINE_FILE_STAMP: the tool version, the compiler, the standard
//     library's string ABI, the sanitizer;
//   - once it is opened, the entry point's stamp, engine_module_stamp(), adds the sizes of the types the entries
//     hold; the C++ entries are read only when it equals the tool's.
#pragma once

#include "quatcheck/registry.h"

#include <cstddef>
#include <string>

#define QC_ENGINE_MODULE_ENTRY "qc_engine_module_v1"
#define QC_ENGINE_MODULE_PREFIX "quatcheck-engine-"
#define QC_ENGINE_STAMP_OPEN "QC-ENGINE-STAMP{"

#ifndef QC_VERSION
#error "QC_VERSION must be defined (the tool's version: CMakeLists.txt)"
#endif
#define QC_ENGINE_STR_INNER(x) #x
#define QC_ENGINE_STR(x) QC_ENGINE_STR_INNER(x)
#if defined(__SANITIZE_ADDRESS__)
#define QC_ENGINE_ASAN "; asan"
#else
#define QC_ENGINE_ASAN ""
#endif
#ifdef _GLIBCXX_DEBUG
#define QC_ENGINE_GLIBCXX_DEBUG "; glibcxx-debug"
#else
#define QC_ENGINE_GLIBCXX_DEBUG ""
#endif
#define QC_ENGINE_FILE_STAMP                                                                          \
    "quatcheck " QC_VERSION "; g++ " __VERSION__ "; cxx11-abi " QC_ENGINE_STR(_GLIBCXX_USE_CXX11_ABI) \
        QC_ENGINE_ASAN QC_ENGINE_GLIBCXX_DEBUG
// In a module: the stamp as text in the file, found by the loader without opening the module.
#define QC_ENGINE_DEFINE_STAMP()                                                              \
    extern "C" __attribute__((visibility("default"), used)) const char qc_engine_stamp_v1[] = \
        QC_ENGINE_STAMP_OPEN QC_ENGINE_FILE_STAMP "}"

namespace qc {

struct EngineModuleV1 {
    const char *stamp;  // engine_module_stamp() of the module's build
    const char *name;   // "opencv" for quatcheck-engine-opencv.so
    const BuiltinImpl *impls;
    size_t count;
};

// What must match between the tool and a module for the entries to be read: QC_ENGINE_FILE_STAMP and the sizes of
// the types the entries hold.
inline std::string engine_module_stamp() {
    return std::string(QC_ENGINE_FILE_STAMP) + "; sizes " + std::to_string(sizeof(BuiltinImpl)) + "/" +
           std::to_string(sizeof(KnownDeviation)) + "/" + std::to_string(sizeof(KeyCurve)) + "/" +
           std::to_string(sizeof(Claim)) + "/" + std::to_string(sizeof(qc_impl_v1)) + "/" +
           std::to_string(sizeof(std::string));
}

}  // namespace qc

// The entry point each module exports (impls/engines/module.cpp defines it).
extern "C" const qc::EngineModuleV1 *qc_engine_module_v1();
