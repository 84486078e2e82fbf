#!/usr/bin/env bash
# quatcheck report end to end: draw a report from a small real run (plus fixture CSVs for the tables the run
# does not write), check it is self-contained, render it in headless Chromium and check every image decoded
# and no console message or script error appeared; a page with a broken image and a console error must be
# caught by the same check (negative control). Missing CSVs show as missing; bad CSVs give exit 2.
# The screenshot is kept in BUILD_DIR/test-artefacts/report.png.
# Usage: bash tests/report_render.test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
qc="$build/quatcheck"
art="$build/test-artefacts"
work="$art/report_render"
rm -rf "$work"
mkdir -p "$work"
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
command -v chromium >/dev/null || fail "chromium is not installed (scripts/setup installs it)"

# Loads FILE in headless Chromium; prints the load status span and leaves console lines in $2.
render() {
  local ud
  ud="$(mktemp -d)"
  timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$ud" \
    --enable-logging=stderr --v=0 --virtual-time-budget=10000 --dump-dom "file://$1" 2>"$2.log" >"$2.dom"
  rm -rf "$ud"
  grep -o '<span id="qc-load-status"[^>]*>' "$2.dom" || true
  grep ':CONSOLE' "$2.log" >"$2" || true
}

# --- a real run, plus fixtures for what it does not write ---
"$qc" run --impl seed-c --impl nlerp --impl lerp --cases 300 --seed 5 --jobs 2 --out r 2>/dev/null
fixture() { [ -e "r/$1" ] || { printf '%s' "$2" >"r/$1"; echo "fixture: $1"; }; }
fixture conformance.csv 'impl,op,property,verdict,cases,tolerance,worst,counterexample,reproduce
seed-c.f64,slerp,endpoints,pass,1000,0,0,,
lerp.f32,slerp,unit-norm,fail,1000,4,12.5,"q0=(0x1p+0,0x0p+0,0x0p+0,0x0p+0) q1=(0x0p+0,0x1p+0,0x0p+0,0x0p+0) t=0x1p-1",quatcheck conform --impl lerp.f32 --case fixture
'
fixture timing.csv 'impl,op,region,mode,ns_per_call,cv,repetitions
seed-c.f32,slerp,uniform,latency,21.5,0.01,5
seed-c.f32,slerp,near-0,latency,19.0,0.01,5
seed-c.f64,slerp,uniform,latency,25.0,0.02,5
nlerp.f32,nlerp,uniform,latency,6.1,0.01,5
lerp.f32,slerp,uniform,latency,4.0,0.01,5
'
fixture velocity_curve.csv 'impl,op,arc_deg,t,phi_rad,phi_ideal_rad,timing_err,speed_rel_err,track
nlerp.f32,nlerp,90,0,0,0,0,-0.17,
nlerp.f32,nlerp,90,0.5,0.785,0.785,0,0.17,
nlerp.f32,nlerp,90,1,1.571,1.571,0,-0.17,
seed-c.f32,slerp,90,0,0,0,0,0,
seed-c.f32,slerp,90,0.5,0.785,0.785,0,0,
seed-c.f32,slerp,90,1,1.571,1.571,0,0,
'
fixture threshold.csv 'precision,family,one_minus_tau,max_angle_err_rad,p99_angle_err_rad,max_ulp1,max_norm_err_ulp1,jump_rad,ns_arc,ns_fallback,tau,arc_floor_rad,ideal_step_rad,cases,nonfinite
f32,seed-c,1e-6,2e-7,1e-7,2,1,1e-7,20,5,0.999999,2e-7,0,100,0
f32,seed-c,5e-4,3e-5,2e-5,200,1,3e-5,20,5,0.9995,2e-7,0,100,0
'
fixture threshold_summary.csv 'precision,family,recommended_one_minus_tau,recommended_tau,max_angle_err_at_recommended_rad
f32,seed-c,1e-6,0.999999,2e-7
'

