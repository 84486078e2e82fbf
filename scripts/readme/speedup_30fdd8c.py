#!/usr/bin/env python3
"""Generated block of docs/timing.md ("The whole run against the 30fdd8c build"): REPORT_DIR/speedup_30fdd8c.json,
written by scripts/speedup-30fdd8c. A folder without it keeps the block (exit 3: scripts/run's report is not this
measurement; regenerate with `scripts/update_readme.py reports/speedup-30fdd8c --only speedup_30fdd8c`).
Every text taken from the file is escaped for Markdown (qc_tables.md_cell); a figure that is missing shows as '?'.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from measured import KEEP, load  # noqa: E402
from qc_tables import md_cell  # noqa: E402


def num(x, fmt="{:.2f}"):
    ok = isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
    return fmt.format(x) if ok else "?"


def times(side):
    side = side if isinstance(side, dict) else {}
    walls = side.get("wall_s") if isinstance(side.get("wall_s"), list) else []
    cpus = side.get("cpu_s") if isinstance(side.get("cpu_s"), list) else []
    return (num(side.get("best_wall_s")), num(side.get("cpu_s_of_best")),
            ", ".join(num(w) for w in walls) or "?", ", ".join(num(c) for c in cpus) or "?")


def load_text(values):
    return " ".join(num(v, "{:.2f}") for v in values[:3]) if isinstance(values, list) and values else "?"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: speedup_30fdd8c.py REPORT_DIR")
    if not os.path.exists(os.path.join(sys.argv[1], "speedup_30fdd8c.json")):
        sys.exit(KEEP)
    s = load(sys.argv[1], "speedup_30fdd8c.json", by="scripts/speedup-30fdd8c")
    if not isinstance(s, dict):
        sys.exit(f"{sys.argv[1]}/speedup_30fdd8c.json: not a JSON object")
    impls = s.get("implementations") if isinstance(s.get("implementations"), list) else []
    tables = s.get("tables") if isinstance(s.get("tables"), dict) else {}
    old, new = times(s.get("old")), times(s.get("new"))
    ratio = s.get("speedup_wall")
    met = isinstance(ratio, (int, float)) and ratio >= 3 and tables.get("identical") is True
    jobs = s.get("jobs")
    print(f"`scripts/speedup-30fdd8c` on {md_cell(s.get('started', '?'))}: `quatcheck run --cases "
          f"{md_cell(s.get('cases', '?'))} --seed {md_cell(s.get('seed', '?'))}"
          f"{' --jobs ' + md_cell(jobs) if jobs is not None else ''}` on the {len(impls)} implementations of the "
          f"30fdd8c build's default selection, each binary {md_cell(s.get('rounds', '?'))} times in turn (old, new, "
          f"...), the best wall time of each; {md_cell(s.get('hardware_threads', '?'))} hardware threads, load average "
          f"{load_text(s.get('load_before'))} before and {load_text(s.get('load_after'))} after.\n")
    print("| build | best wall s | its CPU s | every run's wall s | every run's CPU s |")
    print("|---|---:|---:|---|---|")
    print(f"| 30fdd8c ({md_cell(str(s.get('old_commit', '?'))[:12])}, core only) | " + " | ".join(old) + " |")
    print(f"| current ({md_cell(s.get('new_commit', '?'))}) | " + " | ".join(new) + " |")
    verdict = "met" if met else "**not met**"
    identical = {True: "the same but for the search's figures", False: "**different**"}.get(tables.get("identical"),
                                                                                             "not checked")
    print(f"\nSpeed-up: **{num(ratio, '{:.2f}')}x** wall, {num(s.get('speedup_cpu'), '{:.2f}')}x CPU (goal ≥ 3x: "
          f"{verdict}). Tables ({md_cell(', '.join(map(str, tables.get('compared', []))))}): {identical}; "
          f"{md_cell(tables.get('search_differences', '?'))} search figures or rows differ, as issue 45 allows; "
          f"repeated runs of each binary identical: "
          f"{ {True: 'yes', False: '**no**'}.get(s.get('repeat_runs_identical'), '?')}.")
    for d in (tables.get("differences") or [])[:5]:
        print(f"\n- DIFFERENT: {md_cell(d)}")
    for n in tables.get("notes") or []:
        print(f"\n- {md_cell(n)}")


if __name__ == "__main__":
    main()
