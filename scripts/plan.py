#!/usr/bin/python3
"""The plan of scripts/run: how many cases, tracks and points each scalable phase gets (issue 43).

The budget only chooses counts. A plan is the counts and the seed; `scripts/run --plan FILE` runs the same
counts and seed again, and the tables come out byte for byte the same on any machine.

  plan.py floors [--seed N] [--pin PHASE=N]...
      The first stage of a budget plan: prints "seed N", then "PHASE COUNT" at every phase's floor.
  plan.py budget --budget 10m --spent S --calibration FILE [--reserve S] [--last RUN_PHASES_JSON]
                 [--run-json FLOOR_RUN_JSON] [--seed N] [--pin PHASE=N]... OUT
      After the floors (and after each round of raises): which phases to run again at a larger count in the
      time left (allocate()); writes OUT (the counts as they then stand) and prints the raised phases, one per
      line (none: the plan is final).
  plan.py deep [--seed N] [--pin PHASE=N]... OUT
      Today's full counts (DEEP below): scripts/run --deep and scripts/nightly.
  plan.py rounds
      How many rounds of raises scripts/run asks for at most (ROUNDS).
  plan.py read FILE
      Checks a plan written earlier (an untrusted file) and prints "seed N", then "PHASE COUNT" per phase, then
      "cases-for IMPL=N" per capped implementation (run's --cases-for).
  plan.py seconds TEXT
      A duration (600, 600s, 10m, 2h) in seconds.

How a budget plan is made (scripts/run): every scalable phase first runs once at its floor, FLOOR_FRACTION of its
deep count (10,000 cases per region and precision for run, the same fraction of each sweep; FLOOR_FRACTIONS
names the exceptions: conform runs whole), into the report.
Those runs are real results and the calibration: with the start of every adapter timed once (startup:
`quatcheck list` with the same plugins), a phase's wall time is modelled as t(n) = fixed + per_unit * n
(fit(); the last run on this machine, run_phases.json, gives a second point when it ran the phase at another
count). allocate() then chooses the phases to run again at a larger count in the time left; scripts/run runs
them, adds their times to the calibration (a phase's line now goes through two points of this job) and asks
again, up to ROUNDS times, so a model that was wrong in the first round (a phase faster than its last run
here) does not leave the budget unspent.
Slow adapters (slow_rows()): an implementation whose adapter took SLOW_SHARE or more of the run phase's core time at
its floor (run.json's process.adapter_cpu_s, else adapter_s, against wall time x threads) keeps run's floor count when run is raised
(plan.json's cases_for, quatcheck run --cases-for): its rows are those of the floor run, and the others get the
time it would have taken. It gets more only when the others have reached the deep count and time is left. So no
implementation
gets less than its floor, no calibration run is thrown away, and a phase whose cost is mostly fixed (conform,
whose probes and shrinking do not depend on --cases) is not paid twice for nothing.
Exit status: 0, or 2 with one line on a malformed argument, calibration or plan file.
"""
import json
import math
import os
import re
import sys

# phase: (what the count is, DEEP count = today's full job)
DEEP = {
    "run": ("cases per region and precision", 200000),
    "conform": ("cases per implementation, op and property", 300),
    "squad": ("tracks per region and precision", 100),
    "curves": ("points of the t grid", 1001),
    "sweep-dot": ("points per slice along a.b", 5500000),
    "sweep-t": ("points per slice along t", 2800000),
}
FLOOR_FRACTION = 0.05  # run: 10,000 of 200,000 cases
# Phases whose floor is another fraction of their deep count. conform's time is its threshold probe (a fixed
# grid of about 2^20 points per implementation and op) and its negative controls, not its cases: on this machine
# 15, 100 and 300 cases per property took the same time within 2 % (issue 43's closing note), while 15 cases
# found 95 fewer failed properties than 300. So conform always runs at its deep count.
FLOOR_FRACTIONS = {"conform": 1.0}
MAX_FRACTION = 1.0  # a budget larger than the deep job needs gives the deep counts
MARGIN = 0.05  # of the budget, kept free for what the model does not see
MAX_PLAN_BYTES = 1 << 16
MAX_RUN_JSON_BYTES = 1 << 22
ROUNDS = 3  # rounds of raises after the floors (scripts/run reads it: plan.py rounds)
SLOW_SHARE = 0.1  # an adapter taking this share of the run phase's core time at its floor is slow (slow_rows())
IMPL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")  # an implementation as plan.json may name it


