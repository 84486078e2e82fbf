# scripts/run's plan (issue 43; scripts/plan.py): a plan made under a budget gives every phase at least its
# floor, a rerun from the plan gives the same tables byte for byte, and a changed seed gives other tables
# (the negative control of the identity). Also: the allocation's floors and fit on synthetic calibrations, with
# a planner that ignores the floor caught, and malformed plans and durations refused with one line.
source "$(dirname "$0")/lib.sh" "$@"
cd "$src"

# 1. The allocation on synthetic calibrations (no command runs).
/usr/bin/python3 - <<'PY' || fail "1: the allocation (above)"
import sys
sys.path.insert(0, "scripts")
import plan

FLOORS = {p: plan.floor_of(p) for p in plan.DEEP}

def check_floors(counts, what):
    low = {p: n for p, n in counts.items() if n < FLOORS[p]}
    assert not low, f"{what}: below the floor: {low}"

# Every phase ran at its floor (the calibration; conform's is its deep count); a slow adapter makes run
# expensive, squad's cost is mostly fixed (its last run here, at 100 tracks, took little more than at its floor).
cal = {"run": (10000, 40.0), "conform": (300, 200.0), "squad": (5, 10.0), "curves": (51, 2.0),
       "sweep-dot": (275000, 5.0), "sweep-t": (140000, 3.0)}
last = {"squad": (100, 12.0)}
for avail in (0.0, 5.0, 60.0, 400.0, 4000.0, 1e6):
    counts, model, x, _ = plan.allocate(1.0, cal, avail, last=last)
    check_floors(counts, f"avail {avail}")
    assert all(plan.FLOOR_FRACTION <= f <= plan.MAX_FRACTION for f in x.values()), x
    raised = [p for p in cal if model[p][2] > 0]
    assert all(counts[p] == cal[p][0] for p in cal if p not in raised), (avail, counts)
    assert sum(model[p][2] for p in raised) <= avail * 1.0001, (avail, model)  # the reruns fit the time left
    assert all(counts[p] >= 2 * cal[p][0] * 0.99 for p in raised), (avail, counts)  # a rerun at least doubles
    print(f"avail {avail:>9}: raised {raised or 'none'}", file=sys.stderr)
none, *_ = plan.allocate(1.0, cal, 0.0, last=last)
assert none == {p: n for p, (n, _) in cal.items()}, none
# More time never gives fewer cases here, and time for the whole deep job gives its counts.
small, *_ = plan.allocate(1.0, cal, 400.0, last=last)
large, *_ = plan.allocate(1.0, cal, 4000.0, last=last)
assert all(large[p] >= small[p] for p in cal) and small != large, (small, large)
assert large == {p: plan.DEEP[p][1] for p in cal}, large
# A pinned count is kept as given, never raised.
pinned, *_ = plan.allocate(1.0, dict(cal, run=(123, 1.0)), 4000.0, {"run": 123})
assert pinned["run"] == 123, pinned
# Negative control: the same check catches a planner without the floor (floor fraction 0, nothing ran at the
# floor first).
saved = plan.FLOOR_FRACTION
plan.FLOOR_FRACTION = 0.0
try:
    broken, *_ = plan.allocate(1.0, {p: (1, t) for p, (n, t) in cal.items()}, 5.0)
    check_floors(broken, "no floor")
    sys.exit("the floor check did not catch a planner without the floor")
except AssertionError:
    pass
plan.FLOOR_FRACTION = saved
# fit(): two points give the line through them; one point takes the startup as the fixed part.
f, c = plan.fit(1.0, 10, 12.0, (30, 16.0))
assert abs(c - 0.2) < 1e-12 and abs(f - 10.0) < 1e-12, (f, c)
f, c = plan.fit(1.0, 10, 12.0)
assert f == 1.0 and abs(c - 1.1) < 1e-12, (f, c)
assert plan.seconds("10m") == 600 and plan.seconds("2h") == 7200 and plan.seconds("90") == 90
PY
pass "1: allocations over 5 budgets keep every floor; more time, more cases; pins kept; a floorless planner is caught"

