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
      "| exhaustive t slice of this selection, this machine | on 16 shards like it |")
print("|---|---|---|---|---|---|---|---|")
for prec in ("f32", "f64"):
    if prec not in tp:
        continue
    t = tp[prec]
    slice_cell = f"{duration(t['exhaustive_t_slice_wall_s'])} on {jobs} cores" if prec == "f32" else "n/a (4.6e18 values)"
    shards_cell = duration(t["exhaustive_t_slice_wall_s"] / 16) if prec == "f32" else "n/a"
    print(f"| {prec} | {t['impl_ops']} | {t['points']} | {t['cpu_s']:.1f} | {t['points_per_s_per_core']:.3g} "
          f"| {t['impl_evals_per_s_per_core']:.3g} | {slice_cell} | {shards_cell} |")
