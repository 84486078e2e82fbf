"""cards/IMPL.html, one library card per implementation: its tables, findings with reproducers, failed
properties with a C snippet, and plots that show only this implementation."""
import json
import math
import os
import re

import qc_tables

import matplotlib.pyplot as plt
from matplotlib.ticker import LogLocator, NullLocator

from qc_report.base import (FLOOR_ULP1, Page, ReportError, angle_floor, badge, board_verdict, card_file, cell,
    num_cell, precision_of, table_html, write_page)
from qc_report.commands import absent_line
from qc_report.plots import arc_axes, curve_points, positive, styles
from qc_report.words import says_html


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


# `quatcheck findings` (docs/findings.md): findings/index.json lists each library's folder, families, causes and
# reproducer.
FINDINGS_MAX_BYTES = 4 << 20
REPRO_MAX_BYTES = 256 << 10
REPRO_FILES = ("", "repro.cpp", "repro.mjs", "repro.py", "rust/src/main.rs", "Repro.java")


def read_findings(folder):
    """family -> its library's entry of findings/index.json ({} when the folder has no findings/). The file is
    untrusted: bounded, and every field used is checked (a folder name is one path component)."""
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
    for e in (j.get("libraries") if isinstance(j, dict) else None) or []:
        ok = isinstance(e, dict) and all(isinstance(e.get(k), str) for k in ("library", "folder", "language", "reproducer"))
        ok = ok and isinstance(e.get("families"), list) and isinstance(e.get("causes"), list)
        if not ok or not re.fullmatch(r"[A-Za-z0-9_+-][A-Za-z0-9._+-]*", e["folder"]) or \
                e["reproducer"] not in REPRO_FILES or \
                not all(isinstance(c, dict) and isinstance(c.get("impls"), list) for c in e["causes"]):
            raise ReportError(f"{path}:1: a 'libraries' entry lacks a valid library, folder, language, reproducer, "
                              "families or causes")
        for fam in e["families"]:
            if isinstance(fam, str):
                out[fam] = e
    return out


