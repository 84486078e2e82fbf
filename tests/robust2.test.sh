#!/usr/bin/env bash
# Robustness, second pass (issue 14): each class of attack, its expected exit status and stderr shape.
#  - a report folder is replaced as a whole, in one step, under a lock: a second writer gets one line and
#    exit 2; a failed run leaves no empty --out; a stale shard.bin never survives into an unsharded report;
#    other commands' files are carried over;
#  - SIGINT/SIGTERM in every long phase of every long command: exit 128 + sig within a second, one stderr
#    line, --out untouched, nothing left beside it (run: a partial report in OUT.partial);
#  - plugins that fork or write to the worker's descriptors (3), writes outside out[0..3] (4);
#  - numbers at the edges (5): --jobs and --seed on every command, counts too large for memory refused
#    before allocation, inexact hexfloats, unknown regions and oversized fields in replay, nan/abc/negative
#    cells in report and compare, a folder or /dev/zero where a file is expected, run.json overflow;
#  - merge trusts nothing (6): checksum, /dev/zero, a shard twice or missing, two seeds, edited headers;
#  - output pairs and full disks (7): compare's junit.xml + compare.md, run and report name the file they
#    could not write (ulimit -f with SIGXFSZ ignored, and a full tmpfs in a user namespace), --plugin '',
#    report --python /bin/false.
# Usage: robust2.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going

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
        local st=$?
        # The caller may try again earlier (run); for the other commands this is a failure.
        [[ $1 == *quatcheck && $2 == run ]] && { echo "note $2 ended (exit $st) before SIG$sig at $delay s"; return 3; }
        fail "$* ended (exit $st) before SIG$sig at $delay s: make it longer"
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
    # A run signalled after its last poll (the swap of --out) has rightly finished: the caller tries earlier.
    if [[ $st -eq 0 && $1 == *quatcheck && $2 == run ]]; then echo "note $2 finished (exit 0) as SIG$sig came at $delay s"; return 3; fi
    local lines
    # (sweep prints its plan and estimate before it starts: those lines are not errors)
    lines=$(grep -v -e '^quatcheck sweep' -e '^  ' "$tmp/err" | wc -l)
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
# The phases after sampling take about a tenth of the run, so the signal walks through the run's second half
# in steps of 2.5 % of the warm run's length (the faster of two timed runs; the first one pays the cold start).
span=""
for k in 1 2; do
    t0=$(date +%s.%N)
    "$qc" "${big[@]}" 2>/dev/null || fail "the timed run"
    span=$(python3 -c "t = $(date +%s.%N) - $t0; s = '$span'; print(min(t, float(s)) if s else t)")
done
landed=""
for frac in 0.8 0.825 0.85 0.875 0.9 0.925 0.95 0.975 0.775 0.75 0.725 0.7 0.65 0.6 0.5; do
    before_fail=$failures
    interrupt TERM "$(python3 -c "print(round($frac * $span, 2))")" "$qc" "${big[@]}"
    [[ $? -eq 3 ]] && continue  # the run was faster this time: the signal came after its end
    [[ $failures -gt $before_fail ]] && break
    [[ -f "$out.partial/PARTIAL" ]] || { fail "run: no OUT.partial/PARTIAL"; break; }
    if [[ "$(tail -1 "$out.partial/summary.csv" | cut -d, -f4)" == 400000 ]]; then landed=$frac; break; fi
done
if [[ -n "$landed" ]]; then pass "run: a signal after sampling (at $landed of the run) gave a partial report"
elif [[ $failures -eq 0 ]]; then fail "run: no signal landed after sampling (runs of $span s)"; fi
interrupt INT 1 "$qc" conform --impl 'seed-*' --cases 200000 --jobs 1 --out "$out"
interrupt TERM 1 "$qc" squad --tracks 2000 --jobs 1 --out "$out"
interrupt INT 1 "$qc" threshold --points 400 --cases 20000 --min-time 0.002 --jobs 1 --out "$out"
interrupt TERM 1 "$qc" curves --impl 'seed-*' --points 100000 --out "$out"
interrupt INT 1 "$qc" bench --min-time 0.05 --repetitions 3 --out "$out"
interrupt TERM 1 "$qc" sweep --over dot --impl 'seed-*' --points 2000000 --jobs 1 --out "$out"

