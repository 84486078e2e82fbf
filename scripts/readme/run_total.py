#!/usr/bin/env python3
"""README block: how long the last `scripts/run` took after the build, from REPORT_DIR/run_phases.json."""
import sys

from measured import load

m = load(sys.argv[1], "run_phases.json", by="scripts/run, when every phase has run,")
how = f"a {m['budget_s'] / 60:.0f}-minute budget" if m.get("mode") == "budget" else f"the {m.get('mode')} plan"
print(f"_The last measured `scripts/run` ({how}) took {m['wall_s'] / 60:.1f} minutes after the build on "
      f"{m['cpus']} CPUs (load average {m['load_before'].split()[0]} before); each phase: "
      "[Timing: the main job](docs/timing.md#the-main-job)._")
