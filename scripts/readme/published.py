#!/usr/bin/env python3
"""docs block: published accuracy figures beside the tool's measurement, from REPORT_DIR/summary.csv.

Published values are citations (typed from the source, with the source named in the table); every
measured number comes from summary.csv. Eberly's figures are maximum errors of his estimate of
f(t, A) = sin(tA)/sin A; the harness measures the output quaternion, whose components are
f(1-t) q0_i + f(t) q1_i, so a correct published bound e allows a measured max component error up to 2e
(|df0| + |df1|), about 1.4e where the maximum sits (A near pi/2, t near 1/2). The measured figure is the
f64 row's max ulp1 over all regions times 2^-52 (ulp1 is in units of 2^(1-p)): a sampled lower bound.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

EBERLY = ("Eberly, GteChebyshevRatio.h (GTEngine file version 3.0.0, 2016/06/19; the corrected table of "
          "'A Fast and Accurate Estimate for SLERP', 2018)")
# (implementation, what the source states, published value)
PUBLISHED = [
    ("recipe-eberly4.f64", "max f error, n = 4, A in [0, pi/2]", 9.30819e-4),
    ("recipe-eberly8.f64", "max f error, n = 8, A in [0, pi/2]", 2.59880e-5),
    ("recipe-eberly16.f64", "max f error, n = 16, A in [0, pi/2]", 4.03665e-8),
    ("recipe-eberly4h.f64", "max f error, n = 4, A in [0, pi/4] (half-angle)", 4.29242e-5),
    ("recipe-eberly8h.f64", "max f error, n = 8, A in [0, pi/4] (half-angle)", 1.53828e-7),
    ("recipe-eberly16h.f64", "max f error, n = 16, A in [0, pi/4] (half-angle)", 1.11022e-16),
]
ULP1_F64 = 2.0 ** -52


def main(report):
    rows = qc_tables.rows(report, "summary.csv", ["impl", "op", "region", "max_ulp1"])
    worst = {}
    for r in rows:
        if r["op"] == "slerp" and r["max_ulp1"] != "":
            worst[r["impl"]] = max(worst.get(r["impl"], 0.0), float(r["max_ulp1"]))
    print(f"Source of every published value: {EBERLY}. *measured* = the largest component error the run saw "
          "(max ulp1 over all regions x 2^-52, a sampled lower bound on the true maximum); a correct published "
          "bound allows at most 2x it. *ratio* = measured / published.\n")
    print("| implementation | published figure | published | measured | ratio | reading |")
    print("|---|---|---:|---:|---:|---|")
    for impl, what, value in PUBLISHED:
        if impl not in worst:
            print(f"| `{impl}` | {what} | {value:.6g} | _(not in this report)_ | | |")
            continue
        measured = worst[impl] * ULP1_F64
        ratio = measured / value
        reading = ("**contradicts** the published bound: above the 2x a correct bound allows" if ratio > 2
                   else "consistent (within the 2x a correct bound allows)")
        print(f"| `{impl}` | {what} | {value:.6g} | {measured:.3e} | {ratio:.3g} | {reading} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: published.py REPORT_DIR\n")
        sys.exit(2)
    main(sys.argv[1])