# ---- 3. plugins that fork or write to the worker's descriptors ----
bad="$build/bad_plugins"
# The row of PLUGIN in a run's summary.csv: status, status_detail, cases.
row() { python3 - "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1] + "/summary.csv")):
    print(f"{r['status']}|{r['status_detail']}|{r['cases']}|{r['max_angle_err_rad']}")
PY
}
p=(--op slerp --region uniform --cases 300 --jobs 1 --timeout 4)
# fork + abort: reported as the abort, at once (the forked child keeps the pipes open: no end of file).
t0=$(date +%s.%N)
"$qc" run --plugin "$bad/bad_fork_abort.so" --impl bad-fork-abort "${p[@]}" --out "$tmp/f1" 2>/dev/null
took=$(python3 -c "print(round($(date +%s.%N) - $t0, 2))")
r=$(row "$tmp/f1")
if [[ "$r" == crashed\|killed\ by\ SIGABRT* ]] && python3 -c "import sys; sys.exit(0 if $took < 3 else 1)"; then
    pass "fork + abort: $r in $took s"
else fail "fork + abort: $r in $took s (want crashed, killed by SIGABRT, well before the 4 s timeout)"; fi

# A forked copy of the worker serving its pipes: the figures must be those of a plugin that never forks.
export QC_TEST_CHILD_PIDS="$tmp/children"
: >"$QC_TEST_CHILD_PIDS"
"$qc" run --plugin "$bad/bad_fork_serve.so" --impl bad-fork-serve "${p[@]}" --seed 1 --out "$tmp/f2" 2>/dev/null
"$qc" run --plugin "$bad/bad_fork_serve.so" --impl bad-fork-serve "${p[@]}" --seed 1 --out "$tmp/f3" 2>/dev/null
"$qc" run --plugin "$bad/bad_crash.so" --impl bad-crash "${p[@]}" --seed 1 --out "$tmp/f4" 2>/dev/null
r2=$(row "$tmp/f2"); r3=$(row "$tmp/f3")
[[ -s "$QC_TEST_CHILD_PIDS" ]] || fail "fork-serve: the plugin never forked (the check would be vacuous)"
if [[ "$r2" == ok\|* && "$r2" == "$r3" ]] && python3 -c "import sys; sys.exit(0 if float('$r2'.split('|')[3]) < 1e-6 else 1)"; then
    pass "fork-serve: rows ok, same figures twice, max error ${r2##*|} rad"
else fail "fork-serve: '$r2' then '$r3' (want ok rows with rounding-level errors, identical)"; fi

# fork + orphan: nothing the plugin forked outlives quatcheck.
: >"$QC_TEST_CHILD_PIDS"
"$qc" run --plugin "$bad/bad_fork_orphan.so" --impl bad-fork-orphan "${p[@]}" --out "$tmp/f5" 2>/dev/null
[[ -s "$QC_TEST_CHILD_PIDS" ]] || fail "fork-orphan: the plugin never forked (the check would be vacuous)"
sleep 0.2
alive=""
while read -r cpid; do
    # A killed child whose parent is gone may stay a zombie (state Z) until init reaps it: that is gone.
    state=$(awk '{print $3}' "/proc/$cpid/stat" 2>/dev/null)
    if [[ -n "$state" && "$state" != Z ]]; then alive="$alive $cpid"; kill -KILL "$cpid"; fi
