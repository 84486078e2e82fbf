#!/usr/bin/env bash
# scripts/readme/goals.py (docs/timing.md "Goals", issue 45) on fixture reports, without running bench: the goal table
# carries throughput.csv's figures with the machine's state beside each (machine_state.json: the load at the start and
# the end, numpy's BLAS and threads) and the whole-run speed-up of speedup_30fdd8c.json; a figure that is not in the
# folder is shown as not measured. Hostile input: text from the JSON files (a CPU model, an environment variable, a
# library path, a note) holding '|', line breaks, HTML and backslashes cannot add a row, split a cell or open a tag
# (qc_tables.md_cell, also checked alone). Negative controls: a folder with none of the figures is refused; one without
# machine_state.json says the state was not recorded.
source "$(dirname "$0")/lib.sh" "$@"
fixture_report
goals="$src/scripts/readme/goals.py"
cols="benchmark,op,precision,region,ns_per_case,cv,repetitions,recomputed_fraction,fallback_fraction"
{
  echo "$cols"
  echo "fast_reference,slerp,f64,all,500,0.01,3,,"
  echo "fast_reference_rate1024,slerp,f64,all,250,0.01,3,,"
  echo "numpy_f64_uncertified,slerp,f64,all,300,0.02,3,,"
  for op in slerp nlerp; do for p in f32 f64; do echo "metric_fast_batch,$op,$p,all,28,0.01,3,,"; done; done
  echo "metric_fast_batch,nlerp,f64,all,31,0.01,3,,"
  echo "runner_fast,slerp+nlerp,both,all,9000,0.01,3,,"
  echo "runner_fast_before,slerp+nlerp,both,all,27000,0.01,3,,"
  echo "sweep_t_point,slerp,f32,all,2000,0.01,3,,"
} >"$r/throughput.csv"
# the duplicate nlerp/f64 row: the last one read (31 ns) counts, as a dict keeps it
cat >"$r/bench_build.json" <<'JSON'
{"build": {"cpu_model": "Evil | CPU <img src=x onerror=alert(1)>\nnew row"}, "repetitions": 3, "min_time_s": 0.05,
 "hardware_threads": 2}
JSON
cat >"$r/machine_state.json" <<'JSON'
{"hardware_threads": 2, "load_average_start": [1.25, 1, 1], "load_average_end": [2.5, 1, 1],
 "env": {"OMP_NUM_THREADS": null},
 "numpy": {"version": "1.24.2 | <b>", "env": {"OMP_NUM_THREADS": "1|2\n| x |", "MKL_NUM_THREADS": null,
           "OPENBLAS_CORETYPE": "a\\|b"},
           "blas_loaded": ["/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0", "/tmp/evil|<script>.so"],
           "threadpoolctl": [{"internal_api": "openblas", "version": "0.3.21", "num_threads": 2}]}}
JSON
cat >"$r/speedup_30fdd8c.json" <<'JSON'
{"speedup_wall": 3.2, "old": {"best_wall_s": 320.0}, "new": {"best_wall_s": 100.0}, "tables": {"identical": true},
 "load_before": [1.1, 1, 1], "load_after": [1.9, 1, 1]}
JSON
/usr/bin/python3 "$goals" "$r" >"$tmp/out.md" 2>"$tmp/err" || fail "goals.py: $(cat "$tmp/err")"

# The table's shape: a header, a rule and 6 rows, each with exactly 6 unescaped '|' (5 cells).
/usr/bin/python3 - "$tmp/out.md" <<'EOF' || fail "the table's shape (above)"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
table = [l for l in lines if l.startswith("|")]
if len(table) != 8:
    sys.exit(f"FAIL: expected 8 table lines, got {len(table)}:\n" + "\n".join(lines))
for l in table:
    pipes = len(re.findall(r"(?<!\\)(?:\\\\)*\|", l))
    if pipes != 6:
        sys.exit(f"FAIL: {pipes} unescaped '|' in {l!r}")
if re.search(r"(?<!\\)<(img|script|b)", "\n".join(lines)):
    sys.exit("FAIL: an unescaped HTML tag:\n" + "\n".join(lines))
EOF
grep -q 'Evil \\| CPU \\<img src=x onerror=alert(1)> new row' "$tmp/out.md" || fail "the CPU model: $(head -1 "$tmp/out.md")"
row() { grep -F "| $1" "$tmp/out.md" || fail "no row '$1': $(cat "$tmp/out.md")"; }
ref="$(row "certified reference (validation 1 in 1,024) / numpy")"
[[ $ref == *'| 250 / 300 = 0.83x (cv 2.2 %) | ≤ 1.0x | met |'* ]] || fail "the reference row: $ref"
[[ $ref == *'load 1.25 at the start, 2.50 at the end (1 min)'* ]] || fail "the load beside the reference: $ref"
[[ $ref == *'numpy 1.24.2 \| \<b>, BLAS loaded: libblas.so.3.11.0, evil\|\<script>.so'* ]] ||
  fail "numpy's version and BLAS, escaped: $ref"
[[ $ref == *'threadpoolctl: openblas 0.3.21, 2 threads'* ]] || fail "threadpoolctl: $ref"
[[ $ref == *'OMP\_NUM\_THREADS=1\|2 \| x \|'* && $ref == *'OPENBLAS\_CORETYPE=a\\\|b'* ]] ||
  fail "the thread variables, escaped: $ref"
[[ $ref == *'unset: MKL\_NUM\_THREADS'* ]] || fail "an unset variable: $ref"
[[ "$(row "the same with validation 1 in 64")" == *'| 500 / 300 = 1.67x | — | (no goal) |'* ]] ||
  fail "the 1-in-64 row: $(row "the same with validation 1 in 64")"
