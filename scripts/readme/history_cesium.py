#!/usr/bin/env python3
"""docs/history.md block: Cesium's documented accuracy of Quaternion.fastSlerp (1e-6) against what each release
measures, from REPORT_DIR/history/cesium/history.csv (scripts/history-measure): per release, the largest angle
error over the regions of cesium-fastslerp and of cesium-slerp, and the region where fastSlerp's is."""
import csv
import os
import sys

path = os.path.join(sys.argv[1], "history", "cesium", "history.csv")
if not os.path.exists(path):
    sys.exit(f"{path}: missing (scripts/history-measure writes it)")
worst = {}  # (version, family) -> (err, region)
order = []
for r in csv.DictReader(open(path)):
    if r["op"] != "slerp" or r["family"] not in ("cesium-fastslerp", "cesium-slerp"):
        continue
    if r["version"] not in order:
        order.append(r["version"])
    k = (r["version"], r["family"])
    e = float(r["max_angle_err_rad"])
    if k not in worst or e > worst[k][0]:
        worst[k] = (e, r["region"])
print("| release | `fastSlerp` max angle error (rad) | in region | over 1e-6 | `slerp` max angle error (rad) |")
print("|---|---|---|---|---|")
for v in order:
    f, s = worst.get((v, "cesium-fastslerp")), worst.get((v, "cesium-slerp"))
    if not f or not s:
        continue
    print(f"| {v} | {f[0]:.3g} | {f[1]} | {'yes' if f[0] > 1e-6 else 'no'} | {s[0]:.3g} |")
print()
print("_From `history.csv` of the cesium scan of `scripts/history-measure` (4000 cases per region, seed 1). The "
      "angle error is that of the whole rotation; a component error of e is an angle of about 2e._")