done <"$QC_TEST_CHILD_PIDS"
[[ -z "$alive" ]] && pass "fork-orphan: no child left" || fail "fork-orphan: children left:$alive"
unset QC_TEST_CHILD_PIDS

# Garbage on fds 3-9: reported as such, at the case that wrote it (the same case bad-crash fails at).
"$qc" run --plugin "$bad/bad_fd_garbage.so" --impl bad-fd-garbage "${p[@]}" --seed 1 --out "$tmp/f6" 2>/dev/null
r6=$(row "$tmp/f6"); r4=$(row "$tmp/f4")
case_of() { grep -o 'case [0-9]*' <<<"$1" | head -1; }
if [[ "$r6" == out-of-bounds\|*"file descriptors 3-9"* && -n "$(case_of "$r4")" && "$(case_of "$r6")" == "$(case_of "$r4")" ]]; then
    pass "fd garbage: $r6"
else fail "fd garbage: '$r6' (want out-of-bounds naming fds 3-9 at $(case_of "$r4"), as bad-crash's '$r4')"; fi

# ---- 4. out-of-bounds writes far from the slot, and before an input ----
for impl in bad-oob-20 bad-oob-64-199 bad-oob-input; do
    "$qc" run --plugin "$bad/bad_oob_far.so" --impl "$impl" "${p[@]}" --seed 1 --out "$tmp/o-$impl" 2>/dev/null
    r=$(row "$tmp/o-$impl")
    if [[ "$r" == out-of-bounds\|* && "$(case_of "$r")" == "$(case_of "$r4")" ]]; then pass "$impl: $r"
    else fail "$impl: '$r' (want out-of-bounds at $(case_of "$r4"))"; fi
done

# ---- 5, 7. numbers at the edges; compare's two files as one output ----
# expect STATUS REGEX CMD... (tests/lib.sh): exit STATUS and exactly one stderr line matching REGEX.
one=(--impl seed-c.f64 --op slerp --region uniform --cases 10 --out "$tmp/e5")
expect 2 '^quatcheck: run: --jobs: expected 0 \(all cores\) to 1024 threads' "$qc" run "${one[@]}" --jobs 100000
expect 2 '^quatcheck: conform: --jobs: ' "$qc" conform --impl seed-c.f64 --jobs 5000 --out "$tmp/e5"
expect 2 '^quatcheck: run: --seed: expected a whole number' "$qc" run "${one[@]}" --seed -1
expect 2 '^quatcheck: squad: --seed: ' "$qc" squad --seed -1 --out "$tmp/e5"
expect 2 '^quatcheck: run: --seed: 18446744073709551616 is beyond 2\^64-1' "$qc" run "${one[@]}" --seed 18446744073709551616
expect 0 'report in' "$qc" run "${one[@]}" --seed 18446744073709551615
# Every command that takes --jobs or --seed checks them on their text.
for c in run conform squad threshold sweep merge; do
    expect 2 "^quatcheck: $c: --jobs: expected 0 \\(all cores\\) to 1024 threads, got '2000'" "$qc" $c --jobs 2000 --out "$tmp/e5"
done
for c in run conform squad threshold sweep bench; do
    expect 2 "^quatcheck: $c: --seed: expected a whole number" "$qc" $c --seed -1 --out "$tmp/e5"
    expect 2 "^quatcheck: $c: --seed: 99999999999999999999 is beyond 2\\^64-1" "$qc" $c --seed 99999999999999999999 --out "$tmp/e5"
done
# A count too large for memory is refused before anything is allocated: one line naming the flag and the
# estimate, exit 2, nothing created. Once far beyond any machine's memory, once beyond what ulimit -v leaves
# (a few GiB: without the estimate this allocated until bad_alloc, or for curves swapped for a minute).
mem='needs about [0-9.]+ [KMGTPE]iB of memory, more than the [0-9.]+ [A-Za-z]+ available; nothing was started'
expect 2 "^quatcheck: --cases 100000000000000: the run of 1 implementation-ops $mem \\(lower --cases" \
    "$qc" run --impl seed-c.f64 --op slerp --region uniform --cases 100000000000000 --out "$tmp/e5/new"
