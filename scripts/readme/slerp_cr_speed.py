#!/usr/bin/env python3
"""docs block (docs/slerp-cr.md "Speed"): the correctly rounded slerp beside the textbook seed-c and qc-slerp.

    scripts/readme/slerp_cr_speed.py REPORT_DIR

Reads REPORT_DIR/slerp_cr.json, which `quatcheck bench --suite slerp-cr --out REPORT_DIR` writes (harness/cli/
bench_slerp_cr.cpp): every ns figure is a Google Benchmark mean CPU time per call of that one run (throughput mode,
4,096 cases per region), and every ratio is taken between figures of that run. Prints, per region and precision,
the three routines' ns per call and the two ratios; the means over the regions against issue 40's goals (f32 <= 2x,
f64 <= 5x a textbook slerp of the same precision); the phase-2 rate and the slowest call; and the machine's state
(load average before and after, thread variables, CPU). A report without slerp_cr.json (a default `scripts/run`,
whose bench does not run this suite) exits 3: update_readme.py keeps the block as it is.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measured import KEEP, load  # noqa: E402

GOALS = {"f32": 2.0, "f64": 5.0}
PHASE2_GOAL = 1e-4


def fig(x):
    return f"{x:.1f}" if isinstance(x, (int, float)) and x > 0 else "–"


def ratio(x):
    return f"{x:.2f}×" if isinstance(x, (int, float)) and x > 0 else "–"


def main(report):
    if not os.path.exists(os.path.join(report, "slerp_cr.json")):
        sys.exit(KEEP)
    j = load(report, "slerp_cr.json", by="quatcheck bench --suite slerp-cr")
    build = {}
    if os.path.exists(os.path.join(report, "bench_build.json")):
        build = load(report, "bench_build.json", by="quatcheck bench").get("build", {})
    print("| region | precision | qc-slerp-cr ns | seed-c ns (textbook) | qc-slerp ns | CR / textbook | CR / qc-slerp |")
    print("|---|---|---|---|---|---|---|")
    for r in j.get("regions", []):
        print(f"| {r['region']} | {r['precision']} | {fig(r['cr_ns'])} | {fig(r['textbook_ns'])} | {fig(r['qc_slerp_ns'])} "
              f"| {ratio(r.get('cr_over_textbook'))} | {ratio(r.get('cr_over_qc_slerp'))} |")
    print()
    for p in ("f32", "f64"):
        m = j.get("mean", {}).get(p)
        if not m or "cr_over_textbook" not in m:
            continue
        verdict = "met" if m["cr_over_textbook"] <= GOALS[p] else "**not met**"
        print(f"- {p}, mean over {m['regions']} regions: CR / textbook **{m['cr_over_textbook']:.2f}×** (goal ≤ "
              f"{GOALS[p]:g}×: {verdict}), CR / qc-slerp {m.get('cr_over_qc_slerp', 0):.2f}×.")
    for p in ("f32", "f64"):
        rows = [r for r in j.get("phase2", []) if r["precision"] == p]
        calls = sum(r["calls"] for r in rows)
        if not calls:
            continue
        p2 = sum(r["phase2_calls"] for r in rows)
        per = ", ".join(f"{r['region']} {r['phase2_calls']}" for r in rows)
        verdict = "met" if p2 / calls < PHASE2_GOAL else "**not met**"
        print(f"- Phase 2, {p}: {p2} of {calls} calls ({p2 / calls:.2e}; per region: {per}; goal < 1e-4: {verdict}), "
              f"capped components {sum(r['capped'] for r in rows)}.")
    for s in j.get("slowest", []):
        n = s["phase2_components"]
        where = (f"phase 2 on {n} component{'' if n == 1 else 's'}, up to {s['max_bits']} bits"
                 if s["phase2_components"] else "phase 1 only")
        print(f"- Slowest call, {s['precision']}: {s['ns']:.0f} ns ({where}), region {s['region']}: "
              f"q0 = `{s['q0']}`, q1 = `{s['q1']}`, t = `{s['t']}`.")
    before, after = j.get("machine_before", {}), j.get("machine_after", {})
    env = ", ".join(f"{k}={v if v is not None else 'unset'}" for k, v in before.get("env", {}).items())
    load_b = " ".join(f"{x:.2f}" for x in before.get("load_average", []))
    load_a = " ".join(f"{x:.2f}" for x in after.get("load_average", []))
    print()
    print(f"_Measured by `quatcheck bench --suite slerp-cr` ({j['repetitions']} repetitions of {j['min_time_s']:g} s, "
          f"{j['cases_per_region']} cases per region, seed {j['seed']}) on {j['hardware_threads']} hardware threads "
          f"({build.get('cpu_model', 'CPU not recorded')}, commit {build.get('commit', '?')}); load average "
          f"{load_b} before and {load_a} after; {env}. CPU ns per call, the three routines in one run._")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "reports",
                                                             "latest"))
