#!/usr/bin/env bash
# Robustness, fourth pass (issue 44): the process-plugin items. Each check names the defect of the issue it
# covers; the hostile adapters are modes of impls/process/c_adapter.c.
#   7  an adapter (text wire, then binary) that closes its stdin after its hello and stays alive: the same
#      summary.csv run after run with one seed, one status, and no --timeout spent per row; the same for one
#      that closes its stdin and exits (its end reported, one detail however the race goes);
#   11 replay interrupted by SIGTERM or SIGINT while an adapter call is pending: exit 143 / 130 with the
#      "interrupted" line, and no row blamed on the implementation (OUTPUT DIFFERS);
#   12 an adapter whose hello takes 7 s (node on a busy machine) is accepted by default; --hello-timeout,
#      beside --plugin-cmd in every command, refuses it sooner with a line naming the option; SIGTERM while a
#      hello is awaited still ends the command at once;
#   17 run with an adapter claiming 2^64-1 ns per batch: the violation is in run.json and on stderr.
# Usage: robust44_process.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
adapter="$build/process/c_adapter"
now() { date +%s.%N; }
took() { python3 -c "print(round($(now) - $1, 2))"; }
under() { python3 -c "import sys; sys.exit(0 if $1 < $2 else 1)"; }  # under SECONDS LIMIT
one=(--impl proc-seed-c.f64 --op slerp --jobs 1 --no-leaderboard --seed 44 --cases 200)
regions=(--region uniform --region near-0 --region near-pi)  # 3 rows

# status|status_detail of each row of a report's summary.csv
rows() { python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1] + "/summary.csv")): print(r["region"] + "|" + r["status"] + "|" + r["status_detail"])
' "$1"; }

# ---- 7. an adapter that closes its stdin after its hello ----
# Three runs with the same seed and --timeout 5: byte-identical summary.csv, every row `crashed` with the
# closed-stdin detail, and together far below one --timeout per row (3 runs x 3 rows x 5 s = 45 s).
closed_stdin() {  # LABEL WANT_DETAIL ADAPTER_ARGS...
    local label="$1" want="$2" i t0 t st ok=1
    shift 2
    t0=$(now)
    for i in 1 2 3; do
        "$qc" run --plugin-cmd "$adapter $*" "${one[@]}" "${regions[@]}" --timeout 5 \
            --out "$tmp/cs$i" >/dev/null 2>"$tmp/cs$i.err"
        st=$?
        [[ $st -le 1 && -f "$tmp/cs$i/summary.csv" ]] || { ok=0; fail "7 ($label): run $i: exit $st: $(head -2 "$tmp/cs$i.err")"; }
    done
    t=$(took "$t0")
    ((ok)) || return
    local same=1
    cmp -s "$tmp/cs1/summary.csv" "$tmp/cs2/summary.csv" && cmp -s "$tmp/cs1/summary.csv" "$tmp/cs3/summary.csv" || same=0
    local statuses
    statuses=$(for i in 1 2 3; do rows "$tmp/cs$i"; done | cut -d'|' -f2- | sort | uniq -c | sed 's/^ *//' | tr '\n' ';')
    if ((same)) && [[ "$statuses" == "9 crashed|$want at case 0;" ]] && under "$t" 22; then
        pass "7 ($label): 3 runs, summary.csv identical, all rows: $statuses in $t s (one --timeout per row: 45 s)"
    else
        fail "7 ($label): identical=$same, rows of the 3 runs: $statuses in $t s (want identical, every row crashed: '$want', under 22 s)"
    fi
}
stays="the adapter closed its stdin without answering (it reads no requests)"
closed_stdin "text wire" "$stays" closestdin text
closed_stdin "binary wire" "$stays" closestdin
closed_stdin "closes and exits" "the adapter ended without answering (exited with status 0)" closeexit text
# Negative controls: the healthy adapter's rows are ok (the closed-stdin rows come from the mode), and the
# comparison sees a difference of one byte.
"$qc" run --plugin-cmd "$adapter ok text" "${one[@]}" "${regions[@]}" --out "$tmp/cs0" >/dev/null 2>&1
[[ "$(rows "$tmp/cs0" | cut -d'|' -f2 | sort -u)" == ok ]] || fail "7: negative control: healthy adapter: $(rows "$tmp/cs0")"
sed '2s/$/x/' "$tmp/cs1/summary.csv" >"$tmp/cs_edited.csv" 2>/dev/null
cmp -s "$tmp/cs1/summary.csv" "$tmp/cs_edited.csv" && fail "7: negative control: an edited summary compares equal"

