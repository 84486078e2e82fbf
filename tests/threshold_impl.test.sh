#!/usr/bin/env bash
# `quatcheck threshold --impl X`: sweeping a user's own slerp_tau (plugin.h's qc_impl_v2, protocol 2 of
# docs/plugin-protocol.md) through the threshold study (harness/threshold/):
#  1. a v1 plugin still loads (and has no slerp_tau to sweep: one line, exit 2);
#  2. the example v2 plugin (impls/examples/tau_plugin.c) and the reference C adapter in protocol 2 give
#     exactly the rows of the study's own acos+nlerp (same arithmetic), hence its recommendation; the
#     comparison can fail (negative control: acos+lerp differs);
#  3. the three.js-style JS adapter (impls/js/three-tau.js) gets a recommendation (SKIP without node);
#  4. negative controls (impls/examples/bad_plugins/tau.c): a routine that ignores tau gets no
#     recommendation (tau_effect no), a damaged fallback none (or a far smaller 1 - tau), NaN outputs are
#     counted; a crash in slerp_tau, and an adapter's crash or garbage, end the study with one line naming
#     the case, exit 2 and no report.
# Usage: threshold_impl.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
v1="$build/impls/examples/example_plugin.so"
v2="$build/impls/examples/tau_plugin.so"
bad="$build/bad_plugins/bad_tau.so"
adapter="$build/process/c_adapter"
small=(--points 40 --cases 300 --min-time 0 --jobs 2)

# ---- 1. v1 plugins load unchanged ----
"$qc" list --plugin "$v1" >"$tmp/list" 2>&1 || fail "list with the v1 example plugin: $(cat "$tmp/list")"
grep -q "^example-slerp.f64" "$tmp/list" || fail "the v1 plugin's example-slerp.f64 is not listed"
"$qc" list --plugin "$v2" >"$tmp/list2" 2>&1 || fail "list with the v2 plugin: $(cat "$tmp/list2")"
grep -q "^tau-example.f32" "$tmp/list2" && grep -q "^tau-example.f64" "$tmp/list2" || fail "the v2 plugin's families are not listed"
"$qc" threshold --plugin "$v1" --impl example-slerp "${small[@]}" --out "$tmp/v1" 2>"$tmp/v1.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/v1.err")" -eq 1 ] && grep -q "slerp_tau" "$tmp/v1.err" && [ ! -e "$tmp/v1" ] ||
  fail "threshold --impl on a v1 plugin: exit $rc, $(cat "$tmp/v1.err")"
"$qc" threshold --plugin "$v2" "${small[@]}" --out "$tmp/noimpl" 2>"$tmp/noimpl.err"
[ $? -eq 2 ] && grep -q "only with --impl" "$tmp/noimpl.err" || fail "--plugin without --impl: $(cat "$tmp/noimpl.err")"

# ---- 2. exact rows: the v2 plugin and the protocol-2 adapter equal acos+nlerp ----
"$qc" threshold "${small[@]}" --out "$tmp/families" 2>"$tmp/families.err" || fail "threshold (families): $(cat "$tmp/families.err")"
"$qc" threshold --plugin "$v2" --impl tau-example "${small[@]}" --out "$tmp/plugin" 2>"$tmp/plugin.err" ||
  fail "threshold --impl tau-example: $(cat "$tmp/plugin.err")"
grep -q "tau-example.f64: recommended tau = " "$tmp/plugin.err" || fail "no recommendation printed: $(cat "$tmp/plugin.err")"
"$qc" threshold --plugin-cmd "$adapter ok v2" --impl proc-seed-c "${small[@]}" --out "$tmp/proc" 2>"$tmp/proc.err" ||
  fail "threshold --impl proc-seed-c (protocol 2): $(cat "$tmp/proc.err")"
python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import csv, os, sys
tmp = sys.argv[1]
def rows(d, name):
    return list(csv.DictReader(open(os.path.join(tmp, d, name))))
fam = rows("families", "threshold.csv")
fam_sum = rows("families", "threshold_summary.csv")
def strip(r):  # all but the routine's name and the timings (nan for plugins)
    return {k: v for k, v in r.items() if k not in ("family", "ns_arc", "ns_fallback")}
def family_rows(rs, prec, name):
    return [strip(r) for r in rs if r["precision"] == prec and r["family"] == name]
