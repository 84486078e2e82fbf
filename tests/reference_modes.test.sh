#!/usr/bin/env bash
# --reference fast against --reference mpfr on the same cases (issue 12): the default run's summary.csv
# must agree in every printed figure (a difference in the last printed digit only is listed, any larger
# one fails), every conformance verdict must be identical, and the fast run must report no bound violation.
# A run with a deliberately damaged fast path (QC_DAMAGE_FAST_PATH) must report violations: the negative
# control of the validation.
source "$(dirname "$0")/lib.sh" "$@"
cases="${QC_MODES_CASES:-$(sized 1000 3000)}"

for mode in fast mpfr; do
  "$qc" run --cases "$cases" --seed 11 --reference "$mode" --out "$tmp/$mode" 2>/dev/null
  "$qc" conform --cases 60 --seed 11 --reference "$mode" --impl 'seed-*' --impl 'broken-*' --out "$tmp/$mode" 2>/dev/null || [ $? -eq 1 ]
  "$qc" squad --tracks 20 --seed 11 --reference "$mode" --impl '*' --out "$tmp/$mode" 2>/dev/null || [ $? -eq 1 ]
done
# Squad: the double-double metrics against the same MPFR reference curve give the same tables.
for f in squad_summary.csv squad_conformance.csv; do
  cmp -s "$tmp/fast/$f" "$tmp/mpfr/$f" || { echo "FAIL: $f differs between --reference fast and mpfr" >&2; diff "$tmp/fast/$f" "$tmp/mpfr/$f" | head >&2; exit 1; }
done
echo "squad tables identical under both modes"

/usr/bin/python3 - "$tmp/fast" "$tmp/mpfr" <<'EOF'
import csv, json, sys
fast, mpfr = sys.argv[1], sys.argv[2]

def rows(d, name):
    with open(f"{d}/{name}", newline="") as f:
        return list(csv.DictReader(f))

def last_digit_apart(x, y):
    """x, y printed with the same number of significant digits and one unit of the last digit apart."""
    try:
        a, b = float(x), float(y)
    except ValueError:
        return False
    mant = x.split("e")[0].lstrip("-").replace(".", "").lstrip("0")
    digits = max(len(mant), 1)
    return abs(a - b) <= 1.01 * max(abs(a), abs(b)) * 10.0 ** (1 - digits)

failures, last = [], []
sf, sm = rows(fast, "summary.csv"), rows(mpfr, "summary.csv")
assert len(sf) == len(sm) and len(sf) > 100, (len(sf), len(sm))
cells = 0
for a, b in zip(sf, sm):
    key = (a["impl"], a["op"], a["region"])
    assert key == (b["impl"], b["op"], b["region"]), (key, b)
    for col in a:
        cells += 1
        if a[col] == b[col]:
            continue
        (last if last_digit_apart(a[col], b[col]) else failures).append((*key, col, a[col], b[col]))
for c in last:
    print("last printed digit differs:", *c)
for c in failures:
    print("FIGURE DIFFERS:", *c)
print(f"summary.csv: {cells} cells, {len(last)} differ in the last printed digit, {len(failures)} differ more")

cf, cm = rows(fast, "conformance.csv"), rows(mpfr, "conformance.csv")
assert len(cf) == len(cm) and len(cf) > 10
verdicts = 0
for a, b in zip(cf, cm):
    verdicts += 1
    if (a["impl"], a["op"], a["property"], a["verdict"]) != (b["impl"], b["op"], b["property"], b["verdict"]):
        failures.append(("conformance", a["impl"], a["op"], a["property"], a["verdict"], b["verdict"]))
        print("VERDICT DIFFERS:", a["impl"], a["op"], a["property"], a["verdict"], b["verdict"])
print(f"conformance.csv: {verdicts} verdicts compared")

ref = json.load(open(f"{fast}/run.json"))["reference"]
assert ref["mode"] == "fast", ref["mode"]
assert ref["fast_bound_violations"] == 0, ref
for p in ("f32", "f64"):
    s = ref[p]
    assert s["validation_samples"] > 0, s
    assert s["fast_certified"] + sum(s["fallbacks"].values()) == s["cases"], s
    print(f"{p}: {s['cases']} references, {s['fast_certified']} certified by the fast path, fallbacks {s['fallbacks']}, "
          f"{s['validation_samples']} validation samples, max error/bound {s['max_error_to_bound']:.3g}")
