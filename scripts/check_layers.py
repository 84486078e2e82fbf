#!/usr/bin/env python3
"""Checks that the harness's layers point one way (issue 17; README "Layout"): a file includes only headers of
its own layer or of a lower one, and the folders of one layer include each other without a cycle (issue 27:
a cycle, e.g. plugins -> isolate -> plugins, means neither folder can be read or built without the other).
It also refuses getenv below the cli layer (issue 27; harness/base/context.h): the environment is read by the
CLI and passed down as values (RunContext, options), so that what a study does is decided by its arguments.
Run by the build (CMake target check_layers, part of ALL), so a violation is a build error naming the file,
the header and both layers, each folder of the cycle with one include that makes each step, or the file and
line of a getenv.

With --link BUILD_DIR it checks the built layer libraries (libqc_<layer>.a) instead: a symbol one layer uses
and does not define itself must not be defined only in a layer above it (issue 42). The include check cannot see
that: a header of the ground floor (quatcheck/types.h) whose function were defined in evaluation would let a core
file include it legally and then fail to link, since qc_core links only the layers below it. One line per symbol:
the object that uses it, its layer, and the object and layer that define it.

Usage: scripts/check_layers.py [ROOT]
       scripts/check_layers.py --link BUILD_DIR [LAYER=ARCHIVE ...]   (default: every libqc_<layer>.a in BUILD_DIR)
"""
import os
import re
import subprocess
import sys

# Lowest first. A directory of harness/ not listed here is an error too: place a new one in a layer. The ground
# floor holds the interface headers (harness/include/quatcheck) and harness/base, where the interface's functions
# are defined beside what every layer uses (types, parallel_for, build info, progress, shard spec, RunContext).
LAYERS = [
    ("base", ["include", "base"]),
    ("core", ["reference", "metrics", "regions", "tables"]),
    ("evaluation", ["plugins", "isolate", "run"]),
    ("studies", ["search", "conform", "squad", "threshold", "curves", "sweep", "pipeline"]),
    ("output", ["report", "compare", "leaderboard", "findings"]),
    ("cli", ["cli"]),
]
RANK = {d: (i, name) for i, (name, dirs) in enumerate(LAYERS) for d in dirs}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A call of getenv (std::getenv, ::getenv, secure_getenv) outside a // comment.
GETENV = re.compile(r'^(?:(?!//).)*\b(?:secure_)?getenv\s*\(', re.M)


def folder_cycles(edges):
    """edges: {(a, b): "a/file includes \"b/h\""} between folders of one layer. Returns one cycle (a list of
    folders, first repeated last) per strongly connected group of more than one folder, shortest through the
    group's first folder by name."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    reach = {a: set() for a in graph}
    for a in graph:  # a small graph: plain search from every folder
        todo = [a]
        while todo:
            for b in graph[todo.pop()]:
                if b not in reach[a]:
                    reach[a].add(b)
                    todo.append(b)
    cycles, seen = [], set()
    for a in sorted(graph):
        group = sorted(b for b in graph if b in reach[a] and a in reach[b])
        if len(group) < 2 or a in seen:
            continue
        seen.update(group)
        prev, todo = {a: None}, [a]  # breadth first within the group: the shortest way back to a
        while todo:
            nxt = []
            for x in todo:
                for y in sorted(graph[x]):
                    if y == a:
                        path = [x]
                        while prev[path[-1]] is not None:
                            path.append(prev[path[-1]])
                        cycles.append((group, list(reversed(path)) + [a]))
                        todo, nxt = [], []
                        break
                    if y in group and y not in prev:
                        prev[y] = x
                        nxt.append(y)
                else:
                    continue
                break
            todo = nxt
    return cycles


def archive_symbols(path):
    """(defined, undefined) of a static library: {mangled symbol: object file}. Defined are the global and weak
    symbols nm lists as defined; undefined the ones an object needs from elsewhere."""
    defined, undefined = {}, {}
    for flag, into in (("--defined-only", defined), ("--undefined-only", undefined)):
        out = subprocess.run(["nm", "-A", "-g", flag, path], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            # archive.a:object.o:[address] TYPE symbol
            where, _, rest = line.partition(".o:")
            parts = rest.split()
            if len(parts) >= 2:
                into.setdefault(parts[-1], where.split(":")[-1] + ".o")
    return defined, undefined


def demangle(symbol):
    try:
        return subprocess.run(["c++filt", symbol], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return symbol


def check_link(build, given):
    """given: [(layer, archive)] lowest first. Returns the error lines."""
    tables = [(layer, archive_symbols(path)) for layer, path in given]
    errors = []
    for i, (layer, (defined, undefined)) in enumerate(tables):
        below = set(defined)
        for _, (d, _) in tables[:i]:
            below.update(d)
        for symbol, user in sorted(undefined.items()):
            if symbol in below:
                continue
            for upper, (d, _) in tables[i + 1:]:
                if symbol in d:
                    errors.append(f"{layer}/{user} uses {demangle(symbol)}, defined only in layer {upper} "
                                  f"({d[symbol]}), which {layer} does not link: define it in {layer} or below")
                    break
    return errors


def main_link(args):
    if not args:
        print("check_layers: --link needs a build folder", file=sys.stderr)
        return 2
    build, pairs = args[0], args[1:]
    if pairs:
        given = [tuple(p.split("=", 1)) for p in pairs]
    else:
        given = [(name, os.path.join(build, f"libqc_{name}.a")) for name, _ in LAYERS if name != "cli"]
    missing = [p for _, p in given if not os.path.isfile(p)]
    if missing:
        print(f"check_layers: --link: no such library {missing[0]} (build the harness first)", file=sys.stderr)
        return 2
    errors = check_link(build, given)
    for e in errors:
        print(f"check_layers: {e}", file=sys.stderr)
    return 1 if errors else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--link":
        return main_link(sys.argv[2:])
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    harness = os.path.join(root, "harness")
    errors = []
    same_layer = {}  # (folder, folder) of one layer -> the first include that makes the edge
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
            if d != "cli":
                for m in GETENV.finditer(text):
                    line = text.count("\n", 0, m.start()) + 1
                    errors.append(f"harness/{d}/{f}:{line}: getenv below the cli layer (read the environment in "
                                  "harness/cli and pass the value down: RunContext or the options)")
            for inc in INCLUDE.findall(text):
                top = inc.split("/")[0]
                target = "include" if top == "quatcheck" else top
                if target not in RANK:
                    continue  # same-directory or third-party header
                if RANK[target][0] > RANK[d][0]:
                    errors.append(f"harness/{d}/{f}: includes \"{inc}\": layer {RANK[d][1]} may not include layer {RANK[target][1]}")
                elif RANK[target][0] == RANK[d][0] and target != d:
                    same_layer.setdefault((d, target), f"{d}/{f} includes \"{inc}\"")
    for group, cycle in folder_cycles(same_layer):
        steps = "; ".join(same_layer[(a, b)] for a, b in zip(cycle, cycle[1:]))
        errors.append(f"folder cycle in layer {RANK[cycle[0]][1]} among {', '.join(group)}: {' -> '.join(cycle)} ({steps})")
    for e in errors:
        print(f"check_layers: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
