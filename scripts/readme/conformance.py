#!/usr/bin/env python3
"""README block: conformance verdicts per implementation and property, from REPORT_DIR/conformance.csv."""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]
rows = qc_tables.rows(report, "conformance.csv", ["impl", "op", "property", "verdict", "cases"])
props = []
for r in rows:
    if r["property"] not in props:
        props.append(r["property"])
mark = {"pass": "pass", "fail": "**FAIL**", "known": "known", "skip": "-"}
table = {}
for r in rows:
    table.setdefault((r["impl"], r["op"]), {})[r["property"]] = mark.get(r["verdict"], r["verdict"])
counts = {v: sum(1 for r in rows if r["verdict"] == v) for v in ("pass", "fail", "known", "skip")}
status = ""
status_path = os.path.join(report, "conform_exit_status")
if os.path.exists(status_path):
    status = f" `quatcheck conform` exit status: {open(status_path).read().strip()}."
cases = sorted({r["cases"] for r in rows if r["verdict"] != "skip" and r["property"] != "threshold-continuity"})
print(f"{len(rows)} rows: {counts['pass']} pass, {counts['fail']} fail, {counts['known']} known, "
      f"{counts['skip']} skip; {'/'.join(cases)} generated cases per property.{status} "
      "The `broken-*` rows are the negative controls: each must fail (but `broken-needle-t`, wrong only for t in "
      "a window 8e-7 wide, which only `quatcheck sweep --over t` reaches: docs/sweep.md).\n")
print("| impl | op | " + " | ".join(props) + " |")
print("|---|---|" + "---|" * len(props))
for (impl, op), cells in table.items():
    print(f"| `{impl}` | {op} | " + " | ".join(cells.get(p, "") for p in props) + " |")
