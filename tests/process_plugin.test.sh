#!/usr/bin/env bash
# Process plugins (--plugin-cmd, docs/plugin-protocol.md):
#  1. the reference C adapter (impls/process/c_adapter.c) gives, through the protocol, exactly the figures of
#     the same routines built in (seed-c, nlerp), and the comparison can fail (negative control);
#  2. a misbehaving adapter (crash, hang, garbage, wrong sequence number, wrong count, short answer) ends its
#     row with the right status and the triggering case (t > 0.75 is the trigger), never quatcheck;
#  3. an adapter that cannot start or sends a bad hello is refused with one line and exit status 2;
#  4. the JavaScript and Python adapters run (SKIP, visibly, only if node / node_modules / SciPy is absent).
# Usage: process_plugin.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
adapter="$build/process/c_adapter"
source "$src/tests/adapter_lib.sh"

# ---- 1. the list and exact round trips ----
"$qc" list --plugin-cmd "$adapter" >"$tmp/list" 2>&1 || fail "list with the C adapter: $(cat "$tmp/list")"
for i in proc-seed-c.f32 proc-seed-c.f64 proc-nlerp.f32 proc-nlerp.f64; do
  grep -q "^$i" "$tmp/list" || fail "list does not show $i"
done
grep -q "1.0" "$tmp/list" || fail "list does not show the adapter's library version"

"$qc" run --plugin-cmd "$adapter" --impl seed-c --impl nlerp --impl proc-seed-c --impl proc-nlerp \
  --cases 300 --jobs 2 --no-leaderboard --out "$tmp/same" 2>"$tmp/same.err" || fail "run with the C adapter: $(cat "$tmp/same.err")"
python3 - "$tmp/same" <<'PY' || failures=$((failures + 1))
import csv, os, sys
from collections import defaultdict
# The worst-case search seeds its generator with the implementation's name, so its column (and the max
# over sampling and search) legitimately differ between seed-c and proc-seed-c; every sampled figure and
# the whole error curve must be identical.
NAME_SEEDED = {"impl", "max_angle_err_search_rad", "max_angle_err_rad"}
rows = {(r["impl"], r["op"], r["region"]): r for r in csv.DictReader(open(os.path.join(sys.argv[1], "summary.csv")))}
curve = defaultdict(list)
for r in csv.DictReader(open(os.path.join(sys.argv[1], "error_curve.csv"))):
    curve[(r.pop("impl"), r["op"])].append(r)
def same(a, b):
    ra = {k: v for k, v in rows[a].items() if k not in NAME_SEEDED}
    rb = {k: v for k, v in rows[b].items() if k not in NAME_SEEDED}
    return ra == rb
pairs = [(k, ("proc-" + k[0], k[1], k[2])) for k in rows if k[0] in ("seed-c.f32", "seed-c.f64", "nlerp.f32", "nlerp.f64")]
if len(pairs) < 8:
    sys.exit(f"FAIL: expected the built-in rows of seed-c and nlerp, got {sorted(rows)}")
for a, b in pairs:
    if b not in rows:
        sys.exit(f"FAIL: no row {b}")
    if not same(a, b):
        sys.exit(f"FAIL: {b} differs from {a}:\n{rows[a]}\n{rows[b]}")
    if rows[b]["status"] != "ok":
        sys.exit(f"FAIL: {b} status {rows[b]['status']}")
    if not curve[(a[0], a[1])] or curve[(a[0], a[1])] != curve[(b[0], b[1])]:
        sys.exit(f"FAIL: the error curves of {a[0]} and {b[0]} ({a[1]}) differ or are empty")
# Negative controls: the comparison notices a different implementation (f32 seed vs f64 seed).
region = pairs[0][0][2]
if same(("seed-c.f32", "slerp", region), ("proc-seed-c.f64", "slerp", region)):
    sys.exit("FAIL: negative control: seed-c.f32 and proc-seed-c.f64 compare equal")
if curve[("seed-c.f32", "slerp")] == curve[("proc-seed-c.f64", "slerp")]:
    sys.exit("FAIL: negative control: the error curves of seed-c.f32 and proc-seed-c.f64 compare equal")
print(f"exact: {len(pairs)} rows and 4 error curves of the C adapter equal their built-in ones")
PY

