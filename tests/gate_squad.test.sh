#!/usr/bin/env bash
# Squad in the gate (issue 38 item 5): quatcheck_add_accuracy_test without OPS runs a squad step whenever a
# selected implementation provides squad, and compares squad_summary.csv and squad_conformance.csv with the
# baseline. The reference C adapter with its squad family (impls/process/c_adapter.c, "squad") writes the
# baseline; then its "squadoff" mode (every squad output off by 1e-3 in w; slerp untouched) must turn the gate
# red on the squad rows, and on them only. Negative controls: the healthy adapter passes against its own
# baseline with a squad test among the tests; a selection without squad (OPS not given) runs the squad step as
# a no-op that passes.
# Usage: bash tests/gate_squad.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
source "$src/tests/install_lib.sh"
c_adapter_project
cat >"$tmp/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(squadgate LANGUAGES NONE)
enable_testing()
find_package(quatcheck CONFIG REQUIRED)
set(ADAPTER_MODE ok CACHE STRING "c_adapter's mode")
set(IMPL "proc-seed-*" CACHE STRING "selection")
quatcheck_add_accuracy_test(sq PLUGIN_CMD "tools/adapter ${ADAPTER_MODE} squad" IMPL "${IMPL}"
                            BASELINE quatcheck-baseline CASES 200 REGIONS uniform CONFORM OFF)
CMAKE
cd "$tmp"
cmake -S proj -B b -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "configure"; }
cmake --build b --target sq_baseline >"$tmp/baseline.log" 2>&1 || { cat "$tmp/baseline.log"; fail "sq_baseline"; }
grep -q "^proc-seed-squad.f64,squad," proj/quatcheck-baseline/squad_summary.csv ||
  fail "the baseline has no squad row: $(ls proj/quatcheck-baseline)"
(cd b && ctest --output-on-failure) >"$tmp/ok.ctest" 2>&1 || { cat "$tmp/ok.ctest"; fail "the gate failed against its own fresh baseline"; }
grep -q "sq.squad .*Passed" "$tmp/ok.ctest" && grep -q "100% tests passed, 0 tests failed out of 3" "$tmp/ok.ctest" ||
  { cat "$tmp/ok.ctest"; fail "expected 3 passing tests (run, squad, compare)"; }
echo "ok   squad gate: baseline with squad rows, 3/3 tests pass"

cmake -S proj -B b -DADAPTER_MODE=squadoff >/dev/null 2>&1 || fail "reconfigure"
set +e
(cd b && ctest --output-on-failure) >"$tmp/off.ctest" 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] || { cat "$tmp/off.ctest"; fail "the gate passed with a planted squad defect"; }
grep -qE "^FAIL accuracy proc-seed-squad\.f(32|64) squad " "$tmp/off.ctest" || { cat "$tmp/off.ctest"; fail "the failure does not name a squad row"; }
if grep -E "^FAIL accuracy" "$tmp/off.ctest" | grep -v " squad " | grep -q .; then
  fail "a non-squad row failed too: $(grep -E '^FAIL accuracy' "$tmp/off.ctest" | grep -v ' squad ' | head -2)"
fi
echo "ok   planted squad defect: $(grep -m1 -E '^FAIL accuracy' "$tmp/off.ctest" | cut -c1-150)"

# A selection without squad: the squad step is a no-op (one line) and the gate passes.
cmake -S proj -B b2 -DCMAKE_PREFIX_PATH="$prefix" -DIMPL="proc-seed-c.*" -DADAPTER_MODE=ok >/dev/null 2>&1 || fail "configure b2"
rm -rf proj/quatcheck-baseline
cmake --build b2 --target sq_baseline >"$tmp/b2.log" 2>&1 || { cat "$tmp/b2.log"; fail "baseline without squad"; }
(cd b2 && ctest --output-on-failure -V) >"$tmp/none.ctest" 2>&1 || { cat "$tmp/none.ctest"; fail "the gate without squad failed"; }
grep -q "no selected implementation provides squad" "$tmp/none.ctest" || fail "the squad step did not say it had nothing to do"
echo "ok   a selection without squad: the squad step says so and passes"
echo "PASS: gate_squad"
