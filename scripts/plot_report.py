#!/usr/bin/python3
"""Draws quatcheck's report from the CSVs of a report folder, and nothing else.

    /usr/bin/python3 scripts/plot_report.py REPORT_DIR

Writes into REPORT_DIR (issue 16):
- report.html, the overview: which implementation to trust and what is wrong with the others. The
  leaderboard as a sortable, filterable table (plain JavaScript in the page, no library, no network),
  figures rounded to 3 significant digits with the exact CSV value on hover, verdicts as coloured badges,
  a conformance matrix, and the few figures that compare implementations (small multiples).
- cards/IMPL.html, one "library card" per implementation, opened on demand from the overview: its figures
  per region, every failed property with its counterexample, reproducing command and a C snippet, and
  plots that show only this implementation (plus at most the rounding floor and one comparison line).
- plots/*.png, every image of those pages (also embedded in them as base64: each page is one file that
  opens from disk without a network).

Figures are static matplotlib PNGs, chosen per figure (the reason is beside each function): small
multiples, heat maps and one-implementation plots read at a glance without interaction, keep every axes at
8 named series or fewer, and cost a fraction of the 3.5 MB that embedding plotly.js in each page would.

Each section uses the CSVs it needs when they exist and says which file is missing when they do not;
tables this script does not know (declared in schema.json, with an `impl` column) are shown on the cards.
`quatcheck report DIR` calls this script; run it yourself to redraw or restyle the plots.

Needs Debian's python3-matplotlib (run with /usr/bin/python3). Errors are one line on stderr,
"quatcheck: report: FILE:LINE: reason", with exit status 2; files are moved into place only when every
page is drawn.
"""
import base64
import html
import json
import math
import multiprocessing
import os
import re
import shlex
import shutil
import subprocess
import sys

import matplotlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qc_tables  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402
from matplotlib.ticker import LogLocator, NullLocator  # noqa: E402

DPI = 80
MAX_SERIES = 6  # lines per axes in the overview's small multiples (issue 16: at most about 8)
EPS = {"f32": 2.0 ** -23, "f64": 2.0 ** -52}  # the spacing at 1, eps = 2^(1-p)
# The rounding floor drawn beside a curve: quatcheck compare's floor (docs/nightly.md), 2 ulp1 per component,
# which is an angle of 4 x 2 x eps = 8 eps. Errors below it are last-bit differences.
FLOOR_ULP1 = 2.0


def threshold_dot():
    """The seed routines' threshold on a.b (0.9995), defined once in harness/regions/regions.h."""
    return qc_tables.constants()["seed_threshold"]


def angle_floor(prec):
    return 4 * FLOOR_ULP1 * EPS[prec] if prec in EPS else None


class ReportError(Exception):
    pass


def write_failed(e, path):
    """An OSError raised while writing PATH (a full disk, ulimit -f), as one that names the file: the one it
    replaces, not its staging copy. Picklable, so a card drawn in a worker process reports it the same way."""
    def final(p):  # the staging folder of this script, or quatcheck report's (.NAME.staging-PID beside NAME)
        p = re.sub(r"/\.report-staging-\d+/", "/", str(p))
        return re.sub(r"(^|/)\.([^/]+)\.staging-\d+/", r"\1\2/", p)
    return OSError(e.errno, e.strerror or str(e), final(e.filename or path))


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