def findings_factor(folder):
    """The --factor of `quatcheck findings` (findings/index.json), None without findings or a usable factor: the
    card's plain sentences call a region failed at the same multiple of the rounding floor."""
    path = os.path.join(folder, "findings", "index.json")
    try:
        with open(path, "rb") as f:
            j = json.loads(f.read(FINDINGS_MAX_BYTES).decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    v = j.get("factor") if isinstance(j, dict) else None
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < 1e300 else None


def card_finding(page, data, impl):
    """The card's link to the library's findings (findings/LIBRARY/README.md), the causes this implementation
    shows, and the standalone reproducer. Returns True when the library has a reproducer (the C snippet is then
    left out)."""
    e = data.findings.get(impl.rsplit(".", 1)[0])
    if not e:
        return False
    parts = page.section("finding", "Finding for the library's maintainers")
    mine = [c for c in e["causes"] if impl in c["impls"]]
    readme = f"../findings/{e['folder']}/README.md"
    parts.append(f'<p><a href="{cell(readme)}">findings/{cell(e["folder"])}/README.md</a>: '
                 f"{len(e['causes'])} cause(s) in the library <code>{cell(e['library'])}</code>, "
                 f"{len(mine)} of them seen in {cell(impl)}, written by <code>quatcheck findings</code> for the "
                 "library's maintainers: the evidence, where the cause lies in the library's source, a fix shown to "
                 "work, and a test to paste.</p>")
    if mine:
        parts.append("<ul>" + "".join(f"<li>{cell(str(c.get('title', '')))}</li>" for c in mine) + "</ul>")
    if not e["reproducer"]:
        parts.append("<p>No standalone reproducer for this library (a plugin, or no template): use the quatcheck "
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
    how = ("calls the library in its own API, as its users do" if e.get("api") is True
           else "calls the library through the file quatcheck compiles")
    link = f"../findings/{e['folder']}/{e['reproducer']}"
    parts.append(f'<p>Standalone reproducer in {cell(e["language"])}, <a href="{cell(link)}">{cell(e["reproducer"])}</a>: '
                 f"it needs no part of quatcheck, {how}, and exits 1 when the library breaks its promise. Run it "
                 f"with <code>findings/{cell(e['folder'])}/repro.sh</code>.</p>"
                 f"<details><summary>{cell(e['reproducer'])}</summary><pre>{cell(text)}</pre></details>")
    return True


def card_error_vs_arc(page, data, impl):
    """One implementation, its closest competitor of the same op and precision, and the rounding floor:
    three series, so the card answers "how far from the best, and from rounding" without the crowd."""
    if data.curve is None:
        return  # not sampled: the page's grey line says which command adds it
    parts = page.section("error-vs-arc", "Error versus arc angle")
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
    groups = data.ulp1_hist
    if groups is None:
        return  # neither table: nothing sampled
    parts = page.section("ulp1", "ulp1 distribution")
    ops = sorted(op for (op, _), d in groups.items() if impl in d)
    if not ops:
        parts.append("<p>No ulp1 figures of this implementation.</p>")
        return
    if data.hist is None:  # no command writes a per-case histogram today: said as a fact, not as an alarm
        parts.append("<p>Drawn from <code>error_curve.csv</code>, counting every case at its arc bin's largest "
                     "ulp1 (an upper bound for each case).</p>")
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
    if data.vel is None:
        return  # quatcheck curves not run: the grey line says so
    parts = page.section("velocity", "Angular velocity")
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
    if data.summary is not None or data.squad_summary is not None:
        parts = page.section("regions", "Figures per region")
    if data.summary is not None:
        rows = rows_of(data.summary, impl)
        cols = [c for c in ("op", "region", "cases", "nonfinite", "max_angle_err_rad", "p99_angle_err_rad",
                            "max_ulp1", "max_norm_err_ulp1", "branch_disagree", "max_angle_err_search_rad", "status",
                            "status_detail") if c in data.summary.columns]
        parts.append(table_html(data.summary, "summary.csv", cols, rows=rows) if rows else
                     "<p>No rows of this implementation in <code>summary.csv</code>.</p>")
    if data.squad_summary is not None and rows_of(data.squad_summary, impl):
        parts.append(table_html(data.squad_summary, "squad_summary.csv", rows=rows_of(data.squad_summary, impl)))

    if all(t is None for _, t in data.conformance):
        return  # quatcheck conform not run: the grey line says so
    parts = page.section("properties", "Conformance")
    any_rows = False
    for name, t in data.conformance:
        rows = rows_of(t, impl)
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
        informative = qc_tables.informative_properties(data.folder)  # measured, not promised (correctly-rounded)
        for r in rows:
            if r["verdict"] not in ("fail", "known"):
                continue
            anchor = f'prop-{r["op"]}-{r["property"]}'
            what = "fails" if r["verdict"] == "fail" else "fails, as the implementation documents (known)"
            if r["property"] in informative:
                what = "fails the informative property (a measurement: no routine is asked to pass it)"
            snippet = None if has_repro else c_snippet(impl, r["op"], r["property"], r.get("counterexample", ""), r["_line"])
            parts.append(
                f'<div class="cx cx-{cell(r["verdict"])}" id="{cell(anchor)}"><b>{cell(r["op"])} {what} '
                f'<code>{cell(r["property"])}</code></b>: worst {cell(r.get("worst", ""))}, tolerance '
                f'{cell(r.get("tolerance", ""))} ({cell(name)} line {r["_line"]}).'
                f'<div>Minimal counterexample (q0, q1, t as hexfloats):</div><pre>{cell(r.get("counterexample", ""))}</pre>'
                f'<div>Reproduce:</div><pre>{cell(data.commands.complete(r.get("reproduce", ""), impl))}</pre>'
                + (f"<details><summary>C snippet calling the routine on this case</summary><pre>{cell(snippet)}</pre>"
                   "</details>" if snippet else "")
                + ('<div>Standalone reproducer in the library\'s language: <a href="#finding">Finding</a>.</div>'
                   if has_repro and r["verdict"] == "fail" and r["property"] not in informative else "") + "</div>")
    if not any_rows:
        parts.append("<p>No conformance rows of this implementation.</p>")


def card_worst(page, data, impl):
    if data.worst is None:
        return
    parts = page.section("worst-cases", "Worst cases")
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
    # Shell-quoted (the name is read from a CSV), the folder by its absolute path and the plugin that provides
    # the implementation named (commands.py): pasted into a shell anywhere, the lines run as shown.
    parts.append("<p>Replay this implementation's worst cases against a fresh reference:</p><pre class=\"cmd\">"
                 + cell(data.commands.replay_worst(impl)) + "</pre>")


def card_timing_and_more(page, data, impl):
    if data.timing is not None:  # absent: quatcheck bench not run, the grey line says so
        parts = page.section("timing", "Timing")
        if rows_of(data.timing, impl):
            parts.append(table_html(data.timing, "timing.csv", rows=rows_of(data.timing, impl)))
        else:
            parts.append("<p>Not timed.</p>")
    extra = [(n, t) for n, t in data.extra if rows_of(t, impl)]
    if extra:
        parts = page.section("more", "Branch map, thresholds and other tables")
        for n, t in extra:
            parts.append(table_html(t, n, rows=rows_of(t, impl)))


DATA = None  # the Data of the report being drawn; card workers inherit it by fork


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
    # The card opens with what goes wrong in plain words (words.py), then the one grey line of the studies
    # this folder does not have.
    head.append(says_html(data, impl))
    head.append(absent_line(data.absent))
    has_repro = card_finding(page, data, impl)
    card_tables(page, data, impl, has_repro)
    card_error_vs_arc(page, data, impl)
    card_ulp1(page, data, impl)
    card_velocity(page, data, impl)
    card_worst(page, data, impl)
    card_timing_and_more(page, data, impl)
    file = card_file(impl)
    write_page(page, f"{impl}: library card", "".join(head), os.path.join(data.staging, "cards", file))
    return file, page.images

