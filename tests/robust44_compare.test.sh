#!/usr/bin/env bash
# Robustness, fourth pass (issue 44): `quatcheck compare`. Each check names the defect of the issue it covers:
#   8  rows are matched through a hash, not a scan per row: two 100,000-row folders compare within 20 s (or 10 s
#      of CPU; a scan per row took 10 s at 40,000 rows and grows with the square), the regressions named are exactly the
#      rows made worse, and on a small pair with every kind of finding the output is byte for byte the one
#      compare printed before the change;
#   9  (also inside the parse of one 600,000-row file: the table reader polls the signal every 4096 lines)
#   9  SIGTERM while compare reads the folders or matches their rows: exit 143 within 2 s (or 1 s of its own CPU
#      time, on a machine loaded by other tests) with one stderr line
#      "interrupted by SIGTERM", the earlier junit.xml in --out kept, and no staging folder or lock beside it
#      (compare polls before each file it reads and per row it matches; the parse of one file is not
#      interrupted, which is why the folders read here have 40,000 rows: about 0.4 s of CPU per file);
#   16 a baseline run with another --seed: compare notes both seeds (as it notes different case counts, the
#      exit status unchanged); the same seed: no such note.
# Usage: robust44_compare.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
now() { date +%s.%N; }
took() { python3 -c "print(round($(now) - $1, 2))"; }
under() { python3 -c "import sys; sys.exit(0 if $1 < $2 else 1)"; }  # under SECONDS LIMIT
fingerprint() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum) 2>/dev/null | sha256sum; }
leftovers() { find "$1" -maxdepth 2 \( -name '.*staging*' -o -name '.*.lock' -o -name '*.tmp-*' -o -name '.*.old-*' \) | head -3; }
# cpu PID: the CPU seconds the running process PID has used, user and system.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# ended PID: PID has exited (a child not yet waited for is a zombie: it counts as ended).
ended() {
  local state
  state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 0
  [[ -z "$state" || "$state" == Z ]]
}

# Report folders made from the rows of a small real run (so that they hold every column the readers
# require), with the figures compare prints set here:
#   pair B C        a baseline and a current folder with one finding of every kind;
#   big SRC OUT N W N summary rows, copy k of SRC's rows renamed NAME-k.f32 / NAME-k.f64 (precision kept);
#                   W > 0: every W-th row's angle error x 10 (a regression) with a worst case in
#                   worst_cases.csv, and the names of those rows in OUT.worse.
make() { python3 - "$@" <<'PY'
import csv, json, os, sys
small = os.environ["SMALL"]
def rows(name): return list(csv.DictReader(open(f"{small}/{name}")))
def write(path, fields, rs):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n"); w.writeheader(); w.writerows(rs)
def folder(out, summary, worst=(), conformance=None, timing=None, seed=1):
    os.makedirs(out)
    write(f"{out}/summary.csv", list(rows("summary.csv")[0].keys()), summary)
    if worst: write(f"{out}/worst_cases.csv", list(rows("worst_cases.csv")[0].keys()), worst)
    if conformance is not None: write(f"{out}/conformance.csv", list(rows("conformance.csv")[0].keys()), conformance)
    if timing is not None: write(f"{out}/timing.csv", list(rows("timing.csv")[0].keys()), timing)
    impls = sorted({r["impl"] for r in summary})
    json.dump({"seed": seed, "cases_per_region": 1000,
               "implementations": [{"impl": i, "group": "seed", "origin": "builtin"} for i in impls]},
              open(f"{out}/run.json", "w"))
S, W = rows("summary.csv")[0], rows("worst_cases.csv")[0]
def s(impl, region, angle, ulp1, nonfinite=0, status="ok", cases=1000):
    return dict(S, impl=impl, region=region, max_angle_err_rad=angle, max_ulp1=ulp1, nonfinite=nonfinite,
                status=status, cases=cases)
def w(impl, region):
    q = dict(W, impl=impl, region=region, t="0x1p-1", angle_err_rad="3e-15", ulp1="1.5")
    for k, v in zip("wxyz", ("0x1p-1", "-0x1p-1", "0x1p-1", "-0x1p-1")):
        q[f"q0_{k}"] = q[f"q1_{k}"] = q[f"out_{k}"] = v
    return q
C = rows("conformance.csv")[0]
def c(impl, prop, verdict): return dict(C, impl=impl, property=prop, verdict=verdict, counterexample="0x1p-1 0x0p+0",
                                        reproduce=f"quatcheck conform --impl {impl} --property {prop}")
T = rows("timing.csv")[0]
def t(region, mode, ns): return dict(T, impl="a.f64", region=region, mode=mode, ns_per_call=ns)
if sys.argv[1] == "pair":
    folder(sys.argv[2], [s("a.f64", "uniform", "1e-15", "1"), s("a.f64", "near-0", "1e-14", "1"),
                         s("b.f32", "uniform", "1e-06", "3"), s("b.f32", "near-pi", "2e-06", "1"),
                         s("c.f64", "uniform", "1e-16", "1", status="crashed"), s("gone.f64", "uniform", "1e-16", "1")],
           conformance=[c("a.f64", "unit", "pass"), c("b.f32", "unit", "fail"), c("gone.f64", "unit", "pass")],
           timing=[t("uniform", "throughput", "10"), t("near-0", "latency", "20"), t("near-pi", "latency", "5")])
    folder(sys.argv[3], [s("new.f64", "uniform", "1e-16", "1"), s("a.f64", "uniform", "3e-15", "1"),
                         s("a.f64", "near-0", "1e-14", "1", nonfinite=2), s("b.f32", "uniform", "1e-07", "1"),
                         s("b.f32", "near-pi", "2e-06", "7", cases=2000), s("c.f64", "uniform", "1e-16", "1")],
           worst=[w("a.f64", "near-0"), w("a.f64", "uniform")],
           conformance=[c("a.f64", "unit", "fail"), c("b.f32", "unit", "pass")],
           timing=[t("uniform", "throughput", "40"), t("near-0", "latency", "5")])
else:
    src, out, n, every = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    base = list(csv.DictReader(open(f"{src}/summary.csv")))
    summary, worst, worse = [], [], []
    for i in range(n):
        r = dict(base[i % len(base)])
        stem, _, suffix = r["impl"].rpartition(".")
        r["impl"] = f"{stem}-{i // len(base)}.{suffix}"
        if every and i % every == 0:
            r["max_angle_err_rad"] = repr(float(r["max_angle_err_rad"]) * 10)
            worst.append(w(r["impl"], r["region"]))
            worse.append(f'{r["impl"]} {r["op"]} {r["region"]}')
        summary.append(r)
    folder(out, summary, worst)
    open(f"{out}.worse", "w").write("".join(x + "\n" for x in sorted(worse)))
PY
}