# The worst-case search climbs by generations of mutants per round trip out of process
# (harness/search/search.cpp), each ending at its first step that changes the pool: the same path, so the same
# tables, as one case per call (--search-max-block 1, the in-process path) and whatever --jobs is, with at most half
# its round trips (run.json counts them). Negative control: another seed changes worst_cases.csv, so the
# comparisons can fail.
proc=(--plugin-cmd "$adapter" --impl proc-seed-c --impl proc-nlerp --cases 2000 --no-leaderboard)
"$qc" run "${proc[@]}" --jobs 2 --out "$tmp/blocks" 2>/dev/null || fail "run (search by generations)"
"$qc" run "${proc[@]}" --jobs 1 --out "$tmp/blocks1" 2>/dev/null || fail "run (search by generations, one job)"
"$qc" run "${proc[@]}" --search-max-block 1 --jobs 2 --out "$tmp/single" 2>/dev/null || fail "run (search one case per call)"
"$qc" run "${proc[@]}" --jobs 2 --seed 2 --out "$tmp/seed2" 2>/dev/null || fail "run --seed 2"
for f in worst_cases.csv summary.csv error_curve.csv; do
  cmp -s "$tmp/blocks/$f" "$tmp/blocks1/$f" || fail "$f differs between --jobs 2 and --jobs 1"
done
for f in worst_cases.csv summary.csv error_curve.csv; do
  cmp -s "$tmp/blocks/$f" "$tmp/single/$f" || fail "$f differs between generations and one case per call"
done
cmp -s "$tmp/blocks/worst_cases.csv" "$tmp/seed2/worst_cases.csv" && fail "negative control: --seed 2 gives the same worst_cases.csv"
python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import json, os, sys
def trips(d):
    j = json.load(open(os.path.join(sys.argv[1], d, "run.json")))
    t = {e["impl"]: e.get("process", {}).get("round_trips", 0) for e in j["implementations"]}
    return t["proc-seed-c.f64"]  # the family's count (every op and precision)
blocks, single = trips("blocks"), trips("single")
if not (0 < blocks < single / 2):
    sys.exit(f"FAIL: round trips of proc-seed-c: {blocks} by generations, {single} one case per call")
print(f"ok   search by generations: {blocks} round trips instead of {single}, the same tables, deterministic across --jobs")
PY

# What round trips cost (run.json, docs/plugin-protocol.md#sizes-and-cost): each family's counters are
# consistent, the run's total adds up the families (each once) and its share is the stated ratio; the
# generated docs block renders from it. No timing is asserted, only the arithmetic.
python3 - "$tmp/blocks/run.json" <<'PY' || failures=$((failures + 1))
import json, math, sys
j = json.load(open(sys.argv[1]))
fams = {}
for e in j["implementations"]:
    if "process" in e:
        fams.setdefault(e["impl"].rsplit(".", 1)[0], e["process"])
if sorted(fams) != ["proc-nlerp", "proc-seed-c"]:
    sys.exit(f"FAIL: process counters for {sorted(fams)}")
for name, p in fams.items():
    ok = (p["round_trips"] > 0 and 0 <= p["wait_overhead_s"] <= p["wait_s"] + 1e-6 and p["wait_s"] <= p["round_trip_s"] + 1e-6
          and 0 <= p["adapter_overhead_s"] <= p["adapter_cpu_s"] + 1e-6 and p["adapter_cpu_s"] > 0 and p["adapter_s"] > 0
          and p["adapters_started"] >= 0 and p["start_s"] >= 0)
    if not ok:
        sys.exit(f"FAIL: inconsistent process counters of {name}: {p}")
t = j["process_round_trips"]
want_trips = sum(p["round_trips"] for p in fams.values())
want_over = sum(p["wait_overhead_s"] + p["adapter_overhead_s"] for p in fams.values())
if t["round_trips"] != want_trips or not math.isclose(t["wait_overhead_s"] + t["adapter_overhead_s"], want_over, rel_tol=1e-9):
    sys.exit(f"FAIL: process_round_trips {t} does not add up the families ({want_trips} round trips, {want_over} s)")
if not (math.isclose(t["thread_time_s"], j["jobs"] * j["wall_time_s"], rel_tol=1e-9)
        and math.isclose(t["share"], want_over / t["thread_time_s"], rel_tol=1e-9)):
    sys.exit(f"FAIL: process_round_trips share {t} is not the overheads over jobs x wall time")