for p in ("f32", "f64"):
    g = ref[p]["search_screen"]
    assert g["violations"] == 0, g
    print(f"{p}: search screen skipped {g['screened']} references, {g['checks']} checked, {g['violations']} violations")
assert ref["f32"]["search_screen"]["screened"] > 0 and ref["f32"]["search_screen"]["checks"] > 0, ref["f32"]
m = json.load(open(f"{mpfr}/run.json"))["reference"]
assert m["mode"] == "mpfr"
assert m["f32"]["search_screen"]["screened"] == 0, m["f32"]  # every evaluation by MPFR in this mode
sys.exit(1 if failures else 0)
EOF

# Negative control: a damaged fast path is caught by the validation samples and counted in run.json.
for damage in sine_coefficient bound_too_small; do
  QC_DAMAGE_FAST_PATH="$damage" "$qc" run --cases 400 --seed 11 --impl 'seed-c.f64' --region uniform --out "$tmp/damaged" 2>/dev/null
  v="$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["reference"]["fast_bound_violations"])' "$tmp/damaged/run.json")"
  echo "damaged fast path ($damage): fast_bound_violations = $v"
  [ "$v" -gt 0 ] || { echo "FAIL: a damaged fast path ($damage) went unnoticed" >&2; exit 1; }
done
# Issue 45: the validation at its default rate. 310,000 cases in each of 5 regions give 1.55e6 cases per precision,
# so the default rate is 1 in 1024 (fast_check_rate_log2): each damage is still caught, and the run checks at least
# 1,000 cases; --paranoid checks 1 in 64 and gives the same tables (the checks only compare; the rate changes no
# figure).
for damage in none sine_coefficient bound_too_small batch_lane; do
  QC_DAMAGE_FAST_PATH="$damage" "$qc" run --cases 310000 --seed 11 --impl 'seed-c.f64' --op slerp --out "$tmp/rate-$damage" \
    --no-leaderboard 2>/dev/null || { echo "FAIL: the run at the default rate ($damage)" >&2; exit 1; }
  /usr/bin/python3 - "$tmp/rate-$damage/run.json" "$damage" <<'PY' || { echo "FAIL: the default rate ($damage), above" >&2; exit 1; }
import json, sys
r = json.load(open(sys.argv[1]))["reference"]
c, v = r["fast_check"], r["fast_bound_violations"]
print(f"default rate, damage {sys.argv[2]}: {c['rate']}, {c['checked']} checked, {v} violations")
assert c["rate"] == "1 in 1024" and c["paranoid"] is False and c["checked"] >= 1000, c
assert (v > 0) == (sys.argv[2] != "none"), (sys.argv[2], v)
PY
done
"$qc" run --cases 310000 --seed 11 --impl 'seed-c.f64' --op slerp --out "$tmp/rate-paranoid" --paranoid --no-leaderboard 2>/dev/null ||
  { echo "FAIL: run --paranoid" >&2; exit 1; }
grep -q '"rate": "1 in 64"' "$tmp/rate-paranoid/run.json" || { echo "FAIL: --paranoid is not 1 in 64" >&2; exit 1; }
for f in summary.csv worst_cases.csv error_curve.csv; do
  cmp -s "$tmp/rate-none/$f" "$tmp/rate-paranoid/$f" || { echo "FAIL: $f differs between 1 in 1024 and 1 in 64" >&2; exit 1; }
done
# Negative control: a screen that claims too small an upper bound is caught by its checks.
QC_DAMAGE_FAST_PATH=screen "$qc" run --cases 2000 --seed 11 --impl 'seed-c.f32' --out "$tmp/damaged" 2>/dev/null
v="$(/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["reference"]; print(r["f32"]["search_screen"]["violations"])' "$tmp/damaged/run.json")"
echo "damaged search screen: violations = $v"
[ "$v" -gt 0 ] || { echo "FAIL: a damaged search screen went unnoticed" >&2; exit 1; }
# The same for the second, double-double screen (f64 rows of errors near 1 ulp decide with it alone).
QC_DAMAGE_FAST_PATH=screen "$qc" run --cases 2000 --seed 11 --impl 'seed-c.f64' --op slerp --out "$tmp/damaged" 2>/dev/null
v="$(/usr/bin/python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["reference"]["f64"]["search_screen"]; print(g["violations"] if g["screened_dd"] > 0 else 0)' "$tmp/damaged/run.json")"
echo "damaged double-double search screen: violations = $v"
[ "$v" -gt 0 ] || { echo "FAIL: a damaged double-double search screen went unnoticed" >&2; exit 1; }
echo "reference modes agree"
