#!/usr/bin/env python3
"""Generated block: the JavaScript and Python libraries vetted through process plugins
(docs/plugin-protocol.md), their versions as their adapters report them, and what the harness found.

Reads REPORT_DIR/leaderboard.csv (written by `quatcheck leaderboard` after a run with the --plugin-cmd
adapters that scripts/run passes): the rows whose family belongs to one of the adapters below. Every
figure printed here comes from that file.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

# family prefix -> (library, package, adapter), in the order of issue 15.
LIBRARIES = {
    "three": ("three.js", "npm `three`", "impls/js/three.js"),
    "glmatrix": ("gl-matrix", "npm `gl-matrix`", "impls/js/gl-matrix.js"),
    "mathgl": ("math.gl", "npm `@math.gl/core`", "impls/js/mathgl.js"),
    "babylon": ("Babylon.js", "npm `@babylonjs/core`", "impls/js/babylonjs.js"),
    "playcanvas": ("PlayCanvas", "npm `playcanvas`", "impls/js/playcanvas.js"),
    "cannon": ("cannon-es", "npm `cannon-es`", "impls/js/cannon-es.js"),
    "scipy": ("SciPy", "Debian `python3-scipy`", "impls/python/scipy_adapter.py"),
    # issue 30
    "ogl": ("OGL", "npm `ogl`", "impls/js/ogl.js"),
    "wgpu": ("wgpu-matrix", "npm `wgpu-matrix`", "impls/js/wgpu-matrix.js"),
    "thing": ("@thi.ng/matrices", "npm `@thi.ng/matrices`", "impls/js/thing-matrices.js"),
    "quaternionjs": ("Quaternion.js", "npm `quaternion`", "impls/js/quaternion.js"),
    "euclid": ("euclid (Rust)", "Debian `librust-euclid-dev`", "impls/rust/src/main.rs"),
    "godot": ("Godot", "Debian `godot3-server`", "impls/godot/adapter.gd"),
    # issue 41
    "pyrr": ("pyrr", "Debian `python3-pyrr`", "impls/python/pyrr_adapter.py"),
    "cesium": ("CesiumJS", "npm `@cesium/engine`", "impls/js/cesium.js"),
    "superthree": ("super-three (A-Frame's three.js)", "npm `super-three`", "impls/js/super-three.js"),
    "glquat": ("gl-quat", "npm `gl-quat`", "impls/js/gl-quat.js"),
    "threedeb": ("three.js r111", "Debian `libjs-three`", "impls/js/three-debian.js"),
    "vecmath": ("vecmath (Java 3D)", "Debian `libvecmath-java`", "impls/java/VecmathAdapter.java"),
}

report = sys.argv[1]
rows = qc_tables.rows(report, "leaderboard.csv", ["impl", "op", "group", "library_version", "cases", "worst_region",
                                                  "worst_max_angle_err_rad", "nonfinite", "conformance"])
rows = [r for r in rows if r["group"] == "plugin" and r["impl"].split("-")[0] in LIBRARIES]
if not rows:
    sys.exit("process_libraries: no rows of the process-plugin libraries in leaderboard.csv "
             "(was the run made by scripts/run with node and SciPy present?)")

by_library = {}
for r in rows:
    by_library.setdefault(r["impl"].split("-")[0], []).append(r)

print("Libraries vetted through process plugins (the version each adapter reports, recorded in `run.json`):\n")
print("| library | package | version | adapter | implementation | op | worst region | max angle error (rad) | non-finite | conformance |")
print("|---|---|---|---|---|---|---|---|---|---|")
for key, (lib, package, adapter) in LIBRARIES.items():
    for r in sorted(by_library.get(key, []), key=lambda r: (r["impl"], r["op"])):
        print(f"| {lib} | {package} | {r['library_version']} | `{adapter}` | `{r['impl']}` | {r['op']} | {r['worst_region']} "
              f"| {r['worst_max_angle_err_rad']} | {r['nonfinite']} | {r['conformance']} |")
missing = [LIBRARIES[k][0] for k in LIBRARIES if k not in by_library]
if missing:
    print(f"\nNot vetted in this report (runtime or packages missing): {', '.join(missing)}.")