print(f"ok   round-trip cost counters add up: {want_trips} round trips, share {t['share']:.4f} of the thread time")
PY
/usr/bin/python3 "$src/scripts/readme/process_cost.py" "$tmp/blocks" >"$tmp/cost.md" 2>&1 || fail "process_cost.py: $(tail -1 "$tmp/cost.md")"
grep -q '`proc-seed-c`' "$tmp/cost.md" || fail "process_cost.py: no row for proc-seed-c"
mkdir -p "$tmp/noproc"
python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); j.pop("process_round_trips"); json.dump(j, open(sys.argv[2], "w"))' \
  "$tmp/blocks/run.json" "$tmp/noproc/run.json"
/usr/bin/python3 "$src/scripts/readme/process_cost.py" "$tmp/noproc" >/dev/null 2>&1 && fail "process_cost.py accepted a run without process_round_trips"

# Timing (issue 15 item 6): bench times an adapter with the nanoseconds it reports for its own batches
# (throughput rows only; no figure is asserted), and does not time an adapter that reports 0.
"$qc" bench --suite impls --plugin-cmd "$adapter" --impl proc-seed-c.f64 \
  --region uniform --min-time 0.01 --repetitions 2 --out "$tmp/bench" 2>"$tmp/bench.err" || fail "bench: $(cat "$tmp/bench.err")"
"$qc" bench --suite impls --plugin-cmd "$adapter notime" --impl proc-seed-c.f64 --region uniform --min-time 0.01 \
  --repetitions 2 --out "$tmp/bench0" 2>"$tmp/bench0.err" || fail "bench (notime): $(cat "$tmp/bench0.err")"
python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import csv, os, sys
rows = list(csv.DictReader(open(os.path.join(sys.argv[1], "bench", "timing.csv"))))
mine = [r for r in rows if r["impl"] == "proc-seed-c.f64"]
if [(r["op"], r["region"], r["mode"]) for r in mine] != [("slerp", "uniform", "throughput")] or not float(mine[0]["ns_per_call"]) > 0:
    sys.exit(f"FAIL: bench rows of the C adapter: {mine}")
rows0 = list(csv.DictReader(open(os.path.join(sys.argv[1], "bench0", "timing.csv"))))
if rows0:
    sys.exit(f"FAIL: negative control: an adapter that reports 0 ns was timed: {rows0}")
print(f"ok   bench times the C adapter from its own clock ({mine[0]['ns_per_call']} ns/call), not the 'notime' one")
PY

# ---- 2. misbehaving adapters: contained, with status and triggering case ----
check_mode crash crashed 'SIGSEGV'
check_mode hang timeout 'no answer within 1 s'
check_mode garbage out-of-bounds 'does not start with QCR1'
check_mode seq out-of-bounds 'sequence number'
check_mode count out-of-bounds 'outputs announced'
check_mode short crashed 'short answer'
# Negative control of the checker: the well-behaved adapter must not pass as failing.
# (Into a file: grep -q leaving a pipe early would end the subshell's later lines with SIGPIPE, and pipefail.)
( check_mode ok crashed '.' ) >"$tmp/control.out" 2>&1
grep -q "^FAIL: ok: uniform status 'ok'" "$tmp/control.out" || fail "negative control: check_mode accepted a healthy adapter as crashed"

