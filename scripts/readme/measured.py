"""Shared by the generators that print a measurement's table (not a block itself): load(REPORT_DIR, PATH..., by=)
reads the JSON file REPORT_DIR/PATH... (at most 16 MiB) or exits with one line naming it and the script that writes it."""
import json
import os
import sys

LIMIT = 16 << 20


def load(report_dir, *parts, by):
    path = os.path.join(report_dir, *parts)
    if not os.path.exists(path):
        sys.exit(f"{path}: missing ({by} writes it)")
    try:
        with open(path, "rb") as f:
            data = f.read(LIMIT + 1)
        if len(data) > LIMIT:
            sys.exit(f"{path}: larger than {LIMIT >> 20} MiB, not a measurement")
        return json.loads(data)
    except (OSError, ValueError) as e:
        sys.exit(f"{path}: {e}")
