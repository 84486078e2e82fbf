#!/usr/bin/env python3
"""docs/timing.md block: the phases of the last `scripts/run --deep` (the full counts), from REPORT_DIR/run_phases.json;
from any other run's report the block keeps its text (exit status 3)."""
import sys

from measured import load
from run_phases import table

m = load(sys.argv[1], "run_phases.json", by="scripts/run, when every phase has run,")
if m.get("mode") != "deep":
    sys.exit(3)
table(m)