# ---- 3. refused at load time: one line, exit 2 ----
expect_refused() {  # REGEX COMMAND [OPTION...]
  local re="$1"
  "$qc" list --plugin-cmd "$2" "${@:3}" >"$tmp/r.out" 2>"$tmp/r.err"
  local rc=$?
  if [ "$rc" -ne 2 ]; then fail "--plugin-cmd '$2': exit $rc, want 2"; return; fi
  if [ "$(wc -l <"$tmp/r.err")" -ne 1 ] || ! grep -Eq "$re" "$tmp/r.err"; then fail "--plugin-cmd '$2': stderr $(cat "$tmp/r.err")"; fi
}
expect_refused "^quatcheck: --plugin-cmd '.*badhello': refused: hello line 3: family name is not" "$adapter badhello"
expect_refused "refused: no complete hello within 5 s \(.*--hello-timeout" "$adapter nohello" --hello-timeout 5
expect_refused "refused: ended before its hello was complete \(exited with status 3" "$adapter exit"
expect_refused "refused: cannot start 'no-such-adapter-xyz': No such file" "no-such-adapter-xyz"
expect_refused "refused: hello does not start with 'quatcheck-plugin VERSION'" "echo hello"
expect_refused "unterminated ' quote" "$adapter 'ok"
expect_refused "^quatcheck: --plugin-cmd: empty command$" "   "
# Quoting as in a shell, without expansion: a quoted word reaches the adapter as one argument.
"$qc" list --plugin-cmd "'$adapter' \"ok\"" >/dev/null 2>"$tmp/q.err" || fail "a quoted command: $(cat "$tmp/q.err")"
expect_refused "refused: cannot start '\\\$HOME/x': No such file" '$HOME/x'
# The hello is parsed strictly (printf plays a one-shot adapter; \n is printf's, not the shell's).
h='quatcheck-plugin 1\nlibrary lib 1.0\n'
expect_refused "refused: protocol 'quatcheck-plugin 4' is not supported" "printf 'quatcheck-plugin 4\nend\n'"
# Protocol 2's op slerp_tau: only in a version-2 hello, and only beside slerp in the same precision.
expect_refused "refused: hello line 3: 'slerp_tau.f64' needs 'quatcheck-plugin 2'" \
  "printf '${h}family f slerp.f64 slerp_tau.f64\nend\n'"
expect_refused "refused: hello line 3: slerp_tau.f32 without slerp.f32" \
  "printf 'quatcheck-plugin 2\nlibrary lib 1.0\nfamily f slerp.f64 slerp_tau.f32\nend\n'"
expect_refused "refused: hello line 3: 'slerp.f16' is not OP.f32 or OP.f64" "printf '${h}family f slerp.f16\nend\n'"
# Protocol 3's squad ops: only in a version-3 hello; squad needs squad_setup or a squad-controls line.
h3='quatcheck-plugin 3\nlibrary lib 1.0\n'
expect_refused "refused: hello line 3: 'squad.f64' needs 'quatcheck-plugin 3'" "printf '${h}family f squad.f64\nend\n'"
expect_refused "refused: family 'f': squad.f64 needs squad_setup.f64 or a 'squad-controls f neighbours\|caller' line" \
  "printf '${h3}family f squad.f64\nend\n'"
expect_refused "refused: hello line 3: squad_setup.f32 without squad.f32" "printf '${h3}family f squad_setup.f32\nend\n'"
expect_refused "refused: hello line 4: 'squad-controls' is for a family with squad and without squad_setup" \
  "printf '${h3}family f squad.f64 squad_setup.f64\nsquad-controls f caller\nend\n'"
expect_refused "refused: hello line 4: expected 'squad-controls FAMILY neighbours'" \
  "printf '${h3}family f squad.f64\nsquad-controls f sideways\nend\n'"
expect_refused "refused: hello line 2: 'family' before 'library'" "printf 'quatcheck-plugin 1\nfamily f slerp.f64\nend\n'"
expect_refused "refused: hello line 4: family 'f' is declared twice" "printf '${h}family f slerp.f64\nfamily f nlerp.f64\nend\n'"
expect_refused "refused: hello line 2: library version is not" "printf 'quatcheck-plugin 1\nlibrary lib 1.0;x\nfamily f slerp.f64\nend\n'"
expect_refused "refused: hello line 3: 'slerp.f64' is listed twice" "printf '${h}family f slerp.f64 slerp.f64\nend\n'"
expect_refused "refused: hello declares no family" "printf '${h}end\n'"
expect_refused "refused: sent data after its hello's 'end' line" "printf '${h}family f slerp.f64\nend\nextra'"
expect_refused "refused: its hello exceeds 16384 bytes without an 'end' line" "yes quatcheck-plugin 1"
"$qc" list --plugin-cmd "$adapter" --plugin-cmd "$adapter" >/dev/null 2>"$tmp/dup.err"
[ $? -eq 2 ] && grep -q "refused: family 'proc-seed-c' already exists" "$tmp/dup.err" || fail "a duplicate family: $(cat "$tmp/dup.err")"

