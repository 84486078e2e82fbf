#!/usr/bin/env python3
"""The harness's throughput and speed-up, from throughput.csv and parallel.csv (quatcheck bench)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

report = sys.argv[1]


def rows(name):
    return qc_tables.rows(report, name)  # every column read is checked against schema.json and the header


thr = rows("throughput.csv")
par = rows("parallel.csv")
info = json.load(open(os.path.join(report, "bench_build.json")))


def ns(suite, prec, region="all", op="slerp"):
    for r in thr:
        if r["benchmark"] == suite and r["precision"] == prec and r["region"] == region and r["op"] == op:
            return float(r["ns_per_case"]), r
    sys.exit(f"throughput.py: no {suite}/{op}/{prec}/{region} row in throughput.csv")


def suite_ns(prec):
    """ns per case of each (suite, op) the two tables show, at precision prec."""
    shown = [("reference", "slerp"), ("floor", "slerp"), ("fast_reference", "slerp"), ("metric", "slerp"),
             ("metric", "nlerp"), ("metric_fast", "slerp"), ("metric_fast", "nlerp")]
    return {(suite, op): ns(suite, prec, op=op)[0] for suite, op in shown}


print(f"Measured by `quatcheck bench` on {info['build'].get('cpu_model', 'unknown CPU')}, "
      f"{info['repetitions']} repetitions of {info['min_time_s']} s; CPU time per case, mean over repetitions.\n")
print("| precision | BM_Reference (ns/case) | BM_MpfrFloor (ns/case) | ratio | cases recomputed | reference cases/s/core | BM_Metric slerp / nlerp (ns) |")
print("|---|---|---|---|---|---|---|")
for prec in ("f32", "f64"):
    t, rr = suite_ns(prec), ns("reference", prec)[1]
    ref, flo, ms, mn = t["reference", "slerp"], t["floor", "slerp"], t["metric", "slerp"], t["metric", "nlerp"]
    print(f"| {prec} | {ref:.0f} | {flo:.0f} | {ref / flo:.2f}x | {float(rr['recomputed_fraction']) * 100:.0f} % | "
          f"{1e9 / ref:,.0f} | {ms:.0f} / {mn:.0f} |")
print("\nThe certified double-double fast path (`--reference fast`, the default) beside MPFR (`--reference mpfr`), "
      "measured side by side in the same `quatcheck bench` run:\n")
print("| precision | BM_FastReference (ns/case) | BM_Reference, MPFR (ns/case) | reference speed-up | MPFR fallbacks | "
      "BM_MetricFast slerp / nlerp (ns) | BM_Metric slerp / nlerp (ns) | metric speed-up |")
print("|---|---|---|---|---|---|---|---|")
for prec in ("f32", "f64"):
    t, frr = suite_ns(prec), ns("fast_reference", prec)[1]
    fr, ref = t["fast_reference", "slerp"], t["reference", "slerp"]
    fs, fn, ms, mn = t["metric_fast", "slerp"], t["metric_fast", "nlerp"], t["metric", "slerp"], t["metric", "nlerp"]
    fb = frr.get("fallback_fraction") or "0"
    print(f"| {prec} | {fr:.0f} | {ref:.0f} | **{ref / fr:.1f}x** | {float(fb) * 100:.2f} % | {fs:.0f} / {fn:.0f} | "
          f"{ms:.0f} / {mn:.0f} | {(ms + mn) / (fs + fn):.1f}x |")
vec = {(r["benchmark"], r["op"], r["precision"]): float(r["ns_per_case"]) for r in thr if r["region"] == "all"}
if ("fast_reference_scalar", "slerp", "f64") in vec:
    print("\nIssue 29's vectorised paths beside the scalar ones, in the same run (CPU ns per case or per output; "
          "`QC_FORCE_SCALAR=1` selects the scalar paths, with the same figures): the certified reference eight cases "
          "at a time with AVX-512 where the CPU has it, else four with AVX2 (`BM_FastReference`, blocks of 32 as the "
          "runner) against one at a time (`BM_FastReferenceScalar`), both with the 1-in-64 MPFR validation; the "
          "metric's lane kernel on a case's outputs in one batch as the runner calls it, eight outputs at a time with "
          "AVX-512 where the CPU has it, else four with AVX2 (`BM_MetricFastBatch`), its AVX2 kernel one call each "
          "(`BM_MetricFast`), and the scalar kernel (`BM_MetricFastScalar`).\n")
    print("| precision | reference, lane batch | reference, scalar | reference speed-up | metric slerp / nlerp: lane batch | AVX2, one call each | scalar | metric speed-up (batch) |")
    print("|---|---|---|---|---|---|---|---|")
    for prec in ("f32", "f64"):
        g = lambda s, op="slerp": vec.get((s, op, prec), 0.0)
        fr, fs = g("fast_reference"), g("fast_reference_scalar")
        mb = (g("metric_fast_batch"), g("metric_fast_batch", "nlerp"))
        mf = (g("metric_fast"), g("metric_fast", "nlerp"))
        ms = (g("metric_fast_scalar"), g("metric_fast_scalar", "nlerp"))
        ratio = f"{sum(ms) / sum(mb):.1f}x" if all(mb) and all(ms) else "—"
        print(f"| {prec} | {fr:.0f} | {fs:.0f} | **{fs / fr:.2f}x** | {mb[0]:.0f} / {mb[1]:.0f} | {mf[0]:.0f} / {mf[1]:.0f} | "
              f"{ms[0]:.0f} / {ms[1]:.0f} | {ratio} |")
lanes = [(prec, vec[("fast_reference_rate1024", "slerp", prec)], vec[("fast_reference_four_lanes", "slerp", prec)])
         for prec in ("f32", "f64") if ("fast_reference_rate1024", "slerp", prec) in vec
         and ("fast_reference_four_lanes", "slerp", prec) in vec]
if lanes:
    print("\nThe reference's lane kernels side by side in the same run (issue 45), with the validation at 1 in 1,024 "
          "(`BM_FastReferenceRate1024`: the widest kernel this CPU runs, eight AVX-512 lanes where it has them; "
          "`BM_FastReferenceFourLanes`: the four-lane AVX2 kernel), CPU ns per case, every region in turn: " +
          "; ".join(f"{prec} {w:.0f} against {f:.0f} ({f / w:.2f}x)" for prec, w, f in lanes) + ".")
peers = {r["benchmark"]: float(r["ns_per_case"]) for r in thr
         if r["benchmark"] in ("numpy_f64_uncertified", "mpmath_40_digits") and r["precision"] == "f64"}
if peers:
    fr, _ = ns("fast_reference", "f64")
    flo, _ = ns("floor", "f64")
    print("\nThe peers (`scripts/bench_peers.py`, on the same f64 cases, every region in turn, in the same run; "
          "CPU ns per case): what a user would write instead.\n")
    print("| f64 slerp, every region in turn | ns/case | ratio to the certified reference |")
    print("|---|---|---|")
    print(f"| certified reference (`--reference fast`) | {fr:.0f} | 1 |")
    if "numpy_f64_uncertified" in peers:
        n = peers["numpy_f64_uncertified"]
        print(f"| numpy f64 vectorised slerp, **uncertified** | {n:.0f} | certified / numpy = **{fr / n:.2f}x** |")
    print(f"| raw MPFR floor (no validation) | {flo:.0f} | {flo / fr:.1f}x |")
    if "mpmath_40_digits" in peers:
        m = peers["mpmath_40_digits"]
        print(f"| mpmath at 40 digits (200 cases) | {m:.0f} | {m / fr:.0f}x |")
runner = {r["benchmark"]: float(r["ns_per_case"]) for r in thr if r["benchmark"].startswith("runner_")}
if "runner_fast" in runner and "runner_mpfr" in runner:
    noop = [float(r["ns_per_call"]) for r in rows("timing.csv")
            if r["impl"].startswith("noop.") and r["mode"] == "throughput"] if os.path.exists(os.path.join(report, "timing.csv")) else []
    line = (f"\nWhole runner (BM_Runner: the default selection, every region, both precisions, one job, worst-case search included, same cases): "
            f"{runner['runner_fast'] / 1e3:.1f} µs per case with `fast`, {runner['runner_mpfr'] / 1e3:.1f} µs with `mpfr`: "
            f"**{runner['runner_mpfr'] / runner['runner_fast']:.1f}x** the cases per second "
            f"({1e9 / runner['runner_fast']:,.0f} against {1e9 / runner['runner_mpfr']:,.0f} cases/s/core).")
    print(line)
    if noop:
        print(f"The noop implementation's call costs {min(noop):.1f} ns (BM_Impl/noop, throughput mode).")
print("\nPer region (the ratio follows the share of validated cases):\n")
print("| region | f32 ratio | f32 recomputed | f64 ratio | f64 recomputed | f32 fast speed-up | f64 fast speed-up |")
print("|---|---|---|---|---|---|---|")
regions = [r["region"] for r in thr if r["benchmark"] == "reference" and r["precision"] == "f32" and r["region"] != "all"]
for g in regions:
    cells = []
    for prec in ("f32", "f64"):
        ref, rr = ns("reference", prec, g)
        flo, _ = ns("floor", prec, g)
        cells += [f"{ref / flo:.2f}x", f"{float(rr['recomputed_fraction']) * 100:.0f} %"]
    for prec in ("f32", "f64"):
        ref, _ = ns("reference", prec, g)
        fr, _ = ns("fast_reference", prec, g)
        cells.append(f"{ref / fr:.1f}x")
    print(f"| {g} | " + " | ".join(cells) + " |")
by_jobs = {int(r["jobs"]): r for r in par}
if 1 in by_jobs and 2 in by_jobs:
    one, two = by_jobs[1], by_jobs[2]
    print(f"\nParallel speed-up of the default run ({one['cases_per_region']} cases per region, {one['cases']} cases): "
          f"{float(one['wall_s']):.2f} s at 1 job, {float(two['wall_s']):.2f} s at 2 jobs: **{float(two['speedup']):.2f}x** "
          f"(CPU time {float(one['cpu_s']):.2f} s and {float(two['cpu_s']):.2f} s; identical CSVs: {two['identical']}; "
          f"{info.get('hardware_threads', '?')} hardware threads). Whole default-run cases (reference, every "
          f"implementation, metrics, worst-case search) per second per core of CPU time: "
          f"{int(one['cases']) / float(one['cpu_s']):,.0f}.")
