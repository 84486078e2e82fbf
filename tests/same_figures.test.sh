#!/usr/bin/env bash
# scripts/same-figures (the byte-identity check of refactorings): this build against itself, on a small
# selection, gives identical tables, pages and figures (the run, conform, sweep and report are deterministic
# for a fixed seed). Negative controls on copies of the two reports (--dirs): a tampered summary.csv, a
# tampered sweep table, a figure changed by one byte, a page changed outside the run's wall time, a missing
# card are each reported by name with exit 1; a page whose only change is the wall time is not. Bad usage:
# one line, exit 2.
# Usage: bash tests/same_figures.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
same="$src/scripts/same-figures"
/usr/bin/python3 -c "import matplotlib" 2>/dev/null || skip "/usr/bin/python3 has no matplotlib (Debian python3-matplotlib): no report to compare"

"$same" --cases 200 --impl 'seed-c*' --keep "$tmp/k" "$build" "$qc" >"$tmp/self.out" 2>&1 || { cat "$tmp/self.out"; fail "this build against itself: not identical"; }
grep -Eq '^same-figures: all [0-9]+ files identical \(10 tables and statuses, [1-9][0-9]* pages, [1-9][0-9]* figures\)$' "$tmp/self.out" ||
  fail "no summary line: $(cat "$tmp/self.out")"
pass "this build against itself: $(cat "$tmp/self.out")"

# tampered NAME EDIT WANT: a copy of report b edited by EDIT (run in the copy) compares as WANT (0 or 1), and
# with 1 names the file.
tampered() {
  rm -rf "$tmp/t" && cp -r "$tmp/k/b" "$tmp/t"
  (cd "$tmp/t" && eval "$2")
  local st=0
  "$same" --dirs "$tmp/k/a" "$tmp/t" >"$tmp/t.out" 2>&1 || st=$?
  [ "$st" = "$3" ] || fail "$1: exit $st, want $3: $(cat "$tmp/t.out")"
  if [ "$3" = 1 ]; then
    grep -q "^differs: $1" "$tmp/t.out" || fail "$1: the difference is not named: $(cat "$tmp/t.out")"
  fi
  pass "$1: exit $st $(grep -m1 '^differs' "$tmp/t.out" || true)"
}
tampered r/summary.csv "sed -i '2s/,ok,/,crashed,/' r/summary.csv" 1
tampered r/sweep/branch_map.csv "echo x >>r/sweep/branch_map.csv" 1
png="$(cd "$tmp/k/b" && ls r/plots/*.png | head -1)"
tampered "$png" "printf '\\0' >>'$png'" 1
tampered r/report.html "sed -i 's/Library cards/Library kards/' r/report.html" 1
tampered "the set of pages" "rm \"\$(ls r/cards/*.html | head -1)\"" 1
tampered r/report.html "sed -i -E 's/wall time [0-9.]+ s/wall time 99.9 s/' r/report.html" 0
grep -q "wall time 99.9 s" "$tmp/t/r/report.html" || fail "the wall-time edit did not apply: the last control proves nothing"

expect 2 '^quatcheck: same-figures: expected two binaries or build folders, got 1' "$same" "$build"
expect 2 '^quatcheck: same-figures: .*: neither a quatcheck binary nor a build folder' "$same" "$tmp/none" "$build"
expect 2 '^quatcheck: same-figures: --cases: ' "$same" --cases 0 "$build" "$build"
echo "same_figures: ok"
