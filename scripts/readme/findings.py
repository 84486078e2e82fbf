#!/usr/bin/env python3
"""docs block (docs/findings.md): one row per library of REPORT_DIR/findings/index.json (written by `quatcheck
findings`): its causes, whether each cause's fix was verified, the reproducer's language; then the published figures the report contradicts (scripts/readme/published.py),
each with the quatcheck command that reproduces the measurement.

Every number comes from the report folder: the causes, their findings and fix results from index.json, the
published comparison from summary.csv, the seed and cases of the reproduction command from run.json.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import published  # noqa: E402
import qc_tables  # noqa: E402

MAX_BYTES = 4 << 20
LANGUAGES = {"cpp": "C++", "js": "JavaScript", "python": "Python", "": "none"}


def fail(why):
    sys.stderr.write(f"findings.py: {why}\n")
    sys.exit(2)


def load_json(path):
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if len(raw) > MAX_BYTES:
        fail(f"{path}: larger than {MAX_BYTES} bytes")
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        fail(f"{path}: not valid JSON ({e})")


def text(x):
    """A table cell of untrusted text: pipes escaped, no backticks, backslashes or newlines."""
    return re.sub(r"[`\\\r\n]", " ", str(x)).replace("|", "\\|")


def quote(word):
    """POSIX single quotes around every word."""
    return "'" + word.replace("'", "'\\''") + "'"


def figure(x):
    return f"{x:.3g}" if isinstance(x, (int, float)) else "?"


def main(report):
    index = load_json(os.path.join(report, "findings", "index.json"))
    libraries = index.get("libraries") if isinstance(index, dict) else None
    if not isinstance(libraries, list):
        fail("findings/index.json has no 'libraries' list")
    factor = index.get("factor")
    ncauses = nfindings = 0
    rows = []
    for lib in libraries:
        if not isinstance(lib, dict) or not isinstance(lib.get("causes"), list):
            fail("findings/index.json: a library without a 'causes' list")
        folder = str(lib.get("folder", ""))
        if not re.fullmatch(r"[A-Za-z0-9_+-][A-Za-z0-9._+-]*", folder):
            fail(f"findings/index.json: bad folder name {folder!r}")
        for c in lib["causes"]:
            if not isinstance(c, dict) or not isinstance(c.get("fix"), dict):
                fail("findings/index.json: a cause is not an object with a 'fix'")
            ncauses += 1
            nfindings += int(c.get("findings", 0))
        rows.append((lib, folder))
    run = load_json(os.path.join(report, "run.json")) if os.path.exists(os.path.join(report, "run.json")) else {}
    print(f"{len(rows)} libraries, {ncauses} causes, {nfindings} findings, from `quatcheck findings` on a run of "
          f"{run.get('cases_per_region', '?')} cases per region with conform and the dot sweep "
          f"(region findings: above {figure(factor)} x the rounding floor 8 eps). One row per library: its causes "
          "(findings one defect explains, docs/findings.md), whether the suggested fix keeps every promise on the "
          "cause's cases (run inside quatcheck; `QC_REPRO_APPLY_FIX=1 ./repro.sh` runs the port), and the "
          "reproducer's language (*API*: in the library's own API; *adapter*: through the file quatcheck compiles).\n")
    print("| library | version | causes | fix verified | reproducer | folder |")
    print("|---|---|---|---|---|---|")
    for lib, folder in rows:
        causes = "<br>".join(f"{k}. {text(c.get('title', ''))} ({text(c.get('severity', ''))}, "
                             f"{int(c.get('findings', 0))} finding{'s' if int(c.get('findings', 0)) != 1 else ''})"
                             for k, c in enumerate(lib["causes"], 1))
        fixes = "<br>".join(f"{k}. " + ("yes" if c["fix"].get("offered") and c["fix"].get("failed") == 0
                                        else "no" if c["fix"].get("offered") else "not offered")
                            for k, c in enumerate(lib["causes"], 1))
        lang = text(lib.get("language", "")) or "none"
        how = "API" if lib.get("api") else "adapter"
        print(f"| `{text(lib.get('library', ''))}` | {text(lib.get('version', '')) or '-'} | {causes} | {fixes} | "
              f"{lang} ({how}) | `findings/{folder}/` |")
    print()

    run = load_json(os.path.join(report, "run.json")) if os.path.exists(os.path.join(report, "run.json")) else {}
    seed, cases = run.get("seed"), run.get("cases_per_region")
    worst_rows = qc_tables.rows(report, "worst_cases.csv", ["impl", "op", "region", "angle_err_rad"] +
                                [f"q{k}_{c}" for k in (0, 1) for c in "wxyz"] + ["t"])
    summary_rows = qc_tables.rows(report, "summary.csv", ["impl", "op", "region", "max_ulp1", "max_angle_err_rad"])
    contradicted = published.contradicted(report)
    print(f"### Published figures this run contradicts\n")
    if not contradicted:
        print("None in this report.")
        return
    print("A sampled maximum is a lower bound on the true one: a measurement above what a correct published "
          "figure allows refutes it (scripts/readme/published.py explains each allowance). The command re-runs "
          "the sampling of the region that measured it (the same seed and cases, so the same figure); the worst "
          "case is the region's worst input the run kept.\n")
    for impl, op, what, value, measured, ratio, allowance, source, quantity in contradicted:
        # The worst case of the measured quantity: the angle, or for a component figure (Eberly) the ulp1.
        col = "ulp1" if quantity == published.COMPONENT else "angle_err_rad"
        # The region whose summary.csv row holds the measured maximum, and that region's worst case.
        scol = "max_ulp1" if quantity == published.COMPONENT else "max_angle_err_rad"
        region, top = None, None
        for r in summary_rows:
            if r["impl"] == impl and r["op"] == op and r[scol] != "" and (top is None or float(r[scol]) > top):
                region, top = r["region"], float(r[scol])
        best = None
        for r in worst_rows:
            if r["impl"] == impl and r["op"] == op and r["region"] == region and r[col] not in ("", "nan"):
                if best is None or float(r[col]) > float(best[col]):
                    best = r
        print(f"- **{text(impl)} {text(op)}**, {text(what)}: published {value:.6g}, measured {measured:.4g} "
              f"({ratio:.3g} x, a correct figure allows {allowance:g} x). Source: {text(source)}.")
        cmd = ["quatcheck", "run", "--impl", impl, "--op", op]
        if region is not None:
            cmd += ["--region", region]
        if seed is not None:
            cmd += ["--seed", str(seed)]
        if cases is not None:
            cmd += ["--cases", str(cases)]
        print(f"  Reproduce: `{' '.join(quote(w) for w in cmd + ['--out', 'reports/published'])}`")
        if best is not None:
            q0 = ", ".join(best[f"q0_{c}"] for c in "wxyz")
            q1 = ", ".join(best[f"q1_{c}"] for c in "wxyz")
            print(f"  Worst case ({text(best['region'])}, angle error {float(best['angle_err_rad']):.4g} rad, "
                  f"{float(best['ulp1']):.4g} ulp1): "
                  f"q0 = ({text(q0)}), q1 = ({text(q1)}), t = {text(best['t'])}.")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: findings.py REPORT_DIR\n")
        sys.exit(2)
    main(sys.argv[1])
