#!/usr/bin/env python3
"""README block: the recommended fallback threshold per precision and family, and what 0.9995 costs,
from REPORT_DIR/threshold_summary.csv and REPORT_DIR/threshold.csv (written by `quatcheck threshold`)."""
import csv
import json
import os
import sys

report = sys.argv[1]
summary = list(csv.DictReader(open(os.path.join(report, "threshold_summary.csv"))))
rows = list(csv.DictReader(open(os.path.join(report, "threshold.csv"))))
meta = json.load(open(os.path.join(report, "threshold.json")))
if not summary:
    sys.exit("threshold_summary.csv has no rows")


def rad(x):
    return f"{float(x):.2e}"


def ns(x):
    return "n/a" if x in ("", "nan") else f"{float(x):.1f}"


factor = summary[0]["floor_factor"]
points = {}
for r in rows:
    points.setdefault((r["precision"], r["family"]), []).append(r)
print(f"From `quatcheck threshold` ({meta['cases_per_tau']} cases per tau and precision, "
      f"{len(points[(summary[0]['precision'], summary[0]['family'])])} grid points per precision and family, "
      f"seed {meta['seed']}). Errors are rotation angles in radians, sampled maxima (lower bounds). "
      f"tau* = largest 1 - tau whose max error, there and at every smaller 1 - tau, stays within "
      f"{factor} x the arc floor (the arc branch's own max error on the same cases).\n")
print("| precision | family | recommended tau* | 1 - tau* | max error at tau* | arc floor at tau* "
      "| max error at 0.9995 | arc floor at 0.9995 | ns arc / fallback at tau* |")
print("|---|---|---|---|---|---|---|---|---|")
for s in summary:
    key = (s["precision"], s["family"])
    if s["recommended_tau"]:
        omt = float.fromhex(s["recommended_one_minus_tau"])
        at = [r for r in points[key] if float.fromhex(r["one_minus_tau"]) == omt]
        cost = f"{ns(at[0]['ns_arc'])} / {ns(at[0]['ns_fallback'])}" if at else "n/a"
        rec = f"`{s['recommended_tau']}`"
        print(f"| {s['precision']} | {s['family']} | {rec} | {omt:.2e} | {rad(s['max_angle_err_at_recommended_rad'])} "
              f"| {rad(s['arc_floor_at_recommended_rad'])} | {rad(s['max_angle_err_at_0_9995_rad'])} "
              f"| {rad(s['arc_floor_at_0_9995_rad'])} | {cost} |")
    else:
        print(f"| {s['precision']} | {s['family']} | none on the grid | | | "
              f"| {rad(s['max_angle_err_at_0_9995_rad'])} | {rad(s['arc_floor_at_0_9995_rad'])} | |")
