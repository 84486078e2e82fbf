#!/usr/bin/python3
"""docs block (docs/install.md): the engines package, what it holds, what it depends on and what `apt install` of it
beside the core package costs.

    scripts/readme/engines_deb_sizes.py [REPORT_DIR]

The packages are $QC_ENGINES_DEB and $QC_DEB, else the newest build/quatcheck-engines_*.deb and the
build/quatcheck_*.deb of the same version (`cpack -G DEB` in a default build folder makes both). Prints the engines
package's modules (`dpkg-deb -c`), its Depends and Installed-Size (`dpkg-deb -f`), then the sizes of
`scripts/readme/package_sizes.py --deb CORE --deb ENGINES` (the engines package needs the core package).
REPORT_DIR is ignored.
"""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def field(deb, name):
    out = subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"engines_deb_sizes: dpkg-deb -f {deb} failed: {out.stderr.strip()}")
    return out.stdout.strip()


def main():
    engines = os.environ.get("QC_ENGINES_DEB")
    if not engines:
        found = sorted(glob.glob(os.path.join(ROOT, "build", "quatcheck-engines_*.deb")), key=os.path.getmtime)
        if not found:
            sys.exit("engines_deb_sizes: no build/quatcheck-engines_*.deb (run cpack -G DEB in build, or set QC_ENGINES_DEB)")
        engines = found[-1]
    core = os.environ.get("QC_DEB") or os.path.join(os.path.dirname(engines),
                                                    os.path.basename(engines).replace("quatcheck-engines_", "quatcheck_"))
    if not os.path.isfile(core):
        sys.exit(f"engines_deb_sizes: no core package {core} beside {engines} (or set QC_DEB)")
    listing = subprocess.run(["dpkg-deb", "-c", engines], capture_output=True, text=True, check=True).stdout
    paths = sorted(line.split()[-1] for line in listing.splitlines() if line.endswith(".so"))
    modules = [os.path.basename(p) for p in paths]
    folder = sorted({os.path.dirname(p).lstrip(".") + "/" for p in paths})
    print(f"`{os.path.basename(engines)}` (`dpkg-deb -c`, `-f`): {len(modules)} modules in "
          f"{', '.join('`' + f + '`' for f in folder)}, Installed-Size {field(engines, 'Installed-Size')} KiB.\n")
    print(f"- modules: {', '.join('`' + m + '`' for m in modules)}")
    deps = [d.strip() for d in field(engines, "Depends").split(",") if d.strip()]
    print(f"- Depends: {', '.join('`' + d + '`' for d in deps) or 'none'}")
    print()
    sys.stdout.flush()
    table = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "readme", "package_sizes.py"), "--deb", core,
                            "--deb", engines, "--no-matplotlib"], capture_output=True, text=True)
    if table.returncode != 0:
        sys.exit(table.stderr.strip() or "engines_deb_sizes: package_sizes.py --deb failed")
    print(table.stdout, end="")


if __name__ == "__main__":
    main()
