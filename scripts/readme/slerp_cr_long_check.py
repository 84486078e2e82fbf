#!/usr/bin/env python3
"""Generated block of docs/slerp-cr.md ("The long check"), and the sum of scripts/slerp-cr-long-check.

    slerp_cr_long_check.py DIR [--expect N]

DIR holds one result line per shard (K.line, written by build/tests/qc_slerp_cr_check) and run.txt (when and on
what load the check started, written by scripts/slerp-cr-long-check). Prints one table row per precision and
region (or exact-case family): cases, components, misrounded, undecided, capped, how the calls were checked, the
calls that reached phase 2 and the CPU seconds, summed over the shards; then a line per problem ("FAIL: ...").
With --expect N (the script's --sum): exit 1 when there is a problem or not exactly N shard lines, else 0.
Without (update_readme.py): a folder with no shard line keeps the block (exit 3); otherwise exit 0.
Every figure comes from the shard lines; a line is read up to 4 KiB and must match the checker's format. Text taken
from the folder (run.txt's first line, a region's name) is escaped for Markdown (qc_tables.md_cell).
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from measured import KEEP  # noqa: E402
from qc_tables import md_cell  # noqa: E402

FIELDS = ("cases", "components", "misrounded", "undecided", "capped", "checked-by-dd", "checked-by-mpfr",
          "phase2-calls")
LINE = re.compile(r"slerp_cr_check (f32|f64) (\S+) seed (\d+) shard (\d+)/(\d+): ((?:[a-z0-9-]+ [0-9.]+ ?)+)\n?$")


def read(folder):
    """(rows {(precision, where): sums}, seeds, shard counts, problems, number of line files)."""
    rows, seeds, shards, bad = {}, set(), set(), []
    paths = sorted(glob.glob(os.path.join(folder, "*.line")))
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read(4096)
        m = LINE.match(text)
        if not m:
            bad.append(f"{md_cell(os.path.basename(path))}: no result line (the shard failed or did not finish)")
            continue
        words = m.group(6).split()
        got = dict(zip(words[0::2], words[1::2]))
        if any(k not in got for k in FIELDS + ("seconds",)):
            bad.append(f"{md_cell(os.path.basename(path))}: a figure is missing")
            continue
        seeds.add(m.group(3))
        shards.add(m.group(5))
        row = rows.setdefault((m.group(1), m.group(2)), dict.fromkeys(FIELDS, 0) | {"seconds": 0.0, "shards": 0})
        for k in FIELDS:
            row[k] += int(got[k])
        row["seconds"] += float(got["seconds"])
        row["shards"] += 1
    return rows, seeds, shards, bad, len(paths)


def main():
    args = sys.argv[1:]
    expect = None
    if "--expect" in args:
        i = args.index("--expect")
        if i + 1 >= len(args) or not args[i + 1].isdigit():
            sys.exit("slerp_cr_long_check: --expect: expected a number of shard lines")
        expect = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit("usage: slerp_cr_long_check.py DIR [--expect N]")
    folder = args[0]
    rows, seeds, shards, bad, n = read(folder)
    if expect is None and n == 0:
        sys.exit(KEEP)  # not a long check's folder: the block keeps its text
    if expect is not None and n != expect:
        bad.append(f"{n} shard results of {expect} expected")
    for (p, where), row in sorted(rows.items()):
        if row["misrounded"] or row["undecided"] or row["capped"]:
            bad.append(f"{p} {md_cell(where)}: {row['misrounded']} misrounded, {row['undecided']} undecided, "
                       f"{row['capped']} capped")
    started = ""
    run = os.path.join(folder, "run.txt")
    if os.path.exists(run):
        with open(run, encoding="utf-8", errors="replace") as f:
            lines = f.read(1024).strip().splitlines()
            started = md_cell(lines[0].strip()) if lines else ""
    total = {k: sum(r[k] for r in rows.values()) for k in FIELDS + ("seconds",)}
    print(f"`scripts/slerp-cr-long-check`, seed {', '.join(sorted(seeds)) or '?'}, "
          f"{' or '.join(sorted(shards)) or '?'} shards per row" + (f" ({started})" if started else "") + ":\n")
    print("| precision | region or family | cases | components | misrounded | undecided | capped | checked by "
          "double-double | checked by MPFR | calls reaching phase 2 | CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (p, where), row in sorted(rows.items()):
        print(f"| {p} | {md_cell(where)} | " + " | ".join(str(row[k]) for k in FIELDS) + f" | {row['seconds']:.0f} |")
    print(f"\nIn all: {total['cases']} calls, {total['components']} components, **{total['misrounded']} misrounded**, "
          f"{total['undecided']} undecided by the checker, {total['capped']} capped; {total['seconds']:.0f} CPU "
          "seconds.")
    for b in bad:
        print(f"\nFAIL: {b}")
    sys.exit(1 if bad and expect is not None else 0)


main()