for d, name in (("plugin", "tau-example"), ("proc", "proc-seed-c")):
    got = rows(d, "threshold.csv")
    for prec in ("f32", "f64"):
        mine = family_rows(got, prec, f"{name}.{prec}")
        ref = family_rows(fam, prec, "acos+nlerp")
        if len(mine) < 40 or mine != ref:
            sys.exit(f"FAIL: {d}: {name}.{prec}'s rows ({len(mine)}) differ from acos+nlerp's ({len(ref)})")
        if family_rows(fam, prec, "acos+lerp") == mine:
            sys.exit(f"FAIL: negative control: acos+lerp's rows equal {name}.{prec}'s")
    s = {r["precision"]: r for r in rows(d, "threshold_summary.csv")}
    for prec in ("f32", "f64"):
        ref = [r for r in fam_sum if r["precision"] == prec and r["family"] == "acos+nlerp"][0]
        if not s[prec]["recommended_tau"] or s[prec]["tau_effect"] != "yes":
            sys.exit(f"FAIL: {d}: no recommendation for {name}.{prec}: {s[prec]}")
        if s[prec]["recommended_tau"] != ref["recommended_tau"]:
            sys.exit(f"FAIL: {d}: {name}.{prec} recommends {s[prec]['recommended_tau']}, acos+nlerp {ref['recommended_tau']}")
print(f"ok   tau-example and proc-seed-c equal acos+nlerp row for row; tau* f64 = {s['f64']['recommended_tau']}")
PY

# Timing: an adapter's routine is timed from its own clock (ns columns positive), a shared-library plugin's
# is not (nan); no figure is asserted.
"$qc" threshold --plugin-cmd "$adapter ok v2" --impl proc-seed-c.f64 --plugin "$v2" --impl tau-example.f64 --points 40 --cases 300 --min-time 0.001 \
  --jobs 2 --out "$tmp/timed" 2>"$tmp/timed.err" || fail "threshold with timing: $(cat "$tmp/timed.err")"
python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import csv, math, os, sys
allrows = list(csv.DictReader(open(os.path.join(sys.argv[1], "timed", "threshold.csv"))))
rows = [r for r in allrows if r["family"] == "proc-seed-c.f64"]
so = [r for r in allrows if r["family"] == "tau-example.f64"]
if not so or any(r["ns_arc"] != "nan" or r["ns_fallback"] != "nan" for r in so):
    sys.exit("FAIL: the shared-library plugin's routine (a worker that does not time itself) got a timing")
bad = [r for r in rows if not (float(r["ns_arc"]) > 0 and float(r["ns_fallback"]) > 0)]
if not rows or bad:
    sys.exit(f"FAIL: proc-seed-c.f64 rows without the adapter's timing: {bad[:2]}")
print(f"ok   adapter-timed branches: {rows[0]['ns_arc']} ns (arc), {rows[0]['ns_fallback']} ns (fallback) at 1 - tau = {rows[0]['one_minus_tau']}")
PY

# ---- 3. the three.js-style JS adapter ----
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed: impls/js/three-tau.js not exercised"
else
  "$qc" threshold --plugin-cmd "node $src/impls/js/three-tau.js" --impl three-style-tau "${small[@]}" --out "$tmp/js" \
    2>"$tmp/js.err" || fail "threshold --impl three-style-tau: $(cat "$tmp/js.err")"
  python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import csv, os, sys
tmp = sys.argv[1]
s = list(csv.DictReader(open(os.path.join(tmp, "js", "threshold_summary.csv"))))
fam = {r["family"]: r for r in csv.DictReader(open(os.path.join(tmp, "families", "threshold_summary.csv"))) if r["precision"] == "f64"}
if [r["family"] for r in s] != ["three-style-tau.f64"] or s[0]["tau_effect"] != "yes" or not s[0]["recommended_tau"]:
    sys.exit(f"FAIL: three-style-tau: {s}")
# Same structure as acos+nlerp (acos arc, normalised lerp): its tau* is within a few grid steps of the family's.
mine = float.fromhex(s[0]["recommended_one_minus_tau"])
ref = float.fromhex(fam["acos+nlerp"]["recommended_one_minus_tau"])
if not (ref / 4 <= mine <= ref * 4):
    sys.exit(f"FAIL: three-style-tau recommends 1 - tau = {mine}, acos+nlerp {ref}")
