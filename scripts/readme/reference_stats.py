#!/usr/bin/env python3
"""README block: the reference's validation counters from REPORT_DIR/run.json."""
import json
import os
import sys

j = json.load(open(os.path.join(sys.argv[1], "run.json")))
print("| precision | working bits | cases | recomputed 32 bits higher | disagreements | escalations | max bits |")
print("|---|---|---|---|---|---|---|")
for p in ("f32", "f64"):
    s = j["reference"][p]
    print(f'| {p} | {s["working_bits"]} | {s["cases"]} | {s["recomputed"]} | {s["disagreements"]} | {s["escalations"]} | {s["max_bits"]} |')