# --- draw ---
"$qc" report r 2>report.err || { cat report.err; fail "quatcheck report exited non-zero"; }
[ -s r/report.html ] || fail "no report.html"
nplots=$(ls r/plots/*.png | wc -l)
for id in error_vs_arc_slerp_f32 error_vs_arc_nlerp_f64 ulp1_hist_slerp_f32 velocity_nlerp threshold \
          timing_slerp_latency accuracy_vs_cost_latency; do
  grep -q "id=\"fig-$id\"" r/report.html || fail "report.html has no figure $id"
  [ -s "r/plots/$id.png" ] || fail "plots/$id.png missing"
done
[ "$(grep -o '<figcaption>' r/report.html | wc -l)" -eq "$nplots" ] || fail "not one caption per plot"
grep -q 'href="#cx-1"' r/report.html && grep -q 'id="cx-1"' r/report.html || fail "failing property does not link to its counterexample"
grep -q 'quatcheck conform --impl lerp.f32 --case fixture' r/report.html || fail "counterexample's reproducer missing"
# self-contained: every image inline, nothing fetched from anywhere
[ "$(grep -o '<img [^>]*src="data:image/png;base64,' r/report.html | wc -l)" -eq "$nplots" ] || fail "an image is not embedded"
! grep -Eq '(src|href)="(https?:|file:|//)' r/report.html || fail "report.html references an external resource"
! grep -q 'src="plots/' r/report.html || fail "report.html links plot files instead of embedding them"

# --- render in headless Chromium ---
status=$(render "$work/r/report.html" console)
echo "rendered: $status"
[[ "$status" == *"data-images=\"$nplots\""* ]] || fail "Chromium saw a different number of images ($status, $nplots plots)"
[[ "$status" == *'data-broken="0"'* ]] || fail "broken image in Chromium: $status"
[[ "$status" == *'data-errors="0"'* ]] || fail "script error in Chromium: $status"
[ ! -s console ] || { cat console; fail "console messages while loading the report"; }
ud="$(mktemp -d)"
timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$ud" \
  --hide-scrollbars --window-size=1400,5000 --screenshot="$art/report.png" "file://$work/r/report.html" 2>/dev/null
rm -rf "$ud"
[ -s "$art/report.png" ] || fail "no screenshot"
echo "screenshot: $art/report.png"

# Negative control: the same check must catch a broken image and a console error.
sed 's|<nav>|<img src="data:image/png;base64,AAAA"><script>console.error("qc negative control")</script><nav>|' \
  r/report.html >broken.html
status=$(render "$work/broken.html" console-broken)
[[ "$status" == *'data-broken="1"'* ]] || fail "negative control: the broken image was not detected ($status)"
grep -q 'qc negative control' console-broken || fail "negative control: the console error was not caught"

# --- a folder with only summary.csv: everything else shows as missing, not as an error ---
mkdir -p only
cp r/summary.csv only/
"$qc" report only 2>/dev/null || fail "a report folder with only summary.csv must still draw"
for f in error_curve.csv velocity_curve.csv threshold.csv timing.csv leaderboard.csv conformance.csv; do
  grep -q "Missing: <code>$f</code>" only/report.html || fail "missing $f is not shown as missing"
done
status=$(render "$work/only/report.html" console-only)
[[ "$status" == *'data-broken="0"'* && "$status" == *'data-errors="0"'* ]] || fail "summary-only report: $status"

# --- bad input: one line, exit 2, FILE:LINE ---
mkdir -p bad
cp r/summary.csv bad/
sed '3s/,[0-9.e+-]*,[0-9.e+-]*,[0-9.e+-]*,[0-9]*,log$/,oops,1,1,0,log/' r/error_curve.csv >bad/error_curve.csv
set +e
"$qc" report bad 2>bad.err
rc=$?
"$qc" report no-such-folder 2>nofolder.err
rc2=$?
set -e
[ "$rc" -eq 2 ] || fail "malformed error_curve.csv: exit $rc, expected 2"
grep -qx "quatcheck: report: bad/error_curve.csv:3: column max_angle_err_rad: 'oops' is not a number" bad.err ||
  { cat bad.err; fail "malformed error_curve.csv: wrong message"; }
[ ! -e bad/report.html ] || fail "a half-drawn report was left behind"
[ "$rc2" -eq 2 ] && [ "$(wc -l <nofolder.err)" -eq 1 ] || fail "missing folder: expected one line and exit 2"
echo "report_render: ok ($nplots plots)"
