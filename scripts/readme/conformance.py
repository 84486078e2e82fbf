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
# An informative property (correctly-rounded) is a measurement, not a promise: "yes"/"no", outside the counts.
informative = qc_tables.informative_properties(report)
info_mark = {"pass": "yes", "fail": "no", "skip": "-"}
table = {}
for r in rows:
    m = info_mark if r["property"] in informative else mark
    table.setdefault((r["impl"], r["op"]), {})[r["property"]] = m.get(r["verdict"], r["verdict"])
judged = [r for r in rows if r["property"] not in informative]
counts = {v: sum(1 for r in judged if r["verdict"] == v) for v in ("pass", "fail", "known", "skip")}
info_rows = [r for r in rows if r["property"] in informative and r["verdict"] in ("pass", "fail")]
info_pass = sorted({r["impl"] for r in info_rows if r["verdict"] == "pass"})
status = ""
status_path = os.path.join(report, "conform_exit_status")
if os.path.exists(status_path):
    status = f" `quatcheck conform` exit status: {open(status_path).read().strip()}."
cases = sorted({r["cases"] for r in rows if r["verdict"] != "skip" and r["property"] != "threshold-continuity"})
print(f"{len(judged)} rows: {counts['pass']} pass, {counts['fail']} fail, {counts['known']} known, "
      f"{counts['skip']} skip; {'/'.join(cases)} generated cases per property.{status} "
      "The `broken-*` rows are the negative controls: each must fail (but `broken-needle-t`, wrong only for t in "
      "a window 8e-7 wide, which only `quatcheck sweep --over t` reaches: docs/sweep.md)." + (
          f" Informative, not counted: {', '.join(f'`{p}`' for p in sorted(informative))}, every component rounded "
          f"to nearest (yes/no): {len(info_pass)} of {len(info_rows)} slerp rows "
          f"({', '.join(f'`{i}`' for i in info_pass) or 'none'})." if info_rows else "") + "\n")
print("| impl | op | " + " | ".join(props) + " |")
print("|---|---|" + "---|" * len(props))
for (impl, op), cells in table.items():
    print(f"| `{impl}` | {op} | " + " | ".join(cells.get(p, "") for p in props) + " |")
