#!/usr/bin/env python3
"""docs block: published accuracy figures beside the tool's measurement, from REPORT_DIR/summary.csv.

Published values are citations, typed from the source named in the table. Every measured number comes
from summary.csv and is the maximum over all regions, so it is a sampled lower bound on the true maximum:
a measurement above what a correct published maximum allows refutes the published figure, and a
measurement below it refutes nothing.

- Kapoulkine ("Approximating slerp", 2015) publishes the maximum rotation-angle error against slerp over
  the whole range of nlerp and of his corrected nlerps. The harness measures the same quantity
  (max_angle_err_rad), so a correct figure allows 1x (plus a 1e-3 relative margin for f32 rounding).
- Eberly publishes maximum errors of his estimate of f(t, A) = sin(tA)/sin A. The harness measures output
  components, f(1-t) q0_i + f(t) q1_i, so a correct bound e allows a component error up to 2e
  (|df0| + |df1|), about 1.4e where the maximum sits (A near pi/2, t near 1/2). The measured figure is the
  f64 row's max ulp1 times 2^-52 (ulp1 is in units of 2^(1-p)).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

KAPOULKINE = "Kapoulkine, 'Approximating slerp', zeux.io, 23 July 2015 (max angle error over the whole range)"
EBERLY = ("Eberly, GteChebyshevRatio.h (GTEngine 3.0.0, 2016/06/19; the corrected table of 'A Fast and Accurate "
          "Estimate for SLERP', 2018)")
ANGLE, COMPONENT = "angle", "component"
# (implementation, op, what the source states, published value, measured quantity, allowance, source)
PUBLISHED = [
    ("nlerp.f64", "nlerp", "nlerp, max angle error", 1.42229e-1, ANGLE, 1.001, KAPOULKINE),
    ("recipe-fnlerp.f32", "slerp", "K0 (fnlerp), max angle error", 6.96632e-3, ANGLE, 1.001, KAPOULKINE),
    ("recipe-onlerp.f32", "slerp", "K2 (onlerp), max angle error", 7.76255e-4, ANGLE, 1.001, KAPOULKINE),
    ("recipe-eberly4.f64", "slerp", "max f error, n = 4, A in [0, pi/2]", 9.30819e-4, COMPONENT, 2, EBERLY),
    ("recipe-eberly8.f64", "slerp", "max f error, n = 8, A in [0, pi/2]", 2.59880e-5, COMPONENT, 2, EBERLY),
    ("recipe-eberly16.f64", "slerp", "max f error, n = 16, A in [0, pi/2]", 4.03665e-8, COMPONENT, 2, EBERLY),
    ("recipe-eberly4h.f64", "slerp", "max f error, n = 4, A in [0, pi/4] (half-angle)", 4.29242e-5, COMPONENT, 2, EBERLY),
    ("recipe-eberly8h.f64", "slerp", "max f error, n = 8, A in [0, pi/4] (half-angle)", 1.53828e-7, COMPONENT, 2, EBERLY),
    ("recipe-eberly16h.f64", "slerp", "max f error, n = 16, A in [0, pi/4] (half-angle)", 1.11022e-16, COMPONENT, 2,
     EBERLY),
]


def main(report):
    rows = qc_tables.rows(report, "summary.csv", ["impl", "op", "region", "max_ulp1", "max_angle_err_rad"])
    worst = {}
    for r in rows:
        key = (r["impl"], r["op"])
        w = worst.setdefault(key, {ANGLE: None, COMPONENT: None})
        if r["max_angle_err_rad"] != "":
            w[ANGLE] = max(w[ANGLE] or 0.0, float(r["max_angle_err_rad"]))
        if r["max_ulp1"] != "":
            w[COMPONENT] = max(w[COMPONENT] or 0.0, float(r["max_ulp1"]) * 2.0 ** -52)
    sources = []
    print("*measured* is the largest error the run saw over all regions: a sampled lower bound on the true "
          "maximum. *allows* is the most a correct published figure permits the harness to measure (the "
          "quantities differ for Eberly, see below the table). *ratio* = measured / published.\n")
    print("| source | implementation | published figure | published | measured | ratio | allows | reading |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for impl, op, what, value, quantity, allowance, source in PUBLISHED:
        if source not in sources:
            sources.append(source)
        ref = f"[{sources.index(source) + 1}]"
        measured = worst.get((impl, op), {}).get(quantity)
        if measured is None:
            print(f"| {ref} | `{impl}` | {what} | {value:.6g} | _(not in this report)_ | | | |")
            continue
        ratio = measured / value
        unit = "rad" if quantity == ANGLE else "per component"
        reading = ("**contradicts** the published figure" if ratio > allowance
                   else "consistent (a sampled maximum cannot confirm more)")
        print(f"| {ref} | `{impl}` {op} | {what} | {value:.6g} | {measured:.4g} {unit} | {ratio:.3g} | "
              f"{allowance:g}x | {reading} |")
    print()
    for i, s in enumerate(sources):
        print(f"[{i + 1}] {s}  ")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: published.py REPORT_DIR\n")
        sys.exit(2)
    main(sys.argv[1])
