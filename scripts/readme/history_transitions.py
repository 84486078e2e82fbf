#!/usr/bin/env python3
"""docs/history.md block: the transitions quatcheck history found in each scan of REPORT_DIR/history/NAME/
(written by scripts/history-measure): per library, the range scanned, the versions measured and skipped, and
every transition (one line per version pair, family and op: what moved, before -> after)."""
import csv
import glob
import json
import os
import sys

report = sys.argv[1]
folders = sorted(d for d in glob.glob(os.path.join(report, "history", "*")) if os.path.exists(os.path.join(d, "history.json")))
if not folders:
    sys.exit(f"{report}/history/*/history.json: missing (scripts/history-measure writes them)")
print("| library | versions measured | skipped | transitions | wall time |")
print("|---|---|---|---|---|")
for d in folders:
    h = json.load(open(os.path.join(d, "history.json")))
    vs = h["versions"]
    measured = [v["label"] for v in vs if v["status"] == "measured"]
    skipped = [v["label"] for v in vs if v["status"] == "skipped"]
    name = vs[0].get("package", vs[0]["series"]) if vs else os.path.basename(d)
    span = f"{measured[0]} .. {measured[-1]}" if measured else "none"
    print(f"| {name} | {len(measured)} ({span}) | {len(skipped)} | {h['transitions']} | {h['wall_time_s']:.0f} s |")
print()
for d in folders:
    rows = list(csv.DictReader(open(os.path.join(d, "transitions.csv"))))
    name = os.path.basename(d)
    if not rows:
        print(f"**{name}**: no transition.\n")
        continue
    print(f"**{name}**:\n")
    print("| from | to | implementation | op | change | what moved (region or property: figure before -> after) |")
    print("|---|---|---|---|---|---|")
    groups = {}
    for r in rows:
        key = (r["from_version"], r["to_version"], f"{r['family']}.{r['precision']}", r["op"], r["change"])
        groups.setdefault(key, []).append(f"{r['region_or_property']}: {r['metric']} {r['before']} -> {r['after']}")
    for (a, b, impl, op, change), what in groups.items():
        print(f"| {a} | {b} | `{impl}` | {op} | {change} | {'; '.join(what)} |")
    print()
print("_Measured by `scripts/history-measure` (full scans, `--cases 4000`, seed 1); a transition is what "
      "`quatcheck compare` reports between consecutive versions._")
