"""The card's opening: one plain sentence per failed property or region, generated from the tables' numbers
(issue 38 item 6), in words a reader who does not know what ulp1 means can follow.

A property failed: a row of conformance.csv or squad_conformance.csv with the verdict fail or known (known:
the implementation documents it). Its measured value (`worst`) is turned into what it means: a norm error in
ulp1 becomes how far |r| is from 1, a rotation angle stays an angle in radians. The counterexample's keys
say where it happens (equal, nearly equal, a quarter turn apart, near the fallback threshold, opposite).

A region failed: a row of summary.csv or squad_summary.csv whose implementation crashed or timed out, that
returned NaN or infinity, or whose largest angle error or norm error is more than FACTOR times the rounding
floor (the factor of `quatcheck findings`, 100 unless findings/index.json says otherwise). The worst case of
worst_cases.csv says what the routine returned there: the first key, the second key or the midpoint whatever
t was ("ignores t"), or simply an output off the ideal curve."""
import html
import math

import qc_tables

from qc_report.base import EPS, FLOOR_ULP1, angle_floor, number, optional_number, precision_of, sig3, threshold_dot

FACTOR = 100.0

REGION_WORDS = {
    "uniform": "random keys",
    "near-0": "nearly equal keys",
    "near-half-pi": "keys a quarter turn apart (a·b near 0)",
    "near-pi": "nearly opposite keys (q1 near −q0)",
    "threshold": "keys near the {thr:g} fallback threshold",
    # squad's key tracks (harness/squad/tracks.cpp)
    "random": "random key tracks",
    "near-equal": "key tracks with nearly equal neighbours",
    "quarter-turn": "key tracks whose neighbours are a quarter turn apart",
    "sign-flip": "key tracks whose keys change sign",
}


def region_words(region):
    w = REGION_WORDS.get(region)
    if w is None:
        return f"the {region} cases"
    return w.format(thr=threshold_dot()) if "{thr" in w else w


def hexes(text, n):
    """The first n numbers of a counterexample (hexfloats or decimals), or None."""
    xs = (text or "").split()
    if len(xs) < n:
        return None
    try:
        return [float.fromhex(x) if "x" in x.lower() else float(x) for x in xs[:n]]
    except ValueError:
        return None


def keys_words(q0, q1):
    """Where two keys lie, in words, from their dot product."""
    if q0 == q1:
        return "equal keys"
    if q0 == [-x for x in q1]:
        return "opposite keys (q1 = −q0, the same rotation)"
    d = sum(a * b for a, b in zip(q0, q1))
    ad = abs(d)
    thr = threshold_dot()
    near = "nearly equal keys" if d > 0 else "nearly opposite keys (q1 near −q0)"
    if ad >= 1 - 1e-6:
        return f"{near} (|a·b| = 1 − {sig3(1 - ad)})"
    if abs(ad - thr) <= 5e-4:
        return f"keys near the {thr:g} fallback threshold (|a·b| = {ad:.6g})"
    if ad > 0.99:
        return f"{near} (|a·b| = {ad:.4g})"
    if ad < 1e-3:
        return f"keys a quarter turn apart (a·b = {sig3(d)})"
    return f"keys with a·b = {d:.3g}"


def case_words(counterexample):
    """'for KEYS at t = T' from a two-key counterexample (q0, q1, t); '' when it is not one."""
    xs = hexes(counterexample, 8)
    if xs is None:
        return ""
    all_x = counterexample.split()
    where = f" for {keys_words(xs[:4], xs[4:8])}"
    if len(all_x) == 9:
        t = hexes(counterexample, 9)
        if t is not None:
            where += f" at t = {t[8]:.6g}"
    return where


def property_sentence(r, table, impl):
    """The sentence of one failed conformance row."""
    prop, op = r["property"], r["op"]
    worst = value(table, r, "worst")
    eps = EPS.get(precision_of(impl))
    where = case_words(text(table, r, "counterexample"))
    w = sig3(worst) if worst is not None else "?"
    if prop == "finite":
        s = f"returns NaN or infinity{where}"
    elif prop == "unit" and worst is not None and eps:
        s = (f"not normalised: |r| is off by up to {sig3(worst * eps)} from 1 ({w} units of the last bit at 1)"
             f"{where}")
    elif prop == "endpoints" and worst is not None and eps:
        s = f"does not return the keys at t = 0 and t = 1: a component is off by up to {sig3(worst * eps)}{where}"
    elif prop == "shortest-arc":
        s = f"takes the long way round: a detour of {w} rad{where}"
    elif prop == "sign-invariance":
        s = (f"depends on the sign of a key, though q and −q are the same rotation: the results differ by "
             f"{w} rad{where}")
    elif prop == "symmetry":
        s = f"not symmetric: swapping the keys (and t for 1 − t) moves the result by {w} rad{where}"
    elif prop == "monotone":
        s = f"goes backwards: the rotation from q0 shrinks by {w} rad as t grows{where}"
    elif prop == "constant-speed":
        s = f"not at constant speed: up to {w} rad ahead of or behind the steady rotation{where}"
    elif prop == "threshold-continuity":
        xs = hexes(text(table, r, "counterexample"), 8)
        at = f" near |a·b| = {abs(sum(a * b for a, b in zip(xs[:4], xs[4:8]))):.6g}" if xs else ""
        s = f"jumps where it switches formula: the output jumps by {w} rad between neighbouring keys{at}"
    elif prop.startswith("c1"):
        s = (f"its angular velocity jumps at a key (the curve is not smooth there): by {w} "
             f"(tolerance {text(table, r, 'tolerance')})"
             + (" on key tracks whose keys change sign" if prop == "c1-sign-flip" else ""))
    else:
        s = f"fails {prop}: measured {w}, tolerance {text(table, r, 'tolerance')}"
    known = " (a failure the implementation documents)" if r["verdict"] == "known" else ""
    return f"{op}: {s}{known}."


