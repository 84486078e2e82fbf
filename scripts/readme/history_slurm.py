#!/usr/bin/env python3
"""docs/history.md block: a history scan as a Slurm array (scripts/slurm-submit history) against the same scan
run locally, uncached and cached, from REPORT_DIR/history/history_slurm.json (written by
scripts/history-slurm-measure)."""
import json
import os
import sys

path = os.path.join(sys.argv[1], "history", "history_slurm.json")
if not os.path.exists(path):
    sys.exit(f"{path}: missing (scripts/history-slurm-measure writes it; it needs slurm-wlm and munge)")
m = json.load(open(path))
n = m["shards"]
print(f"| range | versions | cache | local, `--jobs {m['cpus']}` | {n}-task array + merge job | shards (each, 1 core) | "
      "installs (local / array) | merged tables |")
print("|---|---|---|---|---|---|---|---|")
for r in m["runs"]:
    shards = ", ".join(f"{s:.1f}" for s in r["shard_wall_s"])
    same = f"{len(m['tables'])} byte-identical" if r["identical"] else "DIFFER"
    print(f"| {m['range']} | {r['versions']} | {r['cache']} | {r['local_wall_s']:.1f} s | {r['array_wall_s']:.1f} s | "
          f"{shards} s | {r['local_installs']} / {r['array_installs']} | {same} |")
print()
print(f"_Measured by `scripts/history-slurm-measure` on {m['cpus']} CPUs shared with other work (load average "
      f"{m['loadavg_before'].split()[0]} before, {m['loadavg_after'].split()[0]} after), so the times are noisy: "
      f"`--op {m['op']}`, {m['cases']} cases per region, seed {m['seed']}, registry: {m['registry']}; the array's "
      f"{n} tasks of {m['cpus_per_task']} CPU run {m['cpus']} at a time on the one node of `scripts/slurm-local`, "
      "and its wall time runs from the submission to the end of the merge job. Merged tables: `history.csv`, "
      "`transitions.csv` and `history.html` against the local scan's. On a real cluster the tasks run on "
      "separate nodes at once._")