class PlanError(Exception):
    pass


def seconds(text):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(s|m|h)?", text.strip())
    if not m:
        raise PlanError(f"'{text}' is not a duration (examples: 600, 600s, 10m, 2h)")
    v = float(m.group(1)) * {"s": 1, None: 1, "m": 60, "h": 3600}[m.group(2)]
    if not 0 < v <= 7 * 86400:
        raise PlanError(f"'{text}': a duration from 1 s to 7 days is expected")
    return v


def count(text, what):
    if not re.fullmatch(r"[1-9][0-9]{0,9}", text):
        raise PlanError(f"{what}: '{text}' is not a positive count")
    return int(text)


def floor_of(phase):
    return max(1, math.ceil(DEEP[phase][1] * FLOOR_FRACTIONS.get(phase, FLOOR_FRACTION)))


def nice(n):
    """n rounded down to two significant digits (a plan a person reads), never below 1."""
    n = max(1, int(n))
    step = 10 ** max(0, len(str(n)) - 2)
    return n // step * step


def read_calibration(path):
    """Lines "startup WALL_S" and "PHASE COUNT WALL_S" (written by scripts/run: a phase's floor, then each
    rerun at a raised count). Returns (startup, {phase: [(count, wall_s), ...] in the order run})."""
    startup, points = None, {}
    with open(path, encoding="utf-8") as f:
        text = f.read(MAX_PLAN_BYTES + 1)
    if len(text) > MAX_PLAN_BYTES:
        raise PlanError(f"{path}: longer than {MAX_PLAN_BYTES} bytes")
    for k, line in enumerate(text.splitlines(), 1):
        w = line.split()
        try:
            if len(w) == 2 and w[0] == "startup":
                startup = float(w[1])
            elif len(w) == 3 and w[0] in DEEP:
                points.setdefault(w[0], []).append((count(w[1], w[0]), float(w[2])))
            else:
                raise ValueError
        except ValueError:
            raise PlanError(f"{path}:{k}: expected 'startup S' or 'PHASE COUNT S', got '{line[:60]}'")
    if startup is None or not math.isfinite(startup) or startup < 0:
        raise PlanError(f"{path}: no valid startup line")
    for p, pts in points.items():
        for _, t in pts:
            if not math.isfinite(t) or t < 0:
                raise PlanError(f"{path}: {p}: the wall time {t} is not a time")
    return startup, points


def fit(startup, n_cal, t_cal, last=None):
    """(fixed_s, per_unit_s) of t(n) = fixed + per_unit * n through the calibration point and, when the last
    run on this machine ran the phase at another count, through that point too. With one point, the fixed
    part is taken as the adapters' startup, so a phase with a larger fixed cost of its own (conform's
    negative controls that hang until their timeout) is predicted slower than it is, never faster."""
    if last and last[0] != n_cal:
        (n1, t1), (n2, t2) = sorted([(n_cal, t_cal), last])
        per_unit = max((t2 - t1) / (n2 - n1), 0.0)
        return max(t1 - per_unit * n1, 0.0), per_unit
    fixed = min(startup, t_cal)
    return fixed, max(t_cal - fixed, 1e-3 * t_cal) / n_cal


def water_fill(avail_s, cost):
    """Fractions x[p] <= MAX_FRACTION of the deep counts that spend avail_s seconds in equal shares (cost[p] =
    the seconds a fraction of 1 costs): the maximum of the sum of log x[p] over that spending."""
    x, left, rest = {}, avail_s, dict(cost)
    while rest:
        share = left / len(rest)
        full = [p for p, k in rest.items() if k * MAX_FRACTION <= share]
        if not full:
            x.update({p: share / k for p, k in rest.items()})
            break
        for p in full:
            x[p] = MAX_FRACTION
            left -= rest.pop(p) * MAX_FRACTION
    return x