# ---- 4. the JavaScript and Python adapters ----
run_adapters() {  # NAME 'GLOB...' COMMAND...
  local name="$1" globs="$2"
  shift 2
  local args=()
  for c in "$@"; do args+=(--plugin-cmd "$c"); done
  local gl
  read -ra gl <<<"$globs"  # no pathname expansion of the globs
  for g in "${gl[@]}"; do args+=(--impl "$g"); done
  "$qc" run "${args[@]}" --cases 100 --jobs 2 --no-leaderboard --out "$tmp/$name" >"$tmp/$name.log" 2>&1
  local rc=$?
  if [ "$rc" -gt 1 ] || [ ! -f "$tmp/$name/summary.csv" ]; then fail "$name: exit $rc: $(head -3 "$tmp/$name.log")"; return; fi
  python3 - "$tmp/$name/summary.csv" "$name" <<'PY' || failures=$((failures + 1))
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if not rows:
    sys.exit(f"FAIL: {sys.argv[2]}: no rows")
for r in rows:
    if r["status"] != "ok":
        sys.exit(f"FAIL: {r['impl']} {r['op']} {r['region']}: {r['status']} ({r['status_detail']})")
    err = float(r["max_angle_err_rad"])
    # Loose sanity bound for slerp: every library's slerp takes the short arc (errors far below 0.1 rad),
    # so a scrambled component order or a wrong precision would show. nlerp rows are findings, not checked
    # here (gl-matrix's and math.gl's lerp-then-normalise do not flip the sign: the long arc).
    if r["op"] == "slerp" and not err < 0.1:
        sys.exit(f"FAIL: {r['impl']} {r['op']} {r['region']}: max angle error {err}")
print(f"{sys.argv[2]}: {len(rows)} rows ok: " + ", ".join(sorted({r['impl'] for r in rows})))
PY
}
js="$src/impls/js"
if ! command -v node >/dev/null; then
  echo "SKIP: JavaScript adapters: node is not installed (scripts/setup installs nodejs)"
elif [ ! -d "$js/node_modules" ]; then
  echo "SKIP: JavaScript adapters: $js/node_modules is missing (scripts/setup runs npm ci there)"
else
  run_adapters js 'three-* glmatrix-* playcanvas-* babylon-* mathgl-* cannon-*' "node $js/three.js" \
    "node $js/gl-matrix.js" "node $js/playcanvas.js" "node $js/babylonjs.js" "node $js/mathgl.js" "node $js/cannon-es.js"
  # The generated block of docs/plugin-protocol.md lists every library with its version (from the tool).
  "$qc" leaderboard "$tmp/js" >/dev/null 2>&1 || fail "leaderboard of the JavaScript run"
  /usr/bin/python3 "$src/scripts/readme/process_libraries.py" "$tmp/js" >"$tmp/block.md" 2>&1 || fail "process_libraries.py: $(tail -1 "$tmp/block.md")"
  for lib in "three.js | npm \`three\` | [0-9]" "gl-matrix | npm \`gl-matrix\` | [0-9]" "cannon-es | npm \`cannon-es\` | [0-9]"; do
    grep -q "^| $lib" "$tmp/block.md" || fail "process_libraries.py does not list '$lib'"
  done
  # One row per library (library_rows.py): three's version, its routines, its figure from the leaderboard.
  /usr/bin/python3 "$src/scripts/readme/library_rows_process.py" "$tmp/js" >"$tmp/rows.md" 2>&1 || fail "library_rows_process.py: $(tail -1 "$tmp/rows.md")"
  grep -q '^| three | [0-9][0-9.]* | `three-slerp`, `three-slerpflat` | [0-9.e+-]*: `three-' "$tmp/rows.md" || fail "library_rows_process.py has no row for three: $(head -3 "$tmp/rows.md")"
  # Negative control: a report without these libraries is refused, not printed as an empty table.
  "$qc" leaderboard "$tmp/same" >/dev/null 2>&1
  /usr/bin/python3 "$src/scripts/readme/process_libraries.py" "$tmp/same" >/dev/null 2>&1 && fail "process_libraries.py accepted a report without the libraries"
  /usr/bin/python3 "$src/scripts/readme/library_rows_process.py" "$tmp/same" >/dev/null 2>&1 && fail "library_rows_process.py accepted a report without the libraries"
fi
if /usr/bin/python3 -c 'import scipy.spatial.transform' 2>/dev/null; then
  run_adapters scipy 'scipy-*' "/usr/bin/python3 $src/impls/python/scipy_adapter.py"
else
  echo "SKIP: SciPy adapter: /usr/bin/python3 cannot import scipy (Debian python3-scipy)"
fi

finish
