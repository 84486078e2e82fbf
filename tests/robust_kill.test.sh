#!/usr/bin/env bash
# Nothing lost: runs are killed at random moments (SIGTERM, SIGINT, SIGKILL; during sampling, during the
# report writing, or after it) and every file present afterwards must be complete and parseable; the
# previous complete report stays in --out until a new complete one replaces it; SIGINT/SIGTERM stop the
# run within a second and leave a partial report marked partial beside it (OUT.partial).
# Usage: robust_kill.test.sh BUILD_DIR SOURCE_DIR [ITERATIONS]
source "$(dirname "$0")/lib.sh" "$@"
keep_going
iterations="${3:-10}"
out="$tmp/reports/latest"
args=(--impl seed-c --impl nlerp --cases 400 --jobs 2 --out "$out")

t0=$(date +%s.%N)
"$qc" run "${args[@]}" 2>/dev/null || { echo "FAIL: the first complete run"; exit 1; }
# Size the runs to last about a second on this machine (so signals land in every phase), 400..5000 cases.
cases=$(python3 -c "print(max(400, min(5000, int(400 / max(1e-3, $(date +%s.%N) - $t0)))))")
args=(--impl seed-c --impl nlerp --cases "$cases" --jobs 2 --out "$out")
t0=$(date +%s.%N)
"$qc" run "${args[@]}" 2>/dev/null || { echo "FAIL: the second complete run"; exit 1; }
# Signals land anywhere from start-up to just after the end: sampling, report writing, renaming.
span=$(python3 -c "print(round(1.15 * ($(date +%s.%N) - $t0), 2))")
echo "$cases cases per region: a complete run takes about $(python3 -c "print(round($span / 1.15, 2))") s; signals land in [0.05, $span] s"

check() {  # every visible file complete and parseable; --out complete; .partial marked partial
    python3 - "$out" "$out.partial" <<'PY'
import csv, json, os, sys
latest, partial = sys.argv[1], sys.argv[2]
bad = []
def check_dir(d, want_partial):
    names = sorted(n for n in os.listdir(d) if not n.startswith("."))
    for want in ("summary.csv", "worst_cases.csv", "error_curve.csv", "run.json"):
        if want not in names:
            bad.append(f"{d}: {want} missing")
    for n in names:
        p = os.path.join(d, n)
        if not os.path.isfile(p):
            continue
        data = open(p, "rb").read()
        if not data.endswith(b"\n"):
            bad.append(f"{p}: truncated (no final newline)")
            continue
        text = data.decode("utf-8")
        if n.endswith(".csv"):
            rows = list(csv.reader(text.splitlines()))
            width = len(rows[0])
            for k, r in enumerate(rows[1:], 2):
                if len(r) != width:
                    bad.append(f"{p}:{k}: {len(r)} columns, header has {width}")
        if n.endswith(".json"):
            j = json.loads(text)
            if n == "run.json" and j.get("partial") is not want_partial:
                bad.append(f"{p}: partial is {j.get('partial')}, want {want_partial}")
    if want_partial and "PARTIAL" not in names:
        bad.append(f"{d}: no PARTIAL marker")
check_dir(latest, False)
if os.path.isdir(partial):
    check_dir(partial, True)
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
}

# Negative control: the check catches a truncated file.
cp "$out/summary.csv" "$tmp/summary.good"
printf 'seed-c.f64,slerp' >>"$out/summary.csv"
if check >/dev/null; then echo "FAIL: the check accepted a truncated summary.csv"; exit 1; fi
cp "$tmp/summary.good" "$out/summary.csv"
check || exit 1

signals=(TERM INT KILL TERM INT)
for ((k = 1; k <= iterations; k++)); do
    sig=${signals[$((RANDOM % ${#signals[@]}))]}
    delay=$(python3 -c "import random; print(round(random.uniform(0.05, $span), 2))")
    "$qc" run "${args[@]}" 2>"$tmp/err" &
    pid=$!
    sleep "$delay"
    t0=$(date +%s.%N)
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid"
    status=$?
    stop=$(python3 -c "print(round($(date +%s.%N) - $t0, 2))")
    verdict="ok"
    case "$status" in
    0) what="finished before the signal" ;;
    130 | 143) what="stopped, partial report" ;;
    137) what="killed" ;;
    *) what="unexpected exit $status"; verdict="FAIL"; cat "$tmp/err" ;;
    esac
    if [[ $sig != KILL && $status != 0 ]] && python3 -c "import sys; sys.exit(0 if $stop <= 1.0 else 1)"; then :;
    elif [[ $sig != KILL && $status != 0 ]]; then
        verdict="FAIL"; what="$what, but took $stop s to stop (want <= 1 s)"
    fi
    check || verdict="FAIL"
    echo "$verdict  iteration $k: SIG$sig after ${delay}s -> exit $status ($what), stop ${stop}s"
    [[ $verdict == ok ]] || failures=$((failures + 1))
done
# Staging folders of killed runs are removed by the next run; at most the last one may remain.
staging=$(find "$out" -maxdepth 1 -name '.staging-*' | wc -l)
((staging <= 1)) || fail "$staging stale staging folders in $out"
# No worker or run process may survive.
! pgrep -f "$out" >/dev/null || fail "processes left behind"
echo "$failures failure(s) in $iterations iterations"
[[ $failures -eq 0 ]]
