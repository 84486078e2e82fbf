#!/usr/bin/env python3
"""Issue 45's goals (docs/timing.md "Goals"), with the machine's state beside each figure: the figures `quatcheck
bench --suite harness` prints under "performance goals", measured side by side in one run.

    goals.py REPORT_DIR

Reads REPORT_DIR/throughput.csv and bench_build.json (required), machine_state.json (the load average at the start
and the end of the bench run, and numpy's BLAS and thread state, written by bench since issue 45) and
speedup_30fdd8c.json (the whole default run against the 30fdd8c build, written by scripts/speedup-30fdd8c) where the
folder holds them. A figure that is not in the folder is shown as not measured, never guessed; a folder without any
of bench's goal figures is refused (exit 1). Every text taken from a file is escaped for Markdown
(qc_tables.md_cell): a '|', a line break or a '<' in it cannot break the table.
"""
import json
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402
from qc_tables import md_cell  # noqa: E402

LIMIT = 16 << 20
# every representable f32 t in [0, 1]: the bit patterns 0 .. bits(1.0f)
F32_T_POINTS = struct.unpack("<I", struct.pack("<f", 1.0))[0] + 1
NOT_MEASURED = "_not measured_"


def load_json(report, name, required):
    """The JSON object REPORT/NAME; None (with the reason in the second value) where it is missing or unreadable."""
    path = os.path.join(report, name)
    try:
        if os.path.getsize(path) > LIMIT:
            raise ValueError(f"larger than {LIMIT >> 20} MiB")
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
        if not isinstance(value, dict):
            raise ValueError("not a JSON object")
        return value, ""
    except (OSError, ValueError, UnicodeDecodeError) as e:
        why = "missing" if isinstance(e, FileNotFoundError) else f"unreadable ({e})"
        if required:
            sys.exit(f"goals.py: {path}: {why}")
        return None, f"{name} {why}"


def num(x):
    """A finite number from JSON, or None."""
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) else None


def loads(state, key):
    """The 1-minute load average of a [1, 5, 15] list, formatted, or '?'."""
    values = state.get(key) if isinstance(state, dict) else None
    first = num(values[0]) if isinstance(values, list) and values else None
    return f"{first:.2f}" if first is not None and first >= 0 else "?"


def load_text(state, why, start="load_average_start", end="load_average_end", words=("at the start", "at the end")):
    """The 1-minute load average at the start and the end of the measurement, or why it was not recorded."""
    if state is None:
        return f"load not recorded ({md_cell(why)})"
    return f"load {loads(state, start)} {words[0]}, {loads(state, end)} {words[1]} (1 min)"


def numpy_text(state):
    """numpy's version, BLAS libraries, threadpoolctl's view and the thread variables that are set."""
    numpy = state.get("numpy") if isinstance(state, dict) else None
    if not isinstance(numpy, dict):
        return "numpy's BLAS and threads not recorded"
    if "skip" in numpy:
        return f"numpy's state: {md_cell(numpy['skip'])}"
    libs = numpy.get("blas_loaded")
    libs = ", ".join(md_cell(os.path.basename(str(p))) for p in libs) if isinstance(libs, list) and libs else "none"
    pools = numpy.get("threadpoolctl")
    if isinstance(pools, list):
        pools = "; ".join(f"{md_cell(p.get('internal_api', '?'))} {md_cell(p.get('version', '?'))}, "
                          f"{md_cell(p.get('num_threads', '?'))} threads"
                          for p in pools if isinstance(p, dict)) or "none"
    else:
        pools = md_cell(pools if pools is not None else "?")
    env = numpy.get("env") if isinstance(numpy.get("env"), dict) else {}
    set_vars = ", ".join(f"{md_cell(k)}={md_cell(v)}" for k, v in sorted(env.items()) if v is not None)
    unset = ", ".join(md_cell(k) for k, v in sorted(env.items()) if v is None)
    return (f"numpy {md_cell(numpy.get('version', '?'))}, BLAS loaded: {libs}; threadpoolctl: {pools}; "
            f"set: {set_vars or 'none'}; unset: {unset or 'none'}")


def within_noise(figure, goal, cv):
    """Whether the goal lies within two spreads (cv over the repetitions) of the figure: another run on the same
    machine could give the other verdict (cmd_bench.cpp: goal_within_noise)."""
    return cv > 0 and abs(figure - goal) <= 2 * cv * figure


def cv_text(cv):
    return f" (cv {cv * 100:.1f} %)" if cv > 0 else ""


