#!/usr/bin/env bash
# quatcheck squad / curves from the command line: the seed squad through --plugin gives the built-in's
# numbers exactly; bad options exit 2 with one line; reports land in --out.
source "$(dirname "$0")/lib.sh" "$@"
set +e +o pipefail  # exit statuses are checked one by one below
plugin="$build/impls/examples/seed_squad_plugin.so"
[ -f "$plugin" ] || fail "$plugin not built (cmake --build $build --target qc_seed_squad_plugin)"

"$qc" squad --plugin "$plugin" --impl 'plugin-seed-squad.*' --impl 'seed-squad.*' --tracks 6 --out "$tmp/a" 2>"$tmp/err"
status=$?
[ $status -le 1 ] || fail "squad exited $status: $(cat "$tmp/err")"
for f in squad_summary.csv squad_worst_cases.csv squad_conformance.csv; do [ -s "$tmp/a/$f" ] || fail "no $f"; done
grep -q '^plugin-seed-squad.f32,squad,random,' "$tmp/a/squad_summary.csv" || fail "plugin rows missing"
# The plugin runs the same code: its rows equal the built-in's once the name is replaced.
diff <(grep '^plugin-seed-squad' "$tmp/a/squad_summary.csv" | sed 's/^plugin-seed-squad/seed-squad/') \
     <(grep '^seed-squad' "$tmp/a/squad_summary.csv") || fail "plugin and built-in seed squad differ"

"$qc" curves --plugin "$plugin" --impl 'plugin-seed-squad.f64' --points 11 --out "$tmp/b" 2>/dev/null || fail "curves failed"
[ "$(grep -c '^plugin-seed-squad.f64,squad,' "$tmp/b/velocity_curve.csv")" = 99 ] || fail "curves: expected 9 curves x 11 points"

expect2() { expect 2 '^quatcheck: ' "$qc" "$@" --out "$tmp/c"; }
expect2 squad --tracks 0
expect2 squad --region nowhere
expect2 squad --impl seed-c.f64
expect2 curves --points 2
expect2 curves --op twist
[ ! -e "$tmp/c/squad_summary.csv" ] || fail "a failed command left a report"
echo ok