def slow_rows(path):
    """{implementation: its share of the run phase's core time} for the slow adapters of a floor run's run.json
    (those at SLOW_SHARE or more; adapter_cpu_s, else adapter_s, against wall_time_s x jobs; an implementation with
    two ops counts once). The file is untrusted: a bounded read, and anything malformed gives no slow rows (the plan is then the
    one without caps)."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.loads(f.read(MAX_RUN_JSON_BYTES))
        core_s = float(doc["wall_time_s"]) * int(doc["jobs"])
        shares = {}
        for i in doc["implementations"]:
            # The adapter's CPU time where it reports one: its wall time (adapter_s) also counts the time it
            # waited for a core, which on a busy machine doubled it and made the others' share look small.
            p = i.get("process", {})
            a = p.get("adapter_cpu_s") if type(p.get("adapter_cpu_s")) is float and p["adapter_cpu_s"] > 0 \
                else p.get("adapter_s")
            if type(a) is float and math.isfinite(a) and core_s > 0 and IMPL_NAME.fullmatch(str(i["impl"])):
                shares[i["impl"]] = a / core_s
        return {n: s for n, s in shares.items() if s >= SLOW_SHARE}
    except Exception:
        return {}


def allocate(startup, cal, avail_s, pins=None, last=None, slow=0.0):
    """Which phases to run again above their floor, and at what count, in the time left (avail_s) after every
    scalable phase has run once at its floor (cal[phase] = (count, wall_s) of that run; last[phase] = (count,
    wall_s) of the last scripts/run here, when known). A raised phase runs again whole, so it pays its fixed
    part again. Among every set of phases to raise, each set's time split by water_fill(), the plan is the one
    with the largest sum over all the phases of log(count / deep count) (proportional fairness: doubling any
    phase's count is worth the same), where each raised phase at least doubles its floor (a smaller gain is
    not worth a rerun). Pinned phases are never raised; a budget beyond the deep job gives the deep counts.
    slow: the share of run's cost that is slow adapters' (slow_rows()), which stay at run's floor when run is
    raised: run's cost is fitted in units of work (a run at n with the slow rows at floor f does (1 - slow) n +
    slow f units), and a raise of run to n costs (1 - slow) n per unit.
    Returns (counts, model, x, slow_cases): counts of every calibrated phase (its floor count when not raised),
    model[phase] = (fixed_s, per_unit_s, predicted_s of the rerun or 0), x[phase] = the fraction of the deep
    count, slow_cases = the slow rows' count in run (run's floor; None without slow rows)."""
    pins, last = pins or {}, last or {}
    model = {p: fit(startup, n, t, last.get(p)) for p, (n, t) in cal.items() if p != "run" or not slow}
    if slow and "run" in cal:
        f = floor_of("run")
        units = lambda n: n if n <= f else (1 - slow) * n + slow * f
        fixed, per_unit = fit(startup, units(cal["run"][0]), cal["run"][1],
                              (units(last["run"][0]), last["run"][1]) if "run" in last else None)
        model["run"] = (fixed + per_unit * slow * f, per_unit * (1 - slow))
    frac = {p: n / DEEP[p][1] for p, (n, _) in cal.items()}
    candidates = [p for p in cal if p not in pins]
    best, best_score = {}, sum(math.log(f) for f in frac.values())
    for mask in range(1, 1 << len(candidates)):
        s = [p for i, p in enumerate(candidates) if mask >> i & 1]
        left = avail_s - sum(model[p][0] for p in s)
        if left <= 0:
            continue
        x = water_fill(left, {p: model[p][1] * DEEP[p][1] for p in s})
        if any(x[p] < 2 * frac[p] for p in s):
            continue
        score = sum(math.log(x.get(p, f)) for p, f in frac.items())
        if score > best_score + 1e-12:
            best, best_score = x, score
    counts = {p: n for p, (n, _) in cal.items()}
    for p, xp in best.items():
        counts[p] = DEEP[p][1] if xp >= MAX_FRACTION else max(counts[p], nice(xp * DEEP[p][1]))
    out = {p: (f, c, f + c * counts[p] if p in best else 0.0) for p, (f, c) in model.items()}
    slow_cases = floor_of("run") if slow and "run" in cal else None
    return counts, out, {p: counts[p] / DEEP[p][1] for p in counts}, slow_cases


def read_last(path):
    """{phase: (count, wall_s)} from the run_phases.json of the last scripts/run here (unchecked data: anything
    malformed is ignored, as no history)."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.loads(f.read(MAX_PLAN_BYTES))
        walls = {q["phase"]: float(q["wall_s"]) for q in doc["phases"]}
        walls = {p: walls.get(f"{p} raised", walls.get(p)) for p in DEEP}  # the run at the final count
        return {p: (n, walls[p]) for p, n in doc["counts"].items()
                if p in DEEP and walls[p] is not None and type(n) is int and n > 0 and math.isfinite(walls[p])}
    except Exception:
        return {}


