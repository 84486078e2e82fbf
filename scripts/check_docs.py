#!/usr/bin/env python3
"""Checks the documentation: README.md and every docs/*.md.

    scripts/check_docs.py [--root DIR] [--quatcheck BIN]

- every relative link [text](path#anchor) points to a file that exists, and every anchor (also a bare
  (#anchor)) to a heading of that file, with GitHub's rule for heading ids (lower case, punctuation but
  '-' and '_' dropped, spaces to '-', a repeated id gets -1, -2, ...); links inside code are not links;
- every <!-- generated:NAME --> block is closed and has its generator scripts/readme/NAME.py;
- with --quatcheck: the README's synopsis (the code block under "## Command line") names every subcommand
  that `quatcheck --help` lists and, for each, exactly the options its `--help` prints (but -h/--help).

Prints one line per problem, FILE:LINE: what, and exits 1 when there is any; 0 otherwise.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"(?<!\!)\[(?:[^\]\\]|\\.)*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[(?:[^\]\\]|\\.)*\]\(([^()\s]+)\)")
CODE_SPAN = re.compile(r"`+[^`]*`+")


def slug(text):
    """GitHub's id for a heading: inline markup dropped, lower case, [^\\w\\- ] removed, ' ' -> '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading keeps its text
    text = text.replace("`", "").replace("*", "")
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks."""
    fence = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fence = not fence
                continue
            if not fence:
                yield n, line.rstrip("\n")


def anchors(path, cache={}):
    if path not in cache:
        seen, ids = {}, set()
        for _, line in prose_lines(path):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            k = seen.get(base, 0)
            seen[base] = k + 1
            ids.add(base if k == 0 else f"{base}-{k}")
        cache[path] = ids
    return cache[path]


def check_links(root, files, problems):
    for path in files:
        rel = os.path.relpath(path, root)
        for n, line in prose_lines(path):
            text = CODE_SPAN.sub("", line)
            for m in list(LINK.finditer(text)) + list(IMAGE.finditer(text)):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.realpath(dest).startswith(os.path.realpath(root) + os.sep):
                    problems.append(f"{rel}:{n}: link {target} leaves the repository")
                    continue
                if not os.path.exists(dest):
                    problems.append(f"{rel}:{n}: link {target}: no file {os.path.relpath(dest, root)}")
                    continue
                if anchor:
                    if not dest.endswith(".md"):
                        problems.append(f"{rel}:{n}: link {target}: an anchor into a file that is not markdown")
                    elif anchor not in anchors(dest):
                        problems.append(f"{rel}:{n}: link {target}: no heading #{anchor} in {os.path.relpath(dest, root)}")


def check_blocks(root, files, problems):
    for path in files:
        rel = os.path.relpath(path, root)
        open_block = None
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = re.match(r"<!-- (/?)generated:([a-z0-9_-]+) -->\s*$", line)
                if not m:
                    continue
                closing, name = m.group(1) == "/", m.group(2)
                if not closing:
                    if open_block:
                        problems.append(f"{rel}:{n}: block {name} opens inside block {open_block[0]}")
                    open_block = (name, n)
                    if not os.path.exists(os.path.join(root, "scripts", "readme", name + ".py")):
                        problems.append(f"{rel}:{n}: block {name} has no generator scripts/readme/{name}.py")
                else:
                    if not open_block or open_block[0] != name:
                        problems.append(f"{rel}:{n}: closing block {name} that is not open")
                    open_block = None
        if open_block:
            problems.append(f"{rel}:{open_block[1]}: block {open_block[0]} is never closed")


def help_text(binary, *args):
    out = subprocess.run([binary, *args, "--help"], capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        sys.exit(f"check_docs: {binary} {' '.join(args)} --help exited {out.returncode}")
    return out.stdout


def check_synopsis(root, binary, problems):
    readme = os.path.join(root, "README.md")
    lines = open(readme, encoding="utf-8").read().split("\n")
    try:
        start = lines.index("## Command line")
        begin = next(i for i in range(start, len(lines)) if FENCE.match(lines[i]))
        end = next(i for i in range(begin + 1, len(lines)) if FENCE.match(lines[i]))
    except (ValueError, StopIteration):
        problems.append("README.md: no code block under '## Command line'")
        return
    synopsis, current = {}, None  # subcommand -> (first line number, the text of its lines)
    for i in range(begin + 1, end):
        m = re.match(r"^quatcheck\s+([a-z-]+)", lines[i])
        if m:
            current = m.group(1)
            synopsis[current] = [i + 1, ""]
        elif current is None or not lines[i].startswith(" "):
            current = None
            continue
        synopsis[current][1] += " " + lines[i]

    top = help_text(binary)
    subcommands = re.findall(r"^  ([a-z][a-z-]*)\s{2,}", top.split("Subcommands:", 1)[-1], re.M)
    if not subcommands:
        problems.append(f"{binary} --help: no subcommands found")
    for sub in subcommands:
        if sub not in synopsis:
            problems.append(f"README.md:{start + 1}: the synopsis lacks `quatcheck {sub}`")
            continue
        flags = set(re.findall(r"^\s+(?:-[a-zA-Z],)?(--[a-z][a-z0-9-]*)", help_text(binary, sub), re.M))
        flags -= {"--help", "--help-all"}
        line, text = synopsis[sub]
        written = set(re.findall(r"(--[a-z][a-z0-9-]*)", text))
        for flag in sorted(flags - written):
            problems.append(f"README.md:{line}: `quatcheck {sub}` synopsis lacks {flag}")
        for flag in sorted(written - flags):
            problems.append(f"README.md:{line}: `quatcheck {sub}` synopsis has {flag}, which its --help does not list")
    for sub in synopsis:
        if sub not in subcommands:
            problems.append(f"README.md:{synopsis[sub][0]}: the synopsis has `quatcheck {sub}`, which --help does not list")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--quatcheck", help="the quatcheck binary whose --help the synopsis must match")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    problems = []
    check_links(root, files, problems)
    check_blocks(root, files, problems)
    if args.quatcheck:
        check_synopsis(root, args.quatcheck, problems)
    for p in problems:
        print(p)
    print(f"check_docs: {len(files)} files, {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
