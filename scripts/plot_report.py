#!/usr/bin/python3
"""Draws quatcheck's report from the CSVs of a report folder, and nothing else.

    /usr/bin/python3 scripts/plot_report.py REPORT_DIR

Writes REPORT_DIR/plots/*.png and REPORT_DIR/report.html: one self-contained page (images embedded as
base64, no network, no external file) with a one-sentence caption under every plot. Each section uses the
CSVs it needs when they exist and says which file is missing when they do not. `quatcheck report DIR`
calls this script; run it yourself to redraw or restyle the plots.

Needs Debian's python3-matplotlib (run with /usr/bin/python3). Errors are one line on stderr,
"quatcheck: report: FILE:LINE: reason", with exit status 2; files are moved into place only when every
plot is drawn.
"""
import base64
import html
import json
import math
import os
import shutil
import sys

import matplotlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qc_tables  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

THRESHOLD_DOT = 0.9995
THRESHOLD_W = math.acos(THRESHOLD_DOT)  # arc W = angle between a and b on S^3 where a.b = 0.9995
DPI = 90


class ReportError(Exception):
    pass


def fail(path, line, why):
    raise ReportError(f"{path}:{line}: {why}")


# ---------------------------------------------------------------------------------------------------
# Reading


class Table:
    """A CSV of the report folder: rows as dicts, each with its line number in row['_line']."""

    def __init__(self, path, rows, columns):
        self.path, self.rows, self.columns = path, rows, columns


def read_table(folder, name, required):
    """The CSV `name` of the folder, or None when the file does not exist. Read through the folder's
    schema.json (scripts/qc_tables.py): the required columns, and every column a row is asked for, must be
    declared there and present in the file."""
    try:
        t = qc_tables.read(folder, name, required)
    except qc_tables.TableError as e:
        raise ReportError(str(e))
    return None if t is None else Table(t.path, t.rows, t.header)


def number(table, row, col):
    text = row[col]
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return float.fromhex(text)  # hexfloats (%a) are how floats cross text boundaries
    except ValueError:
        fail(table.path, row["_line"], f"column {col}: '{text}' is not a number")


def optional_number(table, row, col):
    return None if row.get(col, "") == "" else number(table, row, col)


def precision_of(impl):
    return impl.rsplit(".", 1)[1] if impl.endswith((".f32", ".f64")) else "other"


# ---------------------------------------------------------------------------------------------------
# Figures


class Page:
    def __init__(self, folder, staging):
        self.folder, self.staging = folder, staging
        self.sections = []  # (anchor, title, [html parts])
        self.images = []    # file names written into staging/plots

    def section(self, anchor, title):
        parts = []
        self.sections.append((anchor, title, parts))
        return parts

    def figure(self, parts, fig, name, title, caption):
        file = f"{name}.png"
        path = os.path.join(self.staging, "plots", file)
        fig.savefig(path, dpi=DPI, bbox_inches="tight")
        plt.close(fig)
        self.images.append(file)
        with open(path, "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        parts.append(
            f'<figure id="fig-{name}"><img alt="{html.escape(title)}" src="data:image/png;base64,{data}">'
            f"<figcaption><b>{html.escape(title)}.</b> {html.escape(caption)} "
            f'<span class="file">plots/{file}</span></figcaption></figure>')


def missing(parts, names, what):
    files = ", ".join(f"<code>{n}</code>" for n in names)
    parts.append(f'<p class="missing">Missing: {files} is not in this report folder, so {html.escape(what)} '
                 "cannot be shown.</p>")


