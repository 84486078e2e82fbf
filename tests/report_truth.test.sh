#!/usr/bin/env bash
# The report says only what is true (issue 38 item 6), without a browser:
#   1. a study that was not run is not shown as missing: a run-and-conform folder's pages hold no "Missing"
#      text and exactly one grey line, which names the studies the folder lacks (squad, angular velocity,
#      timing, the threshold study, findings), each with its command, and not the ones it has (conformance,
#      sampling). Negative controls: a run-only folder's line also names conformance; a folder with every
#      study has no grey line at all.
#   2. each card opens with one plain sentence per failed property or region, generated from the tables: the
#      planted broken-unnormalised-fallback gets "not normalised: |r| is off by up to X" with X computed here
#      from conformance.csv (worst ulp1 x 2^-52); qc-slerp.f64, which passes, gets no sentence. Negative
#      control: with its unit row made to fail in conformance.csv (worst 1000), qc-slerp.f64's card says
#      "not normalised" with the figure of the edited row.
# Usage: bash tests/report_truth.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
cd "$tmp"
impls=(--impl seed-c.f64 --impl broken-unnormalised-fallback.f64 --impl qc-slerp.f64)
props=(--property unit --property finite --property endpoints --property shortest-arc --property symmetry)
"$qc" run "${impls[@]}" --cases 200 --seed 5 --jobs 2 --out only 2>/dev/null || fail "run"
cp -a only rc
rc=0; "$qc" conform "${impls[@]}" "${props[@]}" --cases 40 --seed 5 --jobs 2 --out rc >/dev/null 2>&1 || rc=$?
[ "$rc" -le 1 ] || fail "conform exited $rc"
cp -a rc all
for d in only rc; do "$qc" report "$d" 2>"$d.err" || { cat "$d.err"; fail "report $d"; }; done

