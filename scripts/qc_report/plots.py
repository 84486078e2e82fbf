"""The overview's figures: error against the arc and velocity as small multiples, the threshold study, the
exhaustive slices, timing and the accuracy-versus-cost frontier (and the helpers the cards draw with)."""
import math
import os
import sys
import qc_tables

import matplotlib.pyplot as plt
from matplotlib.colors import LogNorm
from matplotlib.ticker import LogLocator, NullLocator

from qc_report.base import (MAX_SERIES, ReportError, angle_floor, missing, threshold_dot, number,
    optional_number, precision_of, read_table, table_html)


def styles(n):
    """n distinguishable (colour, line style, marker) triples."""
    cmap = plt.get_cmap("tab10")
    ls = ["-", "--", ":", "-."]
    mk = ["o", "s", "^", "v", "D", "x", "+", "*"]
    return [(cmap(i % 10), ls[(i // 10) % 4], mk[i % 8]) for i in range(n)]


def positive(values):
    """Zeros and non-finite values become NaN: they cannot be drawn on a log axis."""
    return [v if v is not None and v > 0 and math.isfinite(v) else float("nan") for v in values]


def curve_points(curve, rows):
    """(x, angle, ulp1, [x of bins with non-finite outputs]) of one implementation's log-binned curve."""
    xs, angle, ulp1, bad = [], [], [], []
    for r in rows:
        lo, hi, n = number(curve, r, "w_lo"), number(curve, r, "w_hi"), number(curve, r, "cases")
        a, u, nf = number(curve, r, "max_angle_err_rad"), number(curve, r, "max_ulp1"), number(curve, r, "nonfinite")
        if n == 0:  # every field is parsed first: a malformed row stops the report even where the bin is empty
            continue
        x = math.sqrt(lo * hi) if lo > 0 else hi / 2
        xs.append(x)
        angle.append(a)
        ulp1.append(u)
        if nf > 0:
            bad.append(x)
    return xs, angle, ulp1, bad


def arc_axes(ax, ylabel):
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):  # decades only: minor log ticks cost most of the drawing time
        axis.set_major_locator(LogLocator(numticks=8))
        axis.set_minor_locator(NullLocator())
    ax.set_xlabel("arc W between the keys (rad)", fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.axvline(math.acos(threshold_dot()), color="k", linestyle="--", linewidth=0.8)
    ax.axvline(math.pi / 2, color="r", linestyle="--", linewidth=0.8)
    ax.grid(True, which="major", alpha=0.3)
    ax.text(math.acos(threshold_dot()), 0.98, f"a·b={threshold_dot():g} ", fontsize=6, va="top", ha="right", transform=ax.get_xaxis_transform())
    ax.text(math.pi / 2, 0.90, "a·b=0 ", fontsize=6, va="top", ha="right", color="r",
            transform=ax.get_xaxis_transform())


def log_curves(curve):
    """{(op, precision): {impl: [rows]}} of the log-binned rows of error_curve.csv."""
    groups = {}
    for r in curve.rows:
        if r["bins"] == "log":
            groups.setdefault((r["op"], precision_of(r["impl"])), {}).setdefault(r["impl"], []).append(r)
    return groups


# ---------------------------------------------------------------------------------------------------
# Overview figures


def error_vs_arc_overview(page, data):
    """Small multiples, not one crowded axes: 38 implementations on one axes cannot be told apart, and a
    static panel per group (at most MAX_SERIES lines each, shared axes so panels compare) reads without
    any interaction. Each implementation's own curve, against the floor, is on its card."""
    curve = data.curve
    if curve is None:
        return  # not sampled: the grey line says so
    parts = page.section("error-vs-arc", "Error versus arc angle")
    groups = log_curves(curve)
    if not groups:
        parts.append('<p class="missing">error_curve.csv has no rows with bins=log.</p>')
        return
    for (op, prec), impls in sorted(groups.items()):
        order = sorted(impls, key=lambda n: (data.group(n), n))
        panels = []  # (title, [impl])
        for g in sorted({data.group(n) for n in order}):
            members = [n for n in order if data.group(n) == g]
            k = math.ceil(len(members) / MAX_SERIES)
            size = math.ceil(len(members) / k)
            for i in range(k):
                chunk = members[i * size:(i + 1) * size]
                panels.append((g if k == 1 else f"{g} ({i + 1}/{k})", chunk))
        cols = min(3, len(panels))
        nrows = math.ceil(len(panels) / cols)
        fig, axes = plt.subplots(nrows, cols, figsize=(4.6 * cols, 3.3 * nrows), squeeze=False, sharex=True,
                                 sharey=True)
        floor = angle_floor(prec)
        for ax, (title, members) in zip(axes.flat, panels):
            for impl, (color, ls, mk) in zip(members, styles(len(members))):
                xs, angle, _, bad = curve_points(curve, impls[impl])
                ax.plot(xs, positive(angle), color=color, linestyle=ls, marker=mk, markersize=2.5, linewidth=1.1,
                        label=impl)
                for x in bad:
                    ax.plot([x], [1], marker="X", color=color, markersize=7, linestyle="none")
            if floor:
                ax.axhline(floor, color="0.5", linestyle=":", linewidth=1, label="rounding floor 8ε")
            arc_axes(ax, "max angle error (rad)")
            ax.set_title(title, fontsize=9)
            ax.legend(fontsize=6, loc="upper left")
        for ax in list(axes.flat)[len(panels):]:
            ax.axis("off")
        if floor:  # one stray exact-looking bin (1e-30) must not squeeze every panel's interesting decades
            axes.flat[0].set_ylim(bottom=floor / 1e3)
        fig.suptitle(f"max angle error versus arc, {op}, {prec}", fontsize=10)
        fig.tight_layout()
        page.figure(parts, fig, f"error_vs_arc_{op}_{prec}", f"Error versus arc angle, {op}, {prec}",
                    "One panel per group of implementations (at most six lines each, same axes everywhere): each "
                    "line is an implementation's largest error among the sampled cases whose arc W falls in the bin "
                    "(log-log, lower is better); the dotted line is the rounding floor 8ε, the dashed lines the "
                    f"{threshold_dot():g} fallback threshold and the quarter-turn tie a·b = 0, an X a bin with non-finite "
                    "outputs; errors below a thousandth of the floor are off the bottom edge. Each implementation's "
                    "own curve and its ulp1 are on its card.")


def velocity_overview(page, data):
    """A heat map per op instead of 7 x 2 panels of 30 overlapping lines: what one wants from the overview is
    which implementation strays from constant speed on which arc, and by how much; the curves against t are
    on each card, one implementation at a time."""
    if data.vel is None:
        return  # quatcheck curves not run: the grey line says so
    parts = page.section("velocity", "Angular velocity")
    for op in sorted({op for _, op in data.vel_by}):
        impls = sorted({i for i, o in data.vel_by if o == op}, key=lambda n: (precision_of(n), data.group(n), n))
        keys = sorted({k for (i, o), d in data.vel_by.items() if o == op for k in d},
                      key=lambda k: (k[1] != "", k[0], k[1]))
        labels = [f"{a:g}°" if not tr else tr for a, tr in keys]
        grids = []
        for col in (1, 2):  # |timing_err|, |speed_rel_err|
            grid = []
            for impl in impls:
                row = []
                for k in keys:
                    pts = data.vel_by[(impl, op)].get(k, [])
                    vals = [abs(p[col]) for p in pts if math.isfinite(p[col])]
                    row.append(max(vals) if vals else float("nan"))
                grid.append(row)
            grids.append(grid)
        fig, axes = plt.subplots(1, 2, figsize=(2.0 + 1.1 * len(keys) * 2, 0.26 * len(impls) + 1.8), squeeze=False)
        for ax, grid, title in zip(axes[0], grids, ("max |timing error| over t", "max |relative speed error| over t")):
            flat = [v for r in grid for v in r if v > 0 and math.isfinite(v)]
            norm = LogNorm(vmin=min(flat), vmax=max(flat)) if flat and min(flat) < max(flat) else None
            shown = [[v if v > 0 and math.isfinite(v) else float("nan") for v in r] for r in grid]
            im = ax.imshow(shown, aspect="auto", cmap="viridis", norm=norm)
            for i, r in enumerate(grid):
                for j, v in enumerate(r):
                    if math.isfinite(v):
                        ax.text(j, i, f"{v:.0e}" if v > 0 else "0", ha="center", va="center", fontsize=5,
                                color="w" if norm is None or v <= 0 or norm(v) < 0.6 else "k")
            ax.set_xticks(range(len(keys)))
            ax.set_xticklabels(labels, fontsize=7, rotation=30)
            ax.set_yticks(range(len(impls)))
            ax.set_yticklabels(impls, fontsize=7)
            ax.set_title(title, fontsize=9)
            fig.colorbar(im, ax=ax, fraction=0.04)
        fig.suptitle(f"angular velocity, {op}: largest deviation from constant speed per arc", fontsize=10)
        fig.tight_layout()
        page.figure(parts, fig, f"velocity_{op}", f"Angular velocity, {op}",
                    "Each cell is one implementation's largest deviation on one arc (or squad track): how far its "
                    "rotated angle runs ahead of or behind constant speed, as a fraction of the arc (left), and how "
                    "far its angular speed strays from the ideal (right); about 1e-7 (f32) or 1e-16 (f64) is rounding "
                    "noise, a bright cell a real non-constant speed. The curves against t are on each card.")
def threshold_study(page, thr, thr_summary):
    """One static axes per precision: three families, each with its arc floor dotted and its tau* marked, is
    few enough lines to read without interaction."""
    if thr is None:
        return  # quatcheck threshold not run: the grey line says so
    parts = page.section("threshold", "Threshold study")
    stars = {}
    if thr_summary is not None and "recommended_one_minus_tau" in thr_summary.columns:
        for r in thr_summary.rows:
            v = optional_number(thr_summary, r, "recommended_one_minus_tau")
            if v is not None:
                stars[(r["precision"], r["family"])] = v
    groups = {}
    for r in thr.rows:
        groups.setdefault(r["precision"], {}).setdefault(r["family"], []).append(r)
    precs = sorted(groups)
    fig, axes = plt.subplots(1, len(precs), figsize=(6.5 * len(precs), 4.6), squeeze=False)
    for ax, prec in zip(axes[0], precs):
        fams = sorted(groups[prec])
        for fam, (color, ls, mk) in zip(fams, styles(len(fams))):
            rows = sorted(groups[prec][fam], key=lambda r: number(thr, r, "one_minus_tau"))
            x = [number(thr, r, "one_minus_tau") for r in rows]
            ax.plot(x, positive([number(thr, r, "max_angle_err_rad") for r in rows]), color=color, linestyle=ls,
                    marker=mk, markersize=3, label=fam)
            if "arc_floor_rad" in thr.columns:
                ax.plot(x, positive([optional_number(thr, r, "arc_floor_rad") for r in rows]), color=color,
                        linestyle=":", linewidth=0.8)
            if (prec, fam) in stars:
                ax.axvline(stars[(prec, fam)], color=color, linestyle="-.", linewidth=1)
                ax.text(stars[(prec, fam)], 0.02, f" τ* {fam}", rotation=90, fontsize=7, color=color,
                        va="bottom", transform=ax.get_xaxis_transform())
        ax.axvline(1 - threshold_dot(), color="k", linestyle="--", linewidth=1)
        ax.text(1 - threshold_dot(), 0.98, f" {threshold_dot():g}", fontsize=7, va="top", transform=ax.get_xaxis_transform())
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("1 − τ (fallback threshold on a·b)")
        ax.set_ylabel("max angle error (rad)")
        ax.set_title(f"threshold study, {prec}")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    page.figure(parts, fig, "threshold", "Threshold study",
                "Each line is one slerp family's largest error when it switches to its linear fallback at a·b > τ "
                "(dotted: the arc formula's own rounding floor); the dash-dotted line is the recommended τ*, the "
                f"largest 1 − τ that stays within that floor, and the dashed line is the customary {threshold_dot():g}.")
    if thr_summary is not None:
        parts.append(table_html(thr_summary, "threshold_summary.csv"))



def sweep_section(page, folder, name):
    """Exhaustive slices (quatcheck sweep, docs/sweep.md) when the report folder holds the subfolder `name`
    (scripts/run: sweep/ over a.b, sweep-t/ over t): the per-slice error curves and the branch map. No section
    otherwise (a report without a sweep is unchanged)."""
    sub = os.path.join(folder, name)
    if not os.path.isdir(sub):
        return
    parts = page.section(name, f"Exhaustive slices and branch map ({name}/)")
    summary = read_table(sub, "sweep_summary.csv", ["over", "slice", "precision", "impl", "op", "points", "cases",
                                                    "max_angle_err_rad", "edges"])
    curve = read_table(sub, "sweep_curve.csv", ["slice", "impl", "op", "x_lo", "x_hi", "max_angle_err_rad"])
    edges = read_table(sub, "branch_map.csv", ["impl", "op", "precision", "t", "dot_below", "dot_above", "jump_rad"])
    if edges is None:
        edges = read_table(sub, "t_branch_map.csv", ["impl", "op", "precision", "pair", "t_below", "t_above", "jump_rad"])
    if summary is None or curve is None:
        missing(parts, [f"{name}/sweep_summary.csv", f"{name}/sweep_curve.csv"], "the sweep")
        return
    over = summary.rows[0]["over"] if summary.rows else "dot"
    slices = {}
    for r in curve.rows:
        slices.setdefault(r["slice"], {}).setdefault((r["impl"], r["op"]), []).append(r)
    names = sorted(slices)[:4]  # at most four panels; every slice is in the table below
    if names:
        fig, axes = plt.subplots(1, len(names), figsize=(6.0 * len(names), 4.4), squeeze=False)
        for ax, sl in zip(axes[0], names):
            # At most 8 lines per panel (the report's readability budget): the 8 largest maxima of the slice,
            # the implementations worth a look; every row is in the table below.
            peak = {k: max(number(curve, r, "max_angle_err_rad") for r in v) for k, v in slices[sl].items()}
            lines = sorted(sorted(slices[sl], key=lambda k: -peak[k])[:8])
            for (impl, op), (color, ls, mk) in zip(lines, styles(len(lines))):
                rows = sorted(slices[sl][(impl, op)], key=lambda r: number(curve, r, "x_lo"))
                x = [0.5 * (number(curve, r, "x_lo") + number(curve, r, "x_hi")) for r in rows]
                ax.plot(x, positive([number(curve, r, "max_angle_err_rad") for r in rows]), color=color,
                        linestyle=ls, linewidth=0.9, label=f"{impl} {op}" if op != "slerp" else impl)
            ax.set_yscale("log")
            ax.set_xlabel("a·b" if over == "dot" else "t")
            ax.set_ylabel("max angle error (rad)")
            ax.set_title(f"sweep over {over}, {sl}")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=6, ncol=2)
        page.figure(parts, fig, name, f"Exhaustive slices ({name}/)",
                    "Each line is one implementation's largest error in 256 equal bins of the swept value (per panel "
                    "the 8 implementations with the largest error), every "
                    "representable value (f32) or a dense scan plus exact windows (f64) evaluated; see "
                    f"docs/sweep.md. {'The first four of ' + str(len(slices)) + ' slices are drawn.' if len(slices) > 4 else ''}")
    parts.append(table_html(summary, f"{name}/sweep_summary.csv"))
    if edges is not None:
        parts.append("<p>The branch map: every pair of adjacent floats between which an implementation's output "
                     "jumps by more than the reference moves, found by bisection.</p>")
        parts.append(table_html(edges, f"{name}/" + os.path.basename(edges.path)))


def timing_plots(page, timing, summary):
    """Time per call: one row per implementation and one marker per region (at most five series), a dot plot
    because the question is the spread across regions. Accuracy versus cost: a scatter, one point per
    implementation and op, named beside the point (the legend only tells the ops apart)."""
    if timing is None:
        return  # quatcheck bench not run: the grey line says so
    parts = page.section("timing", "Timing and cost")
    by = {}
    for r in timing.rows:
        by.setdefault((r["op"], r["mode"]), {}).setdefault(r["impl"], {})[r["region"]] = number(timing, r, "ns_per_call")
    for (op, mode), impls in sorted(by.items()):
        names = sorted(impls, key=lambda n: max(impls[n].values()))
        regions = sorted({g for d in impls.values() for g in d})
        fig, ax = plt.subplots(figsize=(9, 0.28 * len(names) + 1.5))
        for g, (color, _, mk) in zip(regions, styles(len(regions))):
            ys = [i for i, n in enumerate(names) if g in impls[n]]
            ax.plot([impls[names[i]][g] for i in ys], ys, marker=mk, linestyle="none", color=color, label=g)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names, fontsize=7)
        ax.set_xscale("log")
        ax.set_xlabel("ns per call")
        ax.grid(True, axis="x", alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
        ax.set_title(f"time per call, {op}, {mode}")
        page.figure(parts, fig, f"timing_{op}_{mode}", f"Time per call, {op}, {mode}",
                    "Each row is one implementation and each marker its measured nanoseconds per call on one "
                    "region's inputs (log scale, left is faster); markers spread apart mean the cost depends on "
                    "the input.")
    if summary is None:
        return  # timed but not sampled: no accuracy to set against the cost
    worst = {}
    for r in summary.rows:
        key = (r["impl"], r["op"])
        worst[key] = max(worst.get(key, 0.0), number(summary, r, "max_angle_err_rad"))
    for mode in sorted({m for _, m in by}):
        fig, ax = plt.subplots(figsize=(9, 6))
        ops = sorted({op for op, m in by if m == mode})
        for op, (color, _, mk) in zip(ops, styles(len(ops))):
            for impl, regs in by[(op, mode)].items():
                if (impl, op) not in worst:
                    continue
                x = sum(regs.values()) / len(regs)
                y = worst[(impl, op)]
                ax.plot([x], positive([y]), marker=mk, color=color, linestyle="none")
                ax.annotate(impl, (x, y if y > 0 else float("nan")), fontsize=6, xytext=(3, 2),
                            textcoords="offset points")
            ax.plot([], [], marker=mk, color=color, linestyle="none", label=op)
        cost_axes(ax, "mean ns per call over the regions", "max angle error over all regions (rad)",
                  f"accuracy versus cost ({mode})")
        page.figure(parts, fig, f"accuracy_vs_cost_{mode}", f"Accuracy versus cost, {mode}",
                    "Each point is one implementation and op: further left is faster, lower is more accurate, so "
                    "the points toward the lower left are the best trade-offs.")


def cost_axes(ax, xlabel, ylabel, title):
    """Log-log axes of error against time per call, with a grid, the legend and a title."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title)


def frontier_plot(page, folder):
    """The accuracy-versus-cost frontier per precision (issue 18): the points of scripts/readme/frontier.py,
    Pareto-optimal ones ringed and joined."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "readme"))
    import frontier  # noqa: E402  (scripts/readme/frontier.py: the same points as the docs table)
    try:
        pts = frontier.points(folder)
    except qc_tables.TableError as e:
        raise ReportError(str(e))
    if pts is None:
        return  # not both sampled and timed: the grey line names the command that is missing
    parts = page.section("frontier", "The accuracy-versus-cost frontier")
    for prec in sorted(pts):
        fig, ax = plt.subplots(figsize=(9, 6))
        for p in pts[prec]:
            y = p["err"] if p["err"] > 0 and math.isfinite(p["err"]) else float("nan")
            ax.plot([p["ns"]], [y], marker="o" if p["optimal"] else ".", markersize=8 if p["optimal"] else 5,
                    color="tab:red" if p["optimal"] else ("tab:gray" if p["nonfinite"] else "tab:blue"),
                    linestyle="none")
            ax.annotate(p["impl"].rsplit(".", 1)[0] + ("" if p["op"] == "slerp" else f" ({p['op']})"), (p["ns"], y),
                        fontsize=6, xytext=(3, 2), textcoords="offset points")
        best = [p for p in pts[prec] if p["optimal"]]
        ax.step([p["ns"] for p in best], [p["err"] for p in best], where="post", color="tab:red", alpha=0.5,
                label="Pareto-optimal")
        ax.plot([], [], marker=".", color="tab:gray", linestyle="none", label="non-finite outputs (never optimal)")
        cost_axes(ax, "mean ns per call over the timed regions (throughput)", "max angle error, worst region (rad)",
                  f"accuracy-versus-cost frontier, {prec}")
        page.figure(parts, fig, f"frontier_{prec}", f"Accuracy-versus-cost frontier, {prec}",
                    "Each point is one implementation and op; the red points are Pareto-optimal (nothing else of "
                    "this precision is both faster and more accurate), joined by the red staircase: choose along it.")