def styles(n):
    """n distinguishable (colour, line style, marker) triples."""
    cmap = plt.get_cmap("tab10")
    ls = ["-", "--", ":", "-."]
    mk = ["o", "s", "^", "v", "D", "x", "+", "*"]
    return [(cmap(i % 10), ls[(i // 10) % 4], mk[i % 8]) for i in range(n)]


def positive(values):
    """Zeros and non-finite values become NaN: they cannot be drawn on a log axis."""
    return [v if v is not None and v > 0 and math.isfinite(v) else float("nan") for v in values]


def error_vs_arc(page, curve):
    parts = page.section("error-vs-arc", "Error versus arc angle")
    if curve is None:
        missing(parts, ["error_curve.csv"], "the error curves")
        return
    groups = {}
    for r in curve.rows:
        if r["bins"] != "log":
            continue
        groups.setdefault((r["op"], precision_of(r["impl"])), {}).setdefault(r["impl"], []).append(r)
    if not groups:
        parts.append('<p class="missing">error_curve.csv has no rows with bins=log.</p>')
        return
    for (op, prec), impls in sorted(groups.items()):
        fig, (ax_angle, ax_ulp) = plt.subplots(1, 2, figsize=(13, 4.8))
        for (impl, rows), (color, ls, mk) in zip(sorted(impls.items()), styles(len(impls))):
            xs, angle, ulp1, bad = [], [], [], []
            for r in rows:
                lo, hi, n = number(curve, r, "w_lo"), number(curve, r, "w_hi"), number(curve, r, "cases")
                a, u, nf = number(curve, r, "max_angle_err_rad"), number(curve, r, "max_ulp1"), number(curve, r, "nonfinite")
                if n == 0:
                    continue
                x = math.sqrt(lo * hi) if lo > 0 else hi / 2
                xs.append(x)
                angle.append(a)
                ulp1.append(u)
                if nf > 0:
                    bad.append(x)
            kw = dict(color=color, linestyle=ls, marker=mk, markersize=3, linewidth=1.2, label=impl)
            ax_angle.plot(xs, positive(angle), **kw)
            ax_ulp.plot(xs, positive(ulp1), **kw)
            for x in bad:
                ax_angle.axvline(x, color=color, linewidth=0.6, alpha=0.5)
                ax_angle.plot([x], [1], marker="X", color=color, markersize=8, linestyle="none")
        for ax, label in ((ax_angle, "max angle error (rad)"), (ax_ulp, "max ulp1")):
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("arc W between the keys (rad)")
            ax.set_ylabel(label)
            ax.axvline(THRESHOLD_W, color="k", linestyle="--", linewidth=0.8)
            ax.axvline(math.pi / 2, color="r", linestyle="--", linewidth=0.8)
            ax.grid(True, which="major", alpha=0.3)
            ax.text(THRESHOLD_W, 0.98, "a·b=0.9995 ", fontsize=7, va="top", ha="right", transform=ax.get_xaxis_transform())
            ax.text(math.pi / 2, 0.90, "a·b=0 ", fontsize=7, va="top", ha="right", color="r",
                    transform=ax.get_xaxis_transform())
        ax_angle.set_title(f"{op}, {prec}: angle error")
        ax_ulp.set_title(f"{op}, {prec}: ulp1 error")
        ax_ulp.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        page.figure(parts, fig, f"error_vs_arc_{op}_{prec}", f"Error versus arc angle, {op}, {prec}",
                    "Each line is one implementation's largest error among the sampled cases whose arc W falls in "
                    "the bin (log-log, lower is better); the dashed lines mark the 0.9995 fallback threshold and "
                    "the quarter-turn tie a·b = 0, near-equal and near-antipodal keys sit at the left edge, an X "
                    "marks a bin with non-finite outputs, and bins without error are not drawn.")


def ulp1_histograms(page, hist, curve):
    parts = page.section("ulp1-histograms", "ulp1 histograms")
    if hist is not None:
        groups = {}
        for r in hist.rows:
            groups.setdefault((r["op"], precision_of(r["impl"])), {}).setdefault(r["impl"], {})
            key = (number(hist, r, "ulp1_lo"), number(hist, r, "ulp1_hi"))
            d = groups[(r["op"], precision_of(r["impl"]))][r["impl"]]
            d[key] = d.get(key, 0) + number(hist, r, "cases")
        source = "every sampled case, all regions together"
    elif curve is not None:
        # No per-case histogram: count each case at its arc bin's maximum ulp1, an upper bound per case.
        groups = {}
        for r in curve.rows:
            if r["bins"] != "log" or number(curve, r, "cases") == 0:
                continue
            u = number(curve, r, "max_ulp1")
            lo = 0.0 if u == 0 else 2.0 ** math.floor(math.log2(u))
            d = groups.setdefault((r["op"], precision_of(r["impl"])), {}).setdefault(r["impl"], {})
            key = (lo, 2 * lo if lo > 0 else 0.0)
            d[key] = d.get(key, 0) + number(curve, r, "cases") - number(curve, r, "nonfinite")
        parts.append('<p class="missing">Missing: <code>ulp1_histogram.csv</code>; these histograms are drawn from '
                     "<code>error_curve.csv</code> instead, counting every case at its arc bin's largest ulp1 "
                     "(an upper bound for each case).</p>")
        source = "each case counted at its arc bin's maximum ulp1 (upper bound)"
    else:
        missing(parts, ["ulp1_histogram.csv", "error_curve.csv"], "the ulp1 histograms")
        return
    for (op, prec), impls in sorted(groups.items()):
        names = sorted(impls)
        cols = min(4, len(names))
        rows_n = (len(names) + cols - 1) // cols
        fig, axes = plt.subplots(rows_n, cols, figsize=(3.4 * cols, 2.4 * rows_n), squeeze=False, sharex=True)
        # x = log2 of the bin's lower edge; exact zeros get their own bar two steps left of the smallest bin.
        ks = sorted({math.log2(lo) for d in impls.values() for lo, _ in d if lo > 0})
        zero_x = (ks[0] if ks else 0) - 2
        for ax, name in zip(axes.flat, names):
            xs = [math.log2(lo) if lo > 0 else zero_x for lo, _ in impls[name]]
            ax.bar(xs, list(impls[name].values()), width=0.9, align="edge", color="tab:blue")
            ax.set_yscale("symlog", linthresh=1)
            ax.set_title(name, fontsize=8)
            ax.tick_params(labelsize=6)
            ax.axvline(0, color="k", linewidth=0.5, linestyle=":")
            ticks = list(range(int(math.ceil(ks[0])) if ks else 0, int(ks[-1]) + 2 if ks else 1, 1))
            step = max(1, len(ticks) // 7)
            ticks = ticks[::step]
            ax.set_xticks([zero_x] + ticks)
            ax.set_xticklabels(["0"] + [f"2^{k}" for k in ticks], rotation=45)
        for ax in list(axes.flat)[len(names):]:
            ax.axis("off")
        fig.suptitle(f"ulp1 distribution, {op}, {prec}", fontsize=10)
        fig.supxlabel("ulp1 bin (lower edge; a bar covers [2^k, 2^(k+1)))", fontsize=8)
        fig.supylabel("cases", fontsize=8)
        fig.tight_layout()
        page.figure(parts, fig, f"ulp1_hist_{op}_{prec}", f"ulp1 histograms, {op}, {prec}",
                    f"Each panel counts one implementation's cases by error in units of the spacing at 1 ({source}): "
                    "mass far to the right of 2^0 means errors well beyond rounding.")


def velocity_curves(page, vel):
    parts = page.section("velocity", "Angular velocity")
    if vel is None:
        missing(parts, ["velocity_curve.csv"], "the angular-velocity error curves")
        return
    groups = {}
    for r in vel.rows:
        groups.setdefault(r["op"], {}).setdefault(number(vel, r, "arc_deg"), {}).setdefault(
            (r["impl"], r.get("track", "")), []).append(r)
    for op, arcs in sorted(groups.items()):
        arc_list = sorted(arcs)
        # one row per arc; columns: timing error, relative speed error
        fig, axes = plt.subplots(len(arc_list), 2, figsize=(12, 2.3 * len(arc_list) + 0.8), squeeze=False)
        all_impls = sorted({k for a in arcs.values() for k in a})
        style = dict(zip(all_impls, styles(len(all_impls))))
        for i, arc in enumerate(arc_list):
            for key, rows in sorted(arcs[arc].items()):
                rows = sorted(rows, key=lambda r: number(vel, r, "t"))
                t = [number(vel, r, "t") for r in rows]
                color, ls, _ = style[key]
                label = key[0] + (f" ({key[1]})" if key[1] else "")
                axes[i][0].plot(t, positive([abs(number(vel, r, "timing_err")) for r in rows]), color=color,
                                linestyle=ls, linewidth=0.9, label=label if i == 0 else None)
                axes[i][1].plot(t, positive([abs(number(vel, r, "speed_rel_err")) for r in rows]), color=color,
                                linestyle=ls, linewidth=0.9)
            axes[i][0].set_ylabel(f"arc {arc:g}°", fontsize=8)
            for j in range(2):
                axes[i][j].set_yscale("log")
                axes[i][j].grid(True, alpha=0.3)
                axes[i][j].tick_params(labelsize=7)
        axes[0][0].set_title("|timing error| = |φ − φ_ideal| / Θ", fontsize=9)
        axes[0][1].set_title("|relative angular speed error|", fontsize=9)
        axes[-1][0].set_xlabel("t")
        axes[-1][1].set_xlabel("t")
        fig.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.0, 0.5), ncol=1 + len(all_impls) // 40)
        fig.suptitle(f"angular velocity, {op}", fontsize=10)
        fig.tight_layout()
        page.figure(parts, fig, f"velocity_{op}", f"Angular velocity, {op}",
                    "How far each implementation's rotated angle strays from the constant-speed ideal at each t, as a "
                    "fraction of the arc (left), and how far its angular speed strays from the ideal speed (right), "
                    "one row per arc, as magnitudes on a log scale: a line near 1e-7 (f32) or 1e-16 (f64) is rounding "
                    "noise, a smooth hump well above it is a real non-constant speed (nlerp), and exact zeros are not "
                    "drawn.")


def threshold_study(page, thr, thr_summary):
    parts = page.section("threshold", "Threshold study")
    if thr is None:
        missing(parts, ["threshold.csv"], "the threshold study")
        return
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
        ax.axvline(1 - THRESHOLD_DOT, color="k", linestyle="--", linewidth=1)
        ax.text(1 - THRESHOLD_DOT, 0.98, " 0.9995", fontsize=7, va="top", transform=ax.get_xaxis_transform())
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
                "largest 1 − τ that stays within that floor, and the dashed line is the customary 0.9995.")
    if thr_summary is not None:
        parts.append(table_html(thr_summary, "threshold_summary.csv"))
    else:
        missing(parts, ["threshold_summary.csv"], "the recommended thresholds")



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
            lines = sorted(slices[sl])
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
                    "Each line is one implementation's largest error in 256 equal bins of the swept value, every "
                    "representable value (f32) or a dense scan plus exact windows (f64) evaluated; see "
                    f"docs/sweep.md. {'The first four of ' + str(len(slices)) + ' slices are drawn.' if len(slices) > 4 else ''}")
    parts.append(table_html(summary, f"{name}/sweep_summary.csv"))
    if edges is not None:
        parts.append("<p>The branch map: every pair of adjacent floats between which an implementation's output "
                     "jumps by more than the reference moves, found by bisection.</p>")
        parts.append(table_html(edges, f"{name}/" + os.path.basename(edges.path)))


def timing_plots(page, timing, summary):
    parts = page.section("timing", "Timing and cost")
    if timing is None:
        missing(parts, ["timing.csv"], "timing per region and accuracy versus cost")
        return
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
        missing(parts, ["summary.csv"], "accuracy versus cost")
        return
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
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("mean ns per call over the regions")
        ax.set_ylabel("max angle error over all regions (rad)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(f"accuracy versus cost ({mode})")
        page.figure(parts, fig, f"accuracy_vs_cost_{mode}", f"Accuracy versus cost, {mode}",
                    "Each point is one implementation and op: further left is faster, lower is more accurate, so "
                    "the points toward the lower left are the best trade-offs.")


def frontier_plot(page, folder):
    """The accuracy-versus-cost frontier per precision (issue 18): the points of scripts/readme/frontier.py,
    Pareto-optimal ones ringed and joined."""
    parts = page.section("frontier", "The accuracy-versus-cost frontier")
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "readme"))
    import frontier  # noqa: E402  (scripts/readme/frontier.py: the same points as the docs table)
    try:
        pts = frontier.points(folder)
    except qc_tables.TableError as e:
        raise ReportError(str(e))
    if pts is None:
        missing(parts, ["summary.csv", "timing.csv"], "the accuracy-versus-cost frontier")
        return
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
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("mean ns per call over the timed regions (throughput)")
        ax.set_ylabel("max angle error, worst region (rad)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(f"accuracy-versus-cost frontier, {prec}")
        page.figure(parts, fig, f"frontier_{prec}", f"Accuracy-versus-cost frontier, {prec}",
                    "Each point is one implementation and op; the red points are Pareto-optimal (nothing else of "
                    "this precision is both faster and more accurate), joined by the red staircase: choose along it.")


# ---------------------------------------------------------------------------------------------------
# Tables


def cell(v):
    return html.escape(v)


def table_html(table, title, columns=None, limit=400):
    cols = columns or [c for c in table.columns]
    rows = table.rows[:limit]
    out = [f'<table><caption><code>{html.escape(title)}</code> ({len(table.rows)} rows'
           f'{", first " + str(limit) + " shown" if len(table.rows) > limit else ""})</caption><tr>']
    out += [f"<th>{cell(c)}</th>" for c in cols]
    out.append("</tr>")
    for r in rows:
        # every column the file has, declared or not: dict.get does not check
        out.append("<tr>" + "".join(f"<td>{cell(dict.get(r, c, ''))}</td>" for c in cols) + "</tr>")
    out.append("</table>")
    return "".join(out)


def summary_table(page, summary, run):
    parts = page.section("summary", "Summary")
    if run is not None:
        b = run.get("build", {})
        parts.append(f"<p>Seed {run.get('seed')}, {run.get('cases_per_region')} cases per region and precision, "
                     f"{len(run.get('implementations', []))} implementation × op pairs, wall time "
                     f"{run.get('wall_time_s', 0):.1f} s, finished {html.escape(str(run.get('finished_at', '?')))}; "
                     f"{html.escape(str(b.get('compiler', '?')))}, MPFR {html.escape(str(b.get('mpfr_version', '?')))}."
                     "</p>")
    else:
        missing(parts, ["run.json"], "the run's settings")
    if summary is None:
        missing(parts, ["summary.csv"], "the accuracy summary")
        return
    regions = []
    for r in summary.rows:
        if r["region"] not in regions:
            regions.append(r["region"])
    cells = {}
    for r in summary.rows:
        v = number(summary, r, "max_angle_err_rad")
        text = f"{v:.2e}"
        if int(number(summary, r, "nonfinite")):
            text += f' <span class="bad">({r["nonfinite"]} non-finite)</span>'
        if r.get("status", "ok") not in ("ok", ""):
            text += f' <span class="bad">{cell(r["status"])}</span>'
        cells.setdefault((r["impl"], r["op"]), {})[r["region"]] = text
    out = ["<table><caption>Max angle error (rad) per region over the sampled cases: a lower bound on the true "
           "maximum (<code>summary.csv</code>)</caption><tr><th>impl</th><th>op</th>"]
    out += [f"<th>{cell(g)}</th>" for g in regions] + ["</tr>"]
    for (impl, op), d in cells.items():
        out.append(f"<tr><td><code>{cell(impl)}</code></td><td>{cell(op)}</td>" +
                   "".join(f"<td>{d.get(g, '')}</td>" for g in regions) + "</tr>")
    out.append("</table>")
    parts.append("".join(out))


def leaderboard_section(page, folder, board):
    parts = page.section("leaderboard", "Leaderboard")
    if board is None:
        missing(parts, ["leaderboard.csv"], "the leaderboard")
        return
    parts.append(table_html(board, "leaderboard.csv"))


def conformance_section(page, tables):
    parts = page.section("conformance", "Conformance")
    present = [(n, t) for n, t in tables if t is not None]
    for n, t in tables:
        if t is None:
            missing(parts, [n], "its conformance verdicts")
    if not present:
        return
    details = []
    out = ["<table><caption>Conformance verdicts; a failing property links to its counterexample</caption>"
           "<tr><th>file</th><th>impl</th><th>op</th><th>property</th><th>verdict</th><th>cases</th>"
           "<th>tolerance</th><th>worst</th></tr>"]
    for name, t in present:
        for r in t.rows:
            verdict = r.get("verdict", "")
            v = cell(verdict)
            if verdict == "fail":
                anchor = f"cx-{len(details) + 1}"
                v = f'<a class="bad" href="#{anchor}">fail: counterexample</a>'
                details.append((anchor, name, r))
            out.append(f"<tr><td>{cell(name)}</td><td><code>{cell(r.get('impl', ''))}</code></td>"
                       f"<td>{cell(r.get('op', ''))}</td><td>{cell(r.get('property', ''))}</td><td>{v}</td>"
                       f"<td>{cell(r.get('cases', ''))}</td><td>{cell(r.get('tolerance', ''))}</td>"
                       f"<td>{cell(r.get('worst', ''))}</td></tr>")
    out.append("</table>")
    parts.append("".join(out))
    if details:
        parts.append("<h3>Counterexamples</h3>")
        for anchor, name, r in details:
            parts.append(f'<div class="cx" id="{anchor}"><b><code>{cell(r.get("impl", ""))}</code> '
                         f'{cell(r.get("op", ""))} {cell(r.get("property", ""))}</b> ({cell(name)} line {r["_line"]})'
                         f'<pre>{cell(r.get("counterexample", ""))}</pre>reproduce: '
                         f'<pre>{cell(r.get("reproduce", ""))}</pre></div>')


def other_tables(page, tables):
    parts = page.section("tables", "Other tables")
    for name, t in tables:
        if t is None:
            missing(parts, [name], "this table")
        else:
            parts.append(f"<details><summary><code>{cell(name)}</code></summary>{table_html(t, name)}</details>")


# ---------------------------------------------------------------------------------------------------
# The page

STYLE = """
body{font-family:sans-serif;max-width:1300px;margin:1em auto;padding:0 1em;color:#222}
h2{border-bottom:1px solid #ccc;margin-top:2em}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:90%;color:#333;max-width:1000px}.file{color:#888;font-family:monospace;font-size:85%}
table{border-collapse:collapse;font-size:80%;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px}
th{background:#f3f3f3}caption{text-align:left;font-weight:bold;padding:4px 0}
.missing{background:#fff6d5;border-left:4px solid #e0b000;padding:4px 8px}.bad{color:#b00000;font-weight:bold}
pre{background:#f6f6f6;padding:4px;white-space:pre-wrap;word-break:break-all}
.cx{margin:1em 0;padding:4px 8px;border-left:4px solid #b00000}nav a{margin-right:1em}
#qc-load-status{font-size:80%;color:#888}
"""

# Inline, no network: records whether every image decoded, for readers and for the headless-browser test.
CHECK_SCRIPT = """
window.qcErrors = [];
window.addEventListener('error', function (e) { window.qcErrors.push(String(e.message || e)); }, true);
window.addEventListener('load', function () {
  var imgs = document.images, broken = 0;
  for (var i = 0; i < imgs.length; i++)
    if (!imgs[i].complete || imgs[i].naturalWidth === 0) broken++;
  var s = document.getElementById('qc-load-status');
  s.setAttribute('data-images', String(imgs.length));
  s.setAttribute('data-broken', String(broken));
  s.setAttribute('data-errors', String(window.qcErrors.length));
  s.textContent = imgs.length + ' images, ' + broken + ' broken';
});
"""


def write_page(page, run):
    nav = " ".join(f'<a href="#{a}">{html.escape(t)}</a>' for a, t, _ in page.sections)
    body = []
    for anchor, title, parts in page.sections:
        body.append(f'<h2 id="{anchor}">{html.escape(title)}</h2>')
        body += parts
    seed = f" (seed {run.get('seed')})" if run else ""
    doc = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           f"<title>quatcheck report{html.escape(seed)}</title><style>{STYLE}</style>"
           f"<script>{CHECK_SCRIPT}</script></head><body>"
           f"<h1>quatcheck report{html.escape(seed)}</h1>"
           f"<p>Drawn by <code>scripts/plot_report.py</code> from the CSVs of <code>{html.escape(page.folder)}</code>; "
           "the images are also in <code>plots/</code>. <span id=\"qc-load-status\"></span></p>"
           f"<nav>{nav}</nav>" + "\n".join(body) + "</body></html>\n")
    with open(os.path.join(page.staging, "report.html"), "w", encoding="utf-8") as f:
        f.write(doc)


def main(argv):
    if len(argv) != 2:
        raise ReportError("usage: plot_report.py REPORT_DIR")
    folder = argv[1]
    if not os.path.isdir(folder):
        raise ReportError(f"{folder}: not a folder")
    staging = os.path.join(folder, f".report-staging-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(os.path.join(staging, "plots"))
    try:
        run = None
        run_path = os.path.join(folder, "run.json")
        if os.path.exists(run_path):
            try:
                with open(run_path, encoding="utf-8") as f:
                    run = json.load(f)
            except ValueError as e:
                raise ReportError(f"{run_path}:{getattr(e, 'lineno', '?')}: not valid JSON ({e})")
        t = lambda name, cols: read_table(folder, name, cols)  # noqa: E731
        summary = t("summary.csv", ["impl", "op", "region", "nonfinite", "max_angle_err_rad"])
        curve = t("error_curve.csv", ["impl", "op", "w_lo", "w_hi", "cases", "max_angle_err_rad", "max_ulp1",
                                      "nonfinite", "bins"])
        hist = t("ulp1_histogram.csv", ["impl", "op", "ulp1_lo", "ulp1_hi", "cases"])
        vel = t("velocity_curve.csv", ["impl", "op", "arc_deg", "t", "timing_err", "speed_rel_err"])
        thr = t("threshold.csv", ["precision", "family", "one_minus_tau", "max_angle_err_rad"])
        thr_summary = t("threshold_summary.csv", ["precision", "family"])
        timing = t("timing.csv", ["impl", "op", "region", "mode", "ns_per_call"])
        board = t("leaderboard.csv", ["impl", "op"])
        conformance = [(n, t(n, ["impl", "op", "property", "verdict"]))
                       for n in ("conformance.csv", "squad_conformance.csv")]
        others = [(n, t(n, [])) for n in ("squad_summary.csv",)]

        page = Page(folder, staging)
        summary_table(page, summary, run)
        leaderboard_section(page, folder, board)
        error_vs_arc(page, curve)
        ulp1_histograms(page, hist, curve)
        velocity_curves(page, vel)
        threshold_study(page, thr, thr_summary)
        for name in ("sweep", "sweep-t"):
            sweep_section(page, folder, name)
        timing_plots(page, timing, summary)
        frontier_plot(page, folder)
        conformance_section(page, conformance)
        other_tables(page, others)
        write_page(page, run)

        # Move into place: the plots first, report.html last; stale plots of an earlier report go.
        plots = os.path.join(folder, "plots")
        os.makedirs(plots, exist_ok=True)
        for name in page.images:
            os.replace(os.path.join(staging, "plots", name), os.path.join(plots, name))
        for name in os.listdir(plots):
            if name.endswith(".png") and name not in page.images:
                os.remove(os.path.join(plots, name))
        os.replace(os.path.join(staging, "report.html"), os.path.join(folder, "report.html"))
        return len(page.images)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


if __name__ == "__main__":
    try:
        n = main(sys.argv)
        print(f"quatcheck report: {n} plots, {os.path.join(sys.argv[1], 'report.html')}", file=sys.stderr)
    except (ReportError, qc_tables.TableError) as e:  # TableError: a row asked for an undeclared column
        print(f"quatcheck: report: {e}", file=sys.stderr)
        sys.exit(2)
    except OSError as e:
        print(f"quatcheck: report: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
