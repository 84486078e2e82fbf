#!/usr/bin/env bash
# quatcheck::testing from an installed prefix (docs/testing-api.md): `cmake --install` into a temporary prefix,
# then, with the source tree and the build folder hidden (as tests/install.test.sh hides them), the installed
# example share/doc/quatcheck/examples/unit-tests is configured with find_package(quatcheck COMPONENTS testing)
# alone, built as C++17 and run: its matcher tests, its RapidCheck property over near-pi and the nine properties
# pass (12 tests, none skipped). Negative control: the same example with a planted near-0 defect (the first key
# returned on arcs below 1e-3) fails the matcher test, the RapidCheck property and the endpoints property, and
# the matcher's message names the inputs (hexfloat and decimal), the region, the expected and the actual value
# and the ulp1 and radian errors. Every failure message quoted in docs/testing-api.md is checked against what
# this run prints (paths reduced to the file name; RapidCheck's seed fixed with RC_PARAMS=seed=1). Negative control
# of that check: a quoted block with one figure changed is not found in the output.
# Usage: bash tests/unit_tests_example.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
source "$src/tests/install_lib.sh"
command -v c++ >/dev/null || skip "no C++ compiler for the example"

install_prefix
for f in include/quatcheck/reference.h include/quatcheck/gtest.h include/quatcheck/rapidcheck.h \
         include/quatcheck/properties.h include/quatcheck/case.h share/doc/quatcheck/examples/unit-tests/CMakeLists.txt \
         share/doc/quatcheck/examples/downstream/CMakeLists.txt share/doc/quatcheck/examples/plugin/example_plugin.c; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
[ -n "$(find "$prefix" -name 'libquatcheck_testing.so*' -print -quit)" ] || fail "libquatcheck_testing.so not installed"
cp "$src/docs/testing-api.md" "$tmp/testing-api.md"

cat >"$tmp/inner.sh" <<'INNER'
set -euo pipefail
tmp="$1" prefix="$2" src="$3"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ ! -e "$src/CMakeLists.txt" ] || echo "note: the source tree is still reachable here (no private mount namespace)"
cd "$tmp"
cp -r "$prefix/share/doc/quatcheck/examples/unit-tests" good
cp -r good planted
sed -i 's/if (w == 0) return a;/if (w < 1e-3) return a;/' planted/myquat.h
grep -q 'if (w < 1e-3) return a;' planted/myquat.h || fail "the planted defect was not applied"
build() {  # DIR
  cmake -S "$1" -B "$1/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$1.configure.log" 2>&1 \
    || { cat "$1.configure.log"; fail "configuring the example ($1) failed"; }
  cmake --build "$1/build" -j 2 >"$1.build.log" 2>&1 || { cat "$1.build.log"; fail "building the example ($1) failed"; }
}
build good
RC_PARAMS=seed=1 "good/build/myquat_tests" >good.out 2>&1 || { cat good.out; fail "the example's tests failed against the correct slerp"; }
grep -q "^\[  PASSED  \] 12 tests\." good.out || { cat good.out; fail "expected 12 passing tests"; }
grep -q "SKIPPED" good.out && { cat good.out; fail "a test was skipped"; }
echo "correct slerp: 12 tests pass (2 matcher tests, the near-pi RapidCheck property, 9 properties)"
build planted
set +e
RC_PARAMS=seed=1 "planted/build/myquat_tests" >planted.out 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] || { cat planted.out; fail "negative control: the planted near-0 defect passed"; }
for t in MyQuat.NearlyEqualKeys MyQuat.NearPiWithin4Ulp1 MyQuat.endpoints; do
  grep -q "^\[  FAILED  \] $t\b" planted.out || { cat planted.out; fail "negative control: $t did not fail"; }
done
grep -q "^\[       OK \] MyQuat.Unit\b" planted.out || fail "MyQuat.Unit should still pass with the defect"
# The matcher's message: inputs in hexfloat and decimal, the region, both values, the errors.
for want in '^Expected: is within 4 ulp1 of the ideal slerp\(q0, q1, t\)' \
            '^  Actual: .*, which is [0-9.e+]+ ulp1 and [0-9.e+-]+ rad from the ideal slerp \(limit 4 ulp1\)$' \
            '^  q0        \(0x1p\+0, 0x0p\+0, 0x0p\+0, 0x0p\+0\)$' '^            \(1, 0, 0, 0\)$' \
            '^  q1        \(0x1\.[0-9a-f]+p-1, 0x1\.[0-9a-f]+p-14, 0x0p\+0, 0x0p\+0\)$' '^  t         0x1p-2 = 0.25$' \
            '^  region    near-0, threshold \(arc W = 0.0001 rad' '^  expected  \(0x' '^  actual    \(0x1p\+0, 0x0p\+0' \
            '^  error     [0-9.e+]+ ulp1, [0-9.e+-]+ rad'; do
  grep -Eq "$want" planted.out || { cat planted.out; fail "the matcher's failure lacks a line matching /$want/"; }
done
echo "planted near-0 defect: the matcher, the RapidCheck property and the endpoints property fail, explained"
# The messages quoted in docs/testing-api.md (the blocks after <!-- printed-by:unit_tests_example -->) are what
# this run printed, path prefixes aside.
sed -E 's#^[^ ]*/(myquat_test\.cpp:[0-9]+:)#\1#' planted.out >planted.norm
python3 - "$tmp/testing-api.md" planted.norm <<'PY'
import re, sys
doc, out = open(sys.argv[1]).read(), open(sys.argv[2]).read()
blocks = re.findall(r"<!-- printed-by:unit_tests_example -->\n```text\n(.*?)```", doc, re.S)
if len(blocks) < 3:
    sys.exit(f"FAIL: docs/testing-api.md quotes {len(blocks)} printed blocks, expected 3 (matcher, RapidCheck, property)")
for b in blocks:
    if b not in out:
        sys.exit("FAIL: docs/testing-api.md quotes a message this run did not print:\n" + b)
changed = blocks[0].replace("ulp1", "ulp2", 1)
if changed in out:
    sys.exit("FAIL: negative control: a changed quote was found in the output")
print(f"docs/testing-api.md: {len(blocks)} quoted messages printed verbatim")
PY
INNER

run_hidden "the installed example" "$tmp" "$prefix" "$src"
echo "PASS: unit_tests_example"