def card_file(impl):
    """The card's file name; implementation names are [A-Za-z0-9_-] plus .f32/.f64, anything else is
    replaced so that a name can never leave cards/."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", impl).lstrip(".") + ".html"


def sig3(v):
    """A figure for reading: 3 significant digits (the exact value stays in the CSV and the title)."""
    if v is None:
        return ""
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    return f"{v:.3g}" if 1e-3 <= abs(v) < 1e5 else f"{v:.2e}"


def num_cell(text, tag="td"):
    """A table cell for a number read from a CSV: 3 significant digits shown, the exact text on hover and
    in data-v (which the sort uses)."""
    if text is None or text == "":
        return f'<{tag} data-v=""></{tag}>'
    try:
        v = float(text)
    except ValueError:
        try:
            v = float.fromhex(text)
        except ValueError:
            return f"<{tag}>{html.escape(text)}</{tag}>"
    e = html.escape(text)
    return f'<{tag} class="n" data-v="{e}" title="{e}">{html.escape(sig3(v))}</{tag}>'


# ---------------------------------------------------------------------------------------------------
# Pages


class Page:
    """One HTML page being drawn: its sections, and the images it wrote into staging/plots. `prefix` makes
    image names unique across pages; `root` is the relative path from the page to the report folder."""

    def __init__(self, folder, staging, prefix="", root=""):
        self.folder, self.staging, self.prefix, self.root = folder, staging, prefix, root
        self.sections = []  # (anchor, title, [html parts])
        self.images = []    # file names written into staging/plots

    def section(self, anchor, title):
        parts = []
        self.sections.append((anchor, title, parts))
        return parts

    def figure(self, parts, fig, name, title, caption):
        file = f"{self.prefix}{name}.png"
        path = os.path.join(self.staging, "plots", file)
        # The most named series on any one axes (legend entries), recorded on the figure so that the render
        # test can hold every plot to the readability budget (issue 16: at most about 8 per axes).
        series = max((len([s for s in ax.get_legend_handles_labels()[1] if not s.startswith("_")])
                      for ax in fig.axes), default=0)
        try:
            fig.savefig(path, dpi=DPI, bbox_inches="tight")
        except OSError as e:
            plt.close(fig)
            raise write_failed(e, path) from None
        plt.close(fig)
        self.images.append(file)
        with open(path, "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        parts.append(
            f'<figure id="fig-{name}" data-series="{series}"><img alt="{html.escape(title)}" src="data:image/png;base64,{data}">'
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
    parts = page.section("error-vs-arc", "Error versus arc angle")
    curve = data.curve
    if curve is None:
        missing(parts, ["error_curve.csv"], "the error curves")
        return
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
    parts = page.section("velocity", "Angular velocity")
    if data.vel is None:
        missing(parts, ["velocity_curve.csv"], "the angular-velocity error curves")
        return
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


def table_html(table, title, columns=None, limit=400, rows=None, verbatim=()):
    """A CSV's rows as a table; numbers shown to 3 significant digits (exact on hover) except in the
    `verbatim` columns (hexfloat inputs one copies to replay a case)."""
    cols = columns or [c for c in table.columns]
    all_rows = table.rows if rows is None else rows
    shown = all_rows[:limit]
    out = [f'<table><caption><code>{html.escape(title)}</code> ({len(all_rows)} rows'
           f'{", first " + str(limit) + " shown" if len(all_rows) > limit else ""})</caption><tr>']
    out += [f"<th>{cell(c)}</th>" for c in cols]
    out.append("</tr>")
    for r in shown:
        # every column the file has, declared or not: dict.get does not check
        out.append("<tr>" + "".join(num_cell(dict.get(r, c, "")) if c not in ("impl", "op", "region", *verbatim)
                                    else f"<td>{cell(dict.get(r, c, ''))}</td>" for c in cols) + "</tr>")
    out.append("</table>")
    return "".join(out)


VERDICT_TEXT = {"pass": "pass", "known": "known failures", "fail": "fail", "not-run": "not run",
                "crashed": "crashed", "nonfinite": "non-finite"}


def board_verdict(row):
    """One verdict per leaderboard row, for the badge and the filter: a contained implementation that died
    first, then any failed property, then declared (known) failures, then pass."""
    status = row.get("status", "ok") or "ok"
    if status != "ok":
        return "crashed"
    conf = row.get("conformance", "") or ""
    if conf in ("", "not run"):
        return "not-run"
    if "fail:" in conf:
        return "fail"
    if "known:" in conf:
        return "known"
    return "pass"


def badge(verdict, text=None):
    return f'<span class="badge v-{verdict}">{html.escape(text or VERDICT_TEXT.get(verdict, verdict))}</span>'


def leaderboard_section(page, data):
    parts = page.section("leaderboard", "Leaderboard")
    board = data.board
    if board is None:
        missing(parts, ["leaderboard.csv"], "the leaderboard (run quatcheck leaderboard DIR)")
        impls = sorted(data.impls)
        if impls:
            parts.append("<p>Library cards: " + " ".join(
                f'<a href="cards/{card_file(i)}">{cell(i)}</a>' for i in impls) + "</p>")
        return
    region_cols = [c for c in board.columns if c.endswith("_max_angle_err_rad") and not c.startswith("worst_")
                   and any(r.get(c, "") != "" for r in board.rows)]
    cols = [("rank", "#", "num"), ("impl", "implementation", "text"), ("op", "op", "text"),
            ("precision", "precision", "text"), ("group", "group", "text"), ("worst_region", "worst region", "text"),
            ("worst_max_angle_err_rad", "max angle err (rad)", "num"), ("worst_max_ulp1", "max ulp1", "num"),
            ("nonfinite", "non-finite", "num"), ("verdict", "verdict", "text"),
            ("ns_per_call_throughput", "ns/call", "num"), ("ns_per_call_latency", "ns/call latency", "num")]
    cols += [(c, c[:-len("_max_angle_err_rad")], "num") for c in region_cols]
    have = set(board.columns)
    cols = [c for c in cols if c[0] in have or c[0] in ("precision", "verdict")]
    options = {k: sorted({(precision_of(r["impl"]) if k == "precision" else r.get(k, "")) for r in board.rows})
               for k in ("op", "precision", "group")}
    options["verdict"] = [v for v in VERDICT_TEXT if any(board_verdict(r) == v for r in board.rows)]
    ctl = ['<div id="lb-controls">']
    for k, vals in options.items():
        ctl.append(f'<label>{k} <select data-filter="{k}"><option value="">all</option>' +
                   "".join(f'<option value="{cell(v)}">{cell(VERDICT_TEXT.get(v, v) if k == "verdict" else v)}'
                           "</option>" for v in vals) + "</select></label>")
    ctl.append('<label>find <input type="search" id="lb-find" placeholder="name"></label>'
               '<label><input type="checkbox" id="lb-regions"> per-region columns</label>'
               '<span id="lb-count"></span></div>')
    parts.append("".join(ctl))
    out = ['<table id="lb-table" class="sortable hide-regions"><caption>One row per implementation and op, most accurate '
           "first (<code>leaderboard.csv</code>). Click a column to sort, again to reverse; figures are rounded to 3 "
           "significant digits, hover for the exact value. Maxima are over sampled cases: lower bounds.</caption>"
           "<thead><tr>"]
    for key, title, kind in cols:
        cls = ' class="region"' if key in region_cols else ""
        out.append(f'<th data-key="{cell(key)}" data-type="{kind}"{cls}>{cell(title)}</th>')
    out.append("</tr></thead><tbody>")
    for r in board.rows:
        v = board_verdict(r)
        prec = precision_of(r["impl"])
        attrs = (f'data-op="{cell(r.get("op", ""))}" data-precision="{cell(prec)}" '
                 f'data-group="{cell(r.get("group", ""))}" data-verdict="{v}" data-impl="{cell(r["impl"])}"')
        tds = []
        for key, _, kind in cols:
            if key == "impl":
                tds.append(f'<td data-v="{cell(r["impl"])}"><a href="cards/{card_file(r["impl"])}">'
                           f'<code>{cell(r["impl"])}</code></a></td>')
            elif key == "precision":
                tds.append(f'<td data-v="{cell(prec)}">{cell(prec)}</td>')
            elif key == "verdict":
                conf = r.get("conformance", "")
                extra = ""
                if (r.get("nonfinite") or "0") not in ("0", ""):
                    extra = " " + badge("nonfinite")
                tds.append(f'<td data-v="{v}" title="{cell(conf)}">{badge(v)}{extra}'
                           f'<div class="conf">{cell(conf)}</div></td>')
            elif kind == "num":
                c = num_cell(r.get(key, ""))
                if key in region_cols:
                    c = c.replace("<td", '<td data-region="1"', 1)
                tds.append(c)
            else:
                tds.append(f'<td data-v="{cell(r.get(key, ""))}">{cell(r.get(key, ""))}</td>')
        out.append(f"<tr {attrs}>" + "".join(tds) + "</tr>")
    out.append("</tbody></table>")
    parts.append("".join(out))


def conformance_matrix(page, data):
    """Every implementation x op against every property, as badges: the failures of all implementations at a
    glance. Each failure links to the card that shows its counterexample."""
    parts = page.section("conformance", "Conformance")
    for n, t in data.conformance:
        if t is None:
            missing(parts, [n], "its conformance verdicts")
    rows = [(n, r) for n, t in data.conformance if t is not None for r in t.rows]
    if not rows:
        return
    props = []
    for _, r in rows:
        if r["property"] not in props:
            props.append(r["property"])
    cells = {}
    for name, r in rows:
        cells.setdefault((r["impl"], r["op"]), {})[r["property"]] = r
    letters = {"pass": "✓", "fail": "✗", "known": "K", "skip": "–"}
    out = ['<table class="matrix"><caption>Conformance verdicts (<code>conformance.csv</code>, '
           "<code>squad_conformance.csv</code>): ✓ pass, ✗ fail, K a failure the implementation documents, "
           "– does not apply. A ✗ opens the card at its counterexample.</caption><tr><th>implementation</th><th>op</th>"]
    out += [f"<th>{cell(p)}</th>" for p in props] + ["</tr>"]
    for (impl, op), d in sorted(cells.items(), key=lambda kv: (kv[0][0].startswith("broken-"), kv[0])):
        out.append(f'<tr><td><a href="cards/{card_file(impl)}"><code>{cell(impl)}</code></a></td><td>{cell(op)}</td>')
        for p in props:
            r = d.get(p)
            if r is None:
                out.append("<td></td>")
                continue
            v = r["verdict"]
            text = letters.get(v, v)
            tip = cell(f"{p}: {v}; worst {r.get('worst', '')}, tolerance {r.get('tolerance', '')}")
            if v in ("fail", "known"):
                out.append(f'<td class="m v-{v}" title="{tip}"><a href="cards/{card_file(impl)}#prop-{cell(op)}-'
                           f'{cell(p)}">{text}</a></td>')
            else:
                out.append(f'<td class="m v-{cell(v)}" title="{tip}">{text}</td>')
        out.append("</tr>")
    out.append("</table>")
    parts.append("<details open><summary>verdict matrix</summary>" + "".join(out) + "</details>")


def summary_line(run):
    if run is None:
        return '<p class="missing">Missing: <code>run.json</code>, so the run\'s settings cannot be shown.</p>'
    b = run.get("build", {})
    partial = ' <span class="bad">(partial run)</span>' if run.get("partial") else ""
    return (f"<p>Seed {run.get('seed')}, {run.get('cases_per_region')} cases per region and precision, "
            f"{len(run.get('implementations', []))} implementation × op pairs, wall time "
            f"{run.get('wall_time_s', 0):.1f} s, finished {html.escape(str(run.get('finished_at', '?')))}; "
            f"{html.escape(str(b.get('compiler', '?')))}, MPFR {html.escape(str(b.get('mpfr_version', '?')))}"
            f"{partial}.</p>")


def other_tables(page, tables):
    parts = page.section("tables", "Other tables")
    for name, t in tables:
        if t is None:
            missing(parts, [name], "this table")
        else:
            parts.append(f"<details><summary><code>{cell(name)}</code></summary>{table_html(t, name)}</details>")


# ---------------------------------------------------------------------------------------------------
# Library cards


def c_snippet(impl, op, prop, counterexample, line):
    """A ten-line C program that calls the routine on a counterexample, through the plugin ABI (the same
    table quatcheck calls). None when the counterexample is not q0, q1, t (squad tracks, probes)."""
    xs = counterexample.split()
    if op not in ("slerp", "nlerp") or len(xs) not in (9, 10, 13):
        return None
    prec = precision_of(impl)
    ctype = "float" if prec == "f32" else "double"
    family = impl.rsplit(".", 1)[0]
    q0, q1 = ", ".join(xs[0:4]), ", ".join(xs[4:8])
    if len(xs) == 9:
        calls = [(q1, xs[8])]
    elif len(xs) == 10:  # monotone: t and t2
        calls = [(q1, xs[8]), (q1, xs[9])]
    else:  # threshold-continuity: q1 below and above the jump, one t
        calls = [(q1, xs[12]), (", ".join(xs[8:12]), xs[12])]
    body = [f"/* {impl} {op}, property {prop}: the counterexample of conformance.csv line {line} */",
            "#include <stdio.h>",
            "#include <string.h>",
            '#include "quatcheck/plugin.h"  /* link with the plugin that provides the routine */',
            "const qc_impl_v1 *qc_plugin_v1(size_t *count);",
            "int main(void) {",
            "    size_t n, i = 0; const qc_impl_v1 *impl = qc_plugin_v1(&n);",
            f'    while (i < n && strcmp(impl[i].family, "{family}") != 0) i++;',
            '    if (i == n) return 1;',
            "    impl += i;",
            f"    {ctype} q0[4] = {{{q0}}}, out[4];"]
    for k, (b, t) in enumerate(calls):
        body.append(f"    {ctype} q1_{k}[4] = {{{b}}};")
        body.append(f"    impl->{op}_{prec}(q0, q1_{k}, {t}, out);")
        body.append('    printf("%a %a %a %a\\n", out[0], out[1], out[2], out[3]);')
    body.append("}")
    return "\n".join(body)


# `quatcheck findings` (docs/findings.md): findings/index.json lists each family's folder and reproducer.
FINDINGS_MAX_BYTES = 4 << 20
REPRO_MAX_BYTES = 256 << 10
REPRO_LANGUAGES = {"cpp": "C++", "js": "JavaScript", "python": "Python"}


def read_findings(folder):
    """family -> its entry of findings/index.json ({} when the folder has no findings/). The file is untrusted:
    bounded, and every field used is checked (a folder name is one path component)."""
    path = os.path.join(folder, "findings", "index.json")
    if not os.path.exists(path):
        return {}
    try:
        with open(path, "rb") as f:
            raw = f.read(FINDINGS_MAX_BYTES + 1)
        if len(raw) > FINDINGS_MAX_BYTES:
            raise ReportError(f"{path}:1: larger than {FINDINGS_MAX_BYTES} bytes")
        j = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise ReportError(f"{path}:{getattr(e, 'lineno', 1)}: not valid JSON ({e})")
    out = {}
    for e in (j.get("families") if isinstance(j, dict) else None) or []:
        ok = isinstance(e, dict) and all(isinstance(e.get(k), str) for k in ("family", "folder", "language", "reproducer"))
        if not ok or not re.fullmatch(r"[A-Za-z0-9_+-][A-Za-z0-9._+-]*", e["folder"]) or \
                e["reproducer"] not in ("", "repro.cpp", "repro.mjs", "repro.py") or not isinstance(e.get("findings"), list):
            raise ReportError(f"{path}:1: a 'families' entry lacks a valid family, folder, language, reproducer or findings")
        out[e["family"]] = e
    return out


def card_finding(page, data, impl):
    """The card's link to the library's finding (findings/FAMILY/README.md) and its standalone reproducer in the
    library's own language. Returns True when the family has a reproducer (the C snippet is then left out)."""
    e = data.findings.get(impl.rsplit(".", 1)[0])
    if not e:
        return False
    parts = page.section("finding", "Finding for the library's maintainers")
    mine = [x for x in e["findings"] if isinstance(x, dict) and x.get("impl") == impl]
    readme = f"../findings/{e['folder']}/README.md"
    parts.append(f'<p><a href="{cell(readme)}">findings/{cell(e["folder"])}/README.md</a>: '
                 f"{len(e['findings'])} finding(s) of the family <code>{cell(e['family'])}</code>, "
                 f"{len(mine)} of them of {cell(impl)}, written by <code>quatcheck findings</code> for the library's "
                 "maintainers: what goes wrong, the worst case as exact inputs, the reference's output and what the "
                 "library returns, and the quatcheck command that reproduces it.</p>")
    if mine:
        parts.append("<ul>" + "".join(f"<li>{cell(str(x.get('sentence', '')))}</li>" for x in mine) + "</ul>")
    if not e["reproducer"]:
        parts.append("<p>No standalone reproducer for this family (a plugin, or no template): use the quatcheck "
                     "commands of the README.</p>")
        return False
    path = os.path.join(data.folder, "findings", e["folder"], e["reproducer"])
    try:
        with open(path, "rb") as f:
            text = f.read(REPRO_MAX_BYTES + 1).decode("utf-8", errors="replace")
    except OSError as err:
        parts.append(f"<p>The reproducer <code>{cell(path)}</code> cannot be read: {cell(str(err))}.</p>")
        return False
    if len(text) > REPRO_MAX_BYTES:
        text = text[:REPRO_MAX_BYTES] + "\n... (cut at 256 KiB)"
    language = REPRO_LANGUAGES.get(e["language"], e["language"])
    link = f"../findings/{e['folder']}/{e['reproducer']}"
    parts.append(f'<p>Standalone reproducer in {cell(language)}, <a href="{cell(link)}">{cell(e["reproducer"])}</a>: '
                 "it needs no part of quatcheck, calls the library as its users do (through the same adapter file "
                 "quatcheck uses), and exits 1 when the library breaks its promise. Run it with "
                 f"<code>findings/{cell(e['folder'])}/repro.sh</code>.</p>"
                 f"<details><summary>{cell(e['reproducer'])}</summary><pre>{cell(text)}</pre></details>")
    return True


