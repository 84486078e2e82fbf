#!/usr/bin/env bash
# quatcheck sweep (issue 13, docs/sweep.md) on bounded slices:
#  - the planted needles broken-needle-dot and broken-needle-t (f32 and f64, windows 8e-7 wide at a.b = 0.7 and
#    t = 0.3) have both edges of their window in the branch map, to the exact adjacent floats, and their tilt
#    is the slice's maximum, standing out against an accurate implementation on the same slice;
#  - seed-c's nlerp fallback is found exactly where its source puts it: f32 between 0.9995f and the next float
#    (and at -0.9995f: the short-arc flip takes |a.b|), f64 between the double 0.9995 and the next double, and
#    nowhere else in the window (negative control: the accurate needle-free stretch has no edge);
#  - the argmax is replayable (quatcheck replay --strict), shards cover the slice without losing an edge,
#    and malformed options exit 2 with one line.
source "$(dirname "$0")/lib.sh" "$@"

# f32, every representable a.b in [0.69, 0.71] and in [0.999, 0.9999] (and its negative), t = 1/4.
"$qc" sweep --over dot --t 0.25 --window 0.69:0.71 --impl broken-needle-dot.f32 --impl seed-c.f32 --jobs 2 --out "$tmp/dot32" 2>"$tmp/dot32.log"
"$qc" sweep --over dot --t 0.25 --window 0.999:0.9999 --impl seed-c.f32 --jobs 2 --out "$tmp/seed32" 2>/dev/null
"$qc" sweep --over dot --t 0.25 --window -0.9999:-0.999 --impl seed-c.f32 --jobs 2 --out "$tmp/seed32n" 2>/dev/null
# f64: a 10^6-point scan of [0.6, 0.8] (spacing 4e-7) and of [0.99, 1] (plus every double within 4096 ulps
# of the thresholds of kDotWindowCentres).
"$qc" sweep --over dot --t 0.25 --window 0.6:0.8 --points 1000000 --impl broken-needle-dot.f64 --impl seed-c.f64 --jobs 2 --out "$tmp/dot64" 2>/dev/null
"$qc" sweep --over dot --t 0.25 --window 0.99:1 --points 100000 --impl seed-c.f64 --jobs 2 --out "$tmp/seed64" 2>/dev/null
# t: every f32 t in [0.29, 0.31]; a 10^6-point scan of [0.2, 0.4] in f64; pair a.b = 0.7.
"$qc" sweep --over t --pair-dot 0.7 --window 0.29:0.31 --impl broken-needle-t.f32 --impl seed-c.f32 --jobs 2 --out "$tmp/t32" 2>/dev/null
"$qc" sweep --over t --pair-dot 0.7 --window 0.2:0.4 --points 1000000 --impl broken-needle-t.f64 --jobs 2 --out "$tmp/t64" 2>/dev/null
# Shards: the f32 needle slice in three parts.
for k in 1 2 3; do
  "$qc" sweep --over dot --t 0.25 --window 0.69:0.71 --impl broken-needle-dot.f32 --shard $k/3 --jobs 2 --out "$tmp/shard$k" 2>/dev/null
done

# merge of the three shards: the unsharded sweep's tables, byte for byte.
"$qc" merge "$tmp/shard1" "$tmp/shard2" "$tmp/shard3" --out "$tmp/merged" 2>/dev/null
"$qc" sweep --over dot --t 0.25 --window 0.69:0.71 --impl broken-needle-dot.f32 --jobs 2 --out "$tmp/whole" 2>/dev/null
for f in sweep_summary.csv sweep_curve.csv branch_map.csv worst_cases.csv; do
  cmp -s "$tmp/merged/$f" "$tmp/whole/$f" || { echo "FAIL: merged $f differs from the unsharded sweep's" >&2; diff "$tmp/merged/$f" "$tmp/whole/$f" | head >&2; exit 1; }
done
echo "ok   merge of 3 shards = the unsharded sweep (4 tables identical)"
# merge refuses a missing shard and shards of different sweeps.
status=0; "$qc" merge "$tmp/shard1" "$tmp/shard2" --out "$tmp/bad-merge" 2>"$tmp/err" || status=$?
[ "$status" -eq 2 ] && grep -q "shards missing: 3/3" "$tmp/err" || { echo "FAIL: merge without shard 3: $status $(cat "$tmp/err")" >&2; exit 1; }
"$qc" sweep --over dot --t 0.5 --window 0.69:0.71 --impl broken-needle-dot.f32 --shard 3/3 --jobs 2 --out "$tmp/other3" 2>/dev/null
status=0; "$qc" merge "$tmp/shard1" "$tmp/shard2" "$tmp/other3" --out "$tmp/bad-merge" 2>"$tmp/err" || status=$?
[ "$status" -eq 2 ] && grep -q "differs from .*: not shards of one sweep" "$tmp/err" || { echo "FAIL: merge of another sweep's shard: $status $(cat "$tmp/err")" >&2; exit 1; }
echo "ok   merge refuses a missing shard and another sweep's shard"