limited() { (ulimit -v 4000000 && "$@"); }
expect 2 "^quatcheck: --cases 300000000: the run of 2 implementation-ops $mem" \
    limited "$qc" run --impl seed-c.f64 --impl seed-c.f32 --op slerp --region uniform --cases 300000000 --out "$tmp/e5/new"
expect 2 "^quatcheck: --parallel-cases 100000000: the parallel suite's run of [0-9]+ implementation-ops $mem" \
    limited "$qc" bench --suite parallel --parallel-cases 100000000 --out "$tmp/e5/new"
expect 2 "^quatcheck: --cases 100000000000: the threshold study on [0-9]+ threads $mem" \
    limited "$qc" threshold --cases 100000000000 --out "$tmp/e5/new"
expect 2 "^quatcheck: --points 2000000000: the curves of [0-9]+ rows per point $mem" \
    limited "$qc" curves --points 2000000000 --out "$tmp/e5/new"
expect 2 "^quatcheck: --tracks 100000000000: squad on [0-9]+ implementations $mem" \
    limited "$qc" squad --tracks 100000000000 --out "$tmp/e5/new"
expect 2 "^quatcheck: --points 134217728: the sweep's scan $mem" \
    bash -c 'ulimit -v 2000000 && exec "$@"' - "$qc" sweep --over dot --points 134217728 --out "$tmp/e5/new"
[[ -e "$tmp/e5/new" ]] && fail "a refused request created its --out"
# ---- 6. merge trusts nothing: a damaged payload, /dev/zero for shard.bin ----
sh=(--impl seed-c.f64 --op slerp --region uniform --cases 300 --jobs 1)
"$qc" run "${sh[@]}" --shard 1/2 --out "$tmp/s1" 2>/dev/null && "$qc" run "${sh[@]}" --shard 2/2 --out "$tmp/s2" 2>/dev/null ||
    fail "sharded runs"
