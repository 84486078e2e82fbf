#!/usr/bin/env python3
"""docs/timing.md block: the wall time of each phase of the last `scripts/run`, from REPORT_DIR/run_phases.json
(scripts/run writes it at its end)."""
import sys

from measured import load

m = load(sys.argv[1], "run_phases.json", by="scripts/run, when every phase has run,")
print("| phase | wall | share |")
print("|---|---|---|")
for p in m["phases"]:
    print(f"| {p['phase']} | {p['wall_s']:.0f} s | {100 * p['wall_s'] / m['wall_s']:.0f} % |")
print(f"| **whole job** (after the build) | **{m['wall_s'] / 60:.1f} min** | |")
print()
print(f"_Measured by `scripts/run` itself (`run {m['run']}`) on {m['cpus']} CPUs, load average "
      f"{m['load_before'].split()[0]} before and {m['load_after'].split()[0]} after._")
