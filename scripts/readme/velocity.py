#!/usr/bin/env python3
"""README block: peak |speed_rel_err| and |timing_err| per op and arc, over the implementations, from
REPORT_DIR/velocity_curve.csv (arcs only, not the squad tracks)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]
peak = {}  # (op, arc) -> [max |speed_rel_err|, impl, max |timing_err|, impl]
arcs = []
for r in qc_tables.rows(report, "velocity_curve.csv", ["impl", "op", "arc_deg", "track", "speed_rel_err", "timing_err"]):
    if r["track"]:
        continue
    arc = float(r["arc_deg"])
    if arc not in arcs:
        arcs.append(arc)
    key = (r["op"], arc)
    s, t = abs(float(r["speed_rel_err"])), abs(float(r["timing_err"]))
    cur = peak.setdefault(key, [0.0, "", 0.0, ""])
    if s == s and s > cur[0]:
        cur[0], cur[1] = s, r["impl"]
    if t == t and t > cur[2]:
        cur[2], cur[3] = t, r["impl"]
print("Largest |speed_rel_err| and |timing_err| over all implementations of each op, per arc (the")
print("implementation that shows it in brackets); non-finite samples are left out.\n")
ops = sorted({op for op, _ in peak})
print("| arc (deg) | " + " | ".join(f"{op} speed | {op} timing" for op in ops) + " |")
print("|---|" + "---|---|" * len(ops))
for arc in sorted(arcs):
    cells = []
    for op in ops:
        p = peak.get((op, arc))
        cells += [f"{p[0]:.2e} (`{p[1]}`)", f"{p[2]:.2e} (`{p[3]}`)"] if p else ["", ""]
    print(f"| {arc:.4g} | " + " | ".join(cells) + " |")