expect 0 '^quatcheck merge: 2 shards' "$qc" merge "$tmp/s1" "$tmp/s2" --out "$tmp/sm"
mkdir -p "$tmp/s3" "$tmp/s4"
python3 -c "
import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[-100] ^= 1; open(sys.argv[2], 'wb').write(d)" "$tmp/s2/shard.bin" "$tmp/s3/shard.bin"
expect 2 '^quatcheck: merge: .*s3/shard.bin: payload checksum mismatch' "$qc" merge "$tmp/s1" "$tmp/s3" --out "$tmp/sm"
ln -s /dev/zero "$tmp/s4/shard.bin"
expect 2 '^quatcheck: merge: .*s4/shard.bin: not a regular file' timeout 10 "$qc" merge "$tmp/s1" "$tmp/s4" --out "$tmp/sm"
# A shard.bin too large to read into memory (a sparse 10 GiB file, under ulimit -v 4 GB) is refused before it is read.
mkdir -p "$tmp/s6" && truncate -s 10G "$tmp/s6/shard.bin"
expect 2 "^quatcheck: merge: 2 shards of [0-9]+ bytes in all $mem" limited "$qc" merge "$tmp/s1" "$tmp/s6" --out "$tmp/sm"
rm -rf "$tmp/s6"
# Exactly a partition of one run: each shard once, every shard, the same seed.
expect 2 '^quatcheck: merge: .*s1/shard.bin: shard 1/2 given twice' "$qc" merge "$tmp/s1" "$tmp/s1" --out "$tmp/sm"
expect 2 '^quatcheck: merge: shards missing: 2/2' "$qc" merge "$tmp/s1" --out "$tmp/sm"
# The header is outside the payload's checksum: its names and numbers are checked like any input
# (an unknown region was dereferenced as an empty optional, a header that is not an object was an
# internal error, exit 3, and a shard 3/2 was taken as a slice).
header() { python3 - "$tmp/s2/shard.bin" "$1" "$2" <<'PY'
import json, os, struct, sys
d = open(sys.argv[1], "rb").read()
n = struct.unpack("<Q", d[8:16])[0]
h = json.loads(d[16:16 + n])
exec(sys.argv[3])
hb = json.dumps(h).encode()
os.makedirs(sys.argv[2], exist_ok=True)
open(os.path.join(sys.argv[2], "shard.bin"), "wb").write(d[:8] + struct.pack("<Q", len(hb)) + hb + d[16 + n:])
PY
}
header "$tmp/h1" 'h["regions"] = ["mars"]'
expect 2 "^quatcheck: merge: .*h1/shard.bin: unknown region 'mars' in the shard header" "$qc" merge "$tmp/h1" "$tmp/s1" --out "$tmp/sm"
header "$tmp/h2" 'h = [h]'
expect 2 '^quatcheck: merge: .*h2/shard.bin: unreadable header' "$qc" merge "$tmp/s1" "$tmp/h2" --out "$tmp/sm"
header "$tmp/h3" 'h["shard"]["index"] = 3'
expect 2 '^quatcheck: merge: .*h3/shard.bin: shard 3/2 is not a slice' "$qc" merge "$tmp/s1" "$tmp/h3" --out "$tmp/sm"
"$qc" run "${sh[@]}" --seed 9 --shard 2/2 --out "$tmp/s5" 2>/dev/null || fail "sharded run (seed 9)"
expect 2 "^quatcheck: merge: .*s5/shard.bin: 'seed' differs from .*s1's: not shards of one run" "$qc" merge "$tmp/s1" "$tmp/s5" --out "$tmp/sm"

# Bounded reads: a folder or /dev/zero where a file is expected is refused at once.
mkdir -p "$tmp/afolder.csv"
expect 2 '^quatcheck: .*afolder.csv: is a folder, not a file' timeout 10 "$qc" replay "$tmp/afolder.csv"
expect 2 '^quatcheck: /dev/zero: not a regular file' timeout 10 "$qc" replay /dev/zero
# A plugin path that is a FIFO, a folder or /dev/zero: refused at once (the FIFO held the loader 5 s).
mkfifo "$tmp/fifo.so" && mkdir -p "$tmp/folder.so"
for p in "$tmp/fifo.so" "$tmp/folder.so" /dev/zero; do
    expect 2 "^quatcheck: $p: cannot load plugin: not a regular file" timeout 3 "$qc" list --plugin "$p"
done
# replay: inexact or underflowing hexfloats, unknown regions and oversized fields are refused.
"$qc" run "${small[@]}" --out "$tmp/w" 2>/dev/null || fail "run for replay"
python3 - "$tmp/w/worst_cases.csv" "$tmp" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h, r = rows[0], rows[1]
for name, col, val in [("inexact", "t", r[h.index("t")].split("p")[0] + "fffp" + r[h.index("t")].split("p")[1]),
                       ("underflow", "t", "0x1p-1100"), ("region", "region", "near-mars"), ("oversized", "impl", "x" * 100000)]:
    rr = list(r)
    rr[h.index(col)] = val
    with open(f"{sys.argv[2]}/w-{name}.csv", "w") as f:
        csv.writer(f, lineterminator="\n").writerows([h, rr])
