#!/usr/bin/env python3
"""Checks the ports of qc-slerp (impls/fixes, served as fix-js, fix-py, fix-rust) on a `quatcheck run` and a
`quatcheck conform` written into one report folder (tests/fixes.test.sh).

Usage: fixes_check.py REPORT_DIR MAX_ULP1 MAX_NLERP_ANGLE FAMILY...
For FAMILY.f64, ops slerp and nlerp: every region of summary.csv is present (uniform, near-0, near-half-pi,
near-pi, threshold) with status ok, cases, no non-finite output and max_norm_err_ulp1 <= MAX_ULP1; slerp has
max_ulp1 <= MAX_ULP1 (against the exact slerp), nlerp max_angle_err_vs_exact_nlerp_rad <= MAX_NLERP_ANGLE (its
max_ulp1 is against the slerp, which nlerp is not); and conformance.csv has rows for the op with every verdict
pass (skip only for constant-speed, which does not apply to nlerp).
Prints one line per violation and exits 1 if there is any; else one line of the figures per family and exit 0;
2 for unreadable input. Read through scripts/qc_tables.py, so a renamed column fails loudly.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import qc_tables  # noqa: E402

REGIONS = ["uniform", "near-0", "near-half-pi", "near-pi", "threshold"]
OPS = ["slerp", "nlerp"]


def accuracy(rows, impl, op, bound, nlerp_bound):
    """Violations of one impl x op in summary.csv, and its worst figure (max ulp1, or nlerp's angle)."""
    mine = {r["region"]: r for r in rows if r["impl"] == impl and r["op"] == op}
    column, limit = ("max_ulp1", bound) if op == "slerp" else ("max_angle_err_vs_exact_nlerp_rad", nlerp_bound)
    bad, worst = [], 0.0
    for region in REGIONS:
        r = mine.get(region)
        if r is None:
            bad.append(f"{impl} {op} {region}: no row in summary.csv")
            continue
        where = f"{impl} {op} {region}"
        if r["status"] != "ok":
            bad.append(f"{where}: status {r['status']} ({r['status_detail']})")
        if int(r["cases"]) == 0:
            bad.append(f"{where}: no cases")
        if int(r["nonfinite"]) != 0:
            bad.append(f"{where}: {r['nonfinite']} non-finite outputs")
        for col, lim in ((column, limit), ("max_norm_err_ulp1", bound)):
            if r[col] == "" or not float(r[col]) <= lim:
                bad.append(f"{where}: {col} {r[col] or 'missing'} > {lim:g}")
        if r[column] != "":
            worst = max(worst, float(r[column]))
    return bad, worst


def conformance(rows, impl, op, informative=frozenset()):
    """Violations of one impl x op in conformance.csv, and its number of passing properties. An informative
    property (correctly-rounded: a fix is not asked to round correctly) is neither a violation nor a pass."""
    mine = [r for r in rows if r["impl"] == impl and r["op"] == op and r["property"] not in informative]
    if not mine:
        return [f"{impl} {op}: no row in conformance.csv"], 0
    bad = []
    for r in mine:
        ok = r["verdict"] == "pass" or (r["verdict"] == "skip" and op == "nlerp" and r["property"] == "constant-speed")
        if not ok:
            bad.append(f"{impl} {op} {r['property']}: {r['verdict']} (worst {r['worst']}, tolerance {r['tolerance']}, "
                       f"counterexample {r['counterexample']})")
    return bad, sum(r["verdict"] == "pass" for r in mine)


def main(argv):
    if len(argv) < 5:
        sys.stderr.write("usage: fixes_check.py REPORT_DIR MAX_ULP1 MAX_NLERP_ANGLE FAMILY...\n")
        return 2
    report, bound, nlerp_bound, families = argv[1], float(argv[2]), float(argv[3]), argv[4:]
    try:
        summary = qc_tables.rows(report, "summary.csv", ["impl", "op", "region", "cases", "nonfinite", "max_ulp1",
                                                         "max_norm_err_ulp1", "max_angle_err_vs_exact_nlerp_rad",
                                                         "status", "status_detail"])
        verdicts = qc_tables.rows(report, "conformance.csv",
                                  ["impl", "op", "property", "verdict", "worst", "tolerance", "counterexample"])
    except qc_tables.TableError as e:
        sys.stderr.write(f"{e}\n")
        return 2
    bad, figures = [], []
    for family in families:
        impl = f"{family}.f64"
        parts = []
        for op in OPS:
            b1, worst = accuracy(summary, impl, op, bound, nlerp_bound)
            b2, passed = conformance(verdicts, impl, op, qc_tables.informative_properties(report))
            bad += b1 + b2
            what = "max ulp1" if op == "slerp" else "max angle vs exact nlerp"
            parts.append(f"{op} {what} {worst:g}, {passed} properties pass")
        figures.append(f"{impl}: " + "; ".join(parts))
    for line in bad:
        print(line)
    if not bad:
        for line in figures:
            print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
