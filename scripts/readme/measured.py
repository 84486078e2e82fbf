"""Shared by the generators that print a measurement's table (not a block itself): load(REPORT_DIR, PATH..., by=)
reads the JSON file REPORT_DIR/PATH... or exits with one line naming it and the script that writes it."""
import json
import os
import sys


def load(report_dir, *parts, by):
    path = os.path.join(report_dir, *parts)
    if not os.path.exists(path):
        sys.exit(f"{path}: missing ({by} writes it)")
    with open(path) as f:
        return json.load(f)
