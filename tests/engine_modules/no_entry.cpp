// A shared library that is no engine module although its stamp is the tool's (tests/engine_modules_test.cpp): no
// qc_engine_module_v1 entry point.
#include "quatcheck/engine_module.h"

QC_ENGINE_DEFINE_STAMP();

extern "C" __attribute__((visibility("default"))) int qc_test_not_a_module(void) { return 1; }
