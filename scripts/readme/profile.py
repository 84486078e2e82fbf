#!/usr/bin/env python3
"""docs/timing.md block: where a default run's time goes, from profile.csv (scripts/profile_run: callgrind's
inclusive instruction counts of each phase). Read from REPORT_DIR/profile/profile.csv, else from the committed
docs/profile.csv (the last scripts/profile_run; scripts/run does not profile: callgrind takes minutes). Where
docs/profile-before.csv exists (the same profile of the binary before issue 29's changes), a column compares."""
import csv
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
path = os.path.join(sys.argv[1], "profile", "profile.csv")
if not os.path.exists(path):
    path = os.path.join(root, "docs", "profile.csv")
rows = list(csv.DictReader(open(path)))
if not rows:
    sys.exit(f"profile.py: {path}: no rows")
before_path = os.path.join(root, "docs", "profile-before.csv")
before = {r["phase"]: r for r in csv.DictReader(open(before_path))} if os.path.exists(before_path) else {}
print(f"`quatcheck run --jobs 1 --seed 1 --cases {rows[0]['cases']}` (the default selection) under callgrind, "
      f"instructions of each phase including what it calls (`scripts/profile_run`); the phases overlap "
      f"(the references and metrics are inside the sampling and the search).\n")
if before:
    print("| phase | instructions | share of the run | before issue 29 | share before |")
    print("|---|---|---|---|---|")
else:
    print("| phase | instructions | share of the run |")
    print("|---|---|---|")
for r in rows:
    line = f"| {r['phase']} | {int(r['instructions']):,} | {float(r['share']) * 100:.1f} %"
    if before:
        b = before.get(r["phase"])
        line += f" | {int(b['instructions']):,} | {float(b['share']) * 100:.1f} %" if b else " | | "
    print(line + " |")