# 1b. A later round: a phase's line goes through its two runs in this job (floor and raise), not through the last
# job's run (here 6 times slower: another build, or a loaded machine); a phase raised to its deep count is not
# raised again, and the rest of the time raises another.
printf 'startup 1.0\nrun 10000 15.0\ncurves 51 2.6\ncurves 1001 11.0\n' >"$tmp/cal"
printf '{"counts": {"curves": 1001, "run": 200000}, "phases": [{"phase": "curves", "wall_s": 61.0}, {"phase": "run", "wall_s": 300.0}]}' >"$tmp/last.json"
/usr/bin/python3 scripts/plan.py budget --budget 200 --spent 50 --calibration "$tmp/cal" --last "$tmp/last.json" \
  "$tmp/round2.json" >"$tmp/round2.out" 2>/dev/null || fail "1b: plan.py budget on a second round's calibration"
/usr/bin/python3 - "$tmp/round2.json" "$tmp/round2.out" <<'PY' || fail "1b: the second round (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
c = doc["predicted"]["curves"]
assert abs(c["per_unit_s"] - 8.4 / 950) < 1e-12, c  # through (51, 2.6) and (1001, 11.0), not (1001, 61.0)
assert doc["measured"]["curves"] == [{"count": 51, "wall_s": 2.6}, {"count": 1001, "wall_s": 11.0}], doc["measured"]
assert doc["at_floor"]["curves"] == {"count": 51, "wall_s": 2.6}, doc["at_floor"]
assert open(sys.argv[2]).read().split() == ["run"], open(sys.argv[2]).read()  # curves is at its deep count
assert doc["counts"]["curves"] == 1001 and doc["counts"]["run"] > 20000, doc["counts"]
PY
pass "1b: a second round fits each phase through this job's two runs; a phase at its deep count stays"

# 1c. A slow adapter (issue 43: "a slow adapter gets fewer cases than a fast one, never none"): in the floor run,
# slow.f64's adapter took 40 % of the run's core time and quick.f64's 2 %; waits.f64's took 30 % of it in wall time
# but 4 % in CPU time (it waited for a core): not slow. A plan that raises run keeps slow.f64
# at run's floor (plan.json's cases_for, which plan.py read hands to scripts/run) and gives the others more cases
# than the same calibration without the slow adapter's share would; the model's rerun time is within the budget.
printf 'startup 1.0\nrun 10000 15.0\n' >"$tmp/cal-slow"
cat >"$tmp/run-floor.json" <<'JSON'
{"wall_time_s": 15.0, "jobs": 2, "implementations": [
 {"impl": "slow.f64", "op": "slerp", "process": {"adapter_s": 12.0}},
 {"impl": "quick.f64", "op": "slerp", "process": {"adapter_s": 0.6}},
 {"impl": "waits.f64", "op": "slerp", "process": {"adapter_s": 9.0, "adapter_cpu_s": 1.2}},
 {"impl": "seed-a.f64", "op": "slerp"}]}
JSON
/usr/bin/python3 scripts/plan.py budget --budget 200 --spent 40 --calibration "$tmp/cal-slow" \
  --run-json "$tmp/run-floor.json" "$tmp/slow.json" >/dev/null 2>"$tmp/slow.err" || fail "1c: plan.py budget with a slow adapter"
/usr/bin/python3 scripts/plan.py budget --budget 200 --spent 40 --calibration "$tmp/cal-slow" \
  "$tmp/noslow.json" >/dev/null 2>&1 || fail "1c: plan.py budget without the run's run.json"