def bench_rows(fig, cv, cores, state, why):
    """(figure, measured, goal, verdict, machine state) of the goal figures of one bench run; None where none ran."""
    def get(suite, op="slerp", prec="f64"):
        return fig.get((suite, op, prec, "all"), 0.0)

    load = load_text(state, why)
    rows = []

    def add(name, measured, value, goal, met, extra="", noisy=False):
        verdict = "not measured" if not measured else "(no goal)" if goal == "—" else "met" if met else "**not met**"
        if measured and goal != "—" and noisy:
            verdict += ", within noise"
        rows.append((name, value if measured else NOT_MEASURED, goal, verdict, load + extra))

    def spread(key):
        c = cv.get(key)
        return c if c is not None and c > 0 else 0.0

    # validation at 1 in 1,024 (the default rate's floor, runs from 1.5 million cases per precision), and at the
    # 1 in 64 of smaller runs and --paranoid beside it
    fast, numpy, fast64 = get("fast_reference_rate1024"), get("numpy_f64_uncertified"), get("fast_reference")
    # the ratio's spread from its two figures', taken as independent
    ratio_cv = math.hypot(spread(("fast_reference_rate1024", "slerp", "f64", "all")),
                          spread(("numpy_f64_uncertified", "slerp", "f64", "all")))
    ratio = fast / numpy if fast > 0 and numpy > 0 else 0.0
    add("certified reference (validation 1 in 1,024) / numpy uncertified f64 slerp, ns per case",
        fast > 0 and numpy > 0, f"{fast:.0f} / {numpy:.0f} = {ratio:.2f}x{cv_text(ratio_cv)}" if ratio else "",
        "≤ 1.0x", fast <= numpy, "; " + numpy_text(state), within_noise(ratio, 1.0, ratio_cv))
    add("the same with validation 1 in 64 (runs up to 96,000 cases per precision, `--paranoid`)",
        fast64 > 0 and numpy > 0, f"{fast64:.0f} / {numpy:.0f} = {fast64 / numpy:.2f}x" if fast64 > 0 and numpy > 0
        else "", "—", False)
    # the metric as the runner and the sweep pay it: a case's outputs in one batch where that benchmark ran
    metric, metric_cv = 0.0, 0.0
    for op in ("slerp", "nlerp"):
        for p in ("f32", "f64"):
            key = ("metric_fast_batch", op, p, "all")
            if not fig.get(key, 0.0) > 0:
                key = ("metric_fast", op, p, "all")
            if fig.get(key, 0.0) > metric:
                metric, metric_cv = fig[key], spread(key)
    add("certified metric, ns per output as the runner measures it (slowest op and precision)", metric > 0,
        f"{metric:.1f}{cv_text(metric_cv)}", "≤ 30", metric <= 30, noisy=within_noise(metric, 30, metric_cv))
    now, before = get("runner_fast", "slerp+nlerp", "both"), get("runner_fast_before", "slerp+nlerp", "both")
    add("whole runner (default selection, search by steps) against its scalar paths",
        now > 0 and before > 0, f"{before / 1e3:.1f} / {now / 1e3:.1f} µs = {before / now:.2f}x" if now > 0 else "",
        "—", False)
    point = get("sweep_t_point", prec="f32")
    minutes = point * 1e-9 * F32_T_POINTS / cores / 60
    # its repetitions' spread beside it: the figure sits near its goal, and one run's verdict is not the next one's
    point_cv = spread(("sweep_t_point", "slerp", "f32", "all"))
    point_spread = f", cv {point_cv * 100:.1f} % over the repetitions" if point_cv else ""
    add(f"exhaustive f32 t slice ({F32_T_POINTS:,} points), default selection, {cores} cores", point > 0,
        f"{minutes:.1f} min ({point / 1e3:.2f} µs per point{point_spread})", "≤ 30 min", minutes <= 30,
        noisy=within_noise(minutes, 30, point_cv))
    return None if all(r[1] == NOT_MEASURED for r in rows) else rows


def speedup_row(report):
    """The row of the whole default run against the 30fdd8c build (scripts/speedup-30fdd8c), measured or not."""
    name = "whole default run (`run --cases 20000 --seed 5`, the 30fdd8c build's implementations) against 30fdd8c"
    s, why = load_json(report, "speedup_30fdd8c.json", required=False)
    if s is None:
        return (name, NOT_MEASURED, "≥ 3x", "not measured",
                f"measured by `scripts/speedup-30fdd8c` ({md_cell(why)} here): see [the whole run against the 30fdd8c "
                "build](timing.md#the-whole-run-against-the-30fdd8c-build)")
    ratio = num(s.get("speedup_wall"))
    old, new = num((s.get("old") or {}).get("best_wall_s")), num((s.get("new") or {}).get("best_wall_s"))
    identical = (s.get("tables") or {}).get("identical") is True
    if ratio is None or old is None or new is None:
        return (name, NOT_MEASURED, "≥ 3x", "not measured", "speedup_30fdd8c.json holds no figure")
    measured = f"{old:.1f} / {new:.1f} s = {ratio:.2f}x" + ("" if identical else " (**tables differ**)")
    state = load_text(s, "", "load_before", "load_after", ("before", "after"))
    return (name, measured, "≥ 3x", "met" if ratio >= 3 and identical else "**not met**", state)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: goals.py REPORT_DIR")
    report = sys.argv[1]
    thr = qc_tables.rows(report, "throughput.csv", ["benchmark", "op", "precision", "region", "ns_per_case"])
    info, _ = load_json(report, "bench_build.json", required=True)
    state, why = load_json(report, "machine_state.json", required=False)
    fig, cv = {}, {}
    for r in thr:
        key = (r["benchmark"], r["op"], r["precision"], r["region"])
        try:
            fig[key] = float(r["ns_per_case"])
        except ValueError:
            continue  # an empty or malformed figure counts as not measured
        try:
            cv[key] = num(float(r.get("cv") or "nan"))
        except ValueError:
            cv[key] = None
    cores = max(1, int(num(info.get("hardware_threads")) or 1))
    rows = bench_rows(fig, cv, cores, state, why)
    if rows is None:
        sys.exit("goals.py: throughput.csv has none of the goal figures (run quatcheck bench --suite harness)")
    rows.append(speedup_row(report))
    build = info.get("build") if isinstance(info.get("build"), dict) else {}
    cpu = md_cell(build.get("cpu_model", "an unknown CPU"))
    print(f"Measured by one `quatcheck bench --suite harness` run on {cpu}"
          f" ({md_cell(info.get('repetitions', '?'))} repetitions of {md_cell(info.get('min_time_s', '?'))} s; "
          "CPU time), the machine's state beside each figure:\n")
    print("| figure | measured | goal | | machine state |")
    print("|---|---|---|---|---|")
    for name, measured, goal, verdict, machine in rows:
        print(f"| {name} | {measured} | {goal} | {verdict} | {machine} |")


if __name__ == "__main__":
    main()
