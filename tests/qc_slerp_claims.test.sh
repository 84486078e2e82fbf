#!/usr/bin/env bash
# qc-slerp's accuracy claims (impls/recommended/qc_slerp.h), asserted from the harness's own measurements:
# a `quatcheck run` of qc-slerp.f32/.f64 must show max ulp1 <= 2 and no non-finite output in every region
# (tests/qc_slerp_check.py reads summary.csv through scripts/qc_tables.py), and `quatcheck conform` must
# pass every property. Negative control: the same check on seed-c (an nlerp fallback above 0.9995, plain
# acos in f64) must fail and name the offending rows.
# Usage: bash tests/qc_slerp_claims.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
export QC_QUATCHECK="$qc"
check="$src/tests/qc_slerp_check.py"

# 1. Accuracy: every region, both precisions.
"$qc" run --impl qc-slerp --cases 100000 --seed 18 --jobs 2 --no-leaderboard --out "$tmp/run" >/dev/null 2>&1 \
    || fail "quatcheck run failed"
/usr/bin/python3 "$check" "$tmp/run" qc-slerp 2 || fail "qc-slerp's accuracy claim does not hold (lines above)"

# 2. Conformance: every property passes (finite at equal/opposite ends and a.b = 0, endpoints, unit,
#    shortest arc, symmetry, monotone, constant speed, no threshold jump).
status=0
"$qc" conform --impl qc-slerp --cases 2000 --seed 18 --out "$tmp/conform" > "$tmp/conform.log" 2>&1 || status=$?
[[ $status == 0 ]] || fail "quatcheck conform exit $status: $(grep -m3 fail "$tmp/conform.log")"
# (the informative correctly-rounded, which qc-slerp is not asked to pass, aside: docs/conformance.md)
promises() { tail -n +2 "$tmp/conform/conformance.csv" | awk -F, '$3 != "correctly-rounded"' | cut -d, -f4; }
verdicts="$(promises | sort | uniq -c | tr -s ' ')"
[[ -n $verdicts ]] || fail "conformance.csv has no rows"
if promises | grep -qv '^pass$'; then
    fail "a property did not pass: $verdicts"
fi

# 3. Negative control: the checker fails on an implementation that breaks the claim.
"$qc" run --impl 'seed-c*' --cases 20000 --seed 18 --jobs 2 --no-leaderboard --out "$tmp/neg" >/dev/null 2>&1 \
    || fail "quatcheck run (negative control) failed"
status=0
/usr/bin/python3 "$check" "$tmp/neg" seed-c 2 > "$tmp/neg.out" || status=$?
[[ $status == 1 ]] || fail "negative control: checker exit $status on seed-c, expected 1"
grep -q "seed-c.f32 threshold: max ulp1" "$tmp/neg.out" || fail "negative control: no f32 threshold violation reported: $(cat "$tmp/neg.out")"
grep -q "seed-c.f64 .*max ulp1" "$tmp/neg.out" || fail "negative control: no f64 violation reported"
echo "ok: qc-slerp claims hold; $(wc -l < "$tmp/neg.out") violations found in the negative control"
