#!/usr/bin/env bash
# The peers of `quatcheck bench --suite harness` (docs/timing.md "Peers"): a numpy f64 slerp (uncertified) and
# mpmath at 40 digits, timed by scripts/bench_peers.py on the f64 cases of BM_FastReference/slerp/f64, written
# to throughput.csv and compared in ratios printed from the same run. Negative controls: a numpy that cannot
# be imported is skipped with its reason (no row, no ratio), and a malformed cases file is refused in one line.
# No timing is asserted: only that the figures exist, are positive, and that the printed ratio is theirs.
# Usage: bash tests/bench_peers.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
/usr/bin/python3 -c "import numpy, mpmath" 2>/dev/null ||
  skip "/usr/bin/python3 lacks numpy or mpmath (python3-numpy, python3-mpmath: scripts/setup)"
filter='^BM_(FastReference|FastReferenceRate1024|MpfrFloor)/slerp/f64/min_time|^BM_MetricFast(Batch)?/'
# the goal table's runner line (BM_Runner/fast and fast_before; a few seconds) in the first run only
filter_runner="$filter|^BM_Runner/fast"
cd "$src"  # (the script is also found from the build dir's parent; this keeps ./scripts as a fallback)

OMP_NUM_THREADS=1 OPENBLAS_CORETYPE='x|<b>' "$qc" bench --suite harness --filter "$filter_runner" \
  --min-time 0.01 --repetitions 2 --out "$tmp/b" >"$tmp/out" 2>"$tmp/err" || fail "bench: $(cat "$tmp/err")"
/usr/bin/python3 - "$tmp/b/throughput.csv" "$tmp/out" <<'EOF' || exit 1
import csv, re, sys
rows = {r["benchmark"]: r for r in csv.DictReader(open(sys.argv[1]))}
for k in ("fast_reference", "floor", "numpy_f64_uncertified", "mpmath_40_digits"):
    if k not in rows:
        sys.exit(f"FAIL: no {k} row in throughput.csv: {sorted(rows)}")
    if not float(rows[k]["ns_per_case"]) > 0:
        sys.exit(f"FAIL: {k}: ns_per_case {rows[k]['ns_per_case']}")
out = open(sys.argv[2]).read()
m = re.search(r"UNCERTIFIED\)\s+([\d.]+)\s+certified / numpy = ([\d.]+)x", out)
if not m:
    sys.exit(f"FAIL: no numpy ratio line in bench's stdout:\n{out}")
fast, numpy = float(rows["fast_reference"]["ns_per_case"]), float(rows["numpy_f64_uncertified"]["ns_per_case"])
if abs(float(m.group(2)) - fast / numpy) > 0.01 * fast / numpy + 0.005:
    sys.exit(f"FAIL: printed ratio {m.group(2)} is not throughput.csv's {fast / numpy:.3f}")
print(f"ok   peers timed and compared in one run: certified {fast:.0f} ns, numpy {numpy:.0f} ns (ratio {m.group(2)}x), "
      f"mpmath {float(rows['mpmath_40_digits']['ns_per_case']):.0f} ns")
EOF

# Issue 45's goal table (docs/timing.md "Goals"): printed by bench from the same run's figures, and generated for the
# docs by scripts/readme/goals.py from throughput.csv; both carry the figures of throughput.csv and a verdict that
# follows them. The runner's line compares BM_Runner/fast with fast_before and has no goal of its own (issue 45's 3x
# is against the 30fdd8c build); the sweep's benchmark is not in this filtered run, so it is said to be not measured,
# not guessed.
/usr/bin/python3 - "$tmp/b/throughput.csv" "$tmp/out" "$src/scripts/readme/goals.py" "$tmp/b" <<'EOF' || exit 1
import csv, re, subprocess, sys
table = list(csv.DictReader(open(sys.argv[1])))
rows = {(r["benchmark"], r["op"], r["precision"]): float(r["ns_per_case"]) for r in table}
cvs = {(r["benchmark"], r["op"], r["precision"]): float(r["cv"] or 0) for r in table}
out = open(sys.argv[2]).read()
# a goal within two spreads (cv) of its figure is said to be "within noise" beside the verdict (docs/timing.md)
def noisy(figure, goal, cv):
    return cv > 0 and abs(figure - goal) <= 2 * cv * figure