def card_error_vs_arc(page, data, impl):
    """One implementation, its closest competitor of the same op and precision, and the rounding floor:
    three series, so the card answers "how far from the best, and from rounding" without the crowd."""
    parts = page.section("error-vs-arc", "Error versus arc angle")
    if data.curve is None:
        missing(parts, ["error_curve.csv"], "the error curves")
        return
    ops = [(op, prec) for (op, prec), d in sorted(data.curves.items()) if impl in d]
    if not ops:
        parts.append("<p>No rows of this implementation in <code>error_curve.csv</code>.</p>")
        return
    for op, prec in ops:
        impls = data.curves[(op, prec)]
        other = data.best(op, prec, exclude=impl)
        fig, (ax_a, ax_u) = plt.subplots(1, 2, figsize=(11, 3.8))
        for name, color, ls in ((impl, "tab:blue", "-"), (other, "tab:orange", "--")):
            if name is None or name not in impls:
                continue
            xs, angle, ulp1, bad = curve_points(data.curve, impls[name])
            label = name if name == impl else f"{name} (most accurate other {op}, {prec})"
            ax_a.plot(xs, positive(angle), color=color, linestyle=ls, marker="o", markersize=2.5, label=label)
            ax_u.plot(xs, positive(ulp1), color=color, linestyle=ls, marker="o", markersize=2.5, label=label)
            for x in bad:
                ax_a.plot([x], [1], marker="X", color=color, markersize=8, linestyle="none")
        floor = angle_floor(prec)
        if floor:
            ax_a.axhline(floor, color="0.5", linestyle=":", label="rounding floor 8ε")
            ax_u.axhline(FLOOR_ULP1, color="0.5", linestyle=":", label="rounding floor 2 ulp1")
        arc_axes(ax_a, "max angle error (rad)")
        arc_axes(ax_u, "max ulp1")
        ax_a.legend(fontsize=7, loc="upper left")
        ax_a.set_title(f"{impl} {op}: angle error", fontsize=9)
        ax_u.set_title(f"{impl} {op}: ulp1", fontsize=9)
        fig.subplots_adjust(wspace=0.3)  # cheaper than tight_layout; savefig trims the margins
        page.figure(parts, fig, f"error_vs_arc_{op}", f"Error versus arc angle, {op}",
                    "This implementation's largest error among the sampled cases in each arc bin (solid), the most "
                    "accurate other implementation of the same op and precision (dashed) and the rounding floor "
                    "(dotted), log-log; an X marks a bin with non-finite outputs.")


