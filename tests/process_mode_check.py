"""A misbehaving process-plugin adapter's rows (tests/process_plugin.test.sh, tests/process_text.test.sh): both
regions of IMPL in SUMMARY_CSV end with STATUS, a detail matching DETAIL_REGEX, and the triggering case
(c_adapter misbehaves on the first batch holding a case with t > 0.75) as failed_case.
Usage: process_mode_check.py SUMMARY_CSV MODE STATUS DETAIL_REGEX IMPL"""
import csv, re, sys

path, mode, want, detail, impl = sys.argv[1:]
rows = [r for r in csv.DictReader(open(path)) if r["impl"] == impl]
if len(rows) != 2:
    sys.exit(f"FAIL: {mode}: expected 2 rows, got {len(rows)}")
for r in rows:
    if r["status"] != want:
        sys.exit(f"FAIL: {mode}: {r['region']} status {r['status']!r} ({r['status_detail']}), want {want}")
    if not re.search(detail, r["status_detail"]):
        sys.exit(f"FAIL: {mode}: detail {r['status_detail']!r} does not match {detail!r}")
    m = re.search(r"t=(\S+)", r["failed_case"])
    if not m or not float.fromhex(m.group(1)) > 0.75:
        sys.exit(f"FAIL: {mode}: failed case {r['failed_case']!r} is not the trigger (t > 0.75)")
print(f"{mode}: {want} ({rows[0]['status_detail']}), triggering case found in both regions")
