#!/usr/bin/env python3
"""Issue 29's goals, from throughput.csv and bench_build.json (quatcheck bench --suite harness): the same figures
`quatcheck bench` prints under "performance goals", measured side by side in one run."""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]
thr = qc_tables.rows(report, "throughput.csv")
info = json.load(open(os.path.join(report, "bench_build.json")))
fig = {(r["benchmark"], r["op"], r["precision"], r["region"]): float(r["ns_per_case"]) for r in thr}


def get(suite, op="slerp", prec="f64", region="all"):
    return fig.get((suite, op, prec, region), 0.0)


# every representable f32 t in [0, 1]: the bit patterns 0 .. bits(1.0f)
F32_T_POINTS = struct.unpack("<I", struct.pack("<f", 1.0))[0] + 1
cores = max(1, int(info.get("hardware_threads", 1)))

rows = []
fast, numpy = get("fast_reference"), get("numpy_f64_uncertified")
if fast and numpy:
    rows.append(("certified reference / numpy uncertified f64 slerp, ns per case",
                 f"{fast:.0f} / {numpy:.0f} = {fast / numpy:.2f}x", "≤ 1.0x", fast <= numpy))
# the metric as the runner and the sweep pay it: a case's outputs in one batch where that benchmark ran
metric = max(get("metric_fast_batch", op, p) or get("metric_fast", op, p) for op in ("slerp", "nlerp")
             for p in ("f32", "f64"))
if metric:
    rows.append(("certified metric, ns per output as the runner measures it (slowest op and precision)",
                 f"{metric:.0f}", "≤ 30", metric <= 30))
now, before = get("runner_fast", "slerp+nlerp", "both"), get("runner_fast_before", "slerp+nlerp", "both")
if now and before:
    rows.append(("whole runner (default selection, search included) against the fast path before issue 29",
                 f"{before / 1e3:.1f} / {now / 1e3:.1f} µs = {before / now:.2f}x", "≥ 3x", before >= 3 * now))
point = get("sweep_t_point", prec="f32")
if point:
    minutes = point * 1e-9 * F32_T_POINTS / cores / 60
    rows.append((f"exhaustive f32 t slice ({F32_T_POINTS:,} points), default selection, {cores} cores",
                 f"{minutes:.0f} min ({point / 1e3:.2f} µs per point)", "≤ 45 min", minutes <= 45))
if not rows:
    sys.exit("goals.py: throughput.csv has none of the goal figures (run quatcheck bench --suite harness)")
print(f"Measured by one `quatcheck bench --suite harness` run on {info['build'].get('cpu_model', 'unknown CPU')} "
      f"({info['repetitions']} repetitions of {info['min_time_s']} s; CPU time):\n")
print("| figure | measured | goal | |")
print("|---|---|---|---|")
for name, measured, goal, met in rows:
    print(f"| {name} | {measured} | {goal} | {'met' if met else '**not met**'} |")
