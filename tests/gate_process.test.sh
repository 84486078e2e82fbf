#!/usr/bin/env bash
# The CTest accuracy gate with a process plugin (quatcheck_add_accuracy_test(... PLUGIN_CMD ...),
# docs/install.md): a temporary CMake project, configured against quatcheck installed into a temporary
# prefix, gates the reference C adapter (impls/process/c_adapter.c, copied into the project and named by a
# path relative to it). Its <name>_baseline target writes the baseline into the project, then ctest passes.
# Negative control: the same adapter in its "crash" mode (it dies on a batch) must fail ctest, naming the
# rows whose status went from ok to crashed, with a reproduce command that carries --plugin-cmd. A second
# negative control: a required argument left out (BASELINE) fails the configure with a one-line reason.
# Usage: bash tests/gate_process.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
source "$src/tests/install_lib.sh"
c_adapter_project
cat >"$tmp/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(procgate LANGUAGES NONE)
enable_testing()
find_package(quatcheck CONFIG REQUIRED)
set(ADAPTER_MODE ok CACHE STRING "c_adapter's mode")
if(NOT LEAVE_OUT_BASELINE)
  set(baseline BASELINE quatcheck-baseline)
endif()
quatcheck_add_accuracy_test(proc PLUGIN_CMD "tools/adapter ${ADAPTER_MODE}" IMPL "proc-seed-c.*" ${baseline}
                            CASES 300 REGIONS near-0 threshold CONFORM OFF)
CMAKE
cd "$tmp"
cmake -S proj -B b -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "configure"; }
cmake --build b --target proc_baseline >"$tmp/baseline.log" 2>&1 || { cat "$tmp/baseline.log"; fail "proc_baseline"; }
[ -s proj/quatcheck-baseline/summary.csv ] || fail "proc_baseline wrote no proj/quatcheck-baseline/summary.csv"
grep -q "^proc-seed-c.f64,slerp,threshold,300," proj/quatcheck-baseline/summary.csv || fail "the baseline lacks the f64 threshold row"
cp -r proj "$tmp/pristine"
(cd b && ctest --output-on-failure) >"$tmp/ok.ctest" 2>&1 || { cat "$tmp/ok.ctest"; fail "the gate failed against its own fresh baseline"; }
grep -q "100% tests passed, 0 tests failed out of 3" "$tmp/ok.ctest" || { cat "$tmp/ok.ctest"; fail "expected 3 passing tests (run, squad: none to measure, compare)"; }
echo "process-plugin gate: baseline written, 2/2 tests pass"

cmake -S proj -B b -DADAPTER_MODE=crash >"$tmp/configure2.log" 2>&1 || { cat "$tmp/configure2.log"; fail "reconfigure"; }
set +e
(cd b && ctest --output-on-failure) >"$tmp/crash.ctest" 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] || { cat "$tmp/crash.ctest"; fail "negative control: the gate passed with a crashing adapter"; }
grep -qE "^FAIL accuracy proc-seed-c\.f(32|64) slerp (near-0|threshold): status ok -> crashed" "$tmp/crash.ctest" \
  || { cat "$tmp/crash.ctest"; fail "the failure does not name a crashed row"; }
# (The adapter by its absolute path: run.json records a plugin in the form that loads it from any folder.)
grep -qF "reproduce the row: quatcheck run --plugin-cmd '$tmp/proj/tools/adapter crash' --impl proc-seed-c." "$tmp/crash.ctest" \
  || { cat "$tmp/crash.ctest"; fail "no reproduce command with --plugin-cmd"; }
diff -r "$tmp/pristine" proj >/dev/null || fail "ctest wrote into the project's source folder"
echo "negative control: $(grep -m1 -E '^FAIL accuracy' "$tmp/crash.ctest")"

set +e
cmake -S proj -B b2 -DCMAKE_PREFIX_PATH="$prefix" -DLEAVE_OUT_BASELINE=ON >"$tmp/configure3.log" 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "negative control: configuring without BASELINE succeeded"
grep -q "quatcheck_add_accuracy_test(proc): BASELINE is required" "$tmp/configure3.log" || { cat "$tmp/configure3.log"; fail "no reason given for the missing BASELINE"; }
echo "PASS: gate_process"
