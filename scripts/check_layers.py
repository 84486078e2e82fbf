#!/usr/bin/env python3
"""Checks that the harness's layers point one way (issue 17; README "Layout"): a file includes only headers of
its own layer or of a lower one. Run by the build (CMake target check_layers, part of ALL), so a violation is a
build error naming the file, the header and both layers.

Usage: scripts/check_layers.py [ROOT]
"""
import os
import re
import sys

# Lowest first. A directory of harness/ not listed here is an error too: place a new one in a layer.
LAYERS = [
    ("interface", ["include"]),
    ("core", ["reference", "metrics", "regions", "tables"]),
    ("evaluation", ["plugins", "isolate", "run"]),
    ("studies", ["search", "conform", "squad", "threshold", "curves", "sweep", "pipeline"]),
    ("output", ["report", "compare", "leaderboard", "findings"]),
    ("cli", ["cli"]),
]
RANK = {d: (i, name) for i, (name, dirs) in enumerate(LAYERS) for d in dirs}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    harness = os.path.join(root, "harness")
    errors = []
    for d in sorted(os.listdir(harness)):
        path = os.path.join(harness, d)
        if not os.path.isdir(path) or d.startswith("."):
            continue
        if d not in RANK:
            errors.append(f"harness/{d}/: directory in no layer (add it to scripts/check_layers.py)")
            continue
        for f in sorted(os.listdir(path)):
            if not f.endswith((".h", ".cpp")):
                continue
            with open(os.path.join(path, f), encoding="utf-8") as fh:
                text = fh.read()
            for inc in INCLUDE.findall(text):
                top = inc.split("/")[0]
                target = "include" if top == "quatcheck" else top
                if target not in RANK:
                    continue  # same-directory or third-party header
                if RANK[target][0] > RANK[d][0]:
                    errors.append(f"harness/{d}/{f}: includes \"{inc}\": layer {RANK[d][1]} may not include layer {RANK[target][1]}")
    for e in errors:
        print(f"check_layers: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
