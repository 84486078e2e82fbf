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
- Reynolds ("On certain results of quaternionic interpolation", episode 4, 2017) analyses lerp/nlerp in
  the plane {1, Q} of the quaternion sphere: his angle theta between the ends is at most pi/2, and his
  worst-case angle error phi_max = 0.0711146 (at theta = pi/2, t = t_max(pi/2) = 0.238638) is an angle
  on that sphere, half the 3-D rotation angle. The harness's max_angle_err_rad is a rotation angle, so
  the measured figure is max_angle_err_rad / 2 (allowance 1x, as for Kapoulkine's angles). Where the
  worst case occurs comes from worst_cases.csv: the worst nlerp.f64 row's t (folded to min(t, 1 - t), the
  error being odd about t = 1/2) and its arc theta = acos(|q0.q1| / (|q0||q1|)). A sampled worst case
  sits near, not at, the true one (the error is flat there), so a location reads as reproduced within
  5 % of the published value, and as differing beyond it.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

KAPOULKINE = "Kapoulkine, 'Approximating slerp', zeux.io, 23 July 2015 (max angle error over the whole range)"
EBERLY = ("Eberly, GteChebyshevRatio.h (GTEngine 3.0.0, 2016/06/19; the corrected table of 'A Fast and Accurate "
          "Estimate for SLERP', 2018)")
REYNOLDS = ("Reynolds, 'On certain results of quaternionic interpolation' (episode 4), "
            "marc-b-reynolds.github.io, 19 April 2017 (LERP and nlerp: phi_max and t_max(pi/2))")
ANGLE, COMPONENT, HALF_ANGLE = "angle", "component", "half-angle"
# Where a worst case occurs: (what the source states, published value, the quantity read from
# worst_cases.csv, relative tolerance); read for NLERP_WORST below.
T_FOLDED, ARC = "t", "arc"
LOCATION_TOLERANCE = 0.05
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
    ("nlerp.f64", "nlerp", "nlerp, worst-case angle error phi_max (on the quaternion sphere)", 0.0711146, HALF_ANGLE,
     1.001, REYNOLDS),
]
# Where nlerp's worst case occurs (Reynolds): (implementation, op, what, published, quantity, source).
LOCATIONS = [
    ("nlerp.f64", "nlerp", "nlerp worst case: t = t_max(pi/2), or 1 - t", 0.238638, T_FOLDED, REYNOLDS),
    ("nlerp.f64", "nlerp", "nlerp worst case: arc theta between the ends (pi/2)", math.pi / 2, ARC, REYNOLDS),
]


def worst_locations(report):
    """{(impl, op): {T_FOLDED: t, ARC: theta}} of the worst row of worst_cases.csv per implementation and op
    (largest angle_err_rad; none when the file is absent)."""
    table = qc_tables.read(report, "worst_cases.csv",
                           ["impl", "op", "t", "angle_err_rad"] + [f"q{k}_{c}" for k in (0, 1) for c in "wxyz"])
    best = {}
    for r in (table.rows if table is not None else []):
        if r["angle_err_rad"] == "" or not math.isfinite(float(r["angle_err_rad"])):
            continue
        key, err = (r["impl"], r["op"]), float(r["angle_err_rad"])
        if key not in best or err > best[key][0]:
            best[key] = (err, r)
    out = {}
    for key, (_, r) in best.items():
        q0 = [float.fromhex(r[f"q0_{c}"]) for c in "wxyz"]
        q1 = [float.fromhex(r[f"q1_{c}"]) for c in "wxyz"]
        t = float.fromhex(r["t"])
        n = math.sqrt(sum(x * x for x in q0) * sum(x * x for x in q1))
        c = min(1.0, abs(sum(x * y for x, y in zip(q0, q1))) / n) if n > 0 else 1.0
        out[key] = {T_FOLDED: min(t, 1.0 - t), ARC: math.acos(c)}
    return out


