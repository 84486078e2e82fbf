#!/usr/bin/env python3
"""README blocks run_total and run_total_deep: how long the last `scripts/run` took after the build, from
REPORT_DIR/run_phases.json; run_total takes a budgeted run's report, run_total_deep a --deep run's, and each keeps
its text (exit status 3) when the report is the other kind."""
import sys

from measured import run_phases


def sentence(m):
    how = {"budget": f"` (a {(m.get('budget_s') or 0) / 60:.0f}-minute budget)", "deep": " --deep` (the full counts)",
           "file": " --plan FILE` (an earlier run's counts)"}.get(m.get("mode"), "`")
    return (f"_The last measured `scripts/run{how} took {m['wall_s'] / 60:.1f} minutes after the build on "
            f"{m['cpus']} CPUs (load average {m['load_before'].split()[0]} before); each phase: "
            "[Timing: the main job](docs/timing.md#the-main-job)._")


if __name__ == "__main__":
    print(sentence(run_phases(sys.argv[1], deep=False)))
