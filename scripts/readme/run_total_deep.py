#!/usr/bin/env python3
"""README block: how long the last `scripts/run --deep` took after the build (see run_total.py)."""
import sys

from measured import load
from run_total import sentence

m = load(sys.argv[1], "run_phases.json", by="scripts/run, when every phase has run,")
if m.get("mode") != "deep":
    sys.exit(3)
print(sentence(m))