# A small real run: the templates of the rows.
"$qc" run --impl 'seed-c.*' --op slerp --cases 200 --no-leaderboard --out "$tmp/small" >/dev/null 2>&1 ||
  fail "the small run"
"$qc" conform --impl 'seed-c.f64' --op slerp --cases 20 --out "$tmp/small" >/dev/null 2>&1 || fail "the small conform"
"$qc" bench --impl 'seed-c.f64' --region uniform --suite impls --min-time 0.001 --out "$tmp/small" >/dev/null 2>&1 ||
  fail "the small bench"
export SMALL="$tmp/small"

# ---- 8. a hashed compare: linear time, and the output of the scan it replaces ----
# (a) A small pair with every kind of finding: stdout, exit status and the two files are those of compare
# before the hash (c620a57), byte for byte.
make pair "$tmp/gb" "$tmp/gc" || fail "8: making the small pair"
(cd "$tmp" && "$qc" compare gb gc --out go >go.out 2>go.err; echo "exit $?" >>go.out)
# The reproduce commands name worst_cases.csv by its absolute path (issue 38): the temporary folder is cut out.
sed -i "s|$tmp/||g" "$tmp/go.out" "$tmp/go/junit.xml" "$tmp/go/compare.md"
cat >"$tmp/go.want" <<'EOF'
quatcheck compare gb (baseline) gc (current)
change            suite        impl      op     region/property     metric             baseline                 current
REGRESSION        accuracy     a.f64     slerp  uniform             max_angle_err_rad  1e-15                    3e-15                    3x the baseline, above the floor 1.78e-15 rad
REGRESSION        accuracy     a.f64     slerp  near-0              nonfinite          0                        2                        new non-finite outputs
REGRESSION        accuracy     b.f32     slerp  near-pi             max_ulp1           1                        7                        7x the baseline, above the floor 2 ulp1
REGRESSION        conformance  a.f64     slerp  unit                verdict            pass                     fail                     new fail
improvement       accuracy     b.f32     slerp  uniform             max_angle_err_rad  1e-06                    1e-07                    10x better
improvement       accuracy     b.f32     slerp  uniform             max_ulp1           3                        1                        3x better
improvement       accuracy     c.f64     slerp  uniform             status             crashed                  ok                       no longer fails
improvement       conformance  b.f32     slerp  unit                verdict            fail                     pass                     no longer fails
only in baseline  accuracy     gone.f64  slerp  uniform             row                max_angle_err_rad 1e-16  -                        missing from the current run
only in baseline  conformance  gone.f64  slerp  unit                verdict            pass                     -                        missing from the current run
only in baseline  timing       a.f64     slerp  near-pi/latency     ns_per_call        5                        -                        missing from the current run
only in current   accuracy     new.f64   slerp  uniform             row                -                        max_angle_err_rad 1e-16  not in the baseline
slower            timing       a.f64     slerp  uniform/throughput  ns_per_call        10                       40                       4x slower
faster            timing       a.f64     slerp  near-0/latency      ns_per_call        20                       5                        4x faster
note: some rows have 1000 cases in the baseline and 2000 in the current run: maxima over different sample sizes are not directly comparable
FAIL accuracy a.f64 slerp uniform: max_angle_err_rad 1e-15 -> 3e-15 (3x the baseline, above the floor 1.78e-15 rad)
    baseline: status=ok cases=1000 nonfinite=0 max_angle_err_rad=1e-15 max_ulp1=1
    current:  status=ok cases=1000 nonfinite=0 max_angle_err_rad=3e-15 max_ulp1=1
    the case behind max_angle_err_rad (gc/worst_cases.csv:3): q0=(0x1p-1 -0x1p-1 0x1p-1 -0x1p-1) q1=(0x1p-1 -0x1p-1 0x1p-1 -0x1p-1) t=0x1p-1 out=(0x1p-1 -0x1p-1 0x1p-1 -0x1p-1) angle_err_rad=3e-15 ulp1=1.5; reproduce: quatcheck replay gc/worst_cases.csv
    reproduce the row: quatcheck run --impl a.f64 --op slerp --region uniform --cases 1000 --seed 1 --no-leaderboard --out reproduce