PY
if "$qc" replay "$tmp/w/worst_cases.csv" 2>/dev/null | grep -q 'rows replayed'; then pass "replay of an intact worst_cases.csv"
else fail "replay refused the intact worst_cases.csv the edits below start from"; fi
expect 2 'w-inexact.csv:2: column t: .* is not exact' "$qc" replay "$tmp/w-inexact.csv"
expect 2 'w-underflow.csv:2: column t: .0x1p-1100. is not exact' "$qc" replay "$tmp/w-underflow.csv"
expect 2 "w-region.csv:2: column region: unknown region 'near-mars'" "$qc" replay "$tmp/w-region.csv"
expect 2 'w-oversized.csv:2: a field of 100000 bytes' "$qc" replay "$tmp/w-oversized.csv"
# Named failures: an empty --plugin, a Python that fails without a word.
expect 2 '^quatcheck: --plugin: empty path' "$qc" run "${one[@]}" --plugin ''

# compare writes junit.xml and compare.md as one output: on a folder it cannot write, neither appears.
"$qc" run "${small[@]}" --out "$tmp/c1" 2>/dev/null && "$qc" run "${small[@]}" --out "$tmp/c2" 2>/dev/null || fail "runs for compare"
# (its closing line "junit.xml and compare.md in DIR" is on stdout since 5c9189e; stderr stays empty)
if "$qc" compare "$tmp/c1" "$tmp/c2" >"$tmp/cmp.out" 2>"$tmp/cmp.err" && grep -q 'junit.xml and compare.md' "$tmp/cmp.out" \
    && [[ ! -s "$tmp/cmp.err" ]]; then pass "compare: $(grep 'junit.xml and compare.md' "$tmp/cmp.out")"
else fail "compare c1 c2: exit $?, stdout $(tail -1 "$tmp/cmp.out"), stderr $(head -2 "$tmp/cmp.err")"; fi
# nan, abc and negative counts in number columns: refused by report (before Python runs) and compare.
for bad in "max_angle_err_rad:nan" "max_angle_err_rad:abc" "cases:-5" "max_angle_err_rad:-1"; do
    col=${bad%%:*} val=${bad#*:}
    rm -rf "$tmp/n" && cp -r "$tmp/c1" "$tmp/n"
    python3 - "$tmp/n/summary.csv" "$col" "$val" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
rows[1][rows[0].index(sys.argv[2])] = sys.argv[3]
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)
PY
    expect 2 "n/summary.csv:2: column $col: '$val' is (not a|negative)" "$qc" report "$tmp/n" --python /bin/true
    expect 2 "n/summary.csv:2: column $col: '$val' is (not a|negative)" "$qc" compare "$tmp/c1" "$tmp/n" --out "$tmp/cn"
done
expect 2 '^quatcheck: report: /bin/false .* exited with status 1; report.html not written' "$qc" report "$tmp/c1" --python /bin/false
# A table that is a folder or /dev/zero is refused at once by report and compare (bounded reads).
rm -rf "$tmp/z" && cp -r "$tmp/c1" "$tmp/z" && rm "$tmp/z/summary.csv" && ln -s /dev/zero "$tmp/z/summary.csv"
expect 2 'z/summary.csv: not a regular file' timeout 10 "$qc" report "$tmp/z" --python /bin/true
expect 2 'z/summary.csv: not a regular file' timeout 10 "$qc" compare "$tmp/c1" "$tmp/z" --out "$tmp/cz"
# run.json with a number beyond double's range (found by fuzz/fuzz_csv_read.cpp: it was an internal error, exit 3).
rm -rf "$tmp/j" && cp -r "$tmp/c1" "$tmp/j" && sed -i '0,/"seed": [0-9]*/s//"seed": 1e999/' "$tmp/j/run.json"
expect 2 "j/run.json:1: number overflow parsing '1e999'" "$qc" compare "$tmp/c1" "$tmp/j" --out "$tmp/cj"
expect 2 "j/run.json:1: number overflow parsing '1e999'" "$qc" report "$tmp/j" --python /bin/true
rm "$tmp/z/summary.csv" && mkdir "$tmp/z/summary.csv"
expect 2 'z/summary.csv: is a folder, not a file' timeout 10 "$qc" compare "$tmp/c1" "$tmp/z" --out "$tmp/cz"

