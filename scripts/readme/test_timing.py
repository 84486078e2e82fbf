#!/usr/bin/env python3
"""docs/timing.md block: the wall time of the test suite after the build (what `scripts/test` runs, and the heavy
tests at their full size), from REPORT_DIR/test-timing/test_timing.json (written by scripts/test-timing-measure)."""
import sys

from measured import load

m = load(sys.argv[1], "test-timing", "test_timing.json", by="scripts/test-timing-measure")
what = {"default": "`scripts/test` after the build (`ctest -LE full`: heavy tests small)",
        "full": "the heavy tests at full size (`ctest -L full`, part of `scripts/test --full`)"}
for name, s in m["sets"].items():  # the timing of a failing suite is no figure (test-timing-measure writes none)
    failed = [t["name"] for t in s["tests"] if t["status"] == "fail"]
    if failed:
        sys.exit(f"test_timing.json: the {name} set has failing tests ({', '.join(failed[:3])}): no timing")
print(f"| set | tests | wall | CPU (user + system) | sum of the tests' times | slowest tests |")
print("|---|---|---|---|---|---|")
for name, s in m["sets"].items():
    tests = s["tests"]
    ran = [t for t in tests if t["status"] not in ("skipped", "notrun")]  # notrun: a test that skipped itself
    slow = ", ".join(f"{t['name']} {t['seconds']:.0f} s" for t in ran[:4])
    print(f"| {what.get(name, name)} | {len(ran)} ({len(tests) - len(ran)} skipped) | **{s['wall_s'] / 60:.1f} min** "
          f"({s['wall_s']:.0f} s) | {s['cpu_s']:.0f} s | {sum(t['seconds'] for t in tests):.0f} s | {slow} |")
loads = "; ".join(f"{n}: {s['load_before'].split()[0]} before, {s['load_after'].split()[0]} after"
                  for n, s in m["sets"].items())
print()
heavy = {}
for name, s in m["sets"].items():
    for t in s["tests"]:
        base = t["name"][:-len(".full")] if t["name"].endswith(".full") else t["name"]
        heavy.setdefault(base, {})[name] = t["seconds"]
rows = [(b, v) for b, v in heavy.items() if "full" in v and "default" in v]
if rows:
    print("| heavy test (label `heavy`) | small (default) | full size (`.full`, label `full`) |")
    print("|---|---|---|")
    for b, v in sorted(rows, key=lambda r: -r[1]["full"]):
        print(f"| {b} | {v['default']:.0f} s | {v['full']:.0f} s |")
    print()
print(f"_Measured by `scripts/test-timing-measure` on {m['cpus']} CPUs, `ctest -j {m['jobs']}` (load average {loads}). "
      "A test's time is ctest's, and tests run two at a time, so the sum of the tests' times exceeds the wall time._")
