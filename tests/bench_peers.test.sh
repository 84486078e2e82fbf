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
filter='^BM_(FastReference|MpfrFloor)/slerp/f64/min_time'
cd "$src"  # (the script is also found from the build dir's parent; this keeps ./scripts as a fallback)

"$qc" bench --suite harness --filter "$filter" --min-time 0.01 --repetitions 2 --out "$tmp/b" \
  >"$tmp/out" 2>"$tmp/err" || fail "bench: $(cat "$tmp/err")"
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
echo "ok   numpy that cannot be imported: $(grep SKIP "$tmp/err2")"

# Negative control: the script refuses a cases file that is not whole cases, in one line, exit 2.
printf 'abc' >"$tmp/bad.bin"
st=0
/usr/bin/python3 scripts/bench_peers.py "$tmp/bad.bin" 10 0.01 2 >/dev/null 2>"$tmp/err3" || st=$?
[[ $st == 2 && $(wc -l <"$tmp/err3") == 1 ]] || fail "malformed cases: exit $st, $(cat "$tmp/err3")"
grep -q "^quatcheck: bench_peers.py: .*multiple of 72 bytes" "$tmp/err3" || fail "malformed cases: $(cat "$tmp/err3")"
echo "ok   malformed cases file: $(cat "$tmp/err3")"
