#!/usr/bin/env python3
"""README block: how long the last `scripts/run --deep` took after the build (see run_total.py)."""
import sys

from measured import run_phases
from run_total import sentence

print(sentence(run_phases(sys.argv[1], deep=True)))
