#!/usr/bin/env bash
# The ports of qc-slerp that `quatcheck findings` hands maintainers (impls/fixes/qc_slerp.{mjs,py,rs} and
# QcSlerp.java, issues 36 and 41), vetted as quatcheck vets any library, through their process plugins: fix-js
# (node impls/fixes/fix-js.js), fix-py (/usr/bin/python3 impls/fixes/fix_py.py), fix-rust (a family of
# build/rust/qc-euclid-adapter) and fix-java (impls/java/FixJavaAdapter.java, built by scripts/build-java).
#  1. `quatcheck run --impl 'fix-*' --cases 2000` and `quatcheck conform --impl 'fix-*' --cases 2000` on every port
#     whose runtime is present; tests/fixes_check.py asserts, for slerp.f64 and nlerp.f64 of each: every region
#     present with status ok and no non-finite output; slerp max ulp1 <= 4 in every region; nlerp's angle to the
#     exact nlerp <= 2e-15 rad; |r| within 4 ulp1 of 1; every conformance property passes (constant-speed is a
#     skip for nlerp). Why 4 ulp1: the ports are the narrow f64 variant of qc_slerp.h (all in double, design
#     choice 4), which the harness measures as qc-slerp-narrow.f64, about 2 ulp1 at worst: measured 1.72 here
#     (2000 cases a region) and 2.42 at 100000 cases a region (near-half-pi, every port, as qc-slerp-narrow.f64),
#     and each language's own acos/sin/cos (node's fdlibm; glibc for Python and Rust) may move the last bits.
#     2e-15 rad (9 eps) for nlerp, a lerp and a normalisation with no libm call but sqrt: measured 4.1e-16 here
#     and 5.6e-16 at 100000 cases a region.
#  2. Negative control: QC_FIX_PLANT=near0, read by the three plugin wrappers (never by the ports), plants a
#     near-0 defect (q0 returned where 1 - |q0.q1|/(|q0||q1|) < 1e-6); the same checks on a run and a short
#     conform of it must fail, naming each port's near-0 rows (slerp and nlerp) and its endpoints property, and
#     no uniform row.
# A port whose runtime is missing (node; /usr/bin/python3; the Rust adapter, built by scripts/build-rust; a JDK) is
# left out; then, if every check of the others passed, one SKIP line names it and the test exits 77.
# Usage: bash tests/fixes.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
export QC_QUATCHECK="$qc"
check="$src/tests/fixes_check.py"
max_ulp1=4
max_nlerp_angle=2e-15

plugins=()
families=()
missing=()
if command -v node >/dev/null; then
  plugins+=(--plugin-cmd "node $src/impls/fixes/fix-js.js") families+=(fix-js)
else
  missing+=("fix-js (node is not installed)")
fi
if [ -x /usr/bin/python3 ]; then
  plugins+=(--plugin-cmd "/usr/bin/python3 $src/impls/fixes/fix_py.py") families+=(fix-py)
else
  missing+=("fix-py (/usr/bin/python3 is missing)")
fi
adapter="$build/rust/qc-euclid-adapter"
if [ -x "$adapter" ]; then
  plugins+=(--plugin-cmd "$adapter") families+=(fix-rust)
else
  missing+=("fix-rust ($adapter is not built: scripts/build-rust needs Debian's cargo and librust-euclid-dev)")
fi
if command -v java >/dev/null && command -v javac >/dev/null && "$src/scripts/build-java" "$build" >/dev/null 2>&1; then
  plugins+=(--plugin-cmd "java -cp $build/java FixJavaAdapter") families+=(fix-java)
else
  missing+=("fix-java (no JDK, or scripts/build-java could not build $build/java)")
fi
[ "${#families[@]}" -gt 0 ] || skip "no port can run: ${missing[*]}"
keep_going

# vet OUT CASES [--property P...]: a run and a conform of the fix-* families into OUT; 0, or 1 with the reason.
vet() {
  local out="$1" cases="$2" rc=0
  shift 2
  # --timeout: node may need more than the default 5 s to start on a busy machine.
  "$qc" run --impl 'fix-*' --cases "$cases" --seed 36 --jobs 2 --timeout 60 --no-leaderboard "${plugins[@]}" \
    --out "$out" >"$out.run.log" 2>&1 || { echo "run exit $?: $(tail -2 "$out.run.log")"; return 1; }
  "$qc" conform --impl 'fix-*' --cases "$cases" --seed 36 --jobs 2 --timeout 60 "$@" "${plugins[@]}" \
    --out "$out" >"$out.conform.log" 2>&1 || rc=$?
  [ "$rc" -le 1 ] || { echo "conform exit $rc: $(tail -2 "$out.conform.log")"; return 1; }
}

# 1. The ports as shipped.
why=$(vet "$tmp/ok" 2000) || fail "${families[*]}: $why"
if /usr/bin/python3 "$check" "$tmp/ok" "$max_ulp1" "$max_nlerp_angle" "${families[@]}" >"$tmp/ok.check"; then
  pass "max ulp1 <= $max_ulp1 (slerp), angle to the exact nlerp <= $max_nlerp_angle rad, all finite, every property passes:"
  sed 's/^/     /' "$tmp/ok.check"
else
  fail "the ports' checks: $(cat "$tmp/ok.check")"
fi

# 2. Negative control: the planted near-0 defect fails the same checks, on its rows and no others.
before=$failures
export QC_FIX_PLANT=near0
why=$(vet "$tmp/plant" 500 --property finite --property endpoints) || fail "planted: ${families[*]}: $why"
unset QC_FIX_PLANT
status=0
/usr/bin/python3 "$check" "$tmp/plant" "$max_ulp1" "$max_nlerp_angle" "${families[@]}" >"$tmp/plant.check" || status=$?
[ "$status" -eq 1 ] || fail "negative control: the checks exit $status on the planted defect, not 1: $(head -3 "$tmp/plant.check")"
for f in "${families[@]}"; do
  for want in "$f.f64 slerp near-0: max_ulp1" "$f.f64 nlerp near-0: max_angle_err_vs_exact_nlerp_rad" \
              "$f.f64 slerp endpoints: fail" "$f.f64 nlerp endpoints: fail"; do
    grep -q "^$want" "$tmp/plant.check" || fail "negative control: no line '$want...' in: $(head -5 "$tmp/plant.check")"
  done
done
! grep -q ' uniform: ' "$tmp/plant.check" || fail "negative control: a uniform row was flagged: $(grep ' uniform: ' "$tmp/plant.check")"
[ "$failures" -gt "$before" ] ||
  pass "negative control (QC_FIX_PLANT=near0): $(wc -l <"$tmp/plant.check") violations, near-0 and endpoints of every port"

[ "$failures" -eq 0 ] && [ "${#missing[@]}" -gt 0 ] && skip "checked ${families[*]}; not ${missing[*]}"
finish