# the goal compares the reference at the default rate's floor (validation 1 in 1,024); the 1-in-64 figure beside it
fast, numpy = rows[("fast_reference_rate1024", "slerp", "f64")], rows[("numpy_f64_uncertified", "slerp", "f64")]
fast64 = rows[("fast_reference", "slerp", "f64")]
metric_key = max(((("metric_fast_batch", op, p) if ("metric_fast_batch", op, p) in rows else ("metric_fast", op, p))
                  for op in ("slerp", "nlerp") for p in ("f32", "f64")), key=lambda k: rows[k])
metric, metric_cv = rows[metric_key], cvs[metric_key]
ratio_cv = (cvs[("fast_reference_rate1024", "slerp", "f64")] ** 2 + cvs[("numpy_f64_uncertified", "slerp", "f64")] ** 2) ** 0.5
m = re.search(r"certified reference \(validation 1 in 1,024\) / numpy uncertified slerp, ns per case\s+(\d+) / (\d+) = "
              r"([\d.]+)x(?: \(cv [\d.]+ %\))?\s+goal <= 1.0x\s+(met|NOT MET)(, within noise)?", out)
if not m:
    sys.exit(f"FAIL: no reference goal line in bench's stdout:\n{out}")
if abs(float(m.group(3)) - fast / numpy) > 0.01 * fast / numpy + 0.005 or (m.group(4) == "met") != (fast <= numpy) \
        or bool(m.group(5)) != noisy(fast / numpy, 1.0, ratio_cv):
    sys.exit(f"FAIL: reference goal line {m.group(0)!r} does not follow {fast} / {numpy} (cv {ratio_cv})")
m = re.search(r"the same with validation 1 in 64 .*?\s+(\d+) / (\d+) = ([\d.]+)x\s+goal -\s+\(no goal\)", out)
if not m or abs(float(m.group(3)) - fast64 / numpy) > 0.01 * fast64 / numpy + 0.005:
    sys.exit(f"FAIL: the 1-in-64 line {m and m.group(0)!r} does not follow {fast64} / {numpy}")
m = re.search(r"certified metric, ns per output .*?\s+([\d.]+)(?: \(cv [\d.]+ %\))?\s+goal <= 30\s+(met|NOT MET)"
              r"(, within noise)?", out)
if not m or abs(float(m.group(1)) - metric) > 0.051 or (m.group(2) == "met") != (metric <= 30) \
        or bool(m.group(3)) != noisy(metric, 30, metric_cv):
    sys.exit(f"FAIL: metric goal line {m and m.group(0)!r} does not follow the slowest metric row {metric} (cv {metric_cv})")
if not re.search(r"exhaustive f32 t slice.*not measured in this run\s+goal .*\s-\n", out):
    sys.exit(f"FAIL: the sweep goal is not said to be unmeasured although its benchmark was filtered out:\n{out}")
m = re.search(r"whole runner .*vs its scalar paths\s+([\d.]+) / ([\d.]+) us = ([\d.]+)x\s+goal -\s+(.*)\n", out)
if not m or m.group(4) != "(no goal)":
    sys.exit(f"FAIL: the runner line (before / now, no goal of its own): {m and m.group(0)!r}\n{out}")
if not re.search(r"goal <= 30 min", out) or "goal <= 45 min" in out:
    sys.exit(f"FAIL: the exhaustive slice's goal is not issue 45's 30 min:\n{out}")
doc = subprocess.run([sys.executable, sys.argv[3], sys.argv[4]], capture_output=True, text=True, check=True).stdout
if f"| {fast:.0f} / {numpy:.0f} = {fast / numpy:.2f}x" not in doc or f"| {metric:.1f}" not in doc:
    sys.exit(f"FAIL: goals.py's table does not carry throughput.csv's figures:\n{doc}")
print(f"ok   goal table printed and generated from the same figures: reference/numpy {fast / numpy:.2f}x, metric {metric:.1f} ns")
EOF

