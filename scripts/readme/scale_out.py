#!/usr/bin/env python3
"""docs/scale-out.md block: the measured wall times of a 4-task Slurm array against the unsharded run (and
sweep), and the projected times of an exhaustive f32 t slice and of a 10^6-case run on N nodes of M cores,
from REPORT_DIR/scale-out/scale_out.json (written by scripts/scale-out-measure, which scripts/run calls)."""
import json
import os
import statistics
import sys

report = sys.argv[1]
path = os.path.join(report, "scale-out", "scale_out.json")
if not os.path.exists(path):
    sys.exit(f"{path}: missing (scripts/scale-out-measure writes it; it needs slurm-wlm and munge)")
m = json.load(open(path))
mach, run, sweep = m["machine"], m["run"], m["sweep"]
cpus = mach["cpus"]


def duration(s):
    if s < 120:
        return f"{s:.1f} s"
    if s < 7200:
        return f"{s / 60:.1f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} days"


def overhead(x):
    """What the array took beyond its tasks' work spread ideally over this machine's CPUs and the merge."""
    return x["array_wall_s"] - sum(x["shard_wall_s"]) / min(cpus, x["array_tasks"]) - x["merge_s"]


print(f"Measured by `scripts/scale-out-measure` on this machine ({cpus} CPUs, {mach['cpu_model']}; load average "
      f"{mach['loadavg_before'].split()[0]} before and {mach['loadavg_after'].split()[0]} after: the machine was "
      f"shared, so the wall times are noisy) on a single-node Slurm started by `scripts/slurm-local`. The array "
      f"has 4 tasks of 1 CPU each (so {min(cpus, 4)} run at a time); its wall time runs from the submission to "
      f"the end of its merge job. The unsharded command ran with `--jobs {run['unsharded_jobs']}`.\n")
print("| workload | unsharded | 4-task array + merge job | shards (each, 1 core) | merge | array overhead | merged tables |")
print("|---|---|---|---|---|---|---|")
for name, x, what in (
        ("run", run, f"`run`, default selection ({run['rows']} impl-ops), {run['cases']} cases per region and precision"),
        ("sweep", sweep, f"`sweep --over t`, every f32 t in {sweep['window']}, {sweep['impl_ops_f32']} f32 impl-ops "
                         f"({sweep['points']} points)")):
    shards = ", ".join(f"{s:.1f}" for s in x["shard_wall_s"])
    same = f"{len(x['tables'])} byte-identical" if x["identical"] else "DIFFER"
    print(f"| {what} | {duration(x['unsharded_wall_s'])} | {duration(x['array_wall_s'])} | {shards} s "
          f"| {duration(x['merge_s'])} | {duration(overhead(x))} | {same} |")
print("\n*array overhead*: the array's wall time less the merge and less its tasks' summed wall time divided by "
      f"the {min(cpus, 4)} tasks that ran at once: Slurm's scheduling and start-up of 5 jobs here.\n")

# Projections.
cp = statistics.mean(sweep["exhaustive_t_cpu_s_per_point"])
points = sweep["exhaustive_t_points"]
per_case = sum(run["shard_wall_s"]) / run["cases"]
merge_per_case = run["merge_s"] / run["cases"]
cases = 10 ** 6
bytes_per_case = run.get("shard_bin_bytes", 0) / run["cases"]
ovh_sweep, ovh_run = max(0.0, overhead(sweep)), max(0.0, overhead(run))
text = ("Projected, not measured: each of N nodes runs M one-core tasks (N·M shards, or N tasks of M cores with "
        "`--jobs M`), each core as fast as one of this machine's, threads scaling linearly. "
        f"An exhaustive f32 t slice (one key pair, {points:,} values of t; the sweep's own measure, "
        f"{cp * 1e6:.2f} CPU µs per point for these {sweep['impl_ops_f32']} f32 impl-ops, mean of its 4 shards) takes "
        f"points × cost / (N·M) + its merge ({duration(sweep['merge_s'])} measured) + the array overhead above "
        f"({duration(ovh_sweep)}). A 10⁶-case `run` of the default selection (without process plugins; "
        f"{per_case * 1e3:.3f} core-ms per case of `--cases`, the shards' summed wall time over {run['cases']} cases) "
        f"takes 10⁶ × that / (N·M) + the merge (reading the shards, aggregating, and the worst-case search, which is "
        f"not spread): measured "
        f"{duration(run['merge_s'])} on 1 core at {run['cases']} cases, projected linearly in the cases and over "
        f"the merge job's M cores, + the array overhead ({duration(ovh_run)}).")
if bytes_per_case:
    text += (f" Its shards hold {bytes_per_case * cases / 1e9:.1f} GB of `shard.bin` in all ({bytes_per_case:.0f} "
             f"bytes per case of `--cases`, measured); `merge` wants twice that plus the largest shard in memory "
             f"before it starts.")
print(text + "\n")
grid_n, grid_m = (1, 4, 16, 64), (cpus, 32)
print("| nodes × cores | " + " | ".join(f"{n} × {mm}" for mm in grid_m for n in grid_n) + " |")
print("|---|" + "---|" * (len(grid_n) * len(grid_m)))
row_t, row_r = [], []
for mm in grid_m:
    for n in grid_n:
        row_t.append(duration(points * cp / (n * mm) + sweep["merge_s"] + ovh_sweep))
        row_r.append(duration(cases * per_case / (n * mm) + cases * merge_per_case / mm + ovh_run))
print("| exhaustive f32 t slice | " + " | ".join(row_t) + " |")
print("| 10⁶-case run | " + " | ".join(row_r) + " |")