FAIL accuracy a.f64 slerp near-0: nonfinite 0 -> 2 (new non-finite outputs)
    baseline: status=ok cases=1000 nonfinite=0 max_angle_err_rad=1e-14 max_ulp1=1
    current:  status=ok cases=1000 nonfinite=2 max_angle_err_rad=1e-14 max_ulp1=1
    the case behind max_angle_err_rad (gc/worst_cases.csv:2): q0=(0x1p-1 -0x1p-1 0x1p-1 -0x1p-1) q1=(0x1p-1 -0x1p-1 0x1p-1 -0x1p-1) t=0x1p-1 out=(0x1p-1 -0x1p-1 0x1p-1 -0x1p-1) angle_err_rad=3e-15 ulp1=1.5; reproduce: quatcheck replay gc/worst_cases.csv
    reproduce the row: quatcheck run --impl a.f64 --op slerp --region near-0 --cases 1000 --seed 1 --no-leaderboard --out reproduce
FAIL accuracy b.f32 slerp near-pi: max_ulp1 1 -> 7 (7x the baseline, above the floor 2 ulp1)
    baseline: status=ok cases=1000 nonfinite=0 max_angle_err_rad=2e-06 max_ulp1=1
    current:  status=ok cases=2000 nonfinite=0 max_angle_err_rad=2e-06 max_ulp1=7
    worst case: not recorded (no worst_cases.csv row)
    reproduce the row: quatcheck run --impl b.f32 --op slerp --region near-pi --cases 1000 --seed 1 --no-leaderboard --out reproduce
FAIL accuracy gone.f64 slerp uniform: row only in the baseline: missing from the current run
    The baseline has it and the current run does not: an implementation, op, region, property or table was not run (a library missing on this machine?). Rerun it, update the baseline, or pass --allow-missing.
FAIL conformance a.f64 slerp unit: verdict pass -> fail
    counterexample: 0x1p-1 0x0p+0
    reproduce: quatcheck conform --impl a.f64 --property unit
FAIL conformance gone.f64 slerp unit: property only in the baseline: missing from the current run
    The baseline has it and the current run does not: an implementation, op, region, property or table was not run (a library missing on this machine?). Rerun it, update the baseline, or pass --allow-missing.
