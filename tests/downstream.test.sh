#!/usr/bin/env bash
# A downstream project's accuracy gate (examples/downstream, docs/install.md): quatcheck is installed into a
# temporary prefix, the example is copied to a temporary folder, configured against that prefix
# (find_package(quatcheck)), built, and its ctest (tinyquat.run, .conform, .compare against the committed
# baseline) must pass. Negative control: the same project built with -DTINYQUAT_PLAIN_LERP_FALLBACK (the
# routine's normalised-lerp fallback near dot = 1 swapped for a plain lerp) must fail its ctest, and the
# output must name the regressed row and region with the baseline's and the new figure and a reproduce
# command, which is then run and must measure the same figure again. Nothing is written outside the
# temporary folder: the copied example (its baseline included) is unchanged after both runs.
# Usage: bash tests/downstream.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
source "$src/tests/install_lib.sh"
command -v cc >/dev/null || skip "no C compiler (cc) for the example"

install_prefix
cp -r "$src/examples/downstream" "$tmp/downstream"
cp -r "$tmp/downstream" "$tmp/pristine"
cd "$tmp"
export PATH="$prefix/bin:$PATH"

configure_build() {  # DIR [cmake args...]
  local dir="$1"; shift
  cmake -S downstream -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release "$@" >"$tmp/$dir.configure.log" 2>&1 \
    || { cat "$tmp/$dir.configure.log"; fail "configuring the example ($dir) failed"; }
  cmake --build "$dir" -j 2 >"$tmp/$dir.build.log" 2>&1 || { cat "$tmp/$dir.build.log"; fail "building the example ($dir) failed"; }
}

# 1. As committed: the gate passes.
configure_build good
(cd good && ctest --output-on-failure) >"$tmp/good.ctest" 2>&1 || { cat "$tmp/good.ctest"; fail "the example's ctest failed as committed"; }
grep -q "100% tests passed, 0 tests failed out of 4" "$tmp/good.ctest" || { cat "$tmp/good.ctest"; fail "expected 4 passing tests (run, conform, squad, compare)"; }
echo "example as committed: 3/3 tests pass"

# 2. The planted regression: plain (unnormalised) lerp as the fallback.
configure_build planted "-DCMAKE_C_FLAGS=-DTINYQUAT_PLAIN_LERP_FALLBACK"
set +e
(cd planted && ctest --output-on-failure) >"$tmp/planted.ctest" 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] || { cat "$tmp/planted.ctest"; fail "negative control: ctest passed with the plain-lerp fallback"; }
out="$tmp/planted.ctest"
grep -q "tinyquat.compare (Failed)" "$out" || { cat "$out"; fail "the compare test is not the one that failed"; }
# The row, its region and the figures: "FAIL accuracy tinyquat.f64 slerp REGION: max_ulp1 OLD -> NEW (...)"
line="$(grep -m1 -E '^FAIL accuracy tinyquat\.f(32|64) slerp [a-z0-9-]+: .*[0-9.e+-]+ -> [0-9.e+-]+' "$out")" \
  || { cat "$out"; fail "the failure does not name the row, region, old and new figures"; }
echo "planted regression caught: $line"
grep -q "^    baseline: status=ok" "$out" || fail "no baseline figures in the failure"
grep -q "^    current:  status=ok" "$out" || fail "no current figures in the failure"
grep -q "^    reproduce the row: quatcheck run --plugin $tmp/planted/tinyquat_quatcheck.so" "$out" || { cat "$out"; fail "no reproduce command naming the plugin"; }
grep -q "tinyquat_baseline" "$out" || fail "the failure does not say how to refresh the baseline"
# ctest splices a test's stdout and stderr in arbitrary chunks: compare's closing line goes to stdout, after the
# table, so it stands on a line of its own (on stderr it once landed inside a FAIL block and broke this test in CI).
grep -q "^quatcheck compare: junit.xml and compare.md in " "$out" || { cat "$out"; fail "compare's closing line was spliced into another line"; }

# The reproduce command measures the failing row's figure again.
row="$(sed -E 's/^FAIL accuracy ([^ ]+) ([^ ]+) ([^:]+):.*/\1 \2 \3/' <<<"$line")"
read -r impl op region <<<"$row"
repro="$(grep -m1 -A4 "^FAIL accuracy $impl $op $region:" "$out" | sed -n 's/^    reproduce the row: //p' | head -1)"
[ -n "$repro" ] || fail "no reproduce command for $impl $op $region"
mkdir -p "$tmp/repro" && (cd "$tmp/repro" && eval "$repro" 2>/dev/null) || fail "the reproduce command failed: $repro"
want="$(awk -F, -v i="$impl" -v o="$op" -v r="$region" '$1==i && $2==o && $3==r {print $7}' planted/quatcheck/tinyquat/summary.csv)"
got="$(awk -F, -v i="$impl" -v o="$op" -v r="$region" '$1==i && $2==o && $3==r {print $7}' "$tmp/repro/reproduce/summary.csv")"
[ -n "$want" ] && [ "$want" = "$got" ] || fail "the reproduce command measured max_angle_err_rad '$got', the gate's run '$want'"
echo "reproduce command measures the same row again: $impl $op $region max_angle_err_rad $got"

# Nothing was written into the project's source folder (its baseline included).
diff -r "$tmp/pristine" "$tmp/downstream" >/dev/null || fail "the example's source folder was modified"
echo "PASS: downstream"
