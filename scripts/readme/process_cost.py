#!/usr/bin/env python3
"""Generated block: what the process plugins' round trips cost the sampling run of REPORT_DIR
(docs/plugin-protocol.md#sizes-and-cost).

Reads REPORT_DIR/run.json (written by `quatcheck run` with the --plugin-cmd adapters that scripts/run passes):
each family's `process` counters and the run's `process_round_trips` total. Every figure printed here
comes from that file.
"""
import json
import os
import sys

path = os.path.join(sys.argv[1], "run.json")
if os.path.getsize(path) > 16 << 20:
    sys.exit(f"process_cost: {path} is larger than 16 MiB")
with open(path, encoding="utf-8") as f:
    run = json.load(f)
total = run.get("process_round_trips")
if not total:
    sys.exit("process_cost: run.json has no process_round_trips (was the run made with --plugin-cmd adapters?)")

# Adapter commands name the checkout they ran from: printed relative to it, so that the docs (installed with the
# package) carry no machine's folder.
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep
families = {}  # one entry per family: its f32 and f64 implementations share the counters
for e in run["implementations"]:
    p = e.get("process")
    if p:
        families.setdefault(e["impl"].rsplit(".", 1)[0], (e["origin"].replace(root, ""), p))

print(f"`quatcheck run`, {run['cases_per_region']} cases per region, {run['jobs']} threads, "
      f"{run['wall_time_s']:.1f} s: the process plugins' round trips, per family (all ops and precisions):\n")
print("| family | adapter | round trips | adapters started later (start-up s) | library s | harness waiting beyond the library, s | adapter CPU beyond the library, s |")
print("|---|---|---|---|---|---|---|")
for fam, (origin, p) in sorted(families.items()):
    print(f"| `{fam}` | `{origin}` | {p['round_trips']} | {p['adapters_started']} ({p['start_s']:.2f}) | {p['adapter_s']:.2f} "
          f"| {p['wait_overhead_s']:.2f} | {p['adapter_overhead_s']:.2f} |")
over = total["wait_overhead_s"] + total["adapter_overhead_s"]
print(f"\nAll round trips: {total['round_trips']}; harness waiting beyond the libraries {total['wait_overhead_s']:.2f} s, "
      f"adapters' CPU beyond the libraries {total['adapter_overhead_s']:.2f} s: together {over:.2f} s, "
      f"**{100 * total['share']:.1f} %** of the run's thread time ({run['jobs']} threads x {run['wall_time_s']:.1f} s = "
      f"{total['thread_time_s']:.1f} s).")