def card_ulp1(page, data, impl):
    """A histogram per op: one implementation, so a single bar chart reads at once."""
    parts = page.section("ulp1", "ulp1 distribution")
    groups = data.ulp1_hist
    if groups is None:
        missing(parts, ["ulp1_histogram.csv", "error_curve.csv"], "the ulp1 histogram")
        return
    ops = sorted(op for (op, _), d in groups.items() if impl in d)
    if not ops:
        parts.append("<p>No ulp1 figures of this implementation.</p>")
        return
    if data.hist is None:
        parts.append('<p class="missing">Missing: <code>ulp1_histogram.csv</code>; drawn from '
                     "<code>error_curve.csv</code>, counting every case at its arc bin's largest ulp1 (an upper "
                     "bound for each case).</p>")
    prec = precision_of(impl)
    for op in ops:
        d = groups[(op, prec)][impl]
        ks = sorted(math.log2(lo) for lo, _ in d if lo > 0)
        zero_x = (ks[0] if ks else 0) - 2
        fig, ax = plt.subplots(figsize=(6.5, 2.6))
        ax.bar([math.log2(lo) if lo > 0 else zero_x for lo, _ in d], list(d.values()), width=0.9, align="edge",
               color="tab:blue")
        ax.set_yscale("symlog", linthresh=1)
        ax.axvline(0, color="k", linewidth=0.5, linestyle=":")
        ticks = list(range(int(math.ceil(ks[0])) if ks else 0, int(ks[-1]) + 2 if ks else 1))
        ticks = ticks[::max(1, len(ticks) // 8)]
        ax.set_xticks([zero_x] + ticks)
        ax.set_xticklabels(["0"] + [f"2^{k}" for k in ticks], fontsize=7)
        ax.set_xlabel("ulp1 bin [2^k, 2^(k+1))", fontsize=8)
        ax.set_ylabel("cases", fontsize=8)
        ax.set_title(f"{impl} {op}", fontsize=9)
        fig.subplots_adjust(wspace=0.3)  # cheaper than tight_layout; savefig trims the margins
        page.figure(parts, fig, f"ulp1_{op}", f"ulp1 distribution, {op}",
                    f"Cases by error in units of the spacing at 1 ({data.hist_source}): mass far to the right of 2^0 "
                    "means errors well beyond rounding.")


def card_velocity(page, data, impl):
    """Timing and speed error against t, one line per arc (7 arcs; squad's 2 tracks in a figure of their own):
    every line is this implementation's, each labelled in the legend."""
    parts = page.section("velocity", "Angular velocity")
    if data.vel is None:
        missing(parts, ["velocity_curve.csv"], "the angular-velocity curves")
        return
    ops = sorted(op for (i, op) in data.vel_by if i == impl)
    if not ops:
        parts.append("<p>No angular-velocity curves of this implementation (broken and bench groups are not "
                     "measured).</p>")
        return
    for op in ops:
        d = data.vel_by[(impl, op)]
        arcs = sorted(k for k in d if not k[1])
        tracks = sorted(k for k in d if k[1])
        for keys, suffix in ((arcs, ""), (tracks, "_tracks")):  # squad's tracks apart: at most 7 lines per axes
            if keys:
                velocity_figure(page, parts, impl, op, d, keys, suffix)


def velocity_figure(page, parts, impl, op, d, keys, suffix):
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    for k, (color, ls, _) in zip(keys, styles(len(keys))):
        pts = sorted(d[k])
        label = f"{k[0]:g}°" if not k[1] else f"track {k[1]}"
        for ax, col in zip(axes, (1, 2)):
            ax.plot([p[0] for p in pts], positive([abs(p[col]) for p in pts]), color=color, linestyle=ls,
                    linewidth=0.9, label=label)
    for ax, title in zip(axes, ("|timing error| = |φ − φ_ideal| / Θ", "|relative angular speed error|")):
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(numticks=7))
        ax.yaxis.set_minor_locator(NullLocator())  # the minor log ticks' labels cost most of the drawing time
        ax.set_xlabel("t", fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.tick_params(labelsize=7)
    axes[1].legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.subplots_adjust(wspace=0.3)  # cheaper than tight_layout; savefig trims the margins
    what = "one line per squad track" if suffix else "one line per arc"
    page.figure(parts, fig, f"velocity_{op}{suffix}", f"Angular velocity, {op}" + (", tracks" if suffix else ""),
                "How far the rotated angle strays from constant speed at each t, as a fraction of the arc (left), "
                f"and how far the angular speed strays from the ideal (right), {what}: about 1e-7 (f32) or 1e-16 "
                "(f64) is rounding noise, a smooth hump above it a real non-constant speed; exact zeros are not "
                "drawn.")


def rows_of(table, impl):
    return [] if table is None else [r for r in table.rows if r.get("impl") == impl]


def card_tables(page, data, impl, has_repro=False):
    parts = page.section("regions", "Figures per region")
    if data.summary is None:
        missing(parts, ["summary.csv"], "the figures per region")
    else:
        rows = rows_of(data.summary, impl)
        cols = [c for c in ("op", "region", "cases", "nonfinite", "max_angle_err_rad", "p99_angle_err_rad",
                            "max_ulp1", "max_norm_err_ulp1", "branch_disagree", "max_angle_err_search_rad", "status",
                            "status_detail") if c in data.summary.columns]
        parts.append(table_html(data.summary, "summary.csv", cols, rows=rows) if rows else
                     "<p>No rows of this implementation in <code>summary.csv</code>.</p>")
    if data.squad_summary is not None and rows_of(data.squad_summary, impl):
        parts.append(table_html(data.squad_summary, "squad_summary.csv", rows=rows_of(data.squad_summary, impl)))

    parts = page.section("properties", "Conformance")
    any_rows = False
    for name, t in data.conformance:
        rows = rows_of(t, impl)
        if t is None:
            missing(parts, [name], "its verdicts")
        if not rows:
            continue
        any_rows = True
        out = [f"<table><caption><code>{cell(name)}</code></caption><tr><th>op</th><th>property</th><th>verdict</th>"
               "<th>worst</th><th>tolerance</th></tr>"]
        for r in rows:
            v = r["verdict"]
            anchor = f'prop-{r["op"]}-{r["property"]}'
            text = f'<a href="#{cell(anchor)}">{badge(v, v)}</a>' if v in ("fail", "known") else badge(v, v)
            out.append(f"<tr><td>{cell(r['op'])}</td><td>{cell(r['property'])}</td><td>{text}</td>"
                       f"{num_cell(r.get('worst', ''))}<td>{cell(r.get('tolerance', ''))}</td></tr>")
        out.append("</table>")
        parts.append("".join(out))
        for r in rows:
            if r["verdict"] not in ("fail", "known"):
                continue
            anchor = f'prop-{r["op"]}-{r["property"]}'
            what = "fails" if r["verdict"] == "fail" else "fails, as the implementation documents (known)"
            snippet = None if has_repro else c_snippet(impl, r["op"], r["property"], r.get("counterexample", ""), r["_line"])
            parts.append(
                f'<div class="cx cx-{cell(r["verdict"])}" id="{cell(anchor)}"><b>{cell(r["op"])} {what} '
                f'<code>{cell(r["property"])}</code></b>: worst {cell(r.get("worst", ""))}, tolerance '
                f'{cell(r.get("tolerance", ""))} ({cell(name)} line {r["_line"]}).'
                f'<div>Minimal counterexample (q0, q1, t as hexfloats):</div><pre>{cell(r.get("counterexample", ""))}</pre>'
                f'<div>Reproduce:</div><pre>{cell(r.get("reproduce", ""))}</pre>'
                + (f"<details><summary>C snippet calling the routine on this case</summary><pre>{cell(snippet)}</pre>"
                   "</details>" if snippet else "")
                + ('<div>Standalone reproducer in the library\'s language: <a href="#finding">Finding</a>.</div>'
                   if has_repro and r["verdict"] == "fail" else "") + "</div>")
    if not any_rows and all(t is not None for _, t in data.conformance):
        parts.append("<p>No conformance rows of this implementation.</p>")


def card_worst(page, data, impl, origin):
    parts = page.section("worst-cases", "Worst cases")
    if data.worst is None:
        missing(parts, ["worst_cases.csv"], "the worst cases")
        return
    rows = rows_of(data.worst, impl)
    if not rows:
        parts.append("<p>No worst cases of this implementation.</p>")
        return
    first = {}
    for r in rows:
        first.setdefault((r["op"], r["region"]), r)  # the file lists each row's worst first
    cols = [c for c in ("op", "region", "angle_err_rad", "ulp1", "source", "q0_w", "q0_x", "q0_y", "q0_z", "q1_w",
                        "q1_x", "q1_y", "q1_z", "t") if c in data.worst.columns]
    parts.append(table_html(data.worst, "worst_cases.csv: the worst case of each op and region", cols,
                            rows=list(first.values()), verbatim=cols[5:]))
    plugin = " --plugin PATH.so" if origin == "plugin" else ""
    # Shell-quoted (the name is read from a CSV): pasted into a shell, the lines run as shown.
    pattern = "^(impl,|" + "".join("\\" + c if c in ".^$*+?(){}|[]\\" else c for c in impl) + ",)"
    mine = shlex.quote(impl + ".worst.csv")
    parts.append("<p>Replay this implementation's worst cases against a fresh reference:</p><pre>"
                 + cell(f"grep -E {shlex.quote(pattern)} worst_cases.csv > {mine}\nquatcheck replay {mine}{plugin}") + "</pre>")


def card_timing_and_more(page, data, impl):
    parts = page.section("timing", "Timing")
    if data.timing is None:
        missing(parts, ["timing.csv"], "its timing")
    elif rows_of(data.timing, impl):
        parts.append(table_html(data.timing, "timing.csv", rows=rows_of(data.timing, impl)))
    else:
        parts.append("<p>Not timed.</p>")
    extra = [(n, t) for n, t in data.extra if rows_of(t, impl)]
    if extra:
        parts = page.section("more", "Branch map, thresholds and other tables")
        for n, t in extra:
            parts.append(table_html(t, n, rows=rows_of(t, impl)))


def draw_card(impl):
    """Draws cards/IMPL.html into the staging folder; returns (file, [image names])."""
    data = DATA
    page = Page(data.folder, data.staging, prefix=f"card-{card_file(impl)[:-5]}-", root="../")
    info = data.info.get(impl, {})
    head = [f'<p><a href="../report.html">← overview</a></p>',
            f"<p>Group <b>{cell(info.get('group', '?'))}</b>",
            f", library version <b>{cell(info['library_version'])}</b>" if info.get("library_version") else "",
            f", {cell(info['origin'])}" if info.get("origin") else "", "."]
    if impl in data.contracts:
        head.append(f"</p><p>What it is: {cell(data.contracts[impl])} <span class=\"file\">(<code>quatcheck list "
                    "--summary</code> of this checkout)</span>")
    brows = rows_of(data.board, impl)
    if brows:
        head.append(" Leaderboard: " + "; ".join(
            f"{cell(r['op'])} rank {cell(r['rank'])} of {len(data.board.rows)} {badge(board_verdict(r))}" for r in brows))
    head.append("</p>")
    has_repro = card_finding(page, data, impl)
    card_tables(page, data, impl, has_repro)
    card_error_vs_arc(page, data, impl)
    card_ulp1(page, data, impl)
    card_velocity(page, data, impl)
    card_worst(page, data, impl, info.get("origin"))
    card_timing_and_more(page, data, impl)
    file = card_file(impl)
    write_page(page, f"{impl}: library card", "".join(head), os.path.join(data.staging, "cards", file))
    return file, page.images


# ---------------------------------------------------------------------------------------------------
# The data of a report folder


class Data:
    """Every table of the folder (None where absent), and the indices the pages share."""

    def __init__(self, folder, staging):
        self.folder, self.staging = folder, staging
        self.run = None
        run_path = os.path.join(folder, "run.json")
        if os.path.exists(run_path):
            try:
                with open(run_path, encoding="utf-8") as f:
                    self.run = json.load(f)
            except ValueError as e:
                raise ReportError(f"{run_path}:{getattr(e, 'lineno', '?')}: not valid JSON ({e})")
        t = lambda name, cols: read_table(folder, name, cols)  # noqa: E731
        self.summary = t("summary.csv", ["impl", "op", "region", "nonfinite", "max_angle_err_rad"])
        self.curve = t("error_curve.csv", ["impl", "op", "w_lo", "w_hi", "cases", "max_angle_err_rad", "max_ulp1",
                                           "nonfinite", "bins"])
        self.hist = t("ulp1_histogram.csv", ["impl", "op", "ulp1_lo", "ulp1_hi", "cases"])
        self.vel = t("velocity_curve.csv", ["impl", "op", "arc_deg", "t", "timing_err", "speed_rel_err"])
        self.thr = t("threshold.csv", ["precision", "family", "one_minus_tau", "max_angle_err_rad"])
        self.thr_summary = t("threshold_summary.csv", ["precision", "family"])
        self.timing = t("timing.csv", ["impl", "op", "region", "mode", "ns_per_call"])
        self.board = t("leaderboard.csv", ["rank", "impl", "op"])
        self.worst = t("worst_cases.csv", ["impl", "op", "region"])
        self.squad_summary = t("squad_summary.csv", ["impl", "op", "region"])
        self.conformance = [(n, t(n, ["impl", "op", "property", "verdict"]))
                            for n in ("conformance.csv", "squad_conformance.csv")]
        self.findings = read_findings(folder)
        known = {"summary.csv", "error_curve.csv", "ulp1_histogram.csv", "velocity_curve.csv", "threshold.csv",
                 "threshold_summary.csv", "timing.csv", "leaderboard.csv", "worst_cases.csv", "squad_summary.csv",
                 "conformance.csv", "squad_conformance.csv", "squad_worst_cases.csv"}
        # Tables other drivers add (branch maps, frontiers, recipes...): shown on the cards when the schema
        # declares them with an impl column; a table the schema does not know is left alone.
        self.extra = []
        try:
            _, declared = qc_tables.schema(folder)
        except qc_tables.TableError as e:
            raise ReportError(str(e))
        for name in sorted(os.listdir(folder)):
            if name.endswith(".csv") and name not in known and name in declared and any(
                    c.get("name") == "impl" for c in declared[name].get("columns", [])):
                table = t(name, ["impl"])
                if table is not None:
                    self.extra.append((name, table))

        self.info = {}  # impl -> {group, library_version, origin}
        for e in (self.run or {}).get("implementations", []):
            self.info.setdefault(e.get("impl", ""), {}).update(
                {k: e[k] for k in ("group", "library_version", "origin") if e.get(k)})
        for r in (self.board.rows if self.board else []):
            d = self.info.setdefault(r["impl"], {})
            for k in ("group", "library_version"):
                if r.get(k) and k not in d:
                    d[k] = r[k]
        self.contracts = contracts()
        self.impls = set()
        for table in [self.summary, self.board, self.squad_summary] + [c for _, c in self.conformance]:
            for r in (table.rows if table else []):
                self.impls.add(r["impl"])

        self.curves = log_curves(self.curve) if self.curve is not None else {}
        self.vel_by = {}  # (impl, op) -> {(arc_deg, track): [(t, timing_err, speed_rel_err)]}
        if self.vel is not None:
            for r in self.vel.rows:
                key = (number(self.vel, r, "arc_deg"), r.get("track", ""))
                self.vel_by.setdefault((r["impl"], r["op"]), {}).setdefault(key, []).append(
                    (number(self.vel, r, "t"), number(self.vel, r, "timing_err"), number(self.vel, r, "speed_rel_err")))
        self.ulp1_hist, self.hist_source = self.ulp1_histograms()

    def group(self, impl):
        return self.info.get(impl, {}).get("group", "other")

    def best(self, op, prec, exclude):
        """The most accurate other implementation of an op and precision: the leaderboard's first row without
        non-finite outputs, or the smallest worst-region error of summary.csv."""
        if self.board is not None:
            for r in self.board.rows:
                if (r["op"] == op and precision_of(r["impl"]) == prec and r["impl"] != exclude
                        and (r.get("nonfinite") or "0") == "0" and (r.get("status") or "ok") == "ok"):
                    return r["impl"]
        if self.summary is not None:
            worst = {}
            for r in self.summary.rows:
                if r["op"] == op and precision_of(r["impl"]) == prec and r["impl"] != exclude \
                        and not r["impl"].startswith("broken-"):
                    worst[r["impl"]] = max(worst.get(r["impl"], 0.0), number(self.summary, r, "max_angle_err_rad"))
            if worst:
                return min(worst, key=worst.get)
        return None

    def ulp1_histograms(self):
        if self.hist is not None:
            groups = {}
            for r in self.hist.rows:
                d = groups.setdefault((r["op"], precision_of(r["impl"])), {}).setdefault(r["impl"], {})
                key = (number(self.hist, r, "ulp1_lo"), number(self.hist, r, "ulp1_hi"))
                if not math.isfinite(key[0]):
                    continue  # an ulp1 that overflowed (outputs near 1e300) has no place on the log2 axis
                d[key] = d.get(key, 0) + number(self.hist, r, "cases")
            return groups, "every sampled case, all regions together"
        if self.curve is None:
            return None, ""
        # No per-case histogram: count each case at its arc bin's maximum ulp1, an upper bound per case.
        groups = {}
        for r in self.curve.rows:
            if r["bins"] != "log" or number(self.curve, r, "cases") == 0:
                continue
            u = number(self.curve, r, "max_ulp1")
            if not math.isfinite(u):
                continue  # an ulp1 that overflowed (outputs near 1e300) has no place on the log2 axis
            lo = 0.0 if u == 0 else 2.0 ** math.floor(math.log2(u))
            d = groups.setdefault((r["op"], precision_of(r["impl"])), {}).setdefault(r["impl"], {})
            key = (lo, 2 * lo if lo > 0 else 0.0)
            d[key] = d.get(key, 0) + number(self.curve, r, "cases") - number(self.curve, r, "nonfinite")
        return groups, "each case counted at its arc bin's maximum ulp1, an upper bound"


def contracts():
    """{impl: one-line contract} of the built-in implementations, from `quatcheck list --summary` of this
    checkout (the tables do not carry it); {} when no binary answers. Plugins are not listed."""
    for binary in qc_tables._quatchecks()[:1]:
        try:
            out = subprocess.run([binary, "list", "--summary"], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return {}
        if out.returncode != 0:
            return {}
        lines, found = out.stdout.splitlines(), {}
        for k, line in enumerate(lines):
            if line and not line.startswith(" ") and k + 1 < len(lines) and lines[k + 1].startswith("    "):
                found[line.split()[0]] = lines[k + 1].strip()
        return found
    return {}


DATA = None  # the Data of the report being drawn; card workers inherit it by fork


# ---------------------------------------------------------------------------------------------------
# The pages

STYLE = """
body{font-family:sans-serif;max-width:1400px;margin:1em auto;padding:0 1em;color:#222}
h2{border-bottom:1px solid #ccc;margin-top:2em}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:90%;color:#333;max-width:1000px}.file{color:#888;font-family:monospace;font-size:85%}
table{border-collapse:collapse;font-size:80%;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px}
th{background:#f3f3f3}caption{text-align:left;font-weight:bold;padding:4px 0}td.n{text-align:right}
.missing{background:#fff6d5;border-left:4px solid #e0b000;padding:4px 8px}.bad{color:#b00000;font-weight:bold}
pre{background:#f6f6f6;padding:4px;white-space:pre-wrap;word-break:break-all}
.cx{margin:1em 0;padding:4px 8px;border-left:4px solid #b00000}.cx.cx-known{border-left-color:#ef6c00}
nav a{margin-right:1em}#qc-load-status{font-size:80%;color:#888}
.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:85%;color:#fff;white-space:nowrap}
.v-pass{background:#2e7d32}.v-fail{background:#c62828}.v-known{background:#ef6c00}.v-not-run,.v-skip{background:#777}
.v-crashed{background:#4a148c}.v-nonfinite{background:#000}
td.m{text-align:center;color:#fff}td.m a{color:#fff;text-decoration:none;display:block}
#lb-table th{cursor:pointer;user-select:none}#lb-table th[aria-sort=ascending]::after{content:" ▲"}
#lb-table th[aria-sort=descending]::after{content:" ▼"}#lb-table .conf{font-size:80%;color:#555;min-width:16em}td.n{white-space:nowrap}
#lb-table.hide-regions .region,#lb-table.hide-regions td[data-region]{display:none}
#lb-controls label{margin-right:1em}#lb-count{color:#555}tr[hidden]{display:none}
"""

# Inline, no network: records whether every image decoded and how long the page took to load, for readers
# and for the headless-browser test.
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
  s.setAttribute('data-load-ms', String(Math.round(performance.now())));
  s.textContent = imgs.length + ' images, ' + broken + ' broken';
});
"""

# The leaderboard's sorting and filtering: plain JavaScript over the rendered rows (the table reads without
# it). The state is also read from and written to the address, e.g. report.html#sort=ns_per_call_throughput:asc
# &op=slerp&verdict=fail, so a view can be shared and the render test can check the sorted DOM.
TABLE_SCRIPT = """
(function () {
  function init() {
    var t = document.getElementById('lb-table');
    if (!t) return;
    var body = t.tBodies[0], heads = t.tHead.rows[0].cells, rows = [].slice.call(body.rows);
    var state = {sort: '', dir: 'asc', f: {}, find: ''};
    var selects = document.querySelectorAll('#lb-controls select[data-filter]');
    var find = document.getElementById('lb-find'), regions = document.getElementById('lb-regions');
    function column(key) {
      for (var i = 0; i < heads.length; i++) if (heads[i].getAttribute('data-key') === key) return i;
      return -1;
    }
    function value(row, i, type) {
      var v = row.cells[i].getAttribute('data-v');
      if (v === null) v = row.cells[i].textContent;
      if (type !== 'num') return v.toLowerCase();
      var x = parseFloat(v);
      return v === '' || isNaN(x) ? null : x;
    }
    function apply() {
      var i = column(state.sort);
      for (var k = 0; k < heads.length; k++) heads[k].removeAttribute('aria-sort');
      if (i >= 0) {
        var type = heads[i].getAttribute('data-type'), s = state.dir === 'desc' ? -1 : 1;
        rows.forEach(function (r, n) { r.qcOrder = n; });
        rows.sort(function (a, b) {
          var x = value(a, i, type), y = value(b, i, type);
          if (x === null || y === null) return x === y ? a.qcOrder - b.qcOrder : (x === null ? 1 : -1);
          return x < y ? -s : x > y ? s : a.qcOrder - b.qcOrder;
        });
        rows.forEach(function (r) { body.appendChild(r); });
        heads[i].setAttribute('aria-sort', state.dir === 'desc' ? 'descending' : 'ascending');
      }
      var shown = 0;
      rows.forEach(function (r) {
        var ok = true;
        for (var key in state.f) if (state.f[key] && r.getAttribute('data-' + key) !== state.f[key]) ok = false;
        if (state.find && r.getAttribute('data-impl').toLowerCase().indexOf(state.find.toLowerCase()) < 0) ok = false;
        r.hidden = !ok;
        if (ok) shown++;
      });
      t.setAttribute('data-sort-key', state.sort);
      t.setAttribute('data-sort-dir', state.dir);
      t.setAttribute('data-visible', String(shown));
      document.getElementById('lb-count').textContent = shown + ' of ' + rows.length + ' rows';
      var q = [];
      if (state.sort) q.push('sort=' + state.sort + ':' + state.dir);
      for (var key2 in state.f) if (state.f[key2]) q.push(key2 + '=' + encodeURIComponent(state.f[key2]));
      if (state.find) q.push('find=' + encodeURIComponent(state.find));
      if (regions.checked) q.push('regions=1');
      try { history.replaceState(null, '', q.length ? '#' + q.join('&') : location.pathname); } catch (e) {}
    }
    function fromAddress() {
      var h = location.hash.slice(1);
      if (h.indexOf('=') < 0) return;
      h.split('&').forEach(function (part) {
        // A malformed escape (#find=%) is taken as typed: decodeURIComponent would throw and stop the script.
        var kv = part.split('='), key = kv[0], v = kv[1] || '';
        try { v = decodeURIComponent(v); } catch (e) {}
        if (key === 'sort') { var sd = v.split(':'); state.sort = sd[0]; state.dir = sd[1] === 'desc' ? 'desc' : 'asc'; }
        else if (key === 'find') state.find = v;
        else if (key === 'regions') regions.checked = v === '1';
        else state.f[key] = v;
      });
    }
    fromAddress();
    [].forEach.call(selects, function (sel) {
      var key = sel.getAttribute('data-filter');
      if (state.f[key]) sel.value = state.f[key];
      sel.addEventListener('change', function () { state.f[key] = sel.value; apply(); });
    });
    find.value = state.find;
    find.addEventListener('input', function () { state.find = find.value; apply(); });
    function showRegions() { t.classList.toggle('hide-regions', !regions.checked); }
    regions.addEventListener('change', function () { showRegions(); apply(); });
    showRegions();
    [].forEach.call(heads, function (th) {
      th.addEventListener('click', function () {
        var key = th.getAttribute('data-key');
        state.dir = state.sort === key && state.dir === 'asc' ? 'desc' : 'asc';
        state.sort = key;
        apply();
      });
    });
    apply();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init); else init();
})();
"""


def write_page(page, title, head, path, script=""):
    nav = " ".join(f'<a href="#{a}">{html.escape(t)}</a>' for a, t, _ in page.sections)
    body = []
    for anchor, sec_title, parts in page.sections:
        body.append(f'<h2 id="{anchor}">{html.escape(sec_title)}</h2>')
        body += parts
    doc = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           f"<title>{html.escape(title)}</title><style>{STYLE}</style>"
           f"<script>{CHECK_SCRIPT}</script></head><body>"
           f"<h1>{html.escape(title)}</h1>{head}"
           f"<p>Drawn by <code>scripts/plot_report.py</code> from the CSVs of <code>{html.escape(page.folder)}</code>; "
           f"the images are also in <code>{page.root}plots/</code>. <span id=\"qc-load-status\"></span></p>"
           f"<nav>{nav}</nav>" + "\n".join(body) + (f"<script>{script}</script>" if script else "") +
           "</body></html>\n")
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(doc)
    except OSError as e:
        raise write_failed(e, path) from None


def overview(data):
    page = Page(data.folder, data.staging)
    leaderboard_section(page, data)
    conformance_matrix(page, data)
    error_vs_arc_overview(page, data)
    velocity_overview(page, data)
    threshold_study(page, data.thr, data.thr_summary)
    for name in ("sweep", "sweep-t"):
        sweep_section(page, data.folder, name)
    timing_plots(page, data.timing, data.summary)
    frontier_plot(page, data.folder)
    parts = page.section("cards", "Library cards")
    if data.impls:
        parts.append("<p>One page per implementation: its figures per region, failed properties with their "
                     "counterexamples, and its own curves. " + " ".join(
                         f'<a href="cards/{card_file(i)}"><code>{cell(i)}</code></a>' for i in sorted(data.impls))
                     + "</p>")
    else:
        parts.append("<p>No implementation in this folder's tables.</p>")
    other_tables(page, [("squad_summary.csv", data.squad_summary)] + data.extra)
    seed = f" (seed {data.run.get('seed')})" if data.run else ""
    write_page(page, f"quatcheck report{seed}", summary_line(data.run), os.path.join(data.staging, "report.html"),
               TABLE_SCRIPT)
    return page.images


def main(argv):
    global DATA
    if len(argv) not in (2, 3):
        raise ReportError("usage: plot_report.py REPORT_DIR [OUT_DIR]")
    folder = argv[1]
    if not os.path.isdir(folder):
        raise ReportError(f"{folder}: not a folder")
    # OUT_DIR (quatcheck report passes its locked staging folder, swapped in for REPORT_DIR as a whole once
    # this script succeeds): report.html, plots/ and cards/ are written there and nothing is moved.
    # Without it (the script run by hand) they are staged inside REPORT_DIR and moved into place at the end.
    out_dir = argv[2] if len(argv) == 3 else None
    if out_dir is not None and not os.path.isdir(out_dir):
        raise ReportError(f"{out_dir}: not a folder")
    staging = out_dir if out_dir is not None else os.path.join(folder, f".report-staging-{os.getpid()}")
    if out_dir is None:
        shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(os.path.join(staging, "plots"))
    os.makedirs(os.path.join(staging, "cards"))
    try:
        DATA = Data(folder, staging)
        images = overview(DATA)
        impls = sorted(DATA.impls)
        jobs = max(1, min(int(os.environ.get("QC_REPORT_JOBS", "2")), os.cpu_count() or 1, len(impls) or 1))
        if jobs > 1:
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                cards = pool.map(draw_card, impls, chunksize=1)
        else:
            cards = [draw_card(i) for i in impls]
        for _, imgs in cards:
            images += imgs

        if out_dir is not None:
            return len(images), len(cards)
        # Move into place: the plots first, the cards folder in one step, report.html last; stale plots go.
        plots = os.path.join(folder, "plots")
        os.makedirs(plots, exist_ok=True)
        for name in images:
            os.replace(os.path.join(staging, "plots", name), os.path.join(plots, name))
        for name in os.listdir(plots):
            if name.endswith(".png") and name not in images:
                os.remove(os.path.join(plots, name))
        cards_dir, old = os.path.join(folder, "cards"), os.path.join(staging, "cards.old")
        if os.path.isdir(cards_dir):
            os.replace(cards_dir, old)
        os.replace(os.path.join(staging, "cards"), cards_dir)
        os.replace(os.path.join(staging, "report.html"), os.path.join(folder, "report.html"))
        return len(images), len(cards)
    finally:
        if out_dir is None:
            shutil.rmtree(staging, ignore_errors=True)


if __name__ == "__main__":
    try:
        n, c = main(sys.argv)
        print(f"quatcheck report: {n} plots, {c} cards, {os.path.join(sys.argv[1], 'report.html')}", file=sys.stderr)
    except (ReportError, qc_tables.TableError) as e:  # TableError: a row asked for an undeclared column
        print(f"quatcheck: report: {e}", file=sys.stderr)
        sys.exit(2)
    except OSError as e:
        where = re.sub(r"/\.report-staging-\d+/", "/", e.filename) if e.filename else "a file of the report"
        print(f"quatcheck: report: cannot write {where}: {e.strerror or e}; report.html left as it was", file=sys.stderr)
        sys.exit(2)
