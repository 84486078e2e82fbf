#!/usr/bin/env python3
"""docs block: qc-slerp's speed against the fastest engine slerp of comparable accuracy, per region.

Issue 18's goal for qc-slerp: no slower than the fastest engine slerp of comparable accuracy by more than
1.5x. Read from one report folder, so every time comes from the same Google Benchmark run
(`quatcheck bench`, timing.csv, throughput mode, mean CPU ns per call):

- candidates: the slerp op of every implementation in group `engine` or `recipe` (the engine routines
  written from their published descriptions) of the same precision, per leaderboard.csv;
- comparable accuracy: the same bound qc-slerp claims, max ulp1 <= 2 in every region of summary.csv and no
  non-finite output (an implementation that misses it in any region is left out everywhere);
- per region: qc-slerp's ns per call, the fastest candidate's, and the ratio; *within* when the ratio is at
  most 1.5, **over** otherwise.

Where each number is computed: max ulp1 in harness/metrics (summary.csv), ns per call in
bench/impl_timing.cpp (timing.csv), groups in leaderboard.csv.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

FAMILY = "qc-slerp"
GOAL = 1.5
ULP1_BOUND = 2.0
CANDIDATE_GROUPS = ("engine", "recipe")
REGIONS = ["uniform", "near-0", "near-half-pi", "near-pi", "threshold"]


def need(report, name, columns):
    table = qc_tables.read(report, name, columns)
    if table is None:
        sys.stderr.write(f"qc_slerp_speed.py: {os.path.join(report, name)}: missing (run quatcheck run, bench and "
                         "the leaderboard first)\n")
        sys.exit(2)
    return table.rows


def main(report):
    summary = need(report, "summary.csv", ["impl", "op", "region", "nonfinite", "max_ulp1"])
    timing = need(report, "timing.csv", ["impl", "op", "region", "mode", "ns_per_call"])
    board = need(report, "leaderboard.csv", ["impl", "group"])
    groups = {r["impl"]: r["group"] for r in board}
    accurate = {}  # impl -> True while every slerp row is within the bound
    for r in summary:
        if r["op"] != "slerp":
            continue
        ok = int(r["nonfinite"]) == 0 and r["max_ulp1"] != "" and float(r["max_ulp1"]) <= ULP1_BOUND
        accurate[r["impl"]] = accurate.get(r["impl"], True) and ok
    ns = {(r["impl"], r["region"]): float(r["ns_per_call"])
          for r in timing if r["op"] == "slerp" and r["mode"] == "throughput"}
    print(f"qc-slerp's ns per call beside the fastest engine slerp of comparable accuracy (groups "
          f"{' and '.join(CANDIDATE_GROUPS)}, max ulp1 <= {ULP1_BOUND:g} in every region, no non-finite output), "
          f"per region: Google Benchmark, throughput mode, all from one `quatcheck bench` run. The goal is a "
          f"ratio of at most {GOAL:g}.\n")
    print("| precision | region | qc-slerp ns/call | fastest comparable engine | its ns/call | ratio | goal |")
    print("|---|---|---:|---|---:|---:|---|")
    rows = 0
    for prec in ("f32", "f64"):
        mine = f"{FAMILY}.{prec}"
        candidates = [i for i, ok in sorted(accurate.items())
                      if ok and i.endswith("." + prec) and groups.get(i) in CANDIDATE_GROUPS]
        for region in REGIONS:
            if (mine, region) not in ns:
                continue
            timed = [(ns[(i, region)], i) for i in candidates if (i, region) in ns]
            if not timed:
                print(f"| {prec} | {region} | {ns[(mine, region)]:.3g} | _(no comparable engine timed)_ | | | |")
                continue
            best_ns, best = min(timed)
            ratio = ns[(mine, region)] / best_ns
            verdict = "within" if ratio <= GOAL else f"**over {GOAL:g}x**"
            print(f"| {prec} | {region} | {ns[(mine, region)]:.3g} | `{best}` | {best_ns:.3g} | {ratio:.2f} | {verdict} |")
            rows += 1
    if rows == 0:
        print("| | | _(qc-slerp not timed in this report)_ | | | | |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: qc_slerp_speed.py REPORT_DIR\n")
        sys.exit(2)
    main(sys.argv[1])
