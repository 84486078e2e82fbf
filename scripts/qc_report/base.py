"""What every page of the report shares: reading the tables, number formatting, the Page being drawn and
its HTML shell with the static style and load check (static/)."""
import base64
import html
import math
import os
import re
import qc_tables

import matplotlib.pyplot as plt


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


def static(name):
    """The text of static/NAME (the pages carry it inline, after a line break: each page is one file)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "static", name), encoding="utf-8") as f:
        return "\n" + f.read()


# The pages' style, and the inline check that records whether every image decoded and how long the page took
# to load, for readers and for the headless-browser test (no network).
STYLE = static("report.css")
CHECK_SCRIPT = static("check.js")


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