# numpy's state beside its figure (issue 45, the machine notes): printed under the reference goal and recorded in
# machine_state.json with the load average at the start and the end; the thread variables bench was given reach it.
/usr/bin/python3 - "$tmp/b/machine_state.json" "$tmp/out" "$src/scripts/readme/goals.py" "$tmp/b" <<'EOF' || exit 1
import json, re, subprocess, sys
import numpy
m = json.load(open(sys.argv[1]))
for k in ("load_average_start", "load_average_end"):
    if not (isinstance(m.get(k), list) and len(m[k]) == 3 and all(isinstance(x, (int, float)) for x in m[k])):
        sys.exit(f"FAIL: machine_state.json {k}: {m.get(k)!r}")
n = m.get("numpy") or {}
if n.get("version") != numpy.__version__ or not isinstance(n.get("blas_loaded"), list) or "threadpoolctl" not in n:
    sys.exit(f"FAIL: numpy's state in machine_state.json: {n!r}")
if n.get("env", {}).get("OMP_NUM_THREADS") != "1" or n["env"].get("OPENBLAS_CORETYPE") != "x|<b>" \
        or "MKL_NUM_THREADS" not in n["env"]:
    sys.exit(f"FAIL: the thread variables numpy ran with: {n.get('env')!r}")
out = open(sys.argv[2]).read()
line = re.search(r"certified reference \(validation 1 in 1,024\) / numpy.*\n    (numpy .*)\n", out)
if not line or f"numpy {numpy.__version__}; BLAS loaded:" not in line.group(1) or "OMP_NUM_THREADS=1" not in line.group(1):
    sys.exit(f"FAIL: no numpy state under the reference goal:\n{out}")
if not re.search(r"^machine: load average [\d.]+ [\d.]+ [\d.]+ at the start of this run, [\d.]+ [\d.]+ [\d.]+ at its end$",
                 out, re.M):
    sys.exit(f"FAIL: no load line:\n{out}")
doc = subprocess.run([sys.executable, sys.argv[3], sys.argv[4]], capture_output=True, text=True, check=True).stdout
row = next((l for l in doc.splitlines() if l.startswith("| certified reference")), "")
if f"numpy {numpy.__version__}" not in row or "OPENBLAS\\_CORETYPE=x\\|\\<b>" not in row or "load " not in row:
    sys.exit(f"FAIL: goals.py's reference row lacks the machine state, escaped: {row}")
print(f"ok   numpy's state beside its figure: {line.group(1)[:150]}")
EOF
# Negative control: goals.py refuses a report without any goal figure (no table made of nothing).
mkdir -p "$tmp/nogoal" && cp "$tmp/b/bench_build.json" "$tmp/b/schema.json" "$tmp/nogoal/"
head -1 "$tmp/b/throughput.csv" >"$tmp/nogoal/throughput.csv"
grep "^floor," "$tmp/b/throughput.csv" >>"$tmp/nogoal/throughput.csv"
st=0
/usr/bin/python3 "$src/scripts/readme/goals.py" "$tmp/nogoal" >/dev/null 2>"$tmp/err4" || st=$?
[[ $st != 0 ]] && grep -q "none of the goal figures" "$tmp/err4" || fail "goals.py without goal figures: exit $st, $(cat "$tmp/err4")"
echo "ok   goals.py without goal figures: $(tail -1 "$tmp/err4")"

# Negative control: numpy present on disk but failing to import (a module that raises ImportError first on the
# path): the numpy peer is skipped with the reason, mpmath still timed, no numpy row and no numpy ratio.
mkdir -p "$tmp/fake"
echo 'raise ImportError("numpy deliberately broken by tests/bench_peers.test.sh")' >"$tmp/fake/numpy.py"
PYTHONPATH="$tmp/fake" "$qc" bench --suite harness --filter "$filter" --min-time 0.01 --repetitions 2 \
  --out "$tmp/c" >"$tmp/out2" 2>"$tmp/err2" || fail "bench without numpy: $(cat "$tmp/err2")"
grep -q "SKIP numpy_f64: numpy is missing (numpy deliberately broken" "$tmp/err2" || fail "no SKIP line for numpy: $(cat "$tmp/err2")"
grep -q "^numpy_f64_uncertified," "$tmp/c/throughput.csv" && fail "a numpy row although numpy was skipped"
grep -q "^mpmath_40_digits," "$tmp/c/throughput.csv" || fail "mpmath was not timed when only numpy was missing"
grep -q "certified / numpy" "$tmp/out2" && fail "a numpy ratio printed although numpy was skipped"
grep -q '"skip": "numpy is missing (numpy deliberately broken' "$tmp/c/machine_state.json" ||
  fail "machine_state.json does not say why numpy's state is missing: $(cat "$tmp/c/machine_state.json")"
