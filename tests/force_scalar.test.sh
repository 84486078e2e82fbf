#!/usr/bin/env bash
# The fast reference's AVX2 batch (issue 29) against its scalar path through a whole run: `quatcheck run` with a
# fixed seed writes byte-identical summary.csv, worst_cases.csv, error_curve.csv and leaderboard.csv, and the same
# reference statistics in run.json, with QC_FORCE_SCALAR=1 and without. Negative controls: a batch damaged on
# purpose (QC_DAMAGE_FAST_PATH=batch_lane, one lane's R off by 2^-20) changes the figures and is reported as
# bound violations; the same damage under QC_FORCE_SCALAR=1 changes nothing (the switch does bypass the batch).
# SKIP (77) where the CPU has no AVX2 or FMA: both runs would then be the scalar path.
source "$(dirname "$0")/lib.sh" "$@"
grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo || skip "this CPU has no AVX2+FMA: the batch is scalar either way"
cases="${QC_FORCE_SCALAR_CASES:-2000}"
files="summary.csv worst_cases.csv error_curve.csv leaderboard.csv"

run() {  # OUT [ENV=VALUE...]: a fixed-seed run; exit 1 (a failed verdict) is allowed, the damaged runs report one
  local out="$1"
  shift
  env "$@" "$qc" run --cases "$cases" --seed 5 --out "$tmp/$out" >/dev/null 2>"$tmp/$out.err" || [ $? -eq 1 ] ||
    fail "run $out: $(tail -2 "$tmp/$out.err")"
}
reference() { /usr/bin/python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["reference"], sort_keys=True))' "$1"; }
same() {  # A B: every file identical
  local f
  for f in $files; do cmp -s "$tmp/$1/$f" "$tmp/$2/$f" || return 1; done
  [ "$(reference "$tmp/$1/run.json")" = "$(reference "$tmp/$2/run.json")" ]
}

run scalar QC_FORCE_SCALAR=1
run avx2
for f in $files; do
  [ -s "$tmp/avx2/$f" ] || fail "no $f"
  cmp -s "$tmp/scalar/$f" "$tmp/avx2/$f" || { diff "$tmp/scalar/$f" "$tmp/avx2/$f" | head >&2; fail "$f differs between QC_FORCE_SCALAR=1 and the AVX2 batch"; }
done
same scalar avx2 || fail "run.json's reference statistics differ between QC_FORCE_SCALAR=1 and the AVX2 batch"
pass "$files and run.json's reference statistics identical with QC_FORCE_SCALAR=1 and without ($cases cases)"

run damaged QC_DAMAGE_FAST_PATH=batch_lane
! same scalar damaged || fail "a damaged AVX2 lane left every figure unchanged: the comparison cannot see the batch"
violations=$(/usr/bin/python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["reference"]; print(r["fast_bound_violations"])' "$tmp/damaged/run.json")
[ "$violations" -gt 0 ] || fail "the damaged batch reported no bound violation"
pass "negative control: a damaged AVX2 lane changes the figures ($violations bound violations reported)"

run damaged_scalar QC_DAMAGE_FAST_PATH=batch_lane QC_FORCE_SCALAR=1
same scalar damaged_scalar || fail "QC_FORCE_SCALAR=1 still ran the (damaged) batch"
pass "QC_FORCE_SCALAR=1 bypasses the batch: the same damage changes nothing"
