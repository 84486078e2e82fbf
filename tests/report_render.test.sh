#!/usr/bin/env bash
# quatcheck report end to end: draw a report from a small real run (plus fixture CSVs for the tables the run
# does not write), check it is self-contained, render the overview and two library cards in headless
# Chromium and check every image decoded and no console message or script error appeared; check the
# leaderboard's sorting and filtering in the DOM after the page's script ran; hold every figure to the
# readability budget (at most 8 named series per axes; a card's error curve: the implementation, one
# comparison and the floor) and the overview to its weight budget. Negative controls: a page with a broken
# image and a console error, an unsorted table and an over-crowded figure must each be caught.
# Absent CSVs leave their sections out (one grey line names them); bad CSVs give exit 2.
# Screenshots: BUILD_DIR/test-artefacts/report.png, report-card-1.png, report-card-2.png.
# QC_REPORT_FULL=DIR (nightly) also draws a copy of a full report folder (e.g. reports/latest of the default
# run) and checks its budget: overview at most 3 MB and loaded in under 2 s in headless Chromium.
# Usage: bash tests/report_render.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
art="$build/test-artefacts"
work="$art/report_render"
rm -rf "$work"
mkdir -p "$work"
cd "$work"

# Chromium is not in the core profile (scripts/setup --core): without it this test is skipped, visibly.
command -v chromium >/dev/null || skip "chromium is not installed (scripts/setup installs it; not in the core profile)"

