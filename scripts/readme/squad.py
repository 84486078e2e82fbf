#!/usr/bin/env python3
"""README block: squad angle errors and C1 jumps per implementation, from REPORT_DIR/squad_summary.csv and
squad_conformance.csv."""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]
rows = qc_tables.rows(report, "squad_summary.csv", ["impl", "region", "tracks", "max_angle_err_own_rad",
                                                  "max_angle_err_refcp_rad", "max_c1_jump_impl", "max_c1_jump_ref",
                                                  "c1_failures", "c1_keys"])
conf = qc_tables.rows(report, "squad_conformance.csv", ["impl", "property", "verdict"])
verdict = {(c["impl"], c["property"]): c["verdict"] for c in conf}
impls = []
for r in rows:
    if r["impl"] not in impls:
        impls.append(r["impl"])
tracks = rows[0]["tracks"] if rows else "0"
print(f"{tracks} tracks per region and precision; max over sampled points, a lower bound on the true maximum.")
print("Angle errors in rad with own / reference control points; C1 jump = max relative angular-velocity jump")
print("at the judged keys (implementation; the reference's own in brackets).\n")
print("| impl | region | max err own | max err refcp | max C1 jump (ref) | c1 failures / keys |")
print("|---|---|---|---|---|---|")
for impl in impls:
    for r in rows:
        if r["impl"] != impl:
            continue
        print(f'| `{impl}` | {r["region"]} | {float(r["max_angle_err_own_rad"]):.2e} | '
              f'{float(r["max_angle_err_refcp_rad"]):.2e} | {float(r["max_c1_jump_impl"]):.2e} '
              f'({float(r["max_c1_jump_ref"]):.0e}) | {r["c1_failures"]} / {r["c1_keys"]} |')
print("\n| impl | c1 | c1-sign-flip |")
print("|---|---|---|")
for impl in impls:
    print(f'| `{impl}` | {verdict.get((impl, "c1"), "")} | {verdict.get((impl, "c1-sign-flip"), "")} |')
