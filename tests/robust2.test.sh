#!/usr/bin/env bash
# Robustness, second pass (issue 14): each class of attack, its expected exit status and stderr shape.
#  - a report folder is replaced as a whole, in one step, under a lock: a second writer gets one line and
#    exit 2; a failed run leaves no empty --out; a stale shard.bin never survives into an unsharded report;
#    other commands' files are carried over;
#  - SIGINT/SIGTERM in every long phase of every long command: exit 128 + sig within a second, one stderr
#    line, --out untouched, nothing left beside it (run: a partial report in OUT.partial).
# Usage: robust2.test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build="$1"
qc="$build/quatcheck"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok   $*"; }

small=(--impl seed-c.f64 --op slerp --region uniform --cases 200 --jobs 1)
# A fingerprint of a folder: every file's name and content (hidden files included).
fingerprint() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum) 2>/dev/null | sha256sum; }
# Leftovers beside a report folder: staging folders, lock files, temporaries.
leftovers() { find "$1" -maxdepth 2 \( -name '.*staging*' -o -name '.*.lock' -o -name '*.tmp-*' -o -name '.*.old-*' \) | head -3; }

# ---- 2. the report folder: lock, one-step swap, no empty folder, no stale shard.bin ----
out="$tmp/r/out"
"$qc" run "${small[@]}" --shard 1/2 --out "$out" 2>/dev/null || fail "sharded run"
[[ -f "$out/shard.bin" ]] || fail "the sharded run wrote no shard.bin (the check below would be vacuous)"
"$qc" run "${small[@]}" --out "$out" 2>/dev/null || fail "unsharded run"
if [[ -e "$out/shard.bin" ]]; then fail "stale shard.bin survived into an unsharded report"; else pass "no stale shard.bin"; fi

# Another command's table is carried over; the folder itself is a new one (swapped in, not edited).
"$qc" conform --impl seed-c.f64 --op slerp --cases 20 --out "$out" >/dev/null 2>&1 || fail "conform"
[[ -f "$out/conformance.csv" ]] || fail "conform wrote no conformance.csv"
echo "my notes" >"$out/notes.txt"
inode=$(stat -c %i "$out")
"$qc" run "${small[@]}" --seed 7 --out "$out" 2>/dev/null || fail "run after conform"
if [[ -f "$out/conformance.csv" && "$(cat "$out/notes.txt")" == "my notes" ]]; then pass "other files carried over"
else fail "conformance.csv or notes.txt lost by the swap"; fi
if [[ "$(stat -c %i "$out")" != "$inode" ]]; then pass "the folder was swapped in as a whole"
else fail "the report folder was edited in place (same inode), not swapped in one step"; fi
grep -q '"seed": 7' "$out/run.json" || fail "run.json is not the new run's"
lo=$(leftovers "$tmp/r"); [[ -z "$lo" ]] && pass "nothing left beside --out" || fail "leftovers: $lo"

# A run that fails after the folder was opened leaves no empty --out and no OUT.partial.
"$qc" run --impl no-such-impl --cases 10 --out "$tmp/new/deeper/out" >/dev/null 2>"$tmp/err"
st=$?
if [[ $st -eq 2 && ! -e "$tmp/new" ]]; then pass "failed run: exit 2, nothing created"
else fail "failed run: exit $st, left: $(find "$tmp/new" 2>/dev/null | head -3 | tr '\n' ' ')"; fi

# Two writers: while one run holds the folder, a second gets one line and exit 2; the first completes.
before=$(fingerprint "$out")
"$qc" run --impl seed-c.f64 --op slerp --cases 200000 --jobs 1 --out "$out" 2>/dev/null &
first=$!
for _ in $(seq 100); do [[ -e "$tmp/r/.out.lock" ]] && break; sleep 0.05; done
"$qc" run "${small[@]}" --out "$out" >/dev/null 2>"$tmp/err"
st=$?
if [[ $st -eq 2 && $(wc -l <"$tmp/err") -eq 1 ]] && grep -q 'being written by another quatcheck' "$tmp/err"; then
    pass "second writer: exit 2, $(cat "$tmp/err")"
