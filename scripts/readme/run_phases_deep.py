#!/usr/bin/env python3
"""docs/timing.md block: the phases of the last `scripts/run --deep` (the full counts), from REPORT_DIR/run_phases.json;
from any other run's report the block keeps its text (exit status 3)."""
import sys

from measured import run_phases
from run_phases import table

table(run_phases(sys.argv[1], deep=True))
