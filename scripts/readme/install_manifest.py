#!/usr/bin/python3
"""docs block (docs/install.md): what `cmake --install` puts under the prefix, read from the install manifest.

    scripts/readme/install_manifest.py [REPORT_DIR]

Installs $QC_BUILD (default build-core/, else build/) into a temporary prefix and prints each installed folder
with its files (the names of up to six, then a count), in the order of the manifest's sorted paths.
REPORT_DIR is ignored.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    build = os.environ.get("QC_BUILD")
    if not build:
        build = next((os.path.join(ROOT, b) for b in ("build-core", "build")
                      if os.path.exists(os.path.join(ROOT, b, "cmake_install.cmake"))), None)
    if not build:
        sys.exit("install_manifest: no configured build-core/ or build/ (or set QC_BUILD)")
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["cmake", "--install", build, "--prefix", tmp], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"install_manifest: cmake --install {build} failed: {out.stderr.strip().splitlines()[-1:]}")
        folders = {}
        for dirpath, _, files in os.walk(tmp):
            rel = os.path.relpath(dirpath, tmp)
            if files:
                folders[rel] = sorted(files)
    print("| folder under the prefix | files |")
    print("|---|---|")
    for rel in sorted(folders):
        files = folders[rel]
        shown = ", ".join(f"`{f}`" for f in files[:6])
        more = f" and {len(files) - 6} more" if len(files) > 6 else ""
        print(f"| `{rel}/` | {shown}{more} |")
    print()
    print(f"_Listed by `scripts/readme/install_manifest.py` from `cmake --install` of a `{os.path.basename(build.rstrip('/'))}/` "
          "folder._")


if __name__ == "__main__":
    main()