# 31 ns, cv 1 %: the goal 1 ns away, beyond two spreads (0.62 ns): no "within noise"
[[ "$(row "certified metric")" == *'| 31.0 (cv 1.0 %) | ≤ 30 | **not met** | load 1.25'* ]] || fail "the metric row"
[[ "$(row "whole runner")" == *'| 27.0 / 9.0 µs = 3.00x | — | (no goal) |'* ]] || fail "the runner row"
# 2000 ns per point x 1,065,353,217 points / 2 cores = 17.8 min
[[ "$(row "exhaustive f32 t slice")" == *'| 17.8 min (2.00 µs per point, cv 1.0 % over the repetitions) | ≤ 30 min | met |'* ]] ||
  fail "the sweep row: $(row "exhaustive f32 t slice")"
[[ "$(row "whole default run")" == *'| 320.0 / 100.0 s = 3.20x | ≥ 3x | met | load 1.10 before, 1.90 after'* ]] ||
  fail "the speed-up row"
pass "issue 45's goals with the machine's state beside each figure, hostile text escaped"

# A goal within two spreads of its figure is said to be so: the metric at 30.3 ns (cv 1 %: 0.3 <= 0.61) is not met
# within noise, the slice at 29.5 min (cv 1 %: 0.5 <= 0.59) met within noise; the reference (0.83x, cv 2.2 %) stays
# plainly met.
mkdir -p "$tmp/near" && cp "$r/schema.json" "$r/bench_build.json" "$r/machine_state.json" "$tmp/near/"
sed -e 's/^metric_fast_batch,nlerp,f64,all,31,/metric_fast_batch,nlerp,f64,all,30.3,/' \
  -e 's/^sweep_t_point,slerp,f32,all,2000,/sweep_t_point,slerp,f32,all,3323,/' "$r/throughput.csv" >"$tmp/near/throughput.csv"
/usr/bin/python3 "$goals" "$tmp/near" >"$tmp/near.md" 2>"$tmp/err" || fail "goals.py, figures near their goals: $(cat "$tmp/err")"
near() { grep -F "| $1" "$tmp/near.md" || fail "no row '$1': $(cat "$tmp/near.md")"; }
[[ "$(near "certified metric")" == *'| 30.3 (cv 1.0 %) | ≤ 30 | **not met**, within noise |'* ]] ||
  fail "the metric near its goal: $(near "certified metric")"
[[ "$(near "exhaustive f32 t slice")" == *'| 29.5 min (3.32 µs per point, cv 1.0 % over the repetitions) | ≤ 30 min | met, within noise |'* ]] ||
  fail "the slice near its goal: $(near "exhaustive f32 t slice")"
[[ "$(near "certified reference")" == *'| ≤ 1.0x | met |'* ]] || fail "the reference: $(near "certified reference")"
pass "a goal within two spreads of its figure is said to be within noise, one beyond them is not"

# Figures missing: no runner, no sweep, no speed-up file, no machine_state.json: each said, none guessed.
mkdir -p "$tmp/part" && cp "$r/schema.json" "$r/bench_build.json" "$tmp/part/"
grep -v '^runner\|^sweep' "$r/throughput.csv" >"$tmp/part/throughput.csv"
/usr/bin/python3 "$goals" "$tmp/part" >"$tmp/part.md" 2>"$tmp/err" || fail "goals.py, a partial report: $(cat "$tmp/err")"
[ "$(grep -c '| _not measured_ |' "$tmp/part.md")" = 3 ] || fail "three figures not measured: $(cat "$tmp/part.md")"
grep -q 'load not recorded (machine\\_state.json missing)' "$tmp/part.md" || fail "no machine state: $(cat "$tmp/part.md")"
grep -q "numpy's BLAS and threads not recorded" "$tmp/part.md" || fail "numpy's state: $(cat "$tmp/part.md")"
pass "missing figures and a missing machine state are said, not guessed"

# Negative control: no goal figure at all is refused.
mkdir -p "$tmp/none" && cp "$r/schema.json" "$r/bench_build.json" "$tmp/none/"
echo "$cols" >"$tmp/none/throughput.csv"
echo "floor,slerp,f64,all,900,0.01,3,," >>"$tmp/none/throughput.csv"
st=0
/usr/bin/python3 "$goals" "$tmp/none" >/dev/null 2>"$tmp/err" || st=$?
[[ $st != 0 ]] && grep -q "none of the goal figures" "$tmp/err" || fail "no goal figure: exit $st, $(cat "$tmp/err")"
pass "a report without any goal figure is refused: $(cat "$tmp/err")"

# qc_tables.md_cell and md_code alone: every Markdown-active character is escaped, line breaks are gone.
/usr/bin/python3 - "$src/scripts" <<'EOF' || fail "md_cell / md_code"
import sys
sys.path.insert(0, sys.argv[1])
from qc_tables import md_cell, md_code
cases = {"a|b": "a\\|b", "x\ny\r\nz\u2028w\tv": "x y z w v", "<script>": "\\<script>", "a\\|b": "a\\\\\\|b",
         "`code`": "\\`code\\`", "[l](u)": "\\[l\\](u)", "&lt;": "\\&lt;", "*em* _em_": "\\*em\\* \\_em\\_", 42: "42"}
for given, want in cases.items():
    if md_cell(given) != want:
        sys.exit(f"FAIL: md_cell({given!r}) = {md_cell(given)!r}, expected {want!r}")
if md_code("a|b`c\nd") != "`a\\|b'c d`":
    sys.exit(f"FAIL: md_code: {md_code('a|b`c' + chr(10) + 'd')!r}")
EOF
pass "md_cell and md_code escape '|', line breaks, HTML, backslashes and code spans"
