#!/usr/bin/env python3
"""README block: the recommended fallback threshold per precision and family, and what 0.9995 costs,
from REPORT_DIR/threshold_summary.csv, threshold.csv and threshold.json (written by `quatcheck threshold`)."""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]
summary = qc_tables.rows(report, "threshold_summary.csv", ["precision", "family", "floor_factor", "recommended_tau",
                                                        "recommended_one_minus_tau", "max_angle_err_at_0_9995_rad",
                                                        "max_angle_err_at_recommended_rad", "arc_floor_at_recommended_rad"])
rows = qc_tables.rows(report, "threshold.csv", ["precision", "family", "one_minus_tau", "ns_arc", "ns_fallback",
                                           "max_norm_err_ulp1"])
meta = json.load(open(os.path.join(report, "threshold.json")))
if not summary:
    sys.exit("threshold_summary.csv has no rows")


def rad(x):
    return f"{float(x):.2e}"


def median_ns(rs, col):
    v = [float(r[col]) for r in rs if r[col] not in ("", "nan")]
    return f"{statistics.median(v):.1f}" if v else "n/a"


factor = summary[0]["floor_factor"]
points = {}
for r in rows:
    points.setdefault((r["precision"], r["family"]), []).append(r)
npoints = len(points[(summary[0]["precision"], summary[0]["family"])])
print(f"From `quatcheck threshold` with {meta['cases_per_tau']} cases per tau, {npoints} values of tau per "
      f"precision and family, seed {meta['seed']}. Errors are rotation angles in radians. They are sampled maxima, "
      f"so they are lower bounds.\n")
for prec in ("f32", "f64"):
    ss = [s for s in summary if s["precision"] == prec]
    if not ss:
        continue
    found = [s for s in ss if s["recommended_tau"]]
    recs = ", ".join(f"{s['family']} `{s['recommended_tau']}`" for s in found) or "none on the grid"
    seed = max(ss, key=lambda s: float(s["max_angle_err_at_0_9995_rad"]))
    print(f"- **{prec}**: recommended tau*: {recs}. The common choice 0.9995 costs up to "
          f"{rad(seed['max_angle_err_at_0_9995_rad'])} rad ({seed['family']}), "
          f"{float(seed['max_angle_err_at_0_9995_rad']) / float(seed['arc_floor_at_0_9995_rad']):.3g} x the arc floor "
          f"of {rad(seed['arc_floor_at_0_9995_rad'])} rad on the same cases.")
print()
print("| precision | family | tau* | 1 - tau* | max error at tau* | arc floor at tau* | max norm error at tau* (ulp1) "
      "| max error at 0.9995 | ns per call, arc / fallback (median over the grid) |")
print("|---|---|---|---|---|---|---|---|---|")
for s in summary:
    key = (s["precision"], s["family"])
    cost = f"{median_ns(points[key], 'ns_arc')} / {median_ns(points[key], 'ns_fallback')}"
    if s["recommended_tau"]:
        omt = float.fromhex(s["recommended_one_minus_tau"])
        at = [r for r in points[key] if float.fromhex(r["one_minus_tau"]) == omt]
        norm = f"{float(at[0]['max_norm_err_ulp1']):.3g}" if at else "n/a"
        print(f"| {s['precision']} | {s['family']} | `{s['recommended_tau']}` | {omt:.2e} "
              f"| {rad(s['max_angle_err_at_recommended_rad'])} | {rad(s['arc_floor_at_recommended_rad'])} | {norm} "
              f"| {rad(s['max_angle_err_at_0_9995_rad'])} | {cost} |")
    else:
        print(f"| {s['precision']} | {s['family']} | none on the grid | | | | "
              f"| {rad(s['max_angle_err_at_0_9995_rad'])} | {cost} |")
print(f"\ntau* is the largest 1 - tau of the grid whose max error, there and at every smaller 1 - tau, is at most "
      f"{float(factor):g} x the arc floor.")
