#!/usr/bin/env python3
"""docs/timing.md block: the wall time of each phase of the last `scripts/run`, from REPORT_DIR/run_phases.json
(scripts/run writes it at its end), with the plan's counts (plan.json, the same folder)."""
import sys

from measured import run_phases


def table(m):
    """Prints the phases of run_phases.json's content m as a markdown table with the machine's state."""
    print("| phase | count (plan.json) | wall | share | cores busy |")
    print("|---|---|---|---|---|")
    for p in m["phases"]:
        n = p.get("count")
        if n is None and p["phase"] in m.get("counts", {}):  # written before each phase recorded its count
            n = "floor" if any(q["phase"] == p["phase"] + " raised" for q in m["phases"]) else m["counts"][p["phase"]]
        elif n is None and p["phase"].endswith(" raised"):
            n = m.get("counts", {}).get(p["phase"][:-7])
        busy = f"{p['cpu_s'] / p['wall_s']:.1f}" if "cpu_s" in p and p["wall_s"] >= 1 else ""
        print(f"| {p['phase']} | {'' if n is None else n if isinstance(n, str) else f'{n:,}'} | {p['wall_s']:.0f} s | "
              f"{100 * p['wall_s'] / m['wall_s']:.0f} % | {busy} |")
    other = m["wall_s"] - sum(p["wall_s"] for p in m["phases"])
    print(f"| calibration and planning | | {other:.0f} s | {100 * other / m['wall_s']:.0f} % | |")
    cpu = sum(p.get("cpu_s", 0) for p in m["phases"])
    busy = f"{cpu / m['wall_s']:.1f}" if all("cpu_s" in p for p in m["phases"]) else ""
    print(f"| **whole job** (after the build) | | **{m['wall_s'] / 60:.1f} min** | | {busy} |")
    print()
    caps = m.get("cases_for") or {}
    if caps:  # plan.json's slow adapters (scripts/plan.py slow_rows)
        print("_Kept at run's floor as slow adapters (`quatcheck run --cases-for`): " +
              ", ".join(f"`{n}` at {c:,} cases per region" for n, c in sorted(caps.items())
                        if isinstance(c, int) and "`" not in n) + "._\n")
    how = {"budget": f"`scripts/run --budget {m.get('budget_s') or 0:.0f}s`", "deep": "`scripts/run --deep`",
           "file": "`scripts/run --plan FILE`"}.get(m.get("mode"), "`scripts/run`")
    print(f"_Measured by {how} itself on {m['cpus']} CPUs, load average {m['load_before'].split()[0]} before and "
          f"{m['load_after'].split()[0]} after. Cores busy: the CPU seconds of the phase's processes (the adapters "
          f"included) over its wall time; {m['cpus']}.0 leaves no core idle._")


if __name__ == "__main__":
    table(run_phases(sys.argv[1], deep=False))  # the deep run has its own block (run_phases_deep)