# ---- 7. a full disk (simulated with ulimit -f, SIGXFSZ ignored: writes fail with EFBIG) ----
# full BLOCKS CMD...: CMD with files limited to BLOCKS KiB.
# (stderr goes through a pipe to a writer outside the limit: the limit applies to the stderr file too.)
full() {
    local blocks=$1
    shift
    (trap '' XFSZ; ulimit -f "$blocks" && exec "$@" 2>&1 >/dev/null) | cat >&2
    return "${PIPESTATUS[0]}"
}
# compare: junit.xml and compare.md are one output. Into a folder that holds a pair from an earlier compare,
# a failure at the first file or at the second leaves the old pair as it was, both files.
"$qc" run --impl 'seed-*' --cases 50 --jobs 1 --seed 1 --out "$tmp/d1" 2>/dev/null && "$qc" run --impl 'seed-*' --cases 50 --jobs 1 --seed 2 --out "$tmp/d2" 2>/dev/null || fail "runs for the full-disk compare"
"$qc" compare "$tmp/c1" "$tmp/c2" --out "$tmp/pair" >/dev/null 2>&1 || fail "compare into the pair folder"
"$qc" compare "$tmp/d1" "$tmp/d2" --out "$tmp/sizes" >/dev/null 2>&1
js=$(stat -c %s "$tmp/sizes/junit.xml") ms=$(stat -c %s "$tmp/sizes/compare.md")
before=$(fingerprint "$tmp/pair")
for blocks in 0 $(( (js < ms ? js : ms) / 1024 + 1 )); do
    expect 2 '(junit.xml|compare.md): cannot write: File too large; .*pair left as it was' full "$blocks" "$qc" compare "$tmp/d1" "$tmp/d2" --out "$tmp/pair"
    [[ "$(fingerprint "$tmp/pair")" == "$before" ]] && pass "compare on a full disk ($blocks KiB): the old pair kept, both files" ||
        fail "compare on a full disk ($blocks KiB) changed the pair"
done
# A real full disk where junit.xml still fits and compare.md no longer does: a tmpfs in a user and mount
# namespace (unshare -Urm), filled up to one page for the lock file's pid and the pages junit.xml takes ($js
# bytes: its failure details carry the figures and reproduce commands).
if unshare -Urm true 2>/dev/null; then
    mkdir -p "$tmp/fs"
    unshare -Urm bash -s "$tmp/fs" "$tmp/pair" "$qc" "$tmp/d1" "$tmp/d2" "$js" >"$tmp/ns.out" 2>&1 <<'NS'
fs=$1 pair=$2 qc=$3 d1=$4 d2=$5 js=$6
fingerprint() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum) 2>/dev/null | sha256sum; }
mount -t tmpfs -o size=1m none "$fs" || exit 9
cp -r "$pair" "$fs/pair"
before=$(fingerprint "$fs/pair")
head -c $(( $(stat -f -c '%a * %S' "$fs") - (1 + (js + 4095) / 4096) * 4096 )) /dev/zero >"$fs/filler"
"$qc" compare "$d1" "$d2" --out "$fs/pair" >/dev/null 2>"$fs/err"
echo "status $?"
echo "lines $(wc -l <"$fs/err")"
echo "stderr $(cat "$fs/err")"
[[ "$(fingerprint "$fs/pair")" == "$before" ]] && echo "pair kept" || echo "pair changed: $(ls -a "$fs/pair" | tr '\n' ' ')"
NS
    if grep -q '^status 2$' "$tmp/ns.out" && grep -q '^lines 1$' "$tmp/ns.out" && grep -q '^pair kept$' "$tmp/ns.out" &&
        grep -q '^stderr quatcheck: .*pair/compare.md: cannot write: No space left on device' "$tmp/ns.out"; then
        pass "compare on a full tmpfs after junit.xml: $(grep '^stderr' "$tmp/ns.out" | cut -c8-); the old pair kept"
    else fail "compare on a full tmpfs: $(tr '\n' '|' <"$tmp/ns.out")"; fi
