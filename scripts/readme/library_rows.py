#!/usr/bin/env python3
"""One generated row per library (issue 41, docs/engines.md and docs/plugin-protocol.md): its version, the
routines vetted, the headline figure of the last full run, the conformance properties its rows fail, and the
one-line title of its first finding.

Which families form a library is the findings cards' data (impls/*/libraries.json, the files `quatcheck findings`
embeds); the figures come from REPORT_DIR/leaderboard.csv and REPORT_DIR/findings/index.json only. Used by
library_rows_engines.py and library_rows_process.py, one block each; run alone: library_rows.py REPORT_DIR CARDS...
"""
import fnmatch
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_BYTES = 16 << 20


def load_json(path, what):
    try:
        if os.path.getsize(path) > MAX_BYTES:
            sys.exit(f"library_rows: {path}: larger than {MAX_BYTES} bytes")
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"library_rows: {what} {path}: {e}")


cell = qc_tables.md_cell  # text from the report or the cards, escaped for a table cell


def failed_properties(conformance):
    """The property names after 'fail:' in a leaderboard conformance cell ('7/9 pass; fail: a b; known: c')."""
    for part in conformance.split(";"):
        part = part.strip()
        if part.startswith("fail:"):
            return part[len("fail:"):].split()
    return []


def table(report, card_files):
    rows = qc_tables.rows(report, "leaderboard.csv", ["impl", "op", "library_version", "worst_region",
                                                      "worst_max_angle_err_rad", "nonfinite", "conformance"])
    index_path = os.path.join(report, "findings", "index.json")
    index = load_json(index_path, "findings index") if os.path.exists(index_path) else {"libraries": []}
    causes = {lib.get("library"): lib.get("causes", []) for lib in index.get("libraries", [])}
    out = ["| library | version | routines (families) | largest angle error (rad), where | properties failed "
           "| causes | first finding |", "|---|---|---|---|---|---|---|"]
    missing = []
    for path in card_files:
        for card in load_json(os.path.join(ROOT, path), "card file")["libraries"]:
            patterns = sorted({r["family"] for r in card["routines"]})
            mine = [r for r in rows if any(fnmatch.fnmatchcase(r["impl"].rsplit(".", 1)[0], p) for p in patterns)]
            if not mine:
                missing.append(card["name"])
                continue
            # A row without a finite figure (an empty cell, nan) counts as the worst.
            worst = max(mine, key=lambda r: float("inf") if r["worst_max_angle_err_rad"] in ("", "nan")
                        else float(r["worst_max_angle_err_rad"]))
            figure = cell(worst["worst_max_angle_err_rad"] or "?")
            if int(worst["nonfinite"] or 0):
                figure += f" (and {cell(worst['nonfinite'])} NaN/inf)"
            where = f"{qc_tables.md_code(worst['impl'])} {cell(worst['op'])}, {cell(worst['worst_region'])}"
            failed = sorted({p for r in mine for p in failed_properties(r["conformance"])})
            lib_causes = causes.get(card["name"], [])
            first = cell(lib_causes[0]["title"]) if lib_causes else "none"
            versions = sorted({r["library_version"] for r in mine if r["library_version"]})
            routines = ", ".join(qc_tables.md_code(p) for p in patterns)
            out.append(f"| {cell(card['name'])} | {cell(', '.join(versions)) or '?'} | {routines} | {figure}: {where} "
                       f"| {cell(' '.join(failed)) or 'none'} | {len(lib_causes)} | {first} |")
    if len(out) == 2:
        sys.exit(f"library_rows: no row of {', '.join(card_files)} in {report}/leaderboard.csv")
    print("\n".join(out))
    if missing:
        print(f"\nNot in this report (library or runtime missing): {cell(', '.join(missing))}.")
    print("\n_The largest angle error over every row of the library in `leaderboard.csv` (its implementation, op "
          "and region), the properties any of its rows fails (`conformance.csv`), and the causes `quatcheck findings` "
          "grouped (`findings/index.json`), the first as it titles it._")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: library_rows.py REPORT_DIR CARD_FILE...")
    table(sys.argv[1], sys.argv[2:])
