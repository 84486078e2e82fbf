#!/usr/bin/env python3
"""docs/history.md block: what a history scan costs, uncached (every version installed) and cached, at --jobs
1 and 2, from REPORT_DIR/history/scale.json (written by scripts/history-measure)."""
import sys

from measured import load

m = load(sys.argv[1], "history", "scale.json", by="scripts/history-measure")
print("| package | range | versions | --jobs | cache | installs | wall time |")
print("|---|---|---|---|---|---|---|")
for r in m["runs"]:
    print(f"| {r['package']} | {r['range']} | {r['versions']} | {r['jobs']} | {r['cache']} | {r['installs']} | "
          f"{r['wall_time_s']:.1f} s |")
print()
print(f"_Measured by `scripts/history-measure` on {m['cpus']} CPUs shared with other work, so the times are noisy (`--op slerp`, 4000 cases per region; "
      "uncached: an empty `XDG_CACHE_HOME`, so every version is installed from the registry)._")