print(f"ok   three-style-tau.f64: tau* = {s[0]['recommended_tau']} (acos+nlerp {fam['acos+nlerp']['recommended_tau']})")
PY
fi

# ---- 4. negative controls ----
"$qc" threshold --plugin "$bad" --impl bad-tau-ignored --impl bad-tau-damaged --impl bad-tau-nan "${small[@]}" \
  --out "$tmp/bad" 2>"$tmp/bad.err" || fail "threshold on the bad routines: $(cat "$tmp/bad.err")"
grep -q "bad-tau-ignored.f64: no recommendation: tau changed no output" "$tmp/bad.err" || fail "ignored tau not reported: $(cat "$tmp/bad.err")"
python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import csv, os, sys
tmp = sys.argv[1]
s = {r["family"]: r for r in csv.DictReader(open(os.path.join(tmp, "bad", "threshold_summary.csv")))}
rows = list(csv.DictReader(open(os.path.join(tmp, "bad", "threshold.csv"))))
good = {r["family"]: r for r in csv.DictReader(open(os.path.join(tmp, "plugin", "threshold_summary.csv")))}["tau-example.f64"]
ign = s["bad-tau-ignored.f64"]
if ign["tau_effect"] != "no" or ign["recommended_tau"]:
    sys.exit(f"FAIL: a routine that ignores tau got {ign}")
# Without the tau_effect rule it would have looked perfect: every row within the floor (what the rule is for).
ign_rows = [r for r in rows if r["family"] == "bad-tau-ignored.f64"]
if not all(float(r["max_angle_err_rad"]) <= 2 * float(r["arc_floor_rad"]) for r in ign_rows):
    sys.exit("FAIL: the ignored-tau rows are not the perfect-looking ones the rule guards against")
dam = s["bad-tau-damaged.f64"]
if dam["tau_effect"] != "yes":
    sys.exit(f"FAIL: damaged: {dam}")
if dam["recommended_one_minus_tau"] and float.fromhex(dam["recommended_one_minus_tau"]) >= float.fromhex(good["recommended_one_minus_tau"]) / 16:
    sys.exit(f"FAIL: the damaged fallback got a recommendation near the good one: {dam}")
nan = s["bad-tau-nan.f64"]
if nan["recommended_tau"] or not all(int(r["nonfinite"]) > 0 for r in rows if r["family"] == "bad-tau-nan.f64"):
    sys.exit(f"FAIL: NaN outputs not counted or recommended anyway: {nan}")
print("ok   ignored tau, damaged fallback and NaN outputs get no recommendation")
PY
expect_contained() {  # OUT_NAME REGEX ARGS...
  local name="$1" re="$2"
  shift 2
  "$qc" threshold "$@" "${small[@]}" --out "$tmp/$name" 2>"$tmp/$name.err"
  local rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/$name.err")" -ne 1 ] || ! grep -Eq "$re" "$tmp/$name.err" || [ -e "$tmp/$name" ]; then
    fail "$name: exit $rc (want 2, one line matching $re, no report): $(cat "$tmp/$name.err")"
  else
    echo "ok   $name: $(cat "$tmp/$name.err")"
  fi
}
# The trigger is t in (0.9, 1) (bad_plugins/common.h) and t > 0.75 (c_adapter): the named case must have it.
expect_contained crash "^quatcheck: bad-tau-crash.f64: slerp_tau crashed at tau = .*, t = 0x1\.[c-f].*: killed by SIGSEGV" \
  --plugin "$bad" --impl bad-tau-crash
expect_contained proc-crash "^quatcheck: proc-seed-c.f64: slerp_tau crashed at tau = .*, t = 0x1\.[89a-f].*" \
  --plugin-cmd "$adapter crash v2" --impl proc-seed-c.f64
expect_contained proc-hang "^quatcheck: proc-seed-c.f64: slerp_tau timeout at tau = .*, t = 0x1\.[89a-f].*: no answer within 1 s" \
  --plugin-cmd "$adapter hang v2" --impl proc-seed-c.f64 --timeout 1
expect_contained proc-garbage "^quatcheck: proc-seed-c.f32: slerp_tau out-of-bounds .*protocol violation" \
  --plugin-cmd "$adapter garbage v2" --impl proc-seed-c.f32
finish
