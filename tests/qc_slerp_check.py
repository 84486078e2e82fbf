#!/usr/bin/env python3
"""Checks qc-slerp's accuracy claims (impls/recommended/qc_slerp.h) on a `quatcheck run` report folder.

Usage: qc_slerp_check.py REPORT_DIR FAMILY [MAX_ULP1]
For FAMILY.f32 and FAMILY.f64, every region of summary.csv must be present (uniform, near-0,
near-half-pi, near-pi, threshold), with no non-finite output and max_ulp1 <= MAX_ULP1 (default 2).
Prints one line per violation and exits 1 if there is any, 0 otherwise; 2 for unreadable input.
Read through scripts/qc_tables.py, so a renamed column fails loudly.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import qc_tables  # noqa: E402

REGIONS = ["uniform", "near-0", "near-half-pi", "near-pi", "threshold"]


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: qc_slerp_check.py REPORT_DIR FAMILY [MAX_ULP1]\n")
        return 2
    report, family = argv[1], argv[2]
    bound = float(argv[3]) if len(argv) == 4 else 2.0
    try:
        rows = qc_tables.rows(report, "summary.csv", ["impl", "op", "region", "cases", "nonfinite", "max_ulp1"])
    except qc_tables.TableError as e:
        sys.stderr.write(f"{e}\n")
        return 2
    bad = []
    for prec in ("f32", "f64"):
        impl = f"{family}.{prec}"
        mine = {r["region"]: r for r in rows if r["impl"] == impl and r["op"] == "slerp"}
        for region in REGIONS:
            r = mine.get(region)
            if r is None:
                bad.append(f"{impl} {region}: no row in summary.csv")
                continue
            if int(r["cases"]) == 0:
                bad.append(f"{impl} {region}: no cases")
            if int(r["nonfinite"]) != 0:
                bad.append(f"{impl} {region}: {r['nonfinite']} non-finite outputs")
            if r["max_ulp1"] == "" or float(r["max_ulp1"]) > bound:
                bad.append(f"{impl} {region}: max ulp1 {r['max_ulp1']} > {bound:g}")
    for line in bad:
        print(line)
    if not bad:
        print(f"{family}: max ulp1 <= {bound:g} and no non-finite output in all {len(REGIONS)} regions, f32 and f64")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