else echo "note: unshare -Urm not permitted: compare on a full file system (after junit.xml) not tested"; fi
# run: the message names the report file (not its staging copy); a new --out is not created.
expect 2 '^quatcheck: .*fullrun/out/[a-z_]+\.(csv|json|md): cannot write: File too large; .*fullrun/out left as it was$' \
    full 2 "$qc" run "${small[@]}" --out "$tmp/fullrun/out"
[[ -e "$tmp/fullrun" ]] && fail "a run that could not write created $(find "$tmp/fullrun" | head -3 | tr '\n' ' ')"
# report: names the file it could not write, and leaves report.html as it was.
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    "$qc" report "$tmp/c1" >/dev/null 2>&1 || fail "report of c1"
    before=$(fingerprint "$tmp/c1")
    # At once (the first plot), and with room for every plot but not for report.html (which embeds them).
    for blocks in 0 $(( $(find "$tmp/c1/plots" -name '*.png' -printf '%s\n' | sort -n | tail -1) / 1024 + 1 )); do
        expect 2 "^quatcheck: report: cannot write .*c1/(plots/[a-z0-9_.-]+\.png|cards/[a-z0-9_.-]+\.html|report\.html): File too large; report.html left as it was" \
            full "$blocks" "$qc" report "$tmp/c1"
    done
    [[ "$(fingerprint "$tmp/c1")" == "$before" ]] || fail "report on a full disk changed the folder"
    # report, like every command, swaps the folder in as a whole under its lock: a stale plot goes with the
    # old folder, the user's own file is carried over, and a second writer is refused with one line.
    echo "mine" >"$tmp/c1/notes.txt"
    cp "$(find "$tmp/c1/plots" -name '*.png' | head -1)" "$tmp/c1/plots/stale-from-an-older-report.png"
    inode=$(stat -c %i "$tmp/c1")
    "$qc" report "$tmp/c1" >/dev/null 2>&1 || fail "report of c1 (swap)"
    if [[ "$(stat -c %i "$tmp/c1")" != "$inode" && ! -e "$tmp/c1/plots/stale-from-an-older-report.png" && \
          "$(cat "$tmp/c1/notes.txt")" == "mine" && -f "$tmp/c1/report.html" ]]; then
        pass "report: the folder swapped in as a whole (stale plot gone, notes.txt kept)"
    else fail "report: not swapped in as a whole (inode, stale plot or notes.txt)"; fi
    lo=$(leftovers "$tmp"); [[ -z "$lo" ]] || fail "report left: $lo"
    before=$(fingerprint "$tmp/c1")
    flock "$tmp/.c1.lock" sleep 3 &
    holder=$!
    for _ in $(seq 100); do [[ -e "$tmp/.c1.lock" ]] && break; sleep 0.05; done
    sleep 0.2
    "$qc" report "$tmp/c1" >/dev/null 2>"$tmp/err"
    st=$?
    if [[ $st -eq 2 && $(wc -l <"$tmp/err") -eq 1 ]] && grep -q 'being written by another quatcheck' "$tmp/err"; then
        pass "report while the folder is locked: exit 2, one line"
    else fail "report while the folder is locked: exit $st: $(head -2 "$tmp/err")"; fi
    wait $holder
    rm -f "$tmp/.c1.lock"  # (flock(1) leaves its file; quatcheck unlinks its own)
    [[ "$(fingerprint "$tmp/c1")" == "$before" ]] || fail "a refused report changed the folder"
else echo "note: python3-matplotlib missing: report on a full disk not tested"; fi
[[ -f "$tmp/c2/junit.xml" && -f "$tmp/c2/compare.md" && -f "$tmp/c2/summary.csv" ]] || fail "compare: junit.xml, compare.md or the report's own files missing"

finish
