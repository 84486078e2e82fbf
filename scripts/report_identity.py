#!/usr/bin/env python3
"""Diffs two folders written by scripts/report_identity: every CSV, MD, JSON and text file must be the same
but for what varies from run to run (timing figures, wall times, timestamps), which is blanked first.
Usage: report_identity.py BEFORE AFTER; exit 1 and a list of the differences when they differ."""
import csv
import io
import json
import os
import sys

# CSV columns and JSON keys holding times or timing-derived figures.
VOLATILE_COLUMNS = {"ns_per_call", "ns_per_case", "cv", "wall_s", "cpu_s", "speedup", "ns_arc", "ns_fallback",
                    "recomputed_fraction", "fallback_fraction",
                    "ns_per_call_throughput", "ns_per_call_latency"}
VOLATILE_KEYS = {"wall_time_s", "timing_wall_time_s", "finished_at"}
VOLATILE_MD_COLUMNS = {"ns/call"}
SKIPPED_FILES = {"bench.json"}  # Google Benchmark's raw output: timing only


def blank_csv(text):
    """The CSV with its volatile columns emptied."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return text
    drop = {i for i, name in enumerate(rows[0]) if name in VOLATILE_COLUMNS}
    return "\n".join(",".join("" if i in drop else c for i, c in enumerate(r)) for r in rows)


def blank_json(value):
    """The JSON value with its volatile keys removed, recursively."""
    if isinstance(value, dict):
        return {k: blank_json(v) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [blank_json(v) for v in value]
    return value


def blank_md(text):
    """The markdown with the cells of volatile table columns emptied."""
    out, drop = [], set()
    for line in text.splitlines():
        if line.startswith("|"):
            cells = line.split("|")
            if not line.startswith("|---") and not line.startswith("|--"):
                names = [c.strip() for c in cells]
                if any(n in VOLATILE_MD_COLUMNS for n in names):
                    drop = {i for i, n in enumerate(names) if n in VOLATILE_MD_COLUMNS}
            line = "|".join("" if i in drop else c for i, c in enumerate(cells))
        else:
            drop = set()
        out.append(line)
    return "\n".join(out)


def normalised(path, root):
    """The file's content with its volatile parts blanked and the folder's own path as <OUT>."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read().replace(os.path.abspath(root), "<OUT>")
    if path.endswith(".csv"):
        return blank_csv(text)
    if path.endswith(".json"):
        return json.dumps(blank_json(json.loads(text)), indent=1, sort_keys=True)
    if path.endswith(".md"):
        return blank_md(text)
    return text


def files(root):
    """Every file below root, relative to it."""
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)


def main():
    before, after = sys.argv[1], sys.argv[2]
    a, b = files(before), files(after)
    problems = [f"only in {before}: {f}" for f in a if f not in b] + [f"only in {after}: {f}" for f in b if f not in a]
    for f in a:
        if f not in b or os.path.basename(f) in SKIPPED_FILES or f.endswith((".png", ".html", ".bin")):
            continue
        x, y = normalised(os.path.join(before, f), before), normalised(os.path.join(after, f), after)
        if x != y:
            xl, yl = x.splitlines(), y.splitlines()
            first = next((i for i in range(min(len(xl), len(yl))) if xl[i] != yl[i]), min(len(xl), len(yl)))
            problems.append(f"differs: {f} (first at line {first + 1}: {xl[first][:160] if first < len(xl) else '<end>'!r}"
                            f" vs {yl[first][:160] if first < len(yl) else '<end>'!r})")
    for p in problems:
        print(p)
    print(f"report_identity: {len(a)} files compared, {len(problems)} difference(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
