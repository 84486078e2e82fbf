#!/usr/bin/env python3
"""README block: the implementations built into this checkout (from `quatcheck list --summary`)."""
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
qc = os.path.join(root, os.environ.get("QC_BUILD_DIR", "build"), "quatcheck")
lines = subprocess.run([qc, "list", "--summary"], capture_output=True, text=True, check=True).stdout.splitlines()
print("| implementation | group | ops | library version | contract |")
print("|---|---|---|---|---|")
i = 0
while i < len(lines):
    head = lines[i].split()
    summary = lines[i + 1].strip() if i + 1 < len(lines) and lines[i + 1].startswith("    ") else ""
    name, group, ops = head[0], head[1], head[2]
    version = " ".join(head[3:])
    print(f"| `{name}` | {group} | {ops} | {version} | {summary} |")
    i += 2 if summary else 1
