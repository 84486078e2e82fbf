#!/usr/bin/env python3
"""Regenerates the generated blocks of README.md and of every docs/*.md from a report folder.

A block is the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. Its content is what
`scripts/readme/NAME.py REPORT_DIR` prints; a generator that exits with status 3 says the report does not hold its
measurement (a default run's report for the deep run's table), and the block keeps its text. Numbers in the docs come only from here, never by hand.
Most blocks live in docs/results.md; any page may hold one. Each file is rewritten atomically, and only
when its text changed.

Usage: scripts/update_readme.py [REPORT_DIR] [--only NAME...]   (default reports/latest)
--only NAME (repeatable): regenerate only the blocks NAME, and leave every other block as it is (a measurement
that writes one figure into a report folder that lacks the others).
"""
import glob
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "scripts", "readme"))
from measured import KEEP  # noqa: E402  a generator's "this report does not hold my measurement": keep the block
args = sys.argv[1:]
only = set()
while "--only" in args:
    i = args.index("--only")
    if i + 1 >= len(args):
        sys.exit("update_readme: --only needs a block name")
    only.add(args[i + 1])
    del args[i:i + 2]
report = os.path.abspath(args[0] if args else os.path.join(root, "reports", "latest"))

pattern = re.compile(r"(<!-- generated:([a-z0-9_-]+) -->\n)(.*?)(<!-- /generated:\2 -->)", re.S)
cache = {}  # a block that appears in several files is generated once


def generate(name):
    if name not in cache:
        script = os.path.join(root, "scripts", "readme", name + ".py")
        if not os.path.exists(script):
            sys.exit(f"update_readme: no generator scripts/readme/{name}.py for block '{name}'")
        out = subprocess.run([sys.executable, script, report], capture_output=True, text=True)
        if out.returncode == KEEP:
            cache[name] = None
        elif out.returncode != 0:
            err = out.stderr.strip()
            cache[name] = f"_(not generated: {err.splitlines()[-1] if err else 'generator failed'})_\n"
        else:
            cache[name] = out.stdout if out.stdout.endswith("\n") else out.stdout + "\n"
    return cache[name]


def render(match):
    if only and match.group(2) not in only:
        return match.group(0)
    text = generate(match.group(2))
    return match.group(0) if text is None else match.group(1) + text + match.group(4)


files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
total = 0
for path in files:
    text = open(path, encoding="utf-8").read()
    count = len(pattern.findall(text))
    if count == 0:
        continue
    total += count
    new = pattern.sub(render, text)
    if new != text:
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(tmp, path)
    print(f"update_readme: {os.path.relpath(path, root)}: {count} blocks")
print(f"update_readme: regenerated {total} blocks from {report}")