def measured_worst(report):
    """{(impl, op): {ANGLE, COMPONENT, HALF_ANGLE: the largest over all regions of summary.csv (None if absent)}}."""
    rows = qc_tables.rows(report, "summary.csv", ["impl", "op", "region", "max_ulp1", "max_angle_err_rad"])
    worst = {}
    for r in rows:
        key = (r["impl"], r["op"])
        w = worst.setdefault(key, {ANGLE: None, COMPONENT: None, HALF_ANGLE: None})
        if r["max_angle_err_rad"] != "":
            w[ANGLE] = max(w[ANGLE] or 0.0, float(r["max_angle_err_rad"]))
        if r["max_ulp1"] != "":
            w[COMPONENT] = max(w[COMPONENT] or 0.0, float(r["max_ulp1"]) * 2.0 ** -52)
        if w[ANGLE] is not None:
            w[HALF_ANGLE] = w[ANGLE] / 2
    return worst


def contradicted(report):
    """The published figures of PUBLISHED that the report's measurement contradicts (ratio above the
    allowance): (impl, op, what, published, measured, ratio, allowance, source, quantity) each."""
    worst = measured_worst(report)
    out = []
    for impl, op, what, value, quantity, allowance, source in PUBLISHED:
        measured = worst.get((impl, op), {}).get(quantity)
        if measured is not None and measured / value > allowance:
            out.append((impl, op, what, value, measured, measured / value, allowance, source, quantity))
    return out


def main(report):
    worst = measured_worst(report)
    sources = []
    print("*measured* is the largest error the run saw over all regions: a sampled lower bound on the true "
          "maximum. *allows* is the most a correct published figure permits the harness to measure (the "
          "quantities differ for Eberly and Reynolds, see below the table). The last rows say where the worst "
          "case lies: there *measured* is read from the worst case the run kept, and *allows* is how far from "
          "the published location it may sit. *ratio* = measured / published.\n")
    print("| source | implementation | published figure | published | measured | ratio | allows | reading |")
    print("|---|---|---|---:|---:|---:|---:|---|")

    def lookup(table, impl, op, quantity, source, label, what, value):
        """The source's reference mark and the measured quantity; None (with the row said) when not in the report."""
        if source not in sources:
            sources.append(source)
        ref = f"[{sources.index(source) + 1}]"
        measured = table.get((impl, op), {}).get(quantity)
        if measured is None:
            print(f"| {ref} | {label} | {what} | {value:.6g} | _(not in this report)_ | | | |")
        return ref, measured

    for impl, op, what, value, quantity, allowance, source in PUBLISHED:
        ref, measured = lookup(worst, impl, op, quantity, source, f"`{impl}`", what, value)
        if measured is None:
            continue
        ratio = measured / value
        unit = {ANGLE: "rad", HALF_ANGLE: "rad (rotation angle / 2)", COMPONENT: "per component"}[quantity]
        reading = ("**contradicts** the published figure" if ratio > allowance
                   else "consistent (a sampled maximum cannot confirm more)")
        print(f"| {ref} | `{impl}` {op} | {what} | {value:.6g} | {measured:.4g} {unit} | {ratio:.3g} | "
              f"{allowance:g}x | {reading} |")
    where = worst_locations(report)
    for impl, op, what, value, quantity, source in LOCATIONS:
        ref, measured = lookup(where, impl, op, quantity, source, f"`{impl}` {op}", what, value)
        if measured is None:
            continue
        ratio = measured / value
        reading = ("reproduced (a sampled worst case sits near the true one)"
                   if abs(ratio - 1) <= LOCATION_TOLERANCE else "**differs** from the published location")
        unit = "(min(t, 1 - t) of the worst case)" if quantity == T_FOLDED else "rad"
        print(f"| {ref} | `{impl}` {op} | {what} | {value:.6g} | {measured:.4g} {unit} | {ratio:.3g} | "
              f"±{LOCATION_TOLERANCE:.0%} | {reading} |")
    print()
    for i, s in enumerate(sources):
        print(f"[{i + 1}] {s}  ")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: published.py REPORT_DIR\n")
        sys.exit(2)
    main(sys.argv[1])
