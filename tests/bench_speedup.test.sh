#!/usr/bin/env bash
# scripts/speedup-30fdd8c (issue 45's whole run against the 30fdd8c build) without its heavy part: the table check
# (--compare) on two small fixture report folders, its argument handling, and the docs' block generator
# (scripts/readme/speedup_30fdd8c.py) on a fixture result. The check passes folders that differ only where issue 45
# allows it (summary.csv's max_angle_err_search_rad, worst_cases.csv's rows with source search, a sampled case the
# current build adds with the figure it attains, a column only one build writes, a number written differently) and,
# as negative controls, refuses every other difference: a sampled figure, a sampled worst case, a new sampled case
# that attains nothing, an error-curve bin, a missing row.
source "$(dirname "$0")/lib.sh" "$@"
script="$src/scripts/speedup-30fdd8c"
mk() {  # mk DIR: the 30fdd8c-style fixture
  mkdir -p "$1"
  cat >"$1/summary.csv" <<'CSV'
impl,op,region,cases,nonfinite,max_angle_err_rad,max_ulp1,max_angle_err_search_rad
a.f32,slerp,uniform,100,0,1.5e-07,2.5,3e-07
a.f32,slerp,near-0,100,0,2e-07,3,
CSV
  cat >"$1/worst_cases.csv" <<'CSV'
impl,op,region,t,angle_err_rad,source
a.f32,slerp,uniform,0x1p-1,1.5e-07,sampling
a.f32,slerp,uniform,0x1p-2,1e-07,sampling
a.f32,slerp,uniform,0x1.8p-1,3e-07,search
a.f32,slerp,near-0,0x1p-3,2e-07,sampling
CSV
  cat >"$1/error_curve.csv" <<'CSV'
impl,op,w_lo,w_hi,cases,max_angle_err_rad
a.f32,slerp,0,0.5,60,1.5e-07
a.f32,slerp,0.5,1,40,2e-07
CSV
}
mk "$tmp/old"
mk "$tmp/new"
# what issue 45 and issue 38 allow the current build to change
sed -i 's/,3e-07$/,4.5e-07/' "$tmp/new/summary.csv"
cat >"$tmp/new/worst_cases.csv" <<'CSV'
impl,op,region,t,angle_err_rad,source,attains
a.f32,slerp,uniform,0x1p-1,1.5e-07,sampling,max_angle_err_rad
a.f32,slerp,uniform,0x1p-2,1e-07,sampling,
a.f32,slerp,uniform,0x1.2p-1,9e-08,sampling,max_ulp1
a.f32,slerp,uniform,0x1.9p-1,4.5e-07,search,max_angle_err_search_rad
a.f32,slerp,near-0,0x1p-3,2.0e-07,sampling,max_angle_err_rad
CSV
"$script" --compare "$tmp/old" "$tmp/new" >"$tmp/out" 2>&1 || fail "the allowed differences were refused: $(cat "$tmp/out")"
grep -q "the same but for the search (2 search figures or rows differ" "$tmp/out" || fail "$(cat "$tmp/out")"
grep -q "note: worst_cases.csv: columns only in 30fdd8c's: none; only in the current build's: attains" "$tmp/out" ||
  fail "no note of the new column: $(cat "$tmp/out")"
grep -q "note: 1 cells hold the same number written differently" "$tmp/out" || fail "no note of 2e-07: $(cat "$tmp/out")"
pass "the same but for the search: $(tail -1 "$tmp/out")"

# refused DESCRIPTION PATTERN: after the fixture's change, --compare exits 1 naming the difference
refused() {
  local st=0
  "$script" --compare "$tmp/old" "$tmp/bad" >"$tmp/out" 2>&1 || st=$?
  [[ $st == 1 ]] || fail "$1: exit $st, expected 1: $(cat "$tmp/out")"
  grep -q -- "$2" "$tmp/out" || fail "$1: no line '$2': $(cat "$tmp/out")"
  pass "negative control, $1: $(grep -m1 DIFFERENT "$tmp/out")"
}
rm -rf "$tmp/bad" && cp -r "$tmp/new" "$tmp/bad" && sed -i 's/,1.5e-07,2.5,/,1.6e-07,2.5,/' "$tmp/bad/summary.csv"
refused "a sampled figure" "DIFFERENT: summary.csv a.f32/slerp/uniform: max_angle_err_rad '1.5e-07' (30fdd8c) != '1.6e-07'"
rm -rf "$tmp/bad" && cp -r "$tmp/new" "$tmp/bad" && sed -i 's/0x1p-2,1e-07,sampling/0x1p-2,1.1e-07,sampling/' "$tmp/bad/worst_cases.csv"
refused "a sampled worst case" "DIFFERENT: worst_cases.csv a.f32/slerp/uniform sampled case 2: angle_err_rad"
rm -rf "$tmp/bad" && cp -r "$tmp/new" "$tmp/bad" && sed -i 's/,sampling,max_ulp1$/,sampling,/' "$tmp/bad/worst_cases.csv"
refused "a new sampled case attaining nothing" "sampled case 3 is new and attains no summary figure"
rm -rf "$tmp/bad" && cp -r "$tmp/new" "$tmp/bad" && sed -i 's/,40,2e-07/,41,2e-07/' "$tmp/bad/error_curve.csv"
refused "an error-curve bin" "DIFFERENT: error_curve.csv line 3: cases '40' (30fdd8c) != '41'"
rm -rf "$tmp/bad" && cp -r "$tmp/new" "$tmp/bad" && sed -i '/near-0/d' "$tmp/bad/summary.csv"
refused "a missing summary row" "DIFFERENT: summary.csv: the rows differ"
rm -rf "$tmp/bad" && cp -r "$tmp/new" "$tmp/bad" && rm "$tmp/bad/error_curve.csv"
refused "a missing table" "DIFFERENT: .*error_curve.csv"