# Loads FILE (a file:// address, with a #fragment if any) in headless Chromium; prints the load status span,
# leaves the DOM after the page's scripts ran in $2.dom and console lines in $2. With a third argument
# "real", no virtual time: the page's own performance.now() at load is then wall-clock time.
render() {
  local ud vt=(--virtual-time-budget=10000)
  [ "${3:-}" = real ] && vt=()
  ud="$(mktemp -d)"
  timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$ud" \
    --enable-logging=stderr --v=0 "${vt[@]}" --dump-dom "file://$1" 2>"$2.log" >"$2.dom"
  rm -rf "$ud"
  grep -o '<span id="qc-load-status"[^>]*>' "$2.dom" || true
  grep ':CONSOLE' "$2.log" >"$2" || true
}
screenshot() {
  local ud
  ud="$(mktemp -d)"
  timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$ud" \
    --hide-scrollbars --window-size=1400,3000 --screenshot="$2" "file://$1" 2>/dev/null
  rm -rf "$ud"
  [ -s "$2" ] || fail "no screenshot $2"
  echo "screenshot: $2"
}
# Checks one page: every image decoded, no script error, no console line, one caption per plot.
check_page() {
  local page="$1" name="$2" status nplots
  nplots=$(grep -o '<figure id="fig-' "$page" | wc -l)
  [ "$(grep -o '<figcaption>' "$page" | wc -l)" -eq "$nplots" ] || fail "$page: not one caption per plot"
  [ "$(grep -o '<img [^>]*src="data:image/png;base64,' "$page" | wc -l)" -eq "$nplots" ] || fail "$page: an image is not embedded"
  ! grep -Eq '(src|href)="(https?:|file:|//)' "$page" || fail "$page references an external resource"
  ! grep -q 'src="[^d"]' "$page" || fail "$page links a file instead of embedding it"
  status=$(render "$page" "$name")
  echo "rendered $page: $status"
  [[ "$status" == *"data-images=\"$nplots\""* ]] || fail "$page: Chromium saw a different number of images ($status, $nplots plots)"
  [[ "$status" == *'data-broken="0"'* ]] || fail "$page: broken image in Chromium: $status"
  [[ "$status" == *'data-errors="0"'* ]] || fail "$page: script error in Chromium: $status"
  [ ! -s "$name" ] || { cat "$name"; fail "$page: console messages while loading"; }
}
# Readability budget: every figure names at most 8 series per axes (data-series, counted by the script
# from the figure's legends); on a card the error curve shows at most 3 (itself, one comparison, the floor).
check_series() {
  python3 - "$@" <<'PY'
import re, sys
bad = []
for page in sys.argv[1:]:
    text = open(page, encoding="utf-8").read()
    for fig, n in re.findall(r'<figure id="fig-([^"]+)" data-series="(\d+)"', text):
        limit = 3 if "/cards/" in page and fig.startswith("error_vs_arc") else 8
        if int(n) > limit:
            bad.append(f"{page}: figure {fig} has {n} series per axes (at most {limit})")
    if '<figure id="fig-' in text and 'data-series=' not in text:
        bad.append(f"{page}: figures without data-series")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}
# The leaderboard in a DOM dump: prints "key dir visible" and checks that the visible rows are ordered by
# the sort column (numbers by value, blanks last) and that every visible row matches each FILTER=VALUE.
check_sorted() {
  python3 - "$@" <<'PY'
import html.parser, sys
dom, filters = sys.argv[1], dict(a.split("=", 1) for a in sys.argv[2:])
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.table = None; self.heads = []; self.rows = []; self.row = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "lb-table":
            self.table = a
        elif self.table is not None:
            if tag == "th":
                self.heads.append(a)
            elif tag == "tr" and "data-op" in a:
                self.row = (a, []); self.rows.append(self.row)
            elif tag == "td" and self.row is not None:
                self.row[1].append(a.get("data-v"))
p = P(); p.feed(open(dom, encoding="utf-8").read())
if p.table is None:
    sys.exit("no table lb-table in the DOM")
key, d = p.table.get("data-sort-key", ""), p.table.get("data-sort-dir", "")
visible = [r for r in p.rows if "hidden" not in r[0]]
print(key, d, len(visible), len(p.rows))
problems = [] if visible else ["no visible row"]
if key:
    i = [h.get("data-key") for h in p.heads].index(key)
    num = p.heads[i].get("data-type") == "num"
    vals = [r[1][i] for r in visible]
    def k(v):
        if num:
            return (v in ("", None), float(v) if v not in ("", None) else 0.0)
        return (False, (v or "").lower())
    keys = [k(v) for v in vals]
    if d == "asc" and keys != sorted(keys):
        problems.append(f"rows not in ascending order of {key}: {vals}")
    if d == "desc":
        filled = [x for x in keys if not x[0]]
        if filled != sorted(filled, reverse=True) or keys != filled + [x for x in keys if x[0]]:
            problems.append(f"rows not in descending order of {key}: {vals}")
    if p.heads[i].get("aria-sort") != ("descending" if d == "desc" else "ascending"):
        problems.append(f"column {key} is not marked as sorted")
for f, v in filters.items():
    off = [r[0].get("data-impl") for r in visible if r[0].get("data-" + f) != v]
    if off:
        problems.append(f"filter {f}={v}: visible rows {off}")
if filters and p.table.get("data-visible") != str(len(visible)):
    problems.append("data-visible does not count the visible rows")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
}

# --- a real run, plus fixtures for what it does not write ---
"$qc" run --impl seed-c.f64 --impl lerp.f32 --impl 'nlerp.*' --cases 300 --seed 5 --jobs 2 --out r 2>/dev/null
fixture() { [ -e "r/$1" ] || { printf '%s' "$2" >"r/$1"; echo "fixture: $1"; }; }
fixture conformance.csv 'impl,op,property,verdict,cases,tolerance,worst,counterexample,reproduce
seed-c.f64,slerp,endpoints,pass,1000,0,0,,
lerp.f32,slerp,unit-norm,fail,1000,4,12.5,0x1p+0 0x0p+0 0x0p+0 0x0p+0 0x0p+0 0x1p+0 0x0p+0 0x0p+0 0x1p-1,quatcheck conform --impl lerp.f32 --case fixture
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
# findings/ (quatcheck findings, docs/findings.md) for the nlerp family only: its card links the README and
# shows the reproducer in its language; lerp.f32, without a finding, keeps the C snippet.
mkdir -p r/findings/nlerp
printf '%s\n' '{"factor": 100, "libraries": [{"library": "nlerp", "folder": "nlerp", "group": "seed", "version": "",
 "families": ["nlerp"], "language": "C++", "api": false, "reproducer": "repro.cpp", "documented": 0,
 "causes": [{"title": "fixture-finding-sentence", "severity": "broken promise", "findings": 1, "impls": ["nlerp.f32"],
 "fix": {"offered": true, "cases": 1, "failed": 0, "max_angle_rad": 0}}]}]}' > r/findings/index.json
printf '%s\n' '// fixture-reproducer-source' 'int main() { return 1; }' > r/findings/nlerp/repro.cpp