# The grey line of a page: its text, or "none".
absent() { python3 - "$1" <<'PY'
import html, re, sys
lines = re.findall(r'<p class="absent">(.*?)</p>', open(sys.argv[1], encoding="utf-8").read(), re.S)
print(len(lines), html.unescape(re.sub(r"<[^>]+>", "", lines[0])) if lines else "none")
PY
}
pages() { echo "$1/report.html" "$1"/cards/*.html; }

# ---- 1. run and conform: no Missing, one grey line naming exactly what is absent ----
before=$failures
for p in $(pages rc); do
  if grep -q -e 'Missing' -e 'class="missing"' "$p"; then fail "$p shows a study as missing: $(grep -o 'Missing[^<]*' "$p" | head -2)"; fi
  a=$(absent "$p")
  [[ "$a" == 1\ * ]] || fail "$p: $(cut -d' ' -f1 <<<"$a") grey lines (want 1)"
done
a=$(absent rc/report.html)
for what in "squad: quatcheck squad" "angular velocity: quatcheck curves" "timing: quatcheck bench" \
            "threshold study: quatcheck threshold" "findings for maintainers: quatcheck findings $tmp/rc"; do
  [[ "$a" == *"$what"* ]] || fail "the grey line does not name '$what': $a"
done
for what in "conformance:" "sampling"; do
  [[ "$a" != *"$what"* ]] || fail "the grey line names '$what', which the folder has: $a"
done
[ "$failures" -eq "$before" ] && pass "run and conform: no Missing; $a"
# negative controls: run only names conformance too; a folder with everything has no grey line
before=$failures
a=$(absent only/report.html)
[[ "$a" == *"conformance: quatcheck conform --impl broken-unnormalised-fallback --impl qc-slerp --impl seed-c --out $tmp/only"* ]] ||
  fail "negative control: the run-only folder's grey line does not name conform: $a"
! grep -q 'Missing' only/report.html only/cards/*.html || fail "the run-only folder shows a study as missing"
rc=0; "$qc" squad --impl seed-squad --region random --tracks 2 --seed 5 --jobs 2 --out all >/dev/null 2>&1 || rc=$?
[ "$rc" -le 1 ] || fail "squad exited $rc"
"$qc" curves --impl seed-c.f64 --points 16 --out all >/dev/null 2>&1 || fail "curves"
printf 'impl,op,region,mode,ns_per_call,cv,repetitions\nseed-c.f64,slerp,uniform,latency,25.0,0.02,5\n' >all/timing.csv
printf '%s\n' 'precision,family,one_minus_tau,max_angle_err_rad,p99_angle_err_rad,max_ulp1,max_norm_err_ulp1,jump_rad,ns_arc,ns_fallback,tau,arc_floor_rad,ideal_step_rad,cases,nonfinite' \
  'f64,seed-c,5e-4,3e-5,2e-5,200,1,3e-5,20,5,0.9995,2e-7,0,100,0' >all/threshold.csv
"$qc" findings all >/dev/null 2>&1 || fail "findings"
"$qc" report all 2>all.err || { cat all.err; fail "report all"; }
for p in $(pages all); do
  [ "$(absent "$p")" = "0 none" ] || fail "negative control: $p of a folder with every study has a grey line: $(absent "$p")"
  ! grep -q 'Missing' "$p" || fail "$p shows a study as missing"
done
[ "$failures" -eq "$before" ] && pass "negative controls: run-only names conform; every study present: no grey line"

# ---- 2. plain sentences, generated from the tables ----
said() { python3 - "$1" <<'PY'
import html, re, sys
for s in re.findall(r'<li class="said">(.*?)</li>', open(sys.argv[1], encoding="utf-8").read(), re.S):
    print(html.unescape(re.sub(r"<[^>]+>", "", s)))
PY
}
# X = the worst |r| - 1 of conformance.csv's unit row, in the card's 3 significant digits
expected() { /usr/bin/python3 - "$1" "$2" <<'PY'
import csv, sys
sys.path.insert(0, sys.argv[2] + "/scripts")
from qc_report.base import sig3
for r in csv.DictReader(open(sys.argv[1])):
    if r["impl"] == "broken-unnormalised-fallback.f64" and r["property"] == "unit":
        print(sig3(float(r["worst"]) * 2.0 ** -52), r["verdict"])
PY
}
before=$failures
read -r x verdict <<<"$(expected rc/conformance.csv "$src")"
[ "$verdict" = fail ] || fail "the planted defect's unit row is '$verdict' (want fail)"
s=$(said rc/cards/broken-unnormalised-fallback.f64.html)
echo "$s" | sed 's/^/    said: /'
grep -qF "slerp: not normalised: |r| is off by up to $x from 1" <<<"$s" ||
  fail "the broken card does not say 'not normalised: |r| is off by up to $x': $s"
grep -q 'not normalised for keys near the 0.9995 fallback threshold' <<<"$s" ||
  fail "the broken card does not say which region's outputs are not normalised"
[ -z "$(said rc/cards/qc-slerp.f64.html)" ] || fail "the correct qc-slerp.f64 gets sentences: $(said rc/cards/qc-slerp.f64.html)"
[ "$failures" -eq "$before" ] && pass "broken-unnormalised-fallback.f64: 'not normalised: |r| is off by up to $x'; qc-slerp.f64: no sentence"
# negative control: the sentence follows the table, not the name
python3 - rc/conformance.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["impl"] == "qc-slerp.f64" and r["property"] == "unit":
        r["verdict"], r["worst"] = "fail", "1000"
w = csv.DictWriter(open(sys.argv[1], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader(); w.writerows(rows)
PY
"$qc" report rc 2>/dev/null || fail "report of the edited folder"
grep -qF "slerp: not normalised: |r| is off by up to 2.22e-13 from 1" <<<"$(said rc/cards/qc-slerp.f64.html)" ||
  fail "negative control: an edited unit row (worst 1000 ulp1) is not said on qc-slerp.f64's card: $(said rc/cards/qc-slerp.f64.html)"
finish
