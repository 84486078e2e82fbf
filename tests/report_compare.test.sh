#!/usr/bin/env bash
# quatcheck compare end to end: a test-only plugin (tests/compare_probe_plugin.c) is built twice under one
# implementation name, careful and deliberately worsened; the worsened report must compare as a regression
# (exit 1), an identical rerun as no regression (exit 0); junit.xml must have the JUnit shape
# (testsuites/testsuite/testcase/failure) and bad input must give exit 2 with FILE:LINE.
# Usage: bash tests/report_compare.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
work="$build/test-artefacts/report_compare"
rm -rf "$work"
mkdir -p "$work"
cd "$work"

cc -O2 -shared -fPIC -I"$src/harness/include" "$src/tests/compare_probe_plugin.c" -o good.so -lm
cc -O2 -shared -fPIC -DQC_PROBE_WORSEN -I"$src/harness/include" "$src/tests/compare_probe_plugin.c" -o worse.so -lm
probe_run() { "$qc" run --plugin "./$1" --impl compare-probe --cases 400 --seed 3 --jobs 2 --out "$2" 2>/dev/null; }
probe_run good.so base
probe_run good.so rerun
probe_run worse.so worse
cmp base/summary.csv rerun/summary.csv || fail "the rerun is not identical: the 0-exit check below would prove nothing"

# Identical rerun: exit 0, nothing flagged.
set +e
"$qc" compare base rerun >rerun.out 2>rerun.err
rc=$?
set -e
[ "$rc" -eq 0 ] || { cat rerun.out rerun.err; fail "identical rerun: exit $rc, expected 0"; }
grep -q '^OK: 0 regression' rerun.out || fail "identical rerun: no OK line"
! grep -q REGRESSION rerun.out || fail "identical rerun flagged a regression"

# Worsened build of the same implementation: exit 1, every sampled region flagged.
set +e
"$qc" compare base worse >worse.out 2>worse.err
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat worse.out worse.err; fail "worsened implementation: exit $rc, expected 1"; }
grep -q 'REGRESSION  accuracy  compare-probe.f64  slerp  uniform  *max_angle_err_rad' worse.out ||
  { cat worse.out; fail "no max_angle_err_rad regression row for uniform"; }
grep -q '^FAIL: ' worse.out || fail "no FAIL line"
grep -q 'REGRESSION' worse/compare.md || fail "compare.md does not list the regression"

# The reverse direction is an improvement, not a failure.
"$qc" compare worse base --out reverse >reverse.out 2>&1 || fail "improvement-only comparison exited non-zero"
grep -q 'improvement' reverse.out || fail "reverse comparison lists no improvement"

# junit.xml: the usual shape, one testcase per impl x op x region of the summary, failures carry the
# worst case; counts in the attributes agree with the elements.
/usr/bin/python3 - worse/junit.xml worse/summary.csv <<'EOF'
import csv, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
rows = list(csv.DictReader(open(sys.argv[2])))
suites = list(root)
assert suites and all(s.tag == "testsuite" for s in suites), [s.tag for s in suites]
acc = [s for s in suites if s.get("name") == "accuracy"]
assert len(acc) == 1
cases = list(acc[0])
assert all(c.tag == "testcase" and c.get("name") and c.get("classname") for c in cases)
names = sorted(c.get("name") for c in cases)
assert names == sorted(f'{r["impl"]} {r["op"]} {r["region"]}' for r in rows), (names, rows)
total = failures = 0
for s in suites:
    tc = [c for c in s if c.tag == "testcase"]
    f = [c for c in tc if c.find("failure") is not None]
    assert int(s.get("tests")) == len(tc) and int(s.get("failures")) == len(f), s.attrib
    total += len(tc); failures += len(f)
    for c in f:
        fe = c.find("failure")
        assert fe.get("message") and fe.get("type") == "regression"
        assert ("the case behind " in fe.text or "worst case by angle" in fe.text) and "q0=(" in fe.text and "quatcheck replay" in fe.text, fe.text
assert int(root.get("tests")) == total and int(root.get("failures")) == failures
assert failures >= 3, failures
print(f"junit.xml: {total} testcases, {failures} failures")
EOF

# Rows on one side only are reported; a missing or malformed folder is an input error (exit 2, FILE:LINE).
mkdir -p partial
head -n 3 base/summary.csv >partial/summary.csv
set +e
"$qc" compare base partial >partial.out 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "rows missing from the current run must fail the comparison (issue 28): exit $rc"
grep -q 'only in baseline' partial.out || fail "rows missing from the current run are not reported"
"$qc" compare --allow-missing base partial >partial.out 2>&1 || fail "--allow-missing: a missing row must not fail the comparison"
mkdir -p bad
{ head -n 2 base/summary.csv; head -n 3 base/summary.csv | tail -n 1 | sed 's/,slerp,\([a-z0-9-]*\),\([0-9]*\),/,slerp,\1,many,/'; } >bad/summary.csv
set +e
"$qc" compare base bad >bad.out 2>bad.err
rc=$?
"$qc" compare base no-such-folder >/dev/null 2>missing.err
rc2=$?
set -e
[ "$rc" -eq 2 ] || fail "malformed summary.csv: exit $rc, expected 2"
grep -qx "quatcheck: bad/summary.csv:3: column cases: 'many' is not a count" bad.err || { cat bad.err; fail "malformed: wrong message"; }
[ "$rc2" -eq 2 ] || fail "missing folder: exit $rc2, expected 2"
[ "$(wc -l <missing.err)" -eq 1 ] || fail "missing folder: not a one-line error"
echo "report_compare: ok"
