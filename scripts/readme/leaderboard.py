#!/usr/bin/env python3
"""README block: the leaderboard, one row per implementation and op, from REPORT_DIR/leaderboard.csv.

The full table, with every region, is REPORT_DIR/leaderboard.md; this block keeps the columns that rank.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]
rows = qc_tables.rows(report, "leaderboard.csv", ["rank", "impl", "op", "group", "worst_region", "worst_max_angle_err_rad",
                                                "worst_max_ulp1", "nonfinite", "conformance", "ns_per_call_throughput"])
timing = any(r["ns_per_call_throughput"] for r in rows)
print("Sampled maxima: **lower bounds** on each routine's true maximum error. Rows sort by the worst region's "
      "max angle error, most accurate first; rows with non-finite outputs, then rows whose implementation "
      "crashed, come last. Negative controls are left out.\n")
head = "| # | implementation | op | group | worst region | max angle err (rad) | max ulp1 | non-finite | conformance |"
rule = "|---:|---|---|---|---|---:|---:|---:|---|"
if timing:
    head += " ns/call |"
    rule += "---:|"
print(head)
print(rule)
for r in rows:
    nonfinite = r["nonfinite"] if r["nonfinite"] == "0" else f"**{r['nonfinite']}**"
    if r.get("status", "ok") != "ok":
        nonfinite += f" ({r['status']})"
    ulp1 = f"{float(r['worst_max_ulp1']):.3g}" if r["worst_max_ulp1"] else ""
    line = (f"| {r['rank']} | `{r['impl']}` | {r['op']} | {r['group']} | {r['worst_region']} | "
            f"{float(r['worst_max_angle_err_rad']):.2e} | {ulp1} | {nonfinite} | {r['conformance']} |")
    if timing:
        ns = r["ns_per_call_throughput"]
        line += f" {float(ns):.3g} |" if ns else " |"
    print(line)