def write_plan(path, doc):
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def print_plan(doc):
    say = lambda s: print(f"scripts/run: plan: {s}", file=sys.stderr)
    if doc["mode"] == "budget":
        say(f"budget {doc['budget_s']:.0f} s; {doc['spent_s']:.0f} s spent (every run so far included); "
            f"{doc['reserve_s']:.0f} s kept for findings, leaderboard and report")
        if not doc["raised"]:
            say("  the time left raises no phase further: the counts so far are the plan")
        for p in doc["raised"]:
            pr = doc["predicted"][p]
            say(f"  raise {p:9} to {doc['counts'][p]:>9} {DEEP[p][0]} ({doc['fraction'][p]:.3g} of deep "
                f"{DEEP[p][1]}), about {pr['rerun_s']:.0f} s")
        for n, c in doc["cases_for"].items():
            say(f"  {n} stays at {c} cases per region in run: its adapter took {doc['slow_share'][n]:.0%} of the "
                f"run's core time at the floor ({SLOW_SHARE:.0%} or more is slow)")
    else:
        say(f"{doc['mode']}:")
        for p, n in doc["counts"].items():
            say(f"  {p:9} {n:>9} {DEEP[p][0]} (deep {DEEP[p][1]})")
    say(f"seed {doc['seed']}; written to plan.json")


def parse_pins(args):
    pins = {}
    for a in args:
        p, _, n = a.partition("=")
        if p not in DEEP:
            raise PlanError(f"--pin: '{p}' is not a phase ({', '.join(DEEP)})")
        pins[p] = count(n, f"--pin {p}")
    return pins


def options(argv, names):
    """--name VALUE pairs (--pin repeatable) and one positional argument."""
    opts, pins, pos = {}, [], []
    it = iter(argv)
    for a in it:
        if a.startswith("--"):
            v = next(it, None)
            if a[2:] not in names or v is None:
                raise PlanError(f"unexpected option '{a}'" if a[2:] not in names else f"{a}: expected a value")
            if a == "--pin":
                pins.append(v)
            else:
                opts[a[2:]] = v
        else:
            pos.append(a)
    if len(pos) != 1:
        raise PlanError(f"expected one file, got {len(pos)}")
    seed = count(opts.get("seed", "1"), "--seed")
    return opts, parse_pins(pins), seed, pos[0]


def cmd_floors(argv):
    """The first stage of a budget plan: every phase at its floor (a pinned one at its pin)."""
    _, pins, seed, _ = options(argv + ["-"], {"seed", "pin"})
    say = lambda s: print(f"scripts/run: plan: {s}", file=sys.stderr)
    say("every scalable phase at its floor first (the time each takes calibrates the rest of the plan):")
    print("seed", seed)
    for p in DEEP:
        n = pins.get(p, floor_of(p))
        say(f"  {p:9} {n:>9} {DEEP[p][0]}{' (pinned)' if p in pins else f' (floor; deep {DEEP[p][1]})'}")
        print(p, n)