# --- draw ---
"$qc" report r 2>report.err || { cat report.err; fail "quatcheck report exited non-zero"; }
[ -s r/report.html ] || fail "no report.html"
for id in error_vs_arc_slerp_f32 error_vs_arc_nlerp_f64 velocity_nlerp threshold timing_slerp_latency \
          accuracy_vs_cost_latency; do
  grep -q "id=\"fig-$id\"" r/report.html || fail "report.html has no figure $id"
  [ -s "r/plots/$id.png" ] || fail "plots/$id.png missing"
done
for impl in seed-c.f64 lerp.f32 nlerp.f32; do
  [ -s "r/cards/$impl.html" ] || fail "no card for $impl"
  grep -q "href=\"cards/$impl.html\"" r/report.html || fail "the overview does not link the card of $impl"
done
for id in error_vs_arc_slerp ulp1_slerp; do
  grep -q "id=\"fig-$id\"" r/cards/seed-c.f64.html || fail "the card of seed-c.f64 has no figure $id"
done
grep -q 'id="fig-velocity_nlerp"' r/cards/nlerp.f32.html || fail "the card of nlerp.f32 has no velocity figure"
grep -q 'What it is: ' r/cards/seed-c.f64.html || fail "the card of seed-c.f64 does not say what it is (quatcheck list --summary)"
# a failing property: the overview's matrix links to the card, the card shows counterexample, reproducer, snippet
grep -q 'href="cards/lerp.f32.html#prop-slerp-unit-norm"' r/report.html || fail "failing property does not link to its card"
grep -q 'id="prop-slerp-unit-norm"' r/cards/lerp.f32.html || fail "the card has no section for the failing property"
grep -q 'quatcheck conform --impl lerp.f32 --case fixture' r/cards/lerp.f32.html || fail "counterexample's reproducer missing"
grep -q 'impl-&gt;slerp_f32(q0, q1_0, 0x1p-1, out);' r/cards/lerp.f32.html || fail "the card's C snippet does not call the routine on the case"
grep -q 'href="../findings/nlerp/README.md"' r/cards/nlerp.f32.html || fail "the card of nlerp.f32 does not link its finding"
grep -q 'fixture-finding-sentence' r/cards/nlerp.f32.html || fail "the card of nlerp.f32 does not say what goes wrong"
grep -q 'Standalone reproducer in C++' r/cards/nlerp.f32.html && grep -q '// fixture-reproducer-source' r/cards/nlerp.f32.html ||
  fail "the card of nlerp.f32 does not show its reproducer"