/usr/bin/python3 - "$tmp/slow.json" "$tmp/noslow.json" <<'PY' || fail "1c: the slow adapter's plan (above)"
import json, sys
slow, noslow = (json.load(open(p)) for p in sys.argv[1:])
assert slow["cases_for"] == {"slow.f64": 10000}, slow["cases_for"]
assert noslow["cases_for"] == {}, noslow["cases_for"]
assert slow["counts"]["run"] > noslow["counts"]["run"] > 10000, (slow["counts"], noslow["counts"])
assert abs(slow["slow_share"]["slow.f64"] - 0.4) < 1e-12 and set(slow["slow_share"]) == {"slow.f64"}, slow["slow_share"]
PY
grep -q "slow.f64 stays at 10000 cases per region in run: its adapter took 40% of the run's core time" "$tmp/slow.err" ||
  fail "1c: the plan does not say why slow.f64 stays at the floor: $(cat "$tmp/slow.err")"
[ "$(/usr/bin/python3 scripts/plan.py read "$tmp/slow.json" | tail -1)" = "cases-for slow.f64=10000" ] ||
  fail "1c: plan.py read does not hand the cap to scripts/run"
pass "1c: a slow adapter (40 % of run's core time) stays at run's floor and the others get more cases"

# 2. Malformed plans and durations: one line, exit 2.
printf '{"version": 1, "seed": 1, "counts": {"run": 10}}' >"$tmp/short.json"
printf '{"version": 1, "seed": 1, "counts": {"run": true, "conform": 1, "squad": 1, "curves": 1, "sweep-dot": 1, "sweep-t": 1}}' >"$tmp/bool.json"
printf '{"version": 2}' >"$tmp/v2.json"
printf 'not json' >"$tmp/text.json"
head -c 70000 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
expect 2 "short.json: counts.conform must be a count" /usr/bin/python3 scripts/plan.py read "$tmp/short.json"
expect 2 "bool.json: counts.run must be a count" /usr/bin/python3 scripts/plan.py read "$tmp/bool.json"
expect 2 "v2.json: not a version-1 plan" /usr/bin/python3 scripts/plan.py read "$tmp/v2.json"
expect 2 "text.json: not a readable plan" /usr/bin/python3 scripts/plan.py read "$tmp/text.json"
expect 2 "big.json: longer than 65536 bytes" /usr/bin/python3 scripts/plan.py read "$tmp/big.json"
ok='"seed": 1, "counts": {"run": 100, "conform": 1, "squad": 1, "curves": 1, "sweep-dot": 1, "sweep-t": 1}'
printf '{"version": 1, %s, "cases_for": {"x.f64": 101}}' "$ok" >"$tmp/capbig.json"
printf '{"version": 1, %s, "cases_for": {"a b": 10}}' "$ok" >"$tmp/capname.json"
printf '{"version": 1, %s, "cases_for": [1]}' "$ok" >"$tmp/caplist.json"
expect -F 2 "capbig.json: cases_for: 'x.f64' must name an implementation with a count from 1 to counts.run (100)" \
  /usr/bin/python3 scripts/plan.py read "$tmp/capbig.json"
expect 2 "capname.json: cases_for: 'a b' must name" /usr/bin/python3 scripts/plan.py read "$tmp/capname.json"
expect 2 "caplist.json: cases_for must be an object" /usr/bin/python3 scripts/plan.py read "$tmp/caplist.json"
expect 2 "'10x' is not a duration" scripts/run --budget 10x
expect 2 "--plan: '$tmp/none.json' is not a file" scripts/run --plan "$tmp/none.json"
pass "2: a short, boolean, other-version, non-JSON or oversized plan, a bad cap and a bad duration: one line, exit 2"

