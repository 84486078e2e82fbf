"""report.html, the overview: the leaderboard (sorted and filtered by static/table.js), the conformance
matrix, the comparison figures and the list of library cards."""
import html
import os

from qc_report.base import (Page, VERDICT_TEXT, badge, board_verdict, card_file, cell, num_cell,
    precision_of, static, table_html, write_page)
from qc_report.commands import absent_line
from qc_report.plots import (error_vs_arc_overview, frontier_plot, sweep_section, threshold_study, timing_plots,
    velocity_overview)


# The leaderboard's sorting and filtering: plain JavaScript over the rendered rows (the table reads without
# it). The state is also read from and written to the address, e.g. report.html#sort=ns_per_call_throughput:asc
# &op=slerp&verdict=fail, so a view can be shared and the render test can check the sorted DOM.
TABLE_SCRIPT = static("table.js")


def leaderboard_section(page, data):
    board = data.board
    if board is None:
        return  # the grey line gives the command; the cards are listed at the end of the page
    parts = page.section("leaderboard", "Leaderboard")
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
    if all(t is None for _, t in data.conformance):
        return  # neither conform nor squad run: the grey line says so
    parts = page.section("conformance", "Conformance")
    rows = [(n, r) for n, t in data.conformance if t is not None for r in t.rows]
    if not rows:
        parts.append("<p>No conformance rows.</p>")
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
        return ""  # no quatcheck run in this folder: the grey line says so
    b = run.get("build", {})
    partial = ' <span class="bad">(partial run)</span>' if run.get("partial") else ""
    caps = run.get("cases_for") or []  # quatcheck run --cases-for: fewer cases for these implementations
    capped = "".join(f", {c.get('cases')} for {c.get('filter')}" for c in caps if isinstance(c, dict))
    return (f"<p>Seed {run.get('seed')}, {run.get('cases_per_region')} cases per region and precision"
            f"{html.escape(capped)}, "
            f"{len(run.get('implementations', []))} implementation × op pairs, wall time "
            f"{run.get('wall_time_s', 0):.1f} s, finished {html.escape(str(run.get('finished_at', '?')))}; "
            f"{html.escape(str(b.get('compiler', '?')))}, MPFR {html.escape(str(b.get('mpfr_version', '?')))}"
            f"{partial}.</p>")


def other_tables(page, tables):
    tables = [(name, t) for name, t in tables if t is not None]
    if not tables:
        return
    parts = page.section("tables", "Other tables")
    for name, t in tables:
        parts.append(f"<details><summary><code>{cell(name)}</code></summary>{table_html(t, name)}</details>")


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
    write_page(page, f"quatcheck report{seed}", summary_line(data.run) + absent_line(data.absent),
               os.path.join(data.staging, "report.html"),
               TABLE_SCRIPT)
    return page.images
