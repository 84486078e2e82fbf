#!/usr/bin/env python3
"""README block: the engine libraries tested, their versions, and what the harness found in each.

Reads REPORT_DIR/leaderboard.csv (written by `quatcheck run` / `quatcheck leaderboard`): the rows of the
`engine` group, one table per library. Every figure printed here comes from that file.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]
rows = [r for r in qc_tables.rows(report, "leaderboard.csv", ["rank", "impl", "op", "group", "library_version", "cases",
                                                          "worst_region", "worst_max_angle_err_rad", "nonfinite",
                                                          "conformance"])
        if r["group"] == "engine"]
if not rows:
    sys.exit("engines: no engine rows in leaderboard.csv (were the engine libraries built?)")

# family prefix -> (library, Debian package), in the order of issue 6's table.
LIBRARIES = {
    "glm": ("GLM", "libglm-dev"),
    "eigen": ("Eigen", "libeigen3-dev"),
    "bullet": ("Bullet", "libbullet-dev"),
    "ogre": ("OGRE", "libogre-1.12-dev"),
    "assimp": ("Assimp", "libassimp-dev"),
    "irrlicht": ("Irrlicht", "libirrlicht-dev"),
    "osg": ("OpenSceneGraph", "libopenscenegraph-dev"),
    "qt": ("Qt", "qt6-base-dev"),
    "cglm": ("cglm", "libcglm-dev"),
    "tf2": ("tf2 (ROS)", "libtf2-dev"),
    # issue 30
    "opencv": ("OpenCV", "libopencv-core-dev"),
    "vtk": ("VTK", "libvtk9-dev"),
    "mrpt": ("MRPT", "libmrpt-dev"),
    # issue 41
    "imath": ("Imath", "libimath-dev"),
    "ignition": ("ignition-math", "libignition-math-dev"),
    "kdl": ("Orocos KDL", "liborocos-kdl-dev"),
    "coin": ("Coin3D", "libcoin-dev"),
    "openvdb": ("OpenVDB", "libopenvdb-dev"),
}


def library_of(impl):
    prefix = impl.rsplit(".", 1)[0].split("-")[0]
    if prefix not in LIBRARIES:
        sys.exit(f"engines: implementation {impl} belongs to no known library; add its family to LIBRARIES")
    return prefix


def verdicts(compact, kind):
    """The properties listed after 'fail: ' or 'known: ' in a compact verdict string."""
    for part in compact.split("; "):
        if part.startswith(kind + ": "):
            return part[len(kind) + 2:].split()
    return []


by_library = {}
for r in rows:
    by_library.setdefault(library_of(r["impl"]), []).append(r)

cases = sorted({int(r["cases"]) for r in rows})
conformance_run = any(r["conformance"] != "not run" for r in rows)
print("Libraries and versions tested (the version each library reports, recorded in `run.json`):\n")
print("| library | Debian package | version | implementations |")
print("|---|---|---|---|")
for key in LIBRARIES:
    if key not in by_library:
        continue
    lib, package = LIBRARIES[key]
    versions = sorted({r["library_version"] for r in by_library[key]})
    impls = sorted({r["impl"] for r in by_library[key]})
    print(f"| {lib} | `{package}` | {' / '.join(versions)} | {', '.join('`' + i + '`' for i in impls)} |")
missing = [LIBRARIES[k][0] for k in LIBRARIES if k not in by_library]
if missing:
    print(f"\nNot built on the machine that made this report: {', '.join(missing)}.")

print("\nWhat the harness found, per library: the worst region's max angle error (a sampled lower bound), "
      "non-finite outputs over all regions, and the conformance properties that failed"
      + ("" if conformance_run else " (conformance not run for this report)") + ". "
      "`rank` is the row's place in the whole leaderboard.\n")
for key in LIBRARIES:
    if key not in by_library:
        continue
    lib, _ = LIBRARIES[key]
    print(f"**{lib}**\n")
    print("| rank | implementation | op | worst region | max angle err (rad) | non-finite | failing properties | documented (`known`) |")
    print("|---:|---|---|---|---:|---:|---|---|")
    for r in sorted(by_library[key], key=lambda r: int(r["rank"])):
        fails = verdicts(r["conformance"], "fail")
        known = verdicts(r["conformance"], "known")
        fail_cell = ", ".join(fails) if fails else ("none" if r["conformance"] != "not run" else "not run")
        nonfinite = r["nonfinite"] if r["nonfinite"] == "0" else f"**{r['nonfinite']}**"
        status = "" if r.get("status", "ok") == "ok" else f" ({r['status']})"
        print(f"| {r['rank']} | `{r['impl']}` | {r['op']} | {r['worst_region']} | "
              f"{float(r['worst_max_angle_err_rad']):.2e} | {nonfinite}{status} | {fail_cell} | {', '.join(known)} |")
    print()
