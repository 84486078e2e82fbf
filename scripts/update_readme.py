#!/usr/bin/env python3
"""Regenerates the README's generated blocks from the reports.

A block is the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. Its content is what
`scripts/readme/NAME.py REPORT_DIR` prints. Numbers in the README come only from here, never by hand.

Usage: scripts/update_readme.py [REPORT_DIR]   (default reports/latest)
"""
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
report = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "reports", "latest"))
readme_path = os.path.join(root, "README.md")
text = open(readme_path, encoding="utf-8").read()

pattern = re.compile(r"(<!-- generated:([a-z0-9_-]+) -->\n)(.*?)(<!-- /generated:\2 -->)", re.S)


def render(match):
    name = match.group(2)
    script = os.path.join(root, "scripts", "readme", name + ".py")
    if not os.path.exists(script):
        sys.exit(f"update_readme: no generator scripts/readme/{name}.py for block '{name}'")
    out = subprocess.run([sys.executable, script, report], capture_output=True, text=True)
    if out.returncode != 0:
        body = f"_(not generated: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else 'generator failed'})_\n"
    else:
        body = out.stdout if out.stdout.endswith("\n") else out.stdout + "\n"
    return match.group(1) + body + match.group(4)


new = pattern.sub(render, text)
tmp = readme_path + ".tmp"
with open(tmp, "w", encoding="utf-8") as f:
    f.write(new)
os.replace(tmp, readme_path)
print(f"update_readme: regenerated {len(pattern.findall(text))} blocks from {report}")