# 3. A budget plan, then a rerun from it. The core build's implementations (no process plugins, no Slurm), the
# scalable phases that are quick at their floors (conform's negative controls alone take 20 s); the run phase
# on the seed implementations.
export QC_NO_SETUP=1 QC_NO_PROCESS_PLUGINS=1 QC_NO_SLURM=1 QC_BUILD_DIR="$build" QC_PHASES=run,squad,curves,sweep-t
QC_OUT="$tmp/a" scripts/run --budget 20s --impl 'seed-*' 2>"$tmp/a.log" || { tail -5 "$tmp/a.log"; fail "3: scripts/run --budget 20s"; }
grep -q "plan:   run " "$tmp/a.log" || fail "3: the plan was not printed before the work"
/usr/bin/python3 - "$tmp/a/plan.json" <<'PY' || fail "3: the budget plan (above)"
import json, sys
sys.path.insert(0, "scripts")
import plan
doc = json.load(open(sys.argv[1]))
assert doc["mode"] == "budget" and doc["budget_s"] == 20, doc
for p in ("run", "squad", "curves", "sweep-t"):
    assert p in doc["at_floor"], f"{p} did not run at its floor first"
    assert doc["counts"][p] >= plan.floor_of(p), f"{p}: {doc['counts'][p]} < floor {plan.floor_of(p)}"
PY
QC_OUT="$tmp/b" scripts/run --plan "$tmp/a/plan.json" --impl 'seed-*' 2>"$tmp/b.log" || { tail -5 "$tmp/b.log"; fail "3: scripts/run --plan"; }
tables=(summary.csv worst_cases.csv error_curve.csv squad_summary.csv squad_worst_cases.csv velocity_curve.csv
        sweep-t/sweep_summary.csv sweep-t/sweep_curve.csv sweep-t/t_branch_map.csv sweep-t/worst_cases.csv)
for f in "${tables[@]}"; do
  [ -s "$tmp/a/$f" ] || fail "3: $f was not written"
  cmp -s "$tmp/a/$f" "$tmp/b/$f" || fail "3: $f differs in the rerun from the plan"
done
cmp -s "$tmp/a/plan.json" "$tmp/b/plan.json" || fail "3: the rerun's plan.json is not the plan it was given"
pass "3: a 20 s budget plan keeps every floor; the rerun from plan.json gives ${#tables[@]} identical tables"

# 3b. A plan's cases_for reaches quatcheck run: seed-ts.f64 at 500 of run's 2000 cases per region, the others at
# 2000 (summary.csv's cases per row), and run.json records the cap.
/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["counts"]["run"] = 2000; d["cases_for"] = {"seed-ts.f64": 500}; json.dump(d, open(sys.argv[2], "w"))' \
  "$tmp/a/plan.json" "$tmp/capped.json"
QC_PHASES=run QC_OUT="$tmp/d" scripts/run --plan "$tmp/capped.json" --impl 'seed-*' 2>"$tmp/d.log" || { tail -5 "$tmp/d.log"; fail "3b: scripts/run --plan with cases_for"; }
/usr/bin/python3 - "$tmp/d" <<'PY' || fail "3b: the capped rows (above)"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/summary.csv")))
cases = {(r["impl"], r["cases"]) for r in rows}
assert {c for i, c in cases if i == "seed-ts.f64"} == {"500"}, cases
assert {c for i, c in cases if i != "seed-ts.f64"} == {"2000"}, cases
assert json.load(open(sys.argv[1] + "/run.json"))["cases_for"] == [{"filter": "seed-ts.f64", "cases": 500}]
PY
grep -q "cases per region (capped: seed-ts.f64=500)" "$tmp/d.log" || fail "3b: quatcheck run's last line does not name the cap"
pass "3b: a plan's cases_for gives seed-ts.f64 500 cases per region and the others run's 2000"

# 4. Negative control: the same counts with another seed give other figures.
/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["seed"] = 2; json.dump(d, open(sys.argv[2], "w"))' \
  "$tmp/a/plan.json" "$tmp/seed2.json"
QC_PHASES=run QC_OUT="$tmp/c" scripts/run --plan "$tmp/seed2.json" --impl 'seed-*' 2>"$tmp/c.log" || { tail -5 "$tmp/c.log"; fail "4: scripts/run with seed 2"; }
cmp -s "$tmp/a/summary.csv" "$tmp/c/summary.csv" && fail "4: seed 2 gave the same summary.csv as seed 1"
grep -q '"seed": 2' "$tmp/c/run.json" || fail "4: run.json does not record seed 2"
pass "4: seed 2 with the same counts: another summary.csv"
