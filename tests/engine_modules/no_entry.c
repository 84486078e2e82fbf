/* A shared library that is no engine module (tests/engine_modules_test.cpp): no qc_engine_module_v1. */
int qc_test_not_a_module(void) { return 1; }