else fail "second writer: exit $st: $(head -2 "$tmp/err")"; fi
[[ "$(fingerprint "$out")" == "$before" ]] || fail "the refused writer changed --out"
kill -TERM $first 2>/dev/null
wait $first

# ---- 1. signals in every phase ----
# interrupt SIG DELAY CMD...: CMD gets SIG after DELAY s; it must exit 128 + sig within a second, with one
# stderr line, leave --out as it was, and leave nothing beside it but (for run) OUT.partial.
interrupt() {
    local sig=$1 delay=$2
    shift 2
    local want=$((128 + $(kill -l "$sig")))
    rm -rf "$out.partial"
    local fp
    fp=$(fingerprint "$out")
    "$@" >/dev/null 2>"$tmp/err" &
    local pid=$!
    sleep "$delay"
    if ! kill -0 $pid 2>/dev/null; then
        wait $pid
        fail "$* ended (exit $?) before SIG$sig at $delay s: make it longer"
        return
    fi
    local t0 t1
    t0=$(date +%s.%N)
    kill -"$sig" $pid
    wait $pid
    local st=$?
    t1=$(date +%s.%N)
    local took
    took=$(python3 -c "print(round($t1 - $t0, 2))")
    local lines
    lines=$(wc -l <"$tmp/err")
    if [[ $st -ne $want ]]; then fail "$1 $2 SIG$sig at $delay s: exit $st (want $want): $(tail -1 "$tmp/err")"
    elif python3 -c "import sys; sys.exit(0 if $took <= 1.0 else 1)"; [[ $? -ne 0 ]]; then fail "$1 $2 SIG$sig: took $took s to stop"
    elif [[ $lines -ne 1 ]] || ! grep -q 'interrupted' "$tmp/err"; then fail "$1 $2 SIG$sig: stderr: $(head -3 "$tmp/err")"
    elif [[ "$(fingerprint "$out")" != "$fp" ]]; then fail "$1 $2 SIG$sig: --out changed"
    elif lo=$(leftovers "$tmp/r"); [[ -n "$lo" ]]; then fail "$1 $2 SIG$sig: leftovers $lo"
    else pass "$1 $2 SIG$sig at $delay s: exit $st in $took s: $(cat "$tmp/err")"
    fi
}

# run: a signal after sampling (worst-case search, report writing). The run is timed first; the signal
# lands at growing fractions of that time until the partial report shows every case sampled.
big=(run --impl seed-c.f64 --op slerp --region uniform --cases 400000 --jobs 1 --out "$out")
t0=$(date +%s.%N)
"$qc" "${big[@]}" 2>/dev/null || fail "the timed run"
span=$(python3 -c "print($(date +%s.%N) - $t0)")
landed=""
for frac in 0.75 0.85 0.92; do
    before_fail=$failures
    interrupt TERM "$(python3 -c "print(round($frac * $span, 2))")" "$qc" "${big[@]}"
    [[ $failures -gt $before_fail ]] && break
    [[ -f "$out.partial/PARTIAL" ]] || { fail "run: no OUT.partial/PARTIAL"; break; }
    if [[ "$(tail -1 "$out.partial/summary.csv" | cut -d, -f4)" == 400000 ]]; then landed=$frac; break; fi
done
if [[ -n "$landed" ]]; then pass "run: a signal after sampling (at $landed of the run) gave a partial report"
elif [[ $failures -eq 0 ]]; then fail "run: no signal landed after sampling (runs of $span s)"; fi
interrupt INT 1 "$qc" conform --impl 'seed-*' --cases 200000 --jobs 1 --out "$out"
interrupt TERM 1 "$qc" squad --tracks 2000 --jobs 1 --out "$out"
interrupt INT 1 "$qc" threshold --points 400 --cases 20000 --min-time 0.002 --jobs 1 --out "$out"
interrupt TERM 1 "$qc" curves --points 200000 --out "$out"
interrupt INT 1 "$qc" bench --min-time 0.05 --repetitions 3 --out "$out"

if [[ $failures -gt 0 ]]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all robustness (second pass) checks passed"
