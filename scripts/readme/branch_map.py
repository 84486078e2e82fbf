#!/usr/bin/env python3
"""docs/sweep.md block: the thresholds every implementation really uses, from the branch map of a dot sweep
(`quatcheck sweep --over dot`): REPORT_DIR/sweep/branch_map.csv (or REPORT_DIR/branch_map.csv), with
sweep_summary.csv and sweep.json beside it.

One line per implementation x op: its edges in the dot product, each as the adjacent pair of floats
(dot_below | dot_above) and the largest jump found there over the slices' t. Edges of several slices at the
same pair are one threshold."""
import json
import struct
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]
folder = os.path.join(report, "sweep") if os.path.exists(os.path.join(report, "sweep", "branch_map.csv")) else report
edges = qc_tables.rows(folder, "branch_map.csv", ["impl", "op", "precision", "t", "dot_below", "dot_above", "jump_rad",
                                                  "err_below_rad", "err_above_rad"])
summary = qc_tables.rows(folder, "sweep_summary.csv", ["over", "slice", "impl", "op", "points", "cases", "window_lo",
                                                       "window_hi", "edges", "candidates"])
meta = json.load(open(os.path.join(folder, "sweep.json")))
summary = [s for s in summary if s["over"] == "dot"]
if not summary:
    sys.exit("sweep_summary.csv has no dot slices")


def dot(x, precision):
    """The shortest decimal that reads back as the float (9 digits of f32, 17 of f64 at most)."""
    v = float.fromhex(x)
    for digits in range(6, 10 if precision == "f32" else 18):
        if float(f"{v:.{digits}g}") == v or (precision == "f32" and struct.unpack("f", struct.pack("f", float(f"{v:.{digits}g}")))[0] == v):
            return f"{v:.{digits}g}"
    return f"{v:.17g}"


slices = sorted({s["slice"] for s in summary})
kinds = sorted({s["points"] for s in summary})
lo = min(float.fromhex(s["window_lo"]) for s in summary)
hi = max(float.fromhex(s["window_hi"]) for s in summary)
cases = sum(int(s["cases"]) for s in summary)
print(f"From `quatcheck sweep --over dot` ({', '.join(kinds)}; dot products in [{lo:g}, {hi:g}]; slices "
      f"{', '.join('`' + s + '`' for s in slices)}; {cases} implementation evaluations; reference "
      f"{meta['reference']['mode']}). An edge is a pair of adjacent floats of a.b between which the output jumps by "
      f"more than the reference moves (docs/sweep.md); jumps are rotation angles in radians, the largest over the "
      f"slices.\n")
by = {}
for e in edges:
    key = (e["impl"], e["op"])
    pair = (float.fromhex(e["dot_below"]), e["dot_below"], e["dot_above"], e["precision"])
    by.setdefault(key, {})
    by[key][pair] = max(by[key].get(pair, 0.0), float(e["jump_rad"]))
rows = sorted({(s["impl"], s["op"]) for s in summary})
print("| implementation | op | edges in a.b: below \\| above (largest jump, rad) |")
print("|---|---|---|")
for key in rows:
    found = by.get(key, {})
    if not found:
        cell = "none found"
    else:
        shown = sorted(found.items())
        cell = "; ".join(f"{dot(b, p)} \\| {dot(a, p)} ({j:.1e})" for (_, b, a, p), j in shown[:8])
        if len(shown) > 8:
            cell += f"; and {len(shown) - 8} more"
    print(f"| `{key[0]}` | {key[1]} | {cell} |")