def cmd_budget(argv):
    opts, pins, seed, out = options(argv, {"budget", "spent", "calibration", "reserve", "seed", "pin", "last",
                                           "run-json"})
    for k in ("budget", "spent", "calibration"):
        if k not in opts:
            raise PlanError(f"--{k} is required")
    budget, spent = seconds(opts["budget"]), float(opts["spent"])
    reserve = float(opts.get("reserve", "0"))
    startup, points = read_calibration(opts["calibration"])
    cal = {p: pts[-1] for p, pts in points.items()}  # each phase as it stands: its floor, or its last raise
    avail = budget * (1 - MARGIN) - spent - reserve
    last = read_last(opts["last"]) if "last" in opts else {}
    # The second point of each phase's line: an earlier count of this job (same machine state, same build)
    # before the last run here.
    # With slow adapters, run's last point is of this job only (the last job's run may have capped other rows).
    slow = slow_rows(opts["run-json"]) if "run-json" in opts and "run" in cal and "run" not in pins else {}
    second = dict({p: v for p, v in last.items() if p != "run" or not slow},
                  **{p: pts[-2] for p, pts in points.items() if len(pts) >= 2})
    counts, model, x, slow_cases = allocate(startup, cal, avail, pins, second, min(sum(slow.values()), 0.9))
    raised = [p for p in cal if model[p][2] > 0]
    counts = {p: counts.get(p, pins.get(p, floor_of(p))) for p in DEEP}  # phases not calibrated: not run
    cases_for = {n: slow_cases for n in slow} if slow_cases and slow_cases < counts["run"] else {}
    doc = {"version": 1, "mode": "budget", "seed": seed, "counts": counts, "cases_for": cases_for,
           "slow_share": slow, "slow_share_min": SLOW_SHARE, "raised": raised, "budget_s": budget,
           "spent_s": spent, "reserve_s": reserve, "fraction": x, "floor_fraction": FLOOR_FRACTION,
           "floors": {p: floor_of(p) for p in DEEP},
           "startup_s": startup, "at_floor": {p: {"count": pts[0][0], "wall_s": pts[0][1]} for p, pts in points.items()},
           "measured": {p: [{"count": n, "wall_s": t} for n, t in pts] for p, pts in points.items()},
           "last_run": {p: {"count": n, "wall_s": t} for p, (n, t) in last.items() if p in cal},
           "predicted": {p: {"fixed_s": m[0], "per_unit_s": m[1], "rerun_s": m[2]} for p, m in model.items()},
           "cpus": os.cpu_count(), "load": open("/proc/loadavg").read().split()[:3]}
    write_plan(out, doc)
    print_plan(doc)
    print("\n".join(raised))


def cmd_deep(argv):
    _, pins, seed, out = options(argv, {"seed", "pin"})
    doc = {"version": 1, "mode": "deep", "seed": seed, "counts": {p: pins.get(p, DEEP[p][1]) for p in DEEP}}
    write_plan(out, doc)
    print_plan(doc)


def cmd_read(argv):
    if len(argv) != 1:
        raise PlanError("read: expected one plan file")
    path = argv[0]
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_PLAN_BYTES + 1)
        if len(raw) > MAX_PLAN_BYTES:
            raise PlanError(f"{path}: longer than {MAX_PLAN_BYTES} bytes: not a plan")
        doc = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise PlanError(f"{path}: not a readable plan ({str(e).splitlines()[0]})")
    if not isinstance(doc, dict) or doc.get("version") != 1:
        raise PlanError(f"{path}: not a version-1 plan")
    seed, counts = doc.get("seed"), doc.get("counts")
    valid = lambda v, hi: type(v) is int and 0 < v <= hi
    if not valid(seed, 2**63) or not isinstance(counts, dict) or set(counts) - set(DEEP):
        raise PlanError(f"{path}: expected a seed and counts of the phases {', '.join(DEEP)}")
    for p in DEEP:
        if not valid(counts.get(p), 10**9):
            raise PlanError(f"{path}: counts.{p} must be a count from 1 to 10^9")
    caps = doc.get("cases_for", {})
    if not isinstance(caps, dict) or len(caps) > 1000:
        raise PlanError(f"{path}: cases_for must be an object of implementation names and counts")
    for n, c in caps.items():
        if not IMPL_NAME.fullmatch(n) or not valid(c, counts["run"]):
            raise PlanError(f"{path}: cases_for: '{n[:60]}' must name an implementation with a count from 1 to "
                            f"counts.run ({counts['run']})")
    print("seed", seed)
    for p in DEEP:
        print(p, counts[p])
    for n, c in caps.items():
        print("cases-for", f"{n}={c}")


def main(argv):
    cmds = {"floors": cmd_floors, "budget": cmd_budget, "deep": cmd_deep, "read": cmd_read,
            "rounds": lambda a: print(ROUNDS),
            "seconds": lambda a: print(f"{seconds(a[0]) if len(a) == 1 else seconds(''):.0f}")}
    try:
        if not argv or argv[0] not in cmds:
            raise PlanError(f"expected one of {', '.join(cmds)}")
        cmds[argv[0]](argv[1:])
    except (PlanError, OSError) as e:
        print(f"quatcheck: scripts/run: plan: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
