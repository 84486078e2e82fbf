/* The library tests/engine_modules/needs_gone.c links and the loader cannot find (no RPATH points at it), as an
   engine module whose engine library is not installed (tests/engine_modules_test.cpp). */
int qc_test_gone(void) { return 42; }