# Argument handling: one line and exit 2, before anything is built or run.
expect 2 "^speedup-30fdd8c: --rounds: expected 1 to 20, got 0$" "$script" --rounds 0
expect 2 "^speedup-30fdd8c: --jobs: expected 0 to 1024" "$script" --jobs -1
expect -F 2 "no quatcheck binary (build the current tree first, or pass --build)" "$script" --build "$tmp/nowhere"
expect -F 2 "--compare: $tmp/nowhere: not a folder" "$script" --compare "$tmp/nowhere" "$tmp/new"
pass "argument errors: one line, exit 2"

# The docs' block: the result's figures, its text escaped; a folder without the result keeps the block (exit 3).
gen="$src/scripts/readme/speedup_30fdd8c.py"
mkdir -p "$tmp/res"
cat >"$tmp/res/speedup_30fdd8c.json" <<'JSON'
{"old_commit": "30fdd8ccbe2ac629c71aa96260544873f3869cdf", "new_commit": "abc|<b>x</b>\nrow", "started": "2026-12-03",
 "hardware_threads": 2, "cases": 20000, "seed": 5, "rounds": 2, "jobs": null, "implementations": ["a.f32", "b.f64"],
 "old": {"wall_s": [300.5, 310.0], "cpu_s": [590.1, 600.0], "best_wall_s": 300.5, "cpu_s_of_best": 590.1},
 "new": {"wall_s": [100.0, 99.0], "cpu_s": [190.0, 189.0], "best_wall_s": 99.0, "cpu_s_of_best": 189.0},
 "speedup_wall": 3.035, "speedup_cpu": 3.122, "load_before": [1.5, 1.2, 1.1], "load_after": [2.25, 1.5, 1.2],
 "repeat_runs_identical": true,
 "tables": {"identical": true, "compared": ["summary.csv"], "search_differences": 7, "differences": [],
            "notes": ["a note | with <i>html</i>\nand a line break"]}}
JSON
/usr/bin/python3 "$gen" "$tmp/res" >"$tmp/block.md" 2>"$tmp/err" || fail "speedup_30fdd8c.py: $(cat "$tmp/err")"
grep -q '^| 30fdd8c (30fdd8ccbe2a, core only) | 300.50 | 590.10 | 300.50, 310.00 | 590.10, 600.00 |$' "$tmp/block.md" ||
  fail "the old build's row: $(cat "$tmp/block.md")"
grep -qF '| current (abc\|\<b>x\</b> row) | 99.00 | 189.00 |' "$tmp/block.md" || fail "the current row: $(cat "$tmp/block.md")"
grep -qF 'Speed-up: **3.04x** wall, 3.12x CPU (goal ≥ 3x: met)' "$tmp/block.md" || fail "the ratio: $(cat "$tmp/block.md")"
grep -qF 'load average 1.50 1.20 1.10 before and 2.25 1.50 1.20 after' "$tmp/block.md" || fail "the load"
grep -qF -- '- a note \| with \<i>html\</i> and a line break' "$tmp/block.md" || fail "the note: $(cat "$tmp/block.md")"
[ "$(grep -c '^|' "$tmp/block.md")" = 4 ] || fail "rows added by the text: $(cat "$tmp/block.md")"
st=0
/usr/bin/python3 "$gen" "$tmp/old" >/dev/null 2>&1 || st=$?
[[ $st == 3 ]] || fail "a folder without the result: exit $st, expected 3 (keep the block)"
pass "the docs' block: figures, escaped text, a folder without the result keeps it"
