#!/usr/bin/python3
"""docs block: what `scripts/setup` and `scripts/setup --core` download and install, measured with apt.

    scripts/readme/package_sizes.py [REPORT_DIR] [--base FILE]
    scripts/readme/package_sizes.py --deb FILE.deb [--deb FILE.deb]... [--no-matplotlib]

--deb: what `apt install ./FILE.deb` downloads and installs on a minimal Debian 12 (apt's defaults: Recommends
included), and the same with python3-matplotlib for `quatcheck report` (docs/install.md's block core_deb_sizes).
Several --deb: the packages installed together, as `apt install ./A.deb ./B.deb` (the engines package needs the core
package beside it: docs/install.md's block engines_deb_sizes). --no-matplotlib: the first row only.

For each profile (scripts/packages core | full), apt-get resolves the packages with --no-install-recommends
(as scripts/setup installs them) against a dpkg status that holds only a base set of packages, and prints
its own "Need to get" and "After this operation" figures. Nothing is downloaded or installed: apt-get
runs with --print-uris, a temporary status file and archive cache, and no lock. Bases:
  - minimal Debian 12: the installed packages of priority required (what a debian:12 image holds);
  - FILE (--base, or $QC_BASE_PACKAGES): a list of installed packages, one per line as NAME or
    "apt<TAB>NAME<TAB>VERSION", e.g. a CI image's list; a name not installed here is left out.
Either base is completed with the installed packages it depends on, so that apt sees a consistent system.
REPORT_DIR is ignored (scripts/update_readme.py passes one to every block).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NEED = re.compile(r"^Need to get (.+?) of archives\.", re.M)
AFTER = re.compile(r"^After this operation, (.+?) of additional disk space will be used\.", re.M)
NEW = re.compile(r"^(\d+) upgraded, (\d+) newly installed", re.M)


def stanzas():
    """The installed packages' stanzas of the dpkg status, by name."""
    out = {}
    with open("/var/lib/dpkg/status", encoding="utf-8", errors="replace") as f:
        for block in f.read().split("\n\n"):
            m = re.search(r"^Package: (\S+)", block, re.M)
            if m and re.search(r"^Status: install ok installed", block, re.M):
                out[m.group(1)] = block.strip()
    return out


def closure(names, installed):
    """names and every installed package they depend on (Depends, Pre-Depends; the first installed
    alternative), so that the base status is consistent."""
    provides = {}
    for n, s in installed.items():
        m = re.search(r"^Provides: (.*)$", s, re.M)
        for p in (m.group(1).split(",") if m else []):
            provides.setdefault(p.split("(")[0].strip(), n)
    todo, seen = [n for n in names if n in installed], set()
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        for m in re.finditer(r"^(?:Pre-)?Depends: (.*)$", installed[n], re.M):
            for dep in m.group(1).split(","):
                for alt in dep.split("|"):
                    name = alt.split("(")[0].strip().split(":")[0]
                    name = name if name in installed else provides.get(name)
                    if name:
                        todo.append(name)
                        break
    return seen


def base_names(path, installed):
    if path is None:
        return [n for n, s in installed.items() if re.search(r"^Priority: required", s, re.M)], "minimal Debian 12 (priority required)"
    names = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if len(cells) >= 2 and cells[0] != "apt":
                continue  # pip, npm ... lines of an image list
            names.append((cells[1] if len(cells) >= 2 else cells[0]).split(":")[0])
    return names, os.path.basename(path)