FAIL: 4 regression(s), 4 improvement(s), 1 slower / 1 faster timing row(s), 3 row(s) only in the baseline (2 row(s) or table(s) missing: a failure), 1 only in the current run; 9 row(s) matched
quatcheck compare: junit.xml and compare.md in go
exit 1
EOF
if diff "$tmp/go.want" "$tmp/go.out" >"$tmp/go.diff" && [[ ! -s "$tmp/go.err" ]]; then pass "8: the small pair's text is the scan's, byte for byte"
else fail "8: the small pair's text differs from the scan's: $(head -c 1500 "$tmp/go.diff") stderr: $(head -2 "$tmp/go.err")"; fi
got=$(cd "$tmp/go" && sha256sum junit.xml compare.md | cut -c1-16 | tr '\n' ' ')
if [[ "$got" == "4f5e22a1b93a4bed 21ddbd221feb6498 " ]]; then pass "8: junit.xml and compare.md are the scan's, byte for byte"
else fail "8: junit.xml and compare.md differ from the scan's: sha256 $got"; fi

# (b) 100,000 rows a side, every 7th made worse: within 20 s (the scan per row needed minutes), and the
# failed rows named are exactly those.
n=100000
make big "$tmp/small" "$tmp/b" $n 0 && make big "$tmp/small" "$tmp/c" $n 7 || fail "8: making the $n-row folders"
# Within 20 s; on a machine so loaded that the wall clock says little, within 10 s of its own CPU time (it
# needs about 2 s here; the scan took 10 s of CPU at 40,000 rows).
TIMEFORMAT='%R %U %S'
{ time timeout -k 1 60 "$qc" compare "$tmp/b" "$tmp/c" --out "$tmp/o" >"$tmp/big.out" 2>"$tmp/big.err"; } 2>"$tmp/big.time"
st=$?
read -r secs user sys < <(tail -1 "$tmp/big.time")  # (after a "Killed" line, if it came to that)
cpu_s=$(python3 -c "print(round($user + $sys, 2))")
regressed=$(wc -l <"$tmp/c.worse")
verdict="FAIL: $regressed regression(s), 0 improvement(s), 0 slower / 0 faster timing row(s), 0 row(s) only in the baseline, 0 only in the current run; $n row(s) matched"
if [[ $st -eq 1 ]] && { under "$secs" 20 || under "$cpu_s" 10; } && [[ "$(tail -2 "$tmp/big.out" | head -1)" == "$verdict" ]]; then
  pass "8: $n rows a side compared in $secs s ($cpu_s s of CPU): $verdict"
else
  fail "8: $n rows a side: exit $st in $secs s, $cpu_s s of CPU (want 1 within 20 s): $(tail -2 "$tmp/big.out" | head -1) $(head -2 "$tmp/big.err")"
fi
sed -n 's/^FAIL accuracy \(.*\): max_angle_err_rad .*/\1/p' "$tmp/big.out" | sort >"$tmp/big.named"
if [[ -s "$tmp/big.named" ]] && cmp -s "$tmp/big.named" "$tmp/c.worse"; then pass "8: the $regressed failed rows named are the rows made worse"
else fail "8: the failed rows named ($(wc -l <"$tmp/big.named")) are not the $regressed rows made worse"; fi