echo "ok   numpy that cannot be imported: $(grep SKIP "$tmp/err2")"

# Negative control: the script refuses a cases file that is not whole cases, in one line, exit 2.
printf 'abc' >"$tmp/bad.bin"
st=0
/usr/bin/python3 scripts/bench_peers.py "$tmp/bad.bin" 10 0.01 2 >/dev/null 2>"$tmp/err3" || st=$?
[[ $st == 2 && $(wc -l <"$tmp/err3") == 1 ]] || fail "malformed cases: exit $st, $(cat "$tmp/err3")"
grep -q "^quatcheck: bench_peers.py: .*multiple of 72 bytes" "$tmp/err3" || fail "malformed cases: $(cat "$tmp/err3")"
echo "ok   malformed cases file: $(cat "$tmp/err3")"

# threadpoolctl's view of numpy's BLAS where the module is there (a stand-in here: Debian's python3 has none), and a
# threadpoolctl that fails: numpy_state records the pools, or why there are none, and the peers are still timed.
/usr/bin/python3 -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("<9d", 1, 0, 0, 0, 0.6, 0.8, 0, 0, 0.5))' \
  >"$tmp/one.bin"
mkdir -p "$tmp/pools" "$tmp/badpools"
cat >"$tmp/pools/threadpoolctl.py" <<'EOF'
def threadpool_info():
    return [{"user_api": "blas", "internal_api": "openblas", "version": "0.3.21", "num_threads": 2,
             "filepath": "/x/libopenblas.so", "secret": "not copied"}]
EOF
echo 'def threadpool_info(): raise RuntimeError("broken on purpose")' >"$tmp/badpools/threadpoolctl.py"
PYTHONPATH="$tmp/pools" /usr/bin/python3 scripts/bench_peers.py "$tmp/one.bin" 1 0.01 2 >"$tmp/pools.json" ||
  fail "bench_peers.py with threadpoolctl"
PYTHONPATH="$tmp/badpools" /usr/bin/python3 scripts/bench_peers.py "$tmp/one.bin" 1 0.01 2 >"$tmp/badpools.json" ||
  fail "bench_peers.py with a failing threadpoolctl"
/usr/bin/python3 - "$tmp/pools.json" "$tmp/badpools.json" <<'EOF' || exit 1
import json, sys
good, bad = (json.load(open(p)) for p in sys.argv[1:3])
pools = good["numpy_state"]["threadpoolctl"]
if pools != [{"user_api": "blas", "internal_api": "openblas", "version": "0.3.21", "num_threads": 2,
              "filepath": "/x/libopenblas.so"}]:
    sys.exit(f"FAIL: threadpoolctl's pools: {pools!r}")
if not str(bad["numpy_state"]["threadpoolctl"]).startswith("threadpool_info() failed: RuntimeError: broken on purpose"):
    sys.exit(f"FAIL: a failing threadpoolctl: {bad['numpy_state']['threadpoolctl']!r}")
if not all(r["numpy_f64"].get("ns_per_case", 0) > 0 for r in (good, bad)):
    sys.exit("FAIL: numpy was not timed beside threadpoolctl")
print(f"ok   threadpoolctl's pools recorded ({pools[0]['internal_api']} {pools[0]['num_threads']} threads), a failing one said")
EOF
# ... and bench prints the pools under the reference goal.
PYTHONPATH="$tmp/pools" "$qc" bench --suite harness --filter '^BM_FastReference/slerp/f64/min_time' --min-time 0.01 \
  --repetitions 2 --out "$tmp/p" >"$tmp/out5" 2>"$tmp/err5" || fail "bench with threadpoolctl: $(cat "$tmp/err5")"
grep -q '^    numpy .*; threadpoolctl: openblas 0.3.21 (2 threads);' "$tmp/out5" ||
  fail "no threadpoolctl pools under the reference goal: $(cat "$tmp/out5")"
echo "ok   bench prints threadpoolctl's pools beside numpy's figure"
