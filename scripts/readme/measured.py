"""Shared by the generators that print a measurement's table (not a block itself): load(REPORT_DIR, PATH..., by=)
reads the JSON file REPORT_DIR/PATH... (at most 16 MiB) or exits with one line naming it and the script that writes it;
run_phases(REPORT_DIR, deep=) reads scripts/run's run_phases.json for a block of the deep run or of the others."""
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


KEEP = 3  # update_readme.py keeps a block whose generator exits with it: the report is not the block's kind


def run_phases(report_dir, deep):
    """run_phases.json of REPORT_DIR when it is a --deep run's (deep=True) or another's (deep=False); otherwise
    exits KEEP, so update_readme.py keeps the block's text (a default run's report never replaces the deep
    run's figures, nor the other way round)."""
    m = load(report_dir, "run_phases.json", by="scripts/run, when every phase has run,")
    if (m.get("mode") == "deep") != deep:
        sys.exit(KEEP)
    return m
