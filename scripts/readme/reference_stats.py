#!/usr/bin/env python3
"""README block: the reference's counters from REPORT_DIR/run.json: how the fast path decided the cases,
its validation against MPFR, and the MPFR path's own validation."""
import json
import os
import sys

j = json.load(open(os.path.join(sys.argv[1], "run.json")))
ref = j["reference"]
print(f"Mode `{ref.get('mode', 'mpfr')}`. Fast-path bound violations found by the validation samples: "
      f"**{ref.get('fast_bound_violations', 0)}**.\n")
print("| precision | cases | certified by the fast path | MPFR fallbacks: undecided sign / bound too wide / ill-conditioned "
      "| validation samples (MPFR, 128 bits) | largest error / bound | MPFR cases recomputed 32 bits higher | "
      "disagreements | escalations | max bits |")
print("|---|---|---|---|---|---|---|---|---|---|")
for p in ("f32", "f64"):
    s = ref[p]
    fb = s.get("fallbacks", {})
    cert = s.get("fast_certified", 0)
    share = f" ({100 * cert / s['cases']:.2f} %)" if s["cases"] else ""
    print(f'| {p} | {s["cases"]} | {cert}{share} | {fb.get("undecided_sign", 0)} / {fb.get("bound_too_wide", 0)} / '
          f'{fb.get("ill_conditioned", 0)} | {s.get("validation_samples", 0)} | {s.get("max_error_to_bound", 0):.3g} | '
          f'{s["recomputed"]} | {s["disagreements"]} | {s["escalations"]} | {s["max_bits"]} |')

screens = [(p, ref[p]["search_screen"]) for p in ("f32", "f64") if "search_screen" in ref[p]]
if screens:
    print("\nThe worst-case search's screens (docs/worst-case-search.md): climbing steps skipped without a certified "
          "reference (by the double estimate, or by the double-double one), every 64th skip checked against it; steps "
          "decided on the double-double estimate's interval, certified only where needed (the cases reported, "
          "comparisons the interval cannot decide, 1 in 64 at once). A violation is a certified error outside what a "
          "screen claimed:\n")
    print("| precision | steps skipped | of them by the double-double estimate | skips checked | steps decided on the interval | of them certified | violations |")
    print("|---|---|---|---|---|---|---|")
    for p, g in screens:
        print(f'| {p} | {g["screened"]} | {g.get("screened_dd", 0)} | {g["checks"]} | {g.get("deferred", 0)} | '
              f'{g.get("deferred_certified", 0)} | {g["violations"]} |')
