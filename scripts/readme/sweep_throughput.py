#!/usr/bin/env python3
"""docs/sweep.md block: the sweep's measured throughput and the extrapolated wall time of an exhaustive f32 t
slice, from REPORT_DIR/sweep/sweep.json (or REPORT_DIR/sweep.json), written by `quatcheck sweep`."""
import json
import os
import sys

report = sys.argv[1]
path = os.path.join(report, "sweep", "sweep.json")
if not os.path.exists(path):
    path = os.path.join(report, "sweep.json")
meta = json.load(open(path))
tp = meta.get("throughput", {})
if not tp:
    sys.exit(f"{path}: no throughput measured")


def duration(s):
    return f"{s:.0f} s" if s < 120 else f"{s / 60:.1f} min" if s < 7200 else f"{s / 3600:.1f} h"


jobs = meta["jobs"]
print(f"From `quatcheck sweep --over {meta['over']}` on {jobs} threads (process CPU time of the sweep proper; "
      f"a point is one reference evaluation shared by every implementation of its precision).\n")
print("| precision | impl-ops | points | CPU s | points/s/core | implementation evaluations/s/core "
      "| CPU µs per point of an exhaustive t slice | that slice, this machine | on 16 shards like it |")
print("|---|---|---|---|---|---|---|---|---|")
for prec in ("f32", "f64"):
    if prec not in tp:
        continue
    t = tp[prec]
    if prec == "f32":
        wall = t["exhaustive_t_slice_wall_s"]
        slice_cells = (f"{t['exhaustive_t_cpu_s_per_point'] * 1e6:.3g} | {duration(wall)} on {jobs} cores "
                       f"| {duration(wall / 16)}")
    else:
        slice_cells = "n/a | n/a (4.6e18 values) | n/a"
    print(f"| {prec} | {t['impl_ops']} | {t['points']} | {t['cpu_s']:.1f} | {t['points_per_s_per_core']:.3g} "
          f"| {t['impl_evals_per_s_per_core']:.3g} | {slice_cells} |")