# ---- 11. replay interrupted while an adapter call is pending ----
# The worst cases of a healthy run, replayed against `hang`, which hangs on the first case with t > 0.75 (it
# creates $QC_TEST_HANG_MARK first): the signal comes while quatcheck awaits that call's answer.
"$qc" run --plugin-cmd "$adapter" "${one[@]}" --region uniform --region near-0 --out "$tmp/w" >/dev/null 2>&1
hangs=$(python3 -c '
import csv, sys
print(sum(float.fromhex(r["t"]) > 0.75 for r in csv.DictReader(open(sys.argv[1]))))' "$tmp/w/worst_cases.csv")
[[ $hangs -ge 1 ]] || fail "11: no worst case with t > 0.75: the hanging adapter would never hang (vacuous)"
replay_signal() {  # SIGNAL WANT_STATUS
    local sig="$1" want="$2" pid st t0 t
    export QC_TEST_HANG_MARK="$tmp/hang.$sig"
    rm -f "$QC_TEST_HANG_MARK"
    "$qc" replay "$tmp/w/worst_cases.csv" --plugin-cmd "$adapter hang" --timeout 60 >"$tmp/r.$sig.out" 2>"$tmp/r.$sig.err" &
    pid=$!
    if ! wait_for 30 test -e "$QC_TEST_HANG_MARK"; then
        fail "11 ($sig): the adapter never hung (no $QC_TEST_HANG_MARK)"
        kill -KILL "$pid"
        wait "$pid"
        unset QC_TEST_HANG_MARK
        return
    fi
    t0=$(now)
    kill "-$sig" "$pid"
    wait "$pid"
    st=$?
    t=$(took "$t0")
    unset QC_TEST_HANG_MARK
    local blamed
    blamed=$(grep -c 'OUTPUT DIFFERS' "$tmp/r.$sig.out")
    if [[ $st -eq $want && "$(cat "$tmp/r.$sig.err")" == *"interrupted by SIG$sig"* && $blamed -eq 0 ]] &&
        ! grep -q 'rows replayed' "$tmp/r.$sig.out" && under "$t" 5; then
        pass "11 ($sig): exit $st in $t s, $(grep -c 'output identical' "$tmp/r.$sig.out") rows replayed before it, none blamed: $(tail -1 "$tmp/r.$sig.err")"
    else
        fail "11 ($sig): exit $st (want $want) in $t s, $blamed rows 'OUTPUT DIFFERS': $(tail -1 "$tmp/r.$sig.out"); stderr: $(head -2 "$tmp/r.$sig.err")"
    fi
}
replay_signal TERM 143
replay_signal INT 130
# Negative control: without a signal, the healthy adapter replays every row identically.
"$qc" replay "$tmp/w/worst_cases.csv" --plugin-cmd "$adapter" --strict >"$tmp/r0.out" 2>"$tmp/r0.err" ||
    fail "11: negative control: replay with the healthy adapter: $(tail -1 "$tmp/r0.out") $(head -2 "$tmp/r0.err")"

# ---- 12. a slow hello ----
export QC_TEST_HELLO_DELAY=7  # beyond the old 5 s, far within the default --hello-timeout
t0=$(now)
"$qc" list --plugin-cmd "$adapter slowhello" >"$tmp/h1.out" 2>"$tmp/h1.err"
st=$?
t=$(took "$t0")
if [[ $st -eq 0 ]] && grep -q '^proc-seed-c.f64' "$tmp/h1.out"; then pass "12: a 7 s hello is accepted by default (list took $t s)"
else fail "12: a 7 s hello: exit $st in $t s: $(head -2 "$tmp/h1.err")"; fi
# The whole command works with it, not only the load-time check: a run starts fresh adapters too.
"$qc" run --plugin-cmd "$adapter slowhello" "${one[@]}" --region uniform --out "$tmp/h2" >/dev/null 2>"$tmp/h2.err"
st=$?
[[ $st -eq 0 && "$(rows "$tmp/h2" | cut -d'|' -f2)" == ok ]] && pass "12: run with the slow adapter: ok" ||
    fail "12: run with the slow adapter: exit $st, $(rows "$tmp/h2" 2>/dev/null) $(head -2 "$tmp/h2.err")"
# --hello-timeout refuses it sooner, and the refusal says how to allow more.
t0=$(now)
"$qc" list --hello-timeout 1.5 --plugin-cmd "$adapter slowhello" >/dev/null 2>"$tmp/h3.err"
st=$?
t=$(took "$t0")
if [[ $st -eq 2 && "$(wc -l <"$tmp/h3.err")" -eq 1 ]] && grep -q 'refused: no complete hello within 1.5 s.*--hello-timeout' "$tmp/h3.err" &&
    under "$t" 5; then
    pass "12: --hello-timeout 1.5: refused in $t s: $(cat "$tmp/h3.err")"
else fail "12: --hello-timeout 1.5: exit $st in $t s: $(head -2 "$tmp/h3.err")"; fi
unset QC_TEST_HELLO_DELAY
# Every command that takes --plugin-cmd takes --hello-timeout.
missing=""
for c in $("$qc" --help | awk 'tolower($0) ~ /^subcommands:/ {on = 1; next} on && NF {print $1}'); do
    help=$("$qc" "$c" --help 2>/dev/null)
    [[ "$help" == *--plugin-cmd* && "$help" != *--hello-timeout* ]] && missing="$missing $c"
done
[[ -z "$missing" ]] && pass "12: every command with --plugin-cmd has --hello-timeout" ||
    fail "12: commands with --plugin-cmd but no --hello-timeout:$missing"
expect -F 2 '--hello-timeout: expected seconds in (0, 3600]' "$qc" list --hello-timeout 0 --plugin-cmd "$adapter"
# SIGTERM while a hello is awaited (a default, long deadline): the command ends at once, as for any signal.
"$qc" list --plugin-cmd "$adapter nohello" >/dev/null 2>"$tmp/h4.err" &
pid=$!
hello_awaited() { catches_term "$pid" && pgrep -P "$pid" >/dev/null; }
if wait_for 30 hello_awaited; then
    t0=$(now)
    kill -TERM "$pid"
    wait "$pid"
    st=$?
    t=$(took "$t0")
    if [[ $st -eq 143 && "$(cat "$tmp/h4.err")" == *"interrupted by SIGTERM"* ]] && under "$t" 2; then
        pass "12: SIGTERM during a 60 s hello wait: exit 143 in $t s"
    else fail "12: SIGTERM during the hello wait: exit $st in $t s: $(cat "$tmp/h4.err")"; fi
else
    fail "12: quatcheck (pid $pid) did not start the adapter within 30 s"
    kill -KILL "$pid"
fi

# ---- 17. a claimed 2^64-1 ns per batch in run ----
violations() { python3 -c '
import json, sys
j = json.load(open(sys.argv[1] + "/run.json"))
v = [i["process"].get("protocol_violations") for i in j["implementations"] if "process" in i]
v = [x for x in v if x]
print("|".join(str(v[0][k]) for k in ("violation", "batches", "largest_claimed_ns")) if v else "none")' "$1"; }
"$qc" run --plugin-cmd "$adapter timemax" "${one[@]}" --region uniform --region near-0 --out "$tmp/x1" >/dev/null 2>"$tmp/x1.err"
v=$(violations "$tmp/x1")
lines=$(grep -c 'protocol violation.*beyond the round trip' "$tmp/x1.err")
if [[ "$v" == "library time beyond the round trip|"*"|18446744073709551615" && $lines -eq 1 ]]; then
    pass "17: run.json: $v; stderr: $(grep 'protocol violation' "$tmp/x1.err")"
else fail "17: run.json protocol_violations '$v', $lines stderr lines: $(head -2 "$tmp/x1.err")"; fi
# Negative controls: a healthy adapter and one claiming 1 ns (possible, if odd) have none, and say nothing of it.
for m in ok time1; do
    "$qc" run --plugin-cmd "$adapter $m" "${one[@]}" --region uniform --out "$tmp/x-$m" >/dev/null 2>"$tmp/x-$m.err"
    v=$(violations "$tmp/x-$m")
    [[ "$v" == none ]] && ! grep -q 'protocol violation' "$tmp/x-$m.err" || fail "17: negative control '$m': '$v', stderr: $(head -2 "$tmp/x-$m.err")"
done

finish
