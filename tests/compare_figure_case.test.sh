#!/usr/bin/env bash
# Issue 38 item 1: a regression of one figure prints the case behind that figure. A planted regression in ulp1
# only: the baseline is recipe-filament.f64, the current run recipe-rtm.f64 renamed to it (the same angle error,
# 3.9e-16 rad, and ulp1 5.5 against 0.91 on uniform keys). compare must name max_ulp1 and print the case whose
# ulp1 is the printed figure (worst_cases.csv's `attains` column), not the worst case by angle.
# Negative control: the same current folder with the attains column removed (a worst_cases.csv of an older
# quatcheck) prints the worst case by angle, says so, and its ulp1 is not the figure: the check can fail.
# Usage: compare_figure_case.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
args=(--op slerp --region uniform --cases 3000 --no-leaderboard --jobs 1)
"$qc" run --impl recipe-filament.f64 "${args[@]}" --out "$tmp/base" >/dev/null 2>&1 || fail "baseline run"
"$qc" run --impl recipe-rtm.f64 "${args[@]}" --out "$tmp/cur" >/dev/null 2>&1 || fail "current run"
rename() { /usr/bin/python3 - "$1" <<'PY'
import os, sys
d = sys.argv[1]
for f in ("summary.csv", "worst_cases.csv", "error_curve.csv", "run.json"):
    p = os.path.join(d, f)
    if os.path.exists(p):
        s = open(p).read().replace("recipe-rtm", "recipe-filament")
        open(p, "w").write(s)
PY
}
rename "$tmp/cur"
figure=$(/usr/bin/python3 -c "import csv,sys; print([r for r in csv.DictReader(open(sys.argv[1]))][0]['max_ulp1'])" "$tmp/cur/summary.csv")
# The case line compare prints for a regressed figure: "... (DIR/worst_cases.csv:LINE): ... ulp1=U; reproduce: ..."
case_ulp1() { sed -n "s/^.*$1 (.*worst_cases.csv:[0-9]*).* ulp1=\([^;]*\);.*$/\1/p" "$2" | head -1; }
"$qc" compare "$tmp/base" "$tmp/cur" --out "$tmp/cmp" >"$tmp/out.txt" 2>&1
rc=$?
[ $rc = 1 ] || fail "compare exit $rc (want 1: a regression): $(tail -3 "$tmp/out.txt")"
grep -q "max_ulp1" "$tmp/out.txt" || fail "compare does not name max_ulp1: $(head -5 "$tmp/out.txt")"
got=$(case_ulp1 "the case behind max_ulp1" "$tmp/out.txt")
if [ -n "$got" ] && /usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) == float(sys.argv[2]) else 1)" "$got" "$figure"; then
  pass "the printed case's ulp1 is the figure: $got = max_ulp1 $figure"
else
  fail "the case printed for max_ulp1 has ulp1 '$got', the figure is $figure: $(grep -m1 'worst_cases.csv:' "$tmp/out.txt")"
fi
# The printed reproduce command runs as printed (exit 0 or 1, never 2).
cmd=$(grep -m1 "the case behind max_ulp1" "$tmp/out.txt" | sed 's/^.*reproduce: //')
(cd / && PATH="$build:$PATH" sh -c "$cmd" >/dev/null 2>&1); s=$?
[ $s -le 1 ] && pass "its reproduce command runs as printed (exit $s): $cmd" || fail "reproduce command exit $s: $cmd"
# Negative control: without the attains column, the fallback is the worst case by angle, labelled as such.
/usr/bin/python3 - "$tmp/cur/worst_cases.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = [c for c in rows[0] if c != "attains"]
w = csv.DictWriter(open(sys.argv[1], "w", newline=""), fieldnames=cols, extrasaction="ignore", lineterminator="\n")
w.writeheader(); w.writerows(rows)
PY
"$qc" compare "$tmp/base" "$tmp/cur" --out "$tmp/cmp2" >"$tmp/old.txt" 2>&1
old=$(case_ulp1 "worst case by angle" "$tmp/old.txt")
if [ -n "$old" ] && /usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) != float(sys.argv[2]) else 1)" "$old" "$figure"; then
  pass "negative control: without attains, the worst case by angle (ulp1 $old) is printed and labelled as such"
else
  fail "negative control: expected the labelled worst case by angle with another ulp1, got '$old': $(grep -m1 'worst_cases.csv:' "$tmp/old.txt")"
fi
finish
