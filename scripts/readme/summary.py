#!/usr/bin/env python3
"""README block: worst angle error per implementation, op and region, from REPORT_DIR/summary.csv."""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]
rows = qc_tables.rows(report, "summary.csv", ["impl", "op", "region", "max_angle_err_rad", "nonfinite", "cases"])
regions = []
for r in rows:
    if r["region"] not in regions:
        regions.append(r["region"])
table = {}
for r in rows:
    key = (r["impl"], r["op"])
    cell = f'{float(r["max_angle_err_rad"]):.2e}'
    if int(r["nonfinite"]):
        cell += f' ({r["nonfinite"]} non-finite)'
    table.setdefault(key, {})[r["region"]] = cell
# Each row's own count: a run with --cases-for (scripts/run's slow adapters) gives some rows fewer cases.
counts = sorted({int(r["cases"]) for r in rows}) or [0]
cases = str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
print(f"Max angle error (rad) over {cases} sampled cases per region: a lower bound on the true maximum.\n")
print("| impl | op | " + " | ".join(regions) + " |")
print("|---|---|" + "---|" * len(regions))
for (impl, op), cells in table.items():
    print(f"| `{impl}` | {op} | " + " | ".join(cells.get(g, "") for g in regions) + " |")
