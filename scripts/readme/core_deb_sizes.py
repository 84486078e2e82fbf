#!/usr/bin/python3
"""docs block (docs/install.md): the core package, what it depends on and what `apt install` of it costs.

    scripts/readme/core_deb_sizes.py [REPORT_DIR]

The package is $QC_DEB, else the newest quatcheck_*.deb of build-core/ (`cpack -G DEB` in the folder that
`scripts/setup --core` makes: no engine adapters) or build/ (a default build: its core package is the same, the
engine modules being the other package, quatcheck-engines). Prints its Depends, Recommends and Installed-Size as
`dpkg-deb -f` reads them, then the sizes of `scripts/readme/package_sizes.py --deb`. REPORT_DIR is ignored.
"""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    deb = os.environ.get("QC_DEB")
    if not deb:
        found = sorted(glob.glob(os.path.join(ROOT, "build-core", "quatcheck_*.deb")) +
                       glob.glob(os.path.join(ROOT, "build", "quatcheck_*.deb")), key=os.path.getmtime)
        if not found:
            sys.exit("core_deb_sizes: no build-core/ or build/ quatcheck_*.deb (run cpack -G DEB there, or set QC_DEB)")
        deb = found[-1]
    fields = {}
    for f in ("Package", "Version", "Depends", "Recommends", "Suggests", "Installed-Size"):
        out = subprocess.run(["dpkg-deb", "-f", deb, f], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"core_deb_sizes: dpkg-deb -f {deb} failed: {out.stderr.strip()}")
        fields[f] = out.stdout.strip()
    print(f"`{os.path.basename(deb)}` (`dpkg-deb -f`): Installed-Size {fields['Installed-Size']} KiB.\n")
    for f in ("Depends", "Recommends", "Suggests"):
        print(f"- {f}: {', '.join('`' + d.strip() + '`' for d in fields[f].split(',') if d.strip()) or 'none'}")
    print()
    sys.stdout.flush()
    table = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "readme", "package_sizes.py"), "--deb", deb],
                           capture_output=True, text=True)
    if table.returncode != 0:
        sys.exit(table.stderr.strip() or "core_deb_sizes: package_sizes.py --deb failed")
    print(table.stdout, end="")


if __name__ == "__main__":
    main()
