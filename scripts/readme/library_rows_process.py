#!/usr/bin/env python3
"""docs/plugin-protocol.md block: one row per library vetted through a process plugin (the JavaScript, Python,
Rust and Java cards), scripts/readme/library_rows.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import library_rows  # noqa: E402

library_rows.table(sys.argv[1], ["impls/js/libraries.json", "impls/python/libraries.json",
                                 "impls/rust/libraries.json", "impls/java/libraries.json"])
