/* A shared library without the engine stamp (tests/engine_modules_test.cpp): refused before it is opened. */
int qc_test_no_stamp(void) { return 1; }
