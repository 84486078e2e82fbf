#!/usr/bin/env python3
"""Generated block of docs/worst-case-search.md ("Steps and generations"): scripts/search-quality's measurement,
REPORT_DIR/search_quality.json (a folder without it keeps the block: exit 3). Per seed: rows where the search by
generations reaches a worst case at least as bad as the search by steps, the geometric mean of their ratio, the
search's CPU time in each mode; the planted needles each mode finds; the weakest rows."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measured import KEEP, load  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from qc_tables import md_cell as cell, md_code  # noqa: E402

report = sys.argv[1]
if not os.path.exists(os.path.join(report, "search_quality.json")):
    sys.exit(KEEP)
q = load(report, "search_quality.json", by="scripts/search-quality")


def num(x, fmt="{:.3f}"):
    if not isinstance(x, (int, float)) or isinstance(x, bool) or not math.isfinite(x):
        sys.exit(f"search_quality.json: not a number: {x!r}")
    return fmt.format(x)


print(f"Measured by `scripts/search-quality --cases {int(q['cases'])}` (`--jobs {int(q['jobs'])}`, load "
      f"{num(q['load_start'], '{:.2f}')} at the start, {num(q['load_end'], '{:.2f}')} at the end): every row of the "
      "default selection and of the `broken-*` planted defects, the same cases in both modes.\n")
print("| seed | selection | rows | generations at least as bad as steps | equal | geometric mean, generations / steps "
      "| search CPU s, steps | search CPU s, generations |")
print("|---|---|---|---|---|---|---|---|")
rows = bad = 0
for s in q["seeds"]:
    for sel in ("default", "broken"):
        c = s[sel]
        rows += int(c["rows"]) if sel == "default" else 0
        bad += int(c["at_least_as_bad"]) if sel == "default" else 0
        cpu = s["search_cpu_s"] if sel == "default" else None
        g = c["geometric_mean_ratio"]
        print(f"| {int(s['seed'])} | {'default' if sel == 'default' else '`broken-*`'} | {int(c['rows'])} | "
              f"{int(c['at_least_as_bad'])} ({100 * int(c['at_least_as_bad']) / max(1, int(c['rows'])):.0f} %) | "
              f"{int(c['equal'])} | {num(g, '{:.4f}') if g is not None else '—'} | "
              + (f"{num(cpu['steps'], '{:.2f}')} | {num(cpu['generations'], '{:.2f}')} |" if cpu else "(with the row above) | |"))
tot = q["search_cpu_s"]
print(f"\nDefault selection: {bad} of {rows} rows ({100 * bad / max(1, rows):.1f} %) at least as bad (the issue asks for "
      f"95 %); search CPU time over every run {num(tot['steps'], '{:.2f}')} s by steps, "
      f"{num(tot['generations'], '{:.2f}')} s by generations.")
found = {m: sorted(k for k, v in q["needles"][m].items() if v) for m in ("steps", "generations")}
names = sorted(q["needles"]["steps"])
print(f"Planted needles (a row's search maximum ≥ {q['needle_found_rad']:g} rad): steps find "
      f"{len(found['steps'])} of {len(names)} ({', '.join(cell(n) for n in found['steps']) or 'none'}), "
      f"generations {len(found['generations'])}; lost: {', '.join(cell(n) for n in q['needles_lost']) or 'none'}.")
weak = sorted((w for s in q["seeds"] for w in s["default"]["weaker"]), key=lambda w: w["ratio"])[:5]
if weak:
    print("The weakest rows of generations (default selection, any seed): "
          + "; ".join(f"{md_code(w['row'])} {num(w['ratio'], '{:.2f}')}×" for w in weak) + ".")
