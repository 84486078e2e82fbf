#!/usr/bin/env bash
# `quatcheck bench --suite slerp-cr` (docs/slerp-cr.md "Speed"), tiny: two regions, the shortest repetitions. The
# correctly rounded slerp, the textbook seed-c and qc-slerp are timed in the one run (BM_SlerpCr/<impl>/slerp/<region>
# in bench.json); bench prints the machine's state, the per-region table, the two ratio lines (CR f32 / textbook f32,
# CR f64 / textbook f64, means over the regions), the phase-2 rate per precision and the slowest call with its inputs
# as hexfloats, and writes the same to slerp_cr.json. No timing is asserted: only that the figures exist, are
# positive, and that each printed ratio is the quotient of that run's Google Benchmark figures (bench.json).
# (An unknown suite name is refused: tests/cli_errors.test.sh.)
# Usage: bash tests/slerp_cr_bench.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"

OMP_NUM_THREADS=1 "$qc" bench --suite slerp-cr --region uniform --region near-pi --min-time 0.002 --repetitions 2 \
  --out "$tmp/b" >"$tmp/out" 2>"$tmp/err" || fail "bench --suite slerp-cr: $(cat "$tmp/err")"
[ ! -e "$tmp/b/timing.csv" ] || fail "--suite slerp-cr alone wrote timing.csv (the impls suite did not run)"
/usr/bin/python3 - "$tmp/b" "$tmp/out" <<'EOF' || exit 1
import json, re, sys
d, out = sys.argv[1], open(sys.argv[2]).read()
def die(m): sys.exit(f"FAIL: {m}\n--- stdout:\n{out}")
bench = json.load(open(f"{d}/bench.json"))
ns = {}
for b in bench["benchmarks"]:
    # name: BM_SlerpCr/<impl>/slerp/<region>, then Google Benchmark's /min_time:.../repeats:... and _mean
    m = re.fullmatch(r"BM_SlerpCr/([^/]+)/slerp/([a-z0-9-]+)(/.*)?", b.get("run_name", ""))
    if m and b.get("aggregate_name") == "mean":
        ns[m.groups()[:2]] = b["cpu_time"] / 4096  # ns: the benchmarks' unit; 4,096 calls per iteration
impls = [f"{f}.{p}" for f in ("qc-slerp-cr", "seed-c", "qc-slerp") for p in ("f32", "f64")]
for r in ("uniform", "near-pi"):
    for i in impls:
        if not ns.get((i, r), 0) > 0:
            die(f"no positive BM_SlerpCr/{i}/slerp/{r} in bench.json: {sorted(ns)}")
if not re.search(r"^machine: \d+ hardware threads; load average [\d.]+ [\d.]+ [\d.]+ before, [\d.]+ [\d.]+ [\d.]+ after;"
                 r".* OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=", out, re.M):
    die("no machine line (load average, thread variables)")
for p, goal in (("f32", 2), ("f64", 5)):
    m = re.search(rf"^ratio CR {p} / textbook {p} \(qc-slerp-cr\.{p} / seed-c\.{p}\), mean over 2 regions: "
                  rf"([\d.]+)x \(goal <= {goal}x: (met|NOT MET)\)$", out, re.M)
    if not m:
        die(f"no ratio line for {p}")
    want = sum(ns[(f"qc-slerp-cr.{p}", r)] / ns[(f"seed-c.{p}", r)] for r in ("uniform", "near-pi")) / 2
    if abs(float(m.group(1)) - want) > 0.005 + 1e-3 * want:
        die(f"{p}: printed mean ratio {m.group(1)} is not bench.json's {want:.4f}")
    if (m.group(2) == "met") != (float(m.group(1)) <= goal):
        die(f"{p}: verdict '{m.group(2)}' does not follow {m.group(1)}x against {goal}x")
    if not re.search(rf"^ratio CR {p} / qc-slerp {p}, mean over 2 regions: [\d.]+x$", out, re.M):
        die(f"no CR / qc-slerp line for {p}")
    m = re.search(rf"^phase 2 {p}: (\d+) of (\d+) calls \(rate ([\d.e+-]+); per region: uniform \d+, near-pi \d+\)", out, re.M)
    if not m or int(m.group(2)) != 2 * 4096:
        die(f"no phase-2 line for {p} over 2 x 4096 calls")
    hexf = r"-?0x[0-9a-f.]+p[+-]\d+"
    if not re.search(rf"^slowest call {p}: \d+ ns .* region (uniform|near-pi), case \d+: q0 = \{{{hexf}(, {hexf}){{3}}\}}, "
                     rf"q1 = \{{{hexf}(, {hexf}){{3}}\}}, t = {hexf}; ", out, re.M):
        die(f"no slowest-call line for {p} with hexfloat inputs")
j = json.load(open(f"{d}/slerp_cr.json"))
rows = {(r["region"], r["precision"]): r for r in j["regions"]}
if len(rows) != 4 or any(not r["cr_over_textbook"] > 0 for r in rows.values()):
    sys.exit(f"FAIL: slerp_cr.json's regions: {j['regions']}")
if j["machine_before"]["env"]["OMP_NUM_THREADS"] != "1" or len(j["machine_before"]["load_average"]) != 3:
    sys.exit(f"FAIL: slerp_cr.json's machine state: {j['machine_before']}")
print(f"ok   slerp-cr suite: CR/textbook f32 {j['mean']['f32']['cr_over_textbook']:.2f}x, "
      f"f64 {j['mean']['f64']['cr_over_textbook']:.2f}x (2 regions, tiny: no claim), ratios are bench.json's")
EOF

# The docs block (scripts/readme/slerp_cr_speed.py, docs/slerp-cr.md "Speed") from the same folder: the mean ratios of
# slerp_cr.json; a report without slerp_cr.json (a default scripts/run) exits 3, so update_readme.py keeps the block.
block="$(/usr/bin/python3 "$src/scripts/readme/slerp_cr_speed.py" "$tmp/b")" || fail "slerp_cr_speed.py failed: $block"
for p in f32 f64; do
  want="$(/usr/bin/python3 -c "import json,sys; print(f\"{json.load(open(sys.argv[1]))['mean']['$p']['cr_over_textbook']:.2f}\")" "$tmp/b/slerp_cr.json")"
  grep -qF -- "- $p, mean over 2 regions: CR / textbook **${want}×**" <<<"$block" || { echo "$block"; fail "the block lacks the $p mean ${want}x"; }
done
grep -q "load average .* before and .* after; .*OMP_NUM_THREADS=1" <<<"$block" || { echo "$block"; fail "the block lacks the machine state"; }
mkdir -p "$tmp/empty"
set +e
/usr/bin/python3 "$src/scripts/readme/slerp_cr_speed.py" "$tmp/empty" >/dev/null 2>&1
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "slerp_cr_speed.py on a report without slerp_cr.json: exit $rc, expected 3 (keep the block)"
pass "docs block: the same means and machine state; a report without the suite keeps the block"