! grep -q 'findings/' r/cards/lerp.f32.html || fail "the card of lerp.f32 links a finding it does not have"
# every figure within the readability budget; the overview within its weight budget
check_series r/report.html r/cards/*.html || fail "a figure over the series budget"
size=$(stat -c %s r/report.html)
[ "$size" -le 3000000 ] || fail "report.html weighs $size bytes (budget 3 MB)"
echo "overview: $size bytes, $(ls r/cards | wc -l) cards, $(ls r/plots/*.png | wc -l) plots"

# --- render in headless Chromium: the overview and two cards ---
check_page "$work/r/report.html" console
check_page "$work/r/cards/seed-c.f64.html" console-card1
check_page "$work/r/cards/lerp.f32.html" console-card2
screenshot "$work/r/report.html" "$art/report.png"
screenshot "$work/r/cards/seed-c.f64.html" "$art/report-card-1.png"
screenshot "$work/r/cards/lerp.f32.html" "$art/report-card-2.png"

# --- sorting and filtering, in the DOM after the page's script ran ---
render "$work/r/report.html#sort=worst_max_angle_err_rad:desc" sort-desc >/dev/null
check_sorted sort-desc.dom || fail "sorting by max angle error, descending"
render "$work/r/report.html#sort=impl:asc&op=nlerp" sort-name >/dev/null
check_sorted sort-name.dom op=nlerp || fail "sorting by name with the op filter"
nl=$(awk -F, 'NR>1 && $3=="nlerp"' r/leaderboard.csv | wc -l)
grep -q "data-visible=\"$nl\"" sort-name.dom || fail "the op filter shows a different number of rows than leaderboard.csv has ($nl)"

# Negative controls: the same checks must catch a broken image and a console error, an unsorted table
# (the rank order checked as if sorted by error, descending) and a crowded figure.
sed 's|<nav>|<img src="data:image/png;base64,AAAA"><script>console.error("qc negative control")</script><nav>|' \
  r/report.html >broken.html
status=$(render "$work/broken.html" console-broken)
[[ "$status" == *'data-broken="1"'* ]] || fail "negative control: the broken image was not detected ($status)"
grep -q 'qc negative control' console-broken || fail "negative control: the console error was not caught"
cp console.dom unsorted.dom  # the overview's DOM as loaded: rank order
sed -i -e 's|data-sort-key=""|data-sort-key="worst_max_angle_err_rad"|' -e 's|data-sort-dir="asc"|data-sort-dir="desc"|' \
  -e 's|<th data-key="worst_max_angle_err_rad"|<th aria-sort="descending" data-key="worst_max_angle_err_rad"|' unsorted.dom
grep -q 'data-sort-key="worst_max_angle_err_rad"' unsorted.dom || fail "negative control: could not doctor the DOM"
! check_sorted unsorted.dom >/dev/null || fail "negative control: an unsorted table passed the sort check"
sed 's|data-series="[0-9]*"|data-series="30"|' r/report.html >crowded.html
! check_series crowded.html >/dev/null || fail "negative control: a 30-series figure passed the series budget"

# --- a folder with only summary.csv: what was not run is left out, not shown as missing nor as an error; one
# grey line names the studies the folder lacks (tests/report_truth.test.sh checks it in detail) ---
mkdir -p only
cp r/summary.csv only/
"$qc" report only 2>/dev/null || fail "a report folder with only summary.csv must still draw"
[ -s only/cards/seed-c.f64.html ] || fail "a summary-only folder must still have cards"
! grep -q "Missing" only/report.html only/cards/*.html || fail "a study that was not run is shown as missing"
for cmd in "quatcheck conform" "quatcheck leaderboard" "quatcheck curves" "quatcheck bench" "quatcheck threshold"; do
  grep -q "<p class=\"absent\">.*<code>$cmd " only/report.html || fail "the grey line does not name $cmd"
done
status=$(render "$work/only/report.html" console-only)
[[ "$status" == *'data-broken="0"'* && "$status" == *'data-errors="0"'* ]] || fail "summary-only report: $status"

# --- tables other commands add later: a declared one with an impl column shows on its cards, an
# undeclared one is left alone, neither stops the report ---
mkdir -p extra
cp r/schema.json extra/
grep -E '^(impl,|seed-c\.f64,|lerp\.f32,)' r/summary.csv >extra/summary.csv  # two cards are enough here
python3 - extra/schema.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["branch_map.csv"] = {"about": "test fixture", "key": ["impl", "op"], "columns": [
    {"name": n, "type": "text", "unit": "", "required": True, "may_be_empty": False} for n in ("impl", "op", "branch")]}
json.dump(s, open(sys.argv[1], "w"))
PY
printf 'impl,op,branch\nseed-c.f64,slerp,fixture-branch-nlerp-fallback\n' >extra/branch_map.csv
printf 'impl,recipe\nseed-c.f64,undeclared\n' >extra/recipes.csv
"$qc" report extra 2>extra.err || { cat extra.err; fail "a folder with an extra table must still draw"; }
grep -q 'fixture-branch-nlerp-fallback' extra/cards/seed-c.f64.html || fail "a declared extra table is not on its card"
! grep -q 'fixture-branch-nlerp-fallback' extra/cards/lerp.f32.html || fail "an extra table's row is on another card"
! grep -q 'undeclared' extra/report.html extra/cards/*.html || fail "an undeclared table was shown"

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

# --- the budget of a full report (nightly: QC_REPORT_FULL=reports/latest) ---
if [ -n "${QC_REPORT_FULL:-}" ]; then
  rm -rf full && cp -a "$QC_REPORT_FULL" full && rm -rf full/report.html full/cards full/plots
  "$qc" report full 2>full.err || { cat full.err; fail "quatcheck report on the full folder"; }
  size=$(stat -c %s full/report.html)
  [ "$size" -le 3000000 ] || fail "full report.html weighs $size bytes (budget 3 MB)"
  check_series full/report.html full/cards/*.html || fail "full report: a figure over the series budget"
  check_page "$work/full/report.html" console-full
  status=$(render "$work/full/report.html" load-full real)
  ms=$(sed -n 's/.*data-load-ms="\([0-9]*\)".*/\1/p' <<<"$status")
  echo "full report: $size bytes, loaded in $ms ms"
  [ -n "$ms" ] && [ "$ms" -lt 2000 ] || fail "full report: loading took ${ms:-?} ms (budget 2000)"
fi
echo "report_render: ok"
