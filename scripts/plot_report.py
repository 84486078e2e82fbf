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

Each section uses the CSVs it needs when they exist and is left out when they do not: a study that was not run
is no error, and one grey line per page lists the studies the folder does not have with the command that adds
each (qc_report/commands.py; every command printed runs as printed, its plugins named);
tables this script does not know (declared in schema.json, with an `impl` column) are shown on the cards.
`quatcheck report DIR` calls this script; run it yourself to redraw or restyle the plots. This file reads the
folder (Data) and writes the pages; the pages themselves are in qc_report/: overview.py (report.html),
cards.py (cards/IMPL.html), plots.py (the figures), base.py (tables, formatting, the page shell) and static/
(the style sheet and scripts every page carries inline).

Needs Debian's python3-matplotlib (run with /usr/bin/python3). Errors are one line on stderr,
"quatcheck: report: FILE:LINE: reason", with exit status 2; files are moved into place only when every
page is drawn.
"""
import json
import math
import multiprocessing
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qc_tables  # noqa: E402
import qc_report.cards  # noqa: E402
from qc_report.base import ReportError, number, precision_of, read_table  # noqa: E402
from qc_report.cards import draw_card, findings_factor, read_findings  # noqa: E402
from qc_report.commands import Commands, absent_studies  # noqa: E402
from qc_report.overview import overview  # noqa: E402
from qc_report.plots import log_curves  # noqa: E402


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
        self.findings_factor = findings_factor(folder)
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

        # The commands the pages print (run as printed: absolute folder, the plugins each needs), and the
        # studies this folder does not have, each with the command that adds it (one grey line per page).
        self.commands = Commands(folder, {i: d.get("origin", "") for i, d in self.info.items()})
        two_key = set()
        for table in [self.summary, self.board, self.conformance[0][1]]:
            for r in (table.rows if table else []):
                two_key.add(r["impl"])
        self.absent = absent_studies(folder, self.commands, two_key)

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


def main(argv):
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
        qc_report.cards.DATA = Data(folder, staging)  # card workers inherit it by fork
        impls = sorted(qc_report.cards.DATA.impls)
        jobs = max(1, min(int(os.environ.get("QC_REPORT_JOBS", "2")), os.cpu_count() or 1, len(impls) or 1))
        if jobs > 1:
            # The workers draw the cards while this process draws the overview (neither reads what the other
            # writes): the overview alone left a core idle.
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                pending = pool.map_async(draw_card, impls, chunksize=1)
                images = overview(qc_report.cards.DATA)
                cards = pending.get()
        else:
            images = overview(qc_report.cards.DATA)
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