grep -q "estimate" "$tmp/dot32.log" || { echo "FAIL: no up-front estimate" >&2; exit 1; }
grep -q "points/s/core" "$tmp/dot32.log" || { echo "FAIL: no throughput line" >&2; exit 1; }

/usr/bin/python3 - "$tmp" <<'EOF'
import csv, struct, sys, math
tmp = sys.argv[1]

def rows(d, name):
    with open(f"{tmp}/{d}/{name}", newline="") as f:
        return list(csv.DictReader(f))

def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]

def next32(x, up=True):
    b = struct.unpack("I", struct.pack("f", x))[0]
    b = b + 1 if (x >= 0) == up else b - 1
    return struct.unpack("f", struct.pack("I", b))[0]

def last32_le(x):
    y = f32(x)
    return y if y <= x else next32(y, False)

def edges(d, impl, name="branch_map.csv", lo="dot_below", hi="dot_above"):
    return [(float.fromhex(r[lo]), float.fromhex(r[hi])) for r in rows(d, name) if r["impl"] == impl]

def summary(d, impl):
    [r] = [r for r in rows(d, "sweep_summary.csv") if r["impl"] == impl]
    return r

fails = []
def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)

# f32 needle at a.b = 0.7: entry (the float below 0.7f, 0.7f), exit (last float <= 0.7f + 8e-7 in float, next).
top = last32_le(f32(0.7 + 8e-7))
want = [(next32(f32(0.7), False), f32(0.7)), (top, next32(top))]
got = edges("dot32", "broken-needle-dot.f32")
check(got == want, f"f32 needle edges {got} == {want}")
n, s = summary("dot32", "broken-needle-dot.f32"), summary("dot32", "seed-c.f32")
check(n["points"] == "exhaustive" and int(n["cases"]) > 300000, f"f32 slice exhaustive ({n['cases']} values)")
check(abs(float(n["max_angle_err_rad"]) - 2e-4) < 1e-5, f"f32 needle max {n['max_angle_err_rad']} is the 2e-4 tilt")
check(0.7 <= float.fromhex(n["argmax"]) <= 0.7 + 8e-7, f"f32 needle argmax {n['argmax']} inside the window")
check(float(n["max_angle_err_rad"]) > 100 * float(s["max_angle_err_rad"]), "f32 needle stands out against seed-c")
check(edges("dot32", "seed-c.f32") == [], "negative control: no edge of seed-c.f32 in [0.69, 0.71]")

# seed-c f32 threshold 0.9995f (d > 0.9995f takes the nlerp), and its mirror at -0.9995f.
t = f32(0.9995)
check(edges("seed32", "seed-c.f32") == [(t, next32(t))], f"seed-c.f32 edge {edges('seed32', 'seed-c.f32')} == 0.9995f | next")
check(edges("seed32n", "seed-c.f32") == [(-next32(t), -t)], f"seed-c.f32 mirrored edge {edges('seed32n', 'seed-c.f32')}")

# f64 needle and seed-c's double threshold 0.9995.
check(edges("dot64", "broken-needle-dot.f64") == [(math.nextafter(0.7, 0), 0.7),
      (0.7 + 8e-7, math.nextafter(0.7 + 8e-7, 1))], f"f64 needle edges {edges('dot64', 'broken-needle-dot.f64')}")
check(edges("dot64", "seed-c.f64") == [], "negative control: no edge of seed-c.f64 in [0.6, 0.8]")
n64 = summary("dot64", "broken-needle-dot.f64")
check(abs(float(n64["max_angle_err_rad"]) - 2e-6) < 1e-7, f"f64 needle max {n64['max_angle_err_rad']} is the 2e-6 tilt")
check(float(summary("dot64", "seed-c.f64")["max_angle_err_rad"]) < 1e-14, "seed-c.f64 accurate in [0.6, 0.8]")
check(edges("seed64", "seed-c.f64") == [(0.9995, math.nextafter(0.9995, 1))], f"seed-c.f64 edge {edges('seed64', 'seed-c.f64')}")

