#!/usr/bin/env bash
# scripts/readme/squad_matrix.py (the generated table of docs/squad.md) on a short `quatcheck squad` of the
# seed, glm and planted broken squads: the verdict words and counts come from the report (broken-squad is
# "not C1" with every judged key failed, glm-squad is C1, the seed's sign-flip failure is "known"), the
# `where` column follows the refcp control case, and the control line carries the reference's own jump.
# Negative controls: the same report with broken-squad's failures set to 0 must print it as C1 (the words are
# read, not assumed); a report without the c1_failures column is refused with one line and exit 2.
# Usage: bash tests/squad_matrix.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
gen() { /usr/bin/python3 "$src/scripts/readme/squad_matrix.py" "$1"; }

"$qc" squad --impl 'seed-squad.f64' --impl 'glm-squad.f64' --impl 'broken-squad.f64' --region random \
  --region sign-flip --tracks 8 --jobs 2 --out "$tmp/r" >/dev/null 2>&1 || [ $? -eq 1 ] || fail "squad run"
gen "$tmp/r" >"$tmp/out" || fail "squad_matrix.py failed on a good report"
row() { grep "^| \`$1\`" "$tmp/out" || fail "no row for $1"; }
row broken-squad.f64 | grep -q '| \*\*not C1\*\* \([0-9]*\)/\1 | \*\*not C1\*\* \([0-9]*\)/\2 |' ||
  { cat "$tmp/out"; fail "broken-squad is not 'not C1' with every judged key failed"; }
row glm-squad.f64 | grep -q '| C1 0/[0-9]* | C1 0/[0-9]* |' || { cat "$tmp/out"; fail "glm-squad is not C1"; }
row seed-squad.f64 | grep -q 'not C1 (known)' || { cat "$tmp/out"; fail "the seed's sign-flip deviation is not known"; }
row seed-squad.f64 | grep -q 'random: evaluation' || { cat "$tmp/out"; fail "seed-squad's random departure not put down to evaluation"; }
grep -q '^Control: the reference curve' "$tmp/out" || fail "no control line"
echo "ok: verdicts, where and control line"

# Negative control 1: broken-squad's c1 failures zeroed in a copy -> printed as C1.
cp -r "$tmp/r" "$tmp/z"
/usr/bin/python3 - "$tmp/z/squad_summary.csv" <<'PY' || fail "could not edit the copy"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["impl"].startswith("broken-squad"):
        r["c1_failures"] = "0"
w = csv.DictWriter(open(sys.argv[1], "w", newline=""), fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
w.writerows(rows)
PY
gen "$tmp/z" >"$tmp/out2" 2>&1 || { cat "$tmp/out2"; fail "squad_matrix.py failed on the edited copy"; }
grep '^| `broken-squad.f64`' "$tmp/out2" | grep -q '| C1 0/' || fail "zeroed failures still printed as not C1"
echo "ok: the words follow the report"

# Negative control 2: a missing column is one line on stderr and exit 2.
cp -r "$tmp/r" "$tmp/m"
cut -d, -f1-3 "$tmp/r/squad_summary.csv" >"$tmp/m/squad_summary.csv"
rc=0
gen "$tmp/m" >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] || fail "missing column: exit $rc, expected 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "missing column: not one line"; }
echo "ok: a missing column is refused"
