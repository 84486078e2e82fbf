#!/usr/bin/env python3
"""docs/engines.md block: one row per C++ engine library (impls/engines/libraries.json), scripts/readme/library_rows.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import library_rows  # noqa: E402

library_rows.table(sys.argv[1], ["impls/engines/libraries.json"])