# t needles.
tt = last32_le(f32(0.3 + 8e-7))
got = edges("t32", "broken-needle-t.f32", "t_branch_map.csv", "t_below", "t_above")
check(got == [(next32(f32(0.3), False), f32(0.3)), (tt, next32(tt))], f"f32 t needle edges {got}")
check(edges("t32", "seed-c.f32", "t_branch_map.csv", "t_below", "t_above") == [], "negative control: seed-c.f32 has no t edge")
got = edges("t64", "broken-needle-t.f64", "t_branch_map.csv", "t_below", "t_above")
check(got == [(math.nextafter(0.3, 0), 0.3), (0.3 + 8e-7, math.nextafter(0.3 + 8e-7, 1))], f"f64 t needle edges {got}")

# Shards: together they hold every value once (plus one overlap point each) and the same edges.
sh = [summary(f"shard{k}", "broken-needle-dot.f32") for k in (1, 2, 3)]
check(sum(int(r["cases"]) for r in sh) == int(n["cases"]), "shards cover the slice")
check(sorted(sum((edges(f"shard{k}", "broken-needle-dot.f32") for k in (1, 2, 3)), [])) == want, "shards find the same edges")
check(max(float(r["max_angle_err_rad"]) for r in sh) == float(n["max_angle_err_rad"]), "shards' max is the slice's")
sys.exit(1 if fails else 0)
EOF

# The generated blocks and the report section read the folder (scripts/readme/branch_map.py, sweep_throughput.py,
# plot_report.py's section for REPORT/sweep/).
mkdir -p "$tmp/report"
cp -r "$tmp/dot32" "$tmp/report/sweep"
block="$(/usr/bin/python3 "$src/scripts/readme/branch_map.py" "$tmp/report")"
grep -q '`broken-needle-dot.f32` | slerp | 0.6999999 \\| 0.7 (2.0e-04); 0.7000008 \\| 0.7000009 ' <<<"$block" || { echo "FAIL: branch_map block: $block" >&2; exit 1; }
grep -q '`seed-c.f32` | slerp | none found' <<<"$block" || { echo "FAIL: branch_map block lacks seed-c: $block" >&2; exit 1; }
/usr/bin/python3 "$src/scripts/readme/sweep_throughput.py" "$tmp/report" | grep -q '^| f32 | 2 |' || { echo "FAIL: sweep_throughput block" >&2; exit 1; }
QC_QUATCHECK="$qc" /usr/bin/python3 "$src/scripts/plot_report.py" "$tmp/report" 2>/dev/null
[ -s "$tmp/report/plots/sweep.png" ] && grep -q 'broken-needle-dot.f32' "$tmp/report/report.html" || { echo "FAIL: report section" >&2; exit 1; }
echo "ok   generated blocks and report section"

# The argmax cases replay to the same outputs.
"$qc" replay --strict "$tmp/dot32/worst_cases.csv" >/dev/null
"$qc" replay --strict "$tmp/t64/worst_cases.csv" >/dev/null
echo "ok   worst_cases.csv replays"

# A plugin that crashes on t in (0.9, 1) is contained: the row says so, the report is written, exit 0.
if [ -e "$build/bad_plugins/bad_crash.so" ]; then
  "$qc" sweep --over t --pair-dot 0.7 --window 0.8:1 --points 20000 --plugin "$build/bad_plugins/bad_crash.so" \
    --impl 'bad-*' --impl seed-c.f64 --out "$tmp/crash" 2>/dev/null
  grep -q '^t,pair=dot:0.7,f64,bad-crash.f64,.*,crashed: killed by SIGSEGV$' "$tmp/crash/sweep_summary.csv" \
    && grep -q '^t,pair=dot:0.7,f64,seed-c.f64,.*,ok$' "$tmp/crash/sweep_summary.csv" \
    || { echo "FAIL: crashing plugin not contained" >&2; cat "$tmp/crash/sweep_summary.csv" >&2; exit 1; }
  echo "ok   a crashing plugin is contained"
fi

# Bad input: one line on stderr, exit 2, no report.
bad() {
  local status=0
  "$qc" sweep "$@" --out "$tmp/bad" 2>"$tmp/err" >/dev/null || status=$?
  [ "$status" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/bad/sweep_summary.csv" ] \
    || { echo "FAIL: sweep $* gave status $status: $(cat "$tmp/err")" >&2; exit 1; }
}
bad --over w
bad --window 1:0
bad --window 0.5
bad --window 0x:1
bad --points 3
bad --points 1000000000000
bad --t 2
bad --over t --t 0.5
bad --shard 3/2
bad --impl no-such-impl
echo "ok   malformed options exit 2"