def apt_sizes(what, pkgs, status, cache, recommends=False):
    """apt-get's figures for installing pkgs (names, or ./FILE.deb) on the base in status: (packages newly
    installed, download, installed size)."""
    rec = [] if recommends else ["--no-install-recommends"]
    out = subprocess.run(["apt-get", "install", "--print-uris", *rec, "-o", f"Dir::State::status={status}",
                          "-o", f"Dir::Cache::archives={cache}", "-o", "Debug::NoLocking=1", *pkgs],
                         capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
    if out.returncode != 0:
        sys.exit(f"package_sizes: apt-get failed for {what}: {out.stderr.strip().splitlines()[-1:]}")
    need, after, new = NEED.search(out.stdout), AFTER.search(out.stdout), NEW.search(out.stdout)
    if not (need and after and new):
        sys.exit(f"package_sizes: apt-get printed no size summary for {what}")
    return int(new.group(2)), need.group(1), after.group(1)


def measure(profile, status, cache):
    pkgs = subprocess.run([os.path.join(ROOT, "scripts", "packages"), profile], check=True, capture_output=True,
                          text=True).stdout.split()
    return (len(pkgs),) + apt_sizes(f"the {profile} profile", pkgs, status, cache)


def base_status(tmp, installed, path=None):
    """A dpkg status of the base (minimal Debian 12, or the list in path) and an empty archive cache in tmp."""
    names, label = base_names(path, installed)
    kept = sorted(closure(names, installed))
    status = os.path.join(tmp, "status")
    with open(status, "w", encoding="utf-8") as f:
        f.write("\n\n".join(installed[n] for n in kept) + "\n")
    os.makedirs(os.path.join(tmp, "archives", "partial"), exist_ok=True)
    return status, os.path.join(tmp, "archives"), f"{label}: {len(kept)} packages"


def deb_rows(debs, matplotlib=True):
    """`apt install ./DEB...` on a minimal Debian 12 as apt does it by default (Recommends included), then with
    python3-matplotlib (what `quatcheck report` draws with): the rows of the table."""
    debs = [os.path.abspath(d) for d in debs]
    for deb in debs:
        if not os.path.isfile(deb):
            sys.exit(f"package_sizes: no such package file: {deb}")
    names = [f"./{os.path.basename(d)}" for d in debs]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        status, cache, label = base_status(tmp, stanzas())
        for extra in ([], ["python3-matplotlib"]) if matplotlib else ([],):
            new, need, after = apt_sizes(" ".join(names), debs + extra, status, cache, True)
            what = " ".join(names + extra)
            rows.append(f"| `apt install {what}` | {label} | {new} | {need} | {after} |")
    return rows


def main():
    args = [a for a in sys.argv[1:]]
    base = os.environ.get("QC_BASE_PACKAGES")
    if "--base" in args:
        i = args.index("--base")
        if i + 1 >= len(args):
            sys.exit("package_sizes: --base needs a FILE")
        base = args[i + 1]
    if "--deb" in args:
        debs = []
        for i, a in enumerate(args):
            if a == "--deb":
                if i + 1 >= len(args) or args[i + 1].startswith("--"):
                    sys.exit("package_sizes: --deb needs a FILE")
                debs.append(args[i + 1])
        print("| command | base | packages installed (with the package) | download | installed size |")
        print("|---|---|---|---|---|")
        print("\n".join(deb_rows(debs, "--no-matplotlib" not in args)))
        print()
        print("_Measured by `scripts/readme/package_sizes.py --deb` with apt-get against this machine's package lists "
              "(apt's own figures, MB = 10^6 bytes; nothing is downloaded or installed)._")
        return
    installed = stanzas()
    rows = []
    for path in [None] + ([base] if base else []):
        with tempfile.TemporaryDirectory() as tmp:
            status, cache, label = base_status(tmp, installed, path)
            for profile, how in (("core", "`scripts/setup --core`"), ("full", "`scripts/setup`")):
                listed, new, need, after = measure(profile, status, cache)
                rows.append(f"| {how} | {label} | {listed} | {new} | {need} | {after} |")
    print("| profile | base | packages listed | packages installed (with dependencies) | download | installed size |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    print("_Measured by `scripts/readme/package_sizes.py` with apt-get against this machine's package lists "
          "(apt's own figures, MB = 10^6 bytes; `--no-install-recommends`, as scripts/setup installs; the rows of "
          "an image's package list with `QC_BASE_PACKAGES=FILE`)._")


if __name__ == "__main__":
    main()