def quat(row, prefix, parse):
    try:
        return [parse(dict.get(row, f"{prefix}_{c}")) for c in "wxyz"]
    except (TypeError, ValueError):  # a column the file lacks (None), or not a number
        return None


def hexnum(text):
    try:
        return float(text)
    except ValueError:
        return float.fromhex(text)


def rotation_between(a, b):
    """The 3-D rotation angle between two quaternions (normalised first), in radians."""
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(x * x for x in b))
    if not (na > 0 and nb > 0 and math.isfinite(na) and math.isfinite(nb)):
        return float("nan")
    d = abs(sum(x * y for x, y in zip(a, b))) / (na * nb)
    return 2 * math.acos(min(1.0, d))


def returned_words(w):
    """What the routine returned on its worst case, when that says more than a number: NaN, or one of the keys
    or their midpoint whatever t was. None when it is just off the curve."""
    q0, q1, out, ref = quat(w, "q0", hexnum), quat(w, "q1", hexnum), quat(w, "out", hexnum), quat(w, "ref", hexnum)
    try:
        t = hexnum(dict.get(w, "t"))
    except (TypeError, ValueError):
        return None
    if None in (q0, q1, out, ref):
        return None
    if any(math.isnan(x) for x in out):
        return "returns NaN"
    if not all(math.isfinite(x) for x in out):
        return "returns infinity"
    err = rotation_between(out, ref)
    if not err > 0:
        return None
    if sum(a * b for a, b in zip(q0, q1)) < 0:
        q1 = [-x for x in q1]
    mid = [a + b for a, b in zip(q0, q1)]
    for name, q, t_near in (("the first key", q0, 0.0), ("the second key", q1, 1.0), ("the midpoint", mid, 0.5)):
        if abs(t - t_near) > 0.05 and rotation_between(out, q) < 0.01 * err:
            return f"ignores t (t = {t:.3g}): returns {name}"
    return None


def text(table, r, col):
    """A cell of a row, "" when the table has no such column (a row asked for an undeclared column raises)."""
    return r[col] if col in table.columns else ""


def value(table, r, col):
    return optional_number(table, r, col) if text(table, r, col) != "" else None


def region_sentence(data, table, r, worst_table, factor):
    """The sentence of a failed region row, or None when the row is within FACTOR times the floor."""
    impl, op, region = r["impl"], r["op"], r["region"]
    prec = precision_of(impl)
    floor = angle_floor(prec)
    keys = region_words(region)
    clauses = []
    status = text(table, r, "status") or "ok"
    if status != "ok":
        detail = text(table, r, "status_detail")
        clauses.append(f"{status} on {keys}" + (f" ({detail})" if detail else ""))
    nonfinite = value(table, r, "nonfinite") or 0
    cases = value(table, r, "cases")
    # nlerp is measured against the exact nlerp, not against slerp (which it is not)
    err = value(table, r, "max_angle_err_vs_exact_nlerp_rad" if op == "nlerp" else "max_angle_err_rad")
    norm = value(table, r, "max_norm_err_ulp1")
    w = None
    if worst_table is not None:
        w = next((x for x in worst_table.rows if x["impl"] == impl and x["op"] == op and x["region"] == region), None)
    if nonfinite > 0:
        what = "NaN or infinity"
        if w is not None:
            said = returned_words(w)
            if said in ("returns NaN", "returns infinity"):
                what = said[len("returns "):]
        of = f" of {int(cases)}" if cases else ""
        clauses.append(f"{what} for {keys}: {int(nonfinite)}{of} cases")
    if err is not None and floor and err > factor * floor and math.isfinite(err):
        said = returned_words(w) if w is not None else None
        ideal = "the exact " + op if op != "squad" else "the reference squad curve"
        if said and said.startswith("ignores t"):
            clauses.append(f"{said} for {keys}, up to {sig3(err)} rad off {ideal}")
        else:
            clauses.append(f"up to {sig3(err)} rad off {ideal} for {keys}, {sig3(err / floor)} times what rounding "
                           "alone explains")
    eps = EPS.get(prec)
    if norm is not None and eps and norm > factor * FLOOR_ULP1 and math.isfinite(norm):
        clauses.append(f"not normalised for {keys}: |r| is off by up to {sig3(norm * eps)} from 1")
    if not clauses:
        return None
    return f"{op}: " + "; ".join(clauses) + "."


def sentences(data, impl):
    """[(anchor, sentence)] of the card of impl: its failed properties first, then its failed regions."""
    out = []
    informative = qc_tables.informative_properties(data.folder)  # measured, not promised: no sentence of its own
    for _, t in data.conformance:
        for r in (t.rows if t is not None else []):
            if r["impl"] == impl and r["verdict"] in ("fail", "known") and r["property"] not in informative:
                out.append((f'prop-{r["op"]}-{r["property"]}', property_sentence(r, t, impl)))
    factor = getattr(data, "findings_factor", None) or FACTOR
    for t, worst in ((data.summary, data.worst), (data.squad_summary, None)):
        for r in (t.rows if t is not None else []):
            if r["impl"] == impl:
                s = region_sentence(data, t, r, worst, factor)
                if s:
                    out.append(("regions", s))
    return out


def says_html(data, impl):
    """The card's opening block: one list item per sentence; "" when nothing failed."""
    said = sentences(data, impl)
    if not said:
        return ""
    items = "".join(f'<li class="said"><a href="#{html.escape(a)}">{html.escape(s)}</a></li>' for a, s in said)
    return f'<div class="says"><b>What goes wrong, in plain words:</b><ul>{items}</ul></div>'