# ---- 9. SIGTERM while reading or matching: exit 143 within 2 s, --out as it was ----
# interrupt PHASE BASELINE CURRENT: compare gets SIGTERM in PHASE: `reading` (0.2 s after its handler is
# installed: the baseline is being read) or `matching` (once every file of both folders has been read, from
# /proc/PID/io).
# (The scan per row took 10 s at 40,000 rows and did not poll, nor did the reading: it went on to the end.)
make big "$tmp/small" "$tmp/b40" 40000 0 && make big "$tmp/small" "$tmp/c40" 40000 7 || fail "9: making the folders"
read_all() {
  local r
  r=$(awk '/^rchar:/ { print $2 }' "/proc/$1/io" 2>/dev/null) && [[ -n "$r" && $r -ge $all_bytes ]]
}
interrupt() {
  local phase=$1 out="$tmp/i/out"
  all_bytes=$(cat "$2"/* "$3"/* | wc -c)
  rm -rf "$tmp/i" && mkdir -p "$out" && echo "an earlier junit.xml" >"$out/junit.xml"
  local fp
  fp=$(fingerprint "$tmp/i")
  "$qc" compare "$2" "$3" --out "$out" >"$tmp/i.out" 2>"$tmp/i.err" &
  local pid=$!
  case $phase in
  reading) wait_for 10 catches_term $pid && sleep 0.2 ;;
  matching) wait_for 60 read_all $pid ;;
  esac
  if ended $pid; then
    wait $pid
    fail "9: compare ended (exit $?) before SIGTERM in its $phase phase: make the folders larger"
    return
  fi
  local t0 c0 c1 t1 secs cpu_s st ticks=100
  t0=$(now)
  c0=$(cpu $pid) && c1=$c0
  kill -TERM $pid
  # Up to 5 s, sampling its CPU time while it runs (a zombie's is no longer the whole process's).
  while ! ended $pid && ((ticks-- > 0)); do
    c1=$(cpu $pid)
    sleep 0.05
  done
  ended $pid || kill -KILL $pid
  t1=$(now)
  cpu_s=$(python3 -c "print(round($c1 - $c0, 2))")
  wait $pid
  st=$?
  secs=$(python3 -c "print(round($t1 - $t0, 2))")
  # Within 2 s; on a machine so loaded that the wall clock says little, within 1 s of its own CPU time.
  if [[ $st -ne 143 ]] || ! { under "$secs" 2 || under "$cpu_s" 1; }; then
    fail "9: SIGTERM while $phase: exit $st after $secs s, $cpu_s s of CPU (want 143 within 2 s)"
  elif [[ $(wc -l <"$tmp/i.err") -ne 1 ]] || ! grep -q '^quatcheck: compare: interrupted by SIGTERM' "$tmp/i.err"; then
    fail "9: SIGTERM while $phase: stderr $(head -3 "$tmp/i.err")"
  elif [[ "$(fingerprint "$tmp/i")" != "$fp" ]]; then fail "9: SIGTERM while $phase: --out changed: $(ls -A "$tmp/i" "$out")"
  elif lo=$(leftovers "$tmp/i"); [[ -n "$lo" ]]; then fail "9: SIGTERM while $phase: leftovers $lo"
  else pass "9: SIGTERM while $phase: exit 143 in $secs s ($cpu_s s of CPU), --out as it was: $(cat "$tmp/i.err")"
  fi
}
interrupt reading "$tmp/b40" "$tmp/c40"
interrupt matching "$tmp/b" "$tmp/c"

# ---- 16. another --seed: noted, like different case counts ----
for run in 1:a 1:b 2:a; do
  "$qc" run --impl seed-c.f64 --op slerp --region uniform --region near-0 --cases 200 --seed "${run%:*}" \
    --no-leaderboard --out "$tmp/seed${run/:/}" >/dev/null 2>&1 || fail "16: run --seed ${run%:*}"
done
note_of() { grep -- '^note: .*--seed' "$1" || true; }
"$qc" compare "$tmp/seed1a" "$tmp/seed2a" --out "$tmp/so" >"$tmp/seed.out" 2>"$tmp/seed.err"
st=$?
want="note: the baseline ran with --seed 1 and the current run with --seed 2: the gate compares maxima over different cases"
if [[ $st -le 1 && "$(note_of "$tmp/seed.out")" == "$want"* ]] && grep -qF -- '--seed 1 and the current run with --seed 2' "$tmp/so/compare.md"
then pass "16: $(note_of "$tmp/seed.out" | cut -c1-150)..."
else fail "16: seeds 1 and 2: exit $st, note '$(note_of "$tmp/seed.out")', compare.md $(grep -c -- '--seed' "$tmp/so/compare.md")"; fi
# The same seed: no note (the negative control), the comparison as clean as the baseline.
"$qc" compare "$tmp/seed1a" "$tmp/seed1b" --out "$tmp/so1" >"$tmp/seed1.out" 2>&1
st=$?
if [[ $st -eq 0 && -z "$(note_of "$tmp/seed1.out")" ]]; then pass "16: the same seed: no seed note, exit 0"
else fail "16: the same seed: exit $st, note '$(note_of "$tmp/seed1.out")'"; fi

# ---- 9, inside one file: SIGTERM while compare parses a single 600,000-row summary.csv (about 6 s of CPU) ----
mkdir -p "$tmp/one/a"
cp "$tmp/small/run.json" "$tmp/one/a/"
/usr/bin/python3 - "$tmp/small/summary.csv" "$tmp/one/a/summary.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
for i in range(600000):
    r = dict(rows[0]); r["impl"] = f"x{i}.f64"; w.writerow(r)
PY
cp -r "$tmp/one/a" "$tmp/one/b"
"$qc" compare "$tmp/one/a" "$tmp/one/b" --out "$tmp/one/o" >/dev/null 2>"$tmp/one.err" &
cpid=$!
sleep 1
t0=$(date +%s%N)
kill -TERM $cpid
wait $cpid
crc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
if [[ $crc == 143 && $ms -lt 2000 ]] && grep -q "interrupted by SIGTERM" "$tmp/one.err"; then
  pass "9: SIGTERM inside the parse of one 600,000-row file: exit 143 after $ms ms"
else fail "9: SIGTERM inside the parse of one 600,000-row file: exit $crc after $ms ms: $(head -2 "$tmp/one.err")"; fi
finish
