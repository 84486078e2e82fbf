#!/usr/bin/env python3
"""docs block: the accuracy-versus-cost frontier, per precision, from REPORT_DIR's summary.csv and timing.csv.

One point per implementation and op: the worst region's max angle error (summary.csv) against the mean
ns per call over the timed regions in throughput mode (timing.csv, Google Benchmark). A point is
Pareto-optimal when no other point of the same precision is at least as fast and at least as accurate
and strictly better in one of the two. Rows with non-finite outputs are listed but never optimal.
Negative controls (group broken) and the timing-only noop (group bench) are left out when
leaderboard.csv says which group an implementation is in. scripts/plot_report.py draws the same points
(`frontier_plot`), through points() below.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

EXCLUDED_GROUPS = {"broken", "bench"}


def precision_of(impl):
    return impl.rsplit(".", 1)[1] if impl.endswith((".f32", ".f64")) else "other"


def points(report):
    """{precision: [point]} with point = dict(impl, op, err, ns, nonfinite, optimal), sorted by ns;
    None when summary.csv or timing.csv is missing."""
    summary = qc_tables.read(report, "summary.csv", ["impl", "op", "region", "nonfinite", "max_angle_err_rad"])
    timing = qc_tables.read(report, "timing.csv", ["impl", "op", "region", "mode", "ns_per_call"])
    if summary is None or timing is None:
        return None
    board = qc_tables.read(report, "leaderboard.csv", ["impl", "group"])
    groups = {r["impl"]: r["group"] for r in board.rows} if board is not None else {}
    err, nonfinite = {}, {}
    for r in summary.rows:
        key = (r["impl"], r["op"])
        if r["max_angle_err_rad"] != "":
            err[key] = max(err.get(key, 0.0), float(r["max_angle_err_rad"]))
        nonfinite[key] = nonfinite.get(key, 0) + int(r["nonfinite"])
    ns = {}
    for r in timing.rows:
        if r["mode"] == "throughput":
            ns.setdefault((r["impl"], r["op"]), []).append(float(r["ns_per_call"]))
    out = {}
    for key in sorted(set(err) & set(ns)):
        impl, op = key
        if groups.get(impl) in EXCLUDED_GROUPS:
            continue
        p = dict(impl=impl, op=op, err=err[key], ns=sum(ns[key]) / len(ns[key]), nonfinite=nonfinite.get(key, 0))
        out.setdefault(precision_of(impl), []).append(p)
    for pts in out.values():
        for p in pts:
            eligible = p["nonfinite"] == 0 and math.isfinite(p["err"])
            p["optimal"] = eligible and not any(
                q is not p and q["nonfinite"] == 0 and q["ns"] <= p["ns"] and q["err"] <= p["err"]
                and (q["ns"] < p["ns"] or q["err"] < p["err"]) for q in pts)
        pts.sort(key=lambda p: (p["ns"], p["err"]))
    return out


def main(report):
    pts = points(report)
    if pts is None:
        raise qc_tables.TableError(f"{report}: summary.csv and timing.csv are both needed for the frontier")
    print("One row per implementation and op, fastest first: the worst region's max angle error (sampled, a "
          "lower bound on the true maximum) against the mean ns per call over the timed regions (Google "
          "Benchmark, throughput mode, one run). **Pareto** marks the points no other implementation of the "
          "same precision beats on both axes; a row with non-finite outputs is never Pareto-optimal.\n")
    for prec in sorted(pts):
        print(f"**{prec}**\n")
        print("| implementation | op | ns/call | max angle err (rad) | non-finite | Pareto |")
        print("|---|---|---:|---:|---:|:---:|")
        for p in pts[prec]:
            nf = str(p["nonfinite"]) if p["nonfinite"] == 0 else f"**{p['nonfinite']}**"
            print(f"| `{p['impl']}` | {p['op']} | {p['ns']:.3g} | {p['err']:.2e} | {nf} | "
                  f"{'**yes**' if p['optimal'] else ''} |")
        print()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: frontier.py REPORT_DIR\n")
        sys.exit(2)
    try:
        main(sys.argv[1])
    except qc_tables.TableError as e:
        sys.stderr.write(f"{e}\n")
        sys.exit(2)
