#!/usr/bin/env bash
# Robustness, third pass (issue 28, part B): one case per defect, numbered as in the issue, sharing this
# preamble. The hostile inputs are here (file names, tampered CSVs and states, argument lists); the hostile
# plugin is impls/examples/bad_plugins/huge.c (finite outputs of 1e300 for t in (0.9, 1)).
#   1  reproduce commands (conformance.csv, cards, junit.xml, squad) pasted into sh run exactly their argv
#   2  rewriting an --out keeps the permission bits, owner and times of the folder and what it carries over
#   3  names with backticks and HTML stay inside their code span in leaderboard.md and compare.md
#   4  sweep merge checks selection, rows, build, checksum and status of every shard
#   5  compare fails when a row or table of the baseline is missing (--allow-missing to allow it)
#   10 repeated --region, --op, sweep --t and squad --region are refused
#   13 report: ulp1 = inf draws; schema.json null or a table without columns is one line, exit 2
#   14 scripts/nightly: a damaged baseline run.json is exit 2, one line
#   15 a control character in --plugin-cmd or --plugin is refused (the reports stay readable)
#   17 --worst-k is bounded and named; a 245- and a 255-byte folder name work; a dangling --out link is named
#   18 a run interrupted before any row finished: leaderboard and report read its partial report
#   19 report.html#find=% does not throw; --window takes hexfloats; leaderboard.csv text cells are not formulas
# Usage: robust4.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
huge="$build/bad_plugins/bad_huge.so"
adapter="$build/process/c_adapter"  # the reference process adapter (impls/process/c_adapter.c)
# expect STATUS REGEX CMD... (tests/lib.sh): the command exits STATUS with exactly one stderr line matching REGEX.
# expect_st STATUS CMD...: the command exits STATUS (its stderr is not judged).
expect_st() {
    local want="$1"
    shift
    "$@" >/dev/null 2>"$tmp/err"
    local got=$?
    [[ $got -eq $want ]] && pass "exit $got  $(printf '%q ' "$@" | cut -c1-120)" || fail "$(printf '%q ' "$@" | cut -c1-200)-> exit $got (want $want): $(tail -2 "$tmp/err")"
}
small=(--impl seed-c.f64 --op slerp --region uniform --cases 200 --jobs 1)

# ---- 1. reproduce commands are shell-quoted ----
# A `quatcheck` on PATH that records its argv (one word per NUL) instead of running: sh -c "$cmd" must give
# exactly the words the tool meant, and no `touch X` may run.
mkdir -p "$tmp/bin" "$tmp/paste"
printf '#!/bin/sh\nprintf "%%s\\0" "$@" >"%s"\n' "$tmp/argv" >"$tmp/bin/quatcheck"
chmod +x "$tmp/bin/quatcheck"
# paste LABEL CMD WORD...: CMD pasted into sh runs quatcheck with exactly WORD... and creates no file X.
paste() {
    local label="$1" cmd="$2"
    shift 2
    rm -f "$tmp/argv" "$tmp/paste/X"
    (cd "$tmp/paste" && PATH="$tmp/bin:$PATH" sh -c "$cmd") 2>"$tmp/paste.err"
    if [[ -e "$tmp/paste/X" ]]; then fail "$label: pasting the command ran 'touch X': $cmd"; return; fi
    if [[ ! -f "$tmp/argv" ]]; then fail "$label: the pasted command did not run quatcheck: $cmd ($(head -2 "$tmp/paste.err"))"; return; fi
    /usr/bin/python3 - "$tmp/argv" "$label" "$@" <<'PY' && pass "$label: pasted, runs exactly its argv" || fail "$label: $cmd"
import sys
got = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
want = [w.encode() for w in sys.argv[3:]]
if got != want:
    sys.exit(f"{sys.argv[2]}: argv {got!r}\n    want {want!r}")
PY
}
# A plugin path with $(...), spaces, quotes and ;, and a --plugin-cmd with a quoted ';touch X;'.
hostile="$tmp/plug ins/ex\$(touch X) it's \"q\";touch X;.so"
mkdir -p "$tmp/plug ins" && cp "$huge" "$hostile"
r1="$tmp/r1"
"$qc" run --plugin "$hostile" --impl bad-huge.f64 --op slerp --region uniform --cases 300 --jobs 1 --out "$r1" 2>/dev/null || fail "1: run with the hostile plugin path"
"$qc" conform --plugin "$hostile" --plugin-cmd "$adapter ok ';touch X;'" --impl bad-huge.f64 --op slerp --property unit \
    --cases 100 --jobs 1 --out "$r1" >/dev/null 2>&1
[[ $? -eq 1 ]] || fail "1: conform of bad-huge should fail 'unit'"
row=$(/usr/bin/python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["verdict"] == "fail":
        print(r["counterexample"]); print(r["reproduce"]); break
' "$r1/conformance.csv")
case_text=$(sed -n 1p <<<"$row") cmd=$(sed -n 2p <<<"$row")
if [[ -z "$cmd" ]]; then fail "1: conformance.csv has no failed row with a reproduce command"
else
    paste "1 conformance.csv" "$cmd" conform --plugin "$hostile" --plugin-cmd "$adapter ok ';touch X;'" --impl bad-huge.f64 \
        --op slerp --property unit --case "$case_text"
    # junit.xml carries the same command: a baseline where the property passed makes it a new fail.
    mkdir -p "$tmp/r1base" && cp "$r1/summary.csv" "$r1/schema.json" "$tmp/r1base/"
    sed 's/,fail,/,pass,/' "$r1/conformance.csv" >"$tmp/r1base/conformance.csv"
    "$qc" compare "$tmp/r1base" "$r1" --out "$tmp/r1cmp" >/dev/null 2>&1
    jcmd=$(/usr/bin/python3 -c '
import sys, xml.etree.ElementTree as ET
for f in ET.parse(sys.argv[1]).iter("failure"):
    for line in (f.text or "").splitlines():
        if line.startswith("reproduce: "): print(line[len("reproduce: "):]); sys.exit()
' "$tmp/r1cmp/junit.xml")
    [[ -n "$jcmd" ]] && paste "1 junit.xml" "$jcmd" conform --plugin "$hostile" --plugin-cmd "$adapter ok ';touch X;'" \
        --impl bad-huge.f64 --op slerp --property unit --case "$case_text" || fail "1: junit.xml has no reproduce line"
fi
# squad: a squad plugin under a hostile name; squad_worst_cases.csv's reproduce command.
hsquad="$tmp/plug ins/sq\$(touch X) 'a'.so"
cp "$build/impls/examples/seed_squad_plugin.so" "$hsquad" 2>/dev/null || cp "$(find "$build" -name seed_squad_plugin.so | head -1)" "$hsquad"
"$qc" squad --plugin "$hsquad" --impl 'plugin-seed-squad*' --region random --tracks 4 --jobs 1 --out "$tmp/sq" >/dev/null 2>&1
scmd=$(/usr/bin/python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if "--plugin" in r["reproduce"]: print(r["impl"]); print(r["track"]); print(r["reproduce"]); break
' "$tmp/sq/squad_worst_cases.csv" 2>/dev/null)
if [[ -z "$scmd" ]]; then fail "1: squad wrote no plugin worst case with a reproduce command ($(ls "$tmp/sq" 2>&1 | head -3))"
else
    paste "1 squad_worst_cases.csv" "$(sed -n 3p <<<"$scmd")" squad --impl "$(sed -n 1p <<<"$scmd")" --region random \
        --track "$(sed -n 2p <<<"$scmd")" --seed 1 --plugin "$hsquad"
fi

# ---- 13 (and 1, cards). report: a folder whose ulp1 overflowed to inf draws; the card's commands paste ----
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    "$qc" report "$r1" >/dev/null 2>"$tmp/rep.err"
    st=$?
    if [[ $st -ne 0 ]]; then fail "13: report of a run with ulp1 = inf: exit $st: $(tail -2 "$tmp/rep.err")"
    else pass "13: report draws a run whose max_ulp1 is inf"; fi
    if grep -q ',inf,' "$r1/summary.csv"; then pass "13: (summary.csv holds inf: the case is not vacuous)"
    else fail "13: summary.csv of bad-huge holds no inf (the case tests nothing)"; fi
    card="$r1/cards/bad-huge.f64.html"
    ccmd=$(/usr/bin/python3 -c '
import html, re, sys
t = open(sys.argv[1]).read()
m = re.search(r"<div>Reproduce:</div><pre>(.*?)</pre>", t, re.S)
print(html.unescape(m.group(1)) if m else "")
' "$card" 2>/dev/null)
    [[ -n "$ccmd" ]] && paste "1 card" "$ccmd" conform --plugin "$hostile" --plugin-cmd "$adapter ok ';touch X;'" \
        --impl bad-huge.f64 --op slerp --property unit --case "$case_text" || fail "1: the card has no Reproduce command"
    # schema.json that is not a schema: one line, exit 2.
    for bad in 'null' '{"summary.csv":{}}'; do
        rm -rf "$tmp/s" && mkdir -p "$tmp/s" && cp "$r1/summary.csv" "$tmp/s/" && printf '%s\n' "$bad" >"$tmp/s/schema.json"
        expect 2 "^quatcheck: report: .*schema.json:1: not a schema" "$qc" report "$tmp/s"
    done
else
    echo "SKIP: 13 (report): /usr/bin/python3 has no matplotlib (Debian python3-matplotlib)"
fi

# ---- 2. rewriting an --out keeps permissions, owner, times and special files ----
o2="$tmp/p/out"
"$qc" run "${small[@]}" --out "$o2" 2>/dev/null || fail "2: first run"
mkdir -p "$o2/mine" && echo x >"$o2/mine/note" && mkfifo "$o2/pipe"
chmod 0700 "$o2/mine" "$o2" && touch -d '2020-01-02 03:04:05' "$o2/mine"
mtime=$(stat -c %Y "$o2/mine")
"$qc" run "${small[@]}" --seed 2 --out "$o2" 2>/dev/null || fail "2: rewriting run"
got="$(stat -c %a "$o2") $(stat -c %a "$o2/mine") $(stat -c %Y "$o2/mine")"
[[ "$got" == "700 700 $mtime" ]] && pass "2: folder and sub-folder stay 0700, the sub-folder's time kept" \
    || fail "2: modes/time after the rewrite: $got (want 700 700 $mtime)"
[[ -p "$o2/pipe" ]] && pass "2: the FIFO is carried over" || fail "2: the FIFO was dropped"
if [[ $(id -u) -eq 0 ]] && id nobody >/dev/null 2>&1; then
    chown -R nobody "$o2"
    "$qc" run "${small[@]}" --seed 3 --out "$o2" 2>/dev/null || fail "2: run as root into nobody's folder"
    [[ "$(stat -c %U "$o2") $(stat -c %U "$o2/mine")" == "nobody nobody" ]] && pass "2: owner kept (root writing nobody's folder)" \
        || fail "2: owner after the rewrite: $(stat -c %U "$o2") $(stat -c %U "$o2/mine")"
    # Another user's folder, written by a user who cannot give it that owner: refused, untouched.
    if command -v setpriv >/dev/null; then
        mkdir -p "$tmp/q" && chmod 0777 "$tmp/q" "$tmp" && cp -r "$o2" "$tmp/q/out" && chown -R root "$tmp/q/out" && chmod 0777 "$tmp/q/out"
        expect 2 "^quatcheck: .*q/out: owned by uid 0 .*cannot be given" setpriv --reuid=nobody --regid=nogroup --clear-groups \
            "$qc" run "${small[@]}" --out "$tmp/q/out"
    fi
else echo "note: 2: not root: owner preservation not tested"; fi

# ---- 3. markdown injection ----
m3="$tmp/m3"
"$qc" run "${small[@]}" --out "$m3" 2>/dev/null || fail "3: run"
evil='x`y``<img src=x onerror=alert(1)>|z'
/usr/bin/python3 - "$m3/summary.csv" "$evil" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
rows[1][0] = sys.argv[2]
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
PY
"$qc" leaderboard "$m3" >/dev/null 2>&1 || fail "3: leaderboard of the tampered folder"
"$qc" run "${small[@]}" --out "$tmp/m3b" 2>/dev/null
"$qc" compare "$tmp/m3b" "$m3" --allow-missing --out "$tmp/m3c" >/dev/null 2>&1
# Every line that names the tampered implementation holds it as one code span: a fence longer than any run of
# backticks in it, | escaped, nothing of it outside.
for md in "$m3/leaderboard.md" "$tmp/m3c/compare.md"; do
    /usr/bin/python3 - "$md" "$evil" <<'PY' && pass "3: $(basename "$md"): the name stays inside its code span" || fail "3: $md"
import sys
text, evil = open(sys.argv[1]).read(), sys.argv[2]
fence = "```"  # one more than the longest run (2) in the name
want = fence + evil.replace("|", "\\|") + fence
lines = [l for l in text.splitlines() if "onerror" in l]
if not lines:
    sys.exit(f"{sys.argv[1]}: the tampered name is not there (the case tests nothing)")
for l in lines:
    if want not in l or l.replace(want, "").count("onerror"):
        sys.exit(f"{sys.argv[1]}: not one code span: {l}")
PY
done

# ---- 19. leaderboard.csv text cells are not formulas ----
/usr/bin/python3 - "$m3/summary.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
rows[1][0] = "=HYPERLINK(1)"
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
PY
"$qc" leaderboard "$m3" >/dev/null 2>&1 || fail "19: leaderboard"
grep -q "^1,'=HYPERLINK(1)," "$m3/leaderboard.csv" && ! grep -q ',=' "$m3/leaderboard.csv" && pass "19: leaderboard.csv: a name starting with = gets a leading '" \
    || fail "19: leaderboard.csv: $(grep -m1 HYPERLINK "$m3/leaderboard.csv")"

# ---- 4. sweep merge checks each shard ----
sw=(sweep --over dot --t 0.25 --window 0.69:0.71 --points 64 --jobs 1)
"$qc" "${sw[@]}" --impl seed-c.f32 --shard 1/2 --out "$tmp/s1" >/dev/null 2>&1 &&
"$qc" "${sw[@]}" --impl seed-c.f32 --shard 2/2 --out "$tmp/s2" >/dev/null 2>&1 &&
"$qc" "${sw[@]}" --impl '*.f32' --shard 1/2 --out "$tmp/s1x" >/dev/null 2>&1 &&
"$qc" "${sw[@]}" --impl '*.f32' --plugin "$build/impls/examples/example_plugin.so" --shard 2/2 \
    --out "$tmp/s2x" >/dev/null 2>&1 || fail "4: sweep shards"
expect_st 0 "$qc" merge "$tmp/s1" "$tmp/s2" --out "$tmp/sm"
# The same --impl filters, but the second shard loaded a plugin that adds an implementation to the selection.
expect 2 "^quatcheck: merge: .*s2x/sweep_state.json: 'selected' differs from .*s1x's: not shards of one sweep" "$qc" merge "$tmp/s1x" "$tmp/s2x" \
    --plugin "$build/impls/examples/example_plugin.so" --out "$tmp/sm2"
# A state edited after it was written (a row lost; a status out of range): the checksum refuses it ...
st4() { rm -rf "$tmp/s2e" && cp -r "$tmp/s2" "$tmp/s2e" && /usr/bin/python3 - "$tmp/s2e/sweep_state.json" "$@"; }
st4 <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["rows"].pop(); json.dump(j, open(sys.argv[1], "w"), indent=1)
PY
expect 2 "^quatcheck: merge: .*s2e/sweep_state.json: checksum mismatch" "$qc" merge "$tmp/s1" "$tmp/s2e" --out "$tmp/sm3"
# ... and with its checksum recomputed (a deliberate forgery), the row and status checks still do.
forge='
import json, sys
def fnv(b):
    h = 0xcbf29ce484222325
    for c in b: h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return f"{h:016x}"
def seal(j):
    j.pop("checksum_fnv1a64", None)
    j["checksum_fnv1a64"] = fnv(json.dumps(j, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
    json.dump(j, open(sys.argv[1], "w"), indent=1)
'
st4 <<<"$forge"'
j = json.load(open(sys.argv[1])); seal(j)'
expect_st 0 "$qc" merge "$tmp/s1" "$tmp/s2e" --out "$tmp/sm4"  # the control: an unchanged state resealed merges
st4 <<<"$forge"'
j = json.load(open(sys.argv[1])); j["rows"].pop(); seal(j)'
expect 2 "^quatcheck: merge: .*s2e/sweep_state.json: no row of seed-c.f32 slerp in slice 0" "$qc" merge "$tmp/s1" "$tmp/s2e" --out "$tmp/sm5"
st4 <<<"$forge"'
j = json.load(open(sys.argv[1])); j["rows"][0]["status"] = 9; seal(j)'
expect 2 "^quatcheck: merge: .*s2e/sweep_state.json: row of seed-c.f32 slerp: status 9 is not a status" "$qc" merge "$tmp/s1" "$tmp/s2e" --out "$tmp/sm6"
st4 <<<"$forge"'
j = json.load(open(sys.argv[1])); j["rows"][0]["cases"] -= 1; seal(j)'
expect 2 "^quatcheck: merge: .*s2e/sweep_state.json: the row of seed-c.f32 slerp in slice 0 covers" "$qc" merge "$tmp/s1" "$tmp/s2e" --out "$tmp/sm7"
st4 <<<"$forge"'
j = json.load(open(sys.argv[1])); j["identity"]["build"]["compiler"] = "other"; seal(j)'
expect 2 "^quatcheck: merge: .*s2e/sweep_state.json: 'build' differs from .*s1's: not shards of one sweep" "$qc" merge "$tmp/s1" "$tmp/s2e" --out "$tmp/sm8"

# ---- 5. compare: an implementation or table gone from the current run fails ----
"$qc" run --impl seed-c.f64 --impl 'eigen*' --op slerp --region uniform --cases 100 --jobs 1 --out "$tmp/c5b" 2>/dev/null || fail "5: run"
"$qc" conform --impl seed-c.f64 --op slerp --property unit --cases 20 --jobs 1 --out "$tmp/c5b" >/dev/null 2>&1
"$qc" run --impl seed-c.f64 --op slerp --region uniform --cases 100 --jobs 1 --out "$tmp/c5c" 2>/dev/null
expect_st 1 "$qc" compare "$tmp/c5b" "$tmp/c5c" --out "$tmp/c5o"
grep -q '^FAIL: .*only in the baseline (.* missing: a failure)' <("$qc" compare "$tmp/c5b" "$tmp/c5c" --out "$tmp/c5o" 2>/dev/null) \
    && pass "5: the verdict line says FAIL and why" || fail "5: verdict line"
expect_st 0 "$qc" compare "$tmp/c5b" "$tmp/c5c" --allow-missing --out "$tmp/c5o"

# ---- 10. repeated values ----
expect 2 "^quatcheck: --region: 'uniform' is given more than once" "$qc" run --region uniform --region near-0 --region uniform --cases 10 --out "$tmp/e"
expect 2 "^quatcheck: --op: 'slerp' is given more than once" "$qc" run --op slerp --op slerp --cases 10 --out "$tmp/e"
expect 2 "^quatcheck: --t: '0.5' is given more than once" "$qc" sweep --over dot --t 0.5 --t 0x1p-1 --out "$tmp/e"
expect 2 "^quatcheck: --region: 'random' is given more than once" "$qc" squad --region random --region random --out "$tmp/e"
expect 2 "^quatcheck: --region: 'uniform' is given more than once" "$qc" bench --region uniform --region uniform --out "$tmp/e"

# ---- 14. scripts/nightly: a damaged baseline is an input error ----
mkdir -p "$tmp/n/scripts" "$tmp/n/reports/baseline" && cp "$src/scripts/nightly" "$tmp/n/scripts/"
for content in '' '{"cases_per' 'null' '{"cases_per_region": "many"}' '[]'; do
    printf '%s' "$content" >"$tmp/n/reports/baseline/run.json"
    expect 2 "^quatcheck: nightly: .*run.json: unreadable baseline" bash "$tmp/n/scripts/nightly"
done

# ---- 15. control characters in a plugin command or path ----
expect 2 "^quatcheck: --plugin-cmd: the command holds a control character \(byte 0x0a" "$qc" conform --plugin-cmd "$adapter"$'\nok' --out "$tmp/e"
expect 2 "^quatcheck: --plugin: the path holds a control character \(byte 0x0a" "$qc" run --plugin "$tmp/a"$'\n'"b.so" --out "$tmp/e"

# ---- 17. messages ----
expect 2 "^quatcheck: --worst-k: must be from 0 to --cases \(200\), got 2147483647" "$qc" run "${small[@]}" --worst-k 2147483647 --out "$tmp/e"
expect 2 "^quatcheck: --cases 100000000 --worst-k 100000000: .*needs about .*\(lower --cases or --worst-k" \
    "$qc" run --impl seed-c.f64 --op slerp --region uniform --cases 100000000 --worst-k 100000000 --out "$tmp/e"
for n in 245 255; do
    long="$tmp/$(printf 'L%.0s' $(seq $n))"
    expect 0 'report in' "$qc" run "${small[@]}" --out "$long"
    expect 0 'report in' "$qc" run "${small[@]}" --seed 2 --out "$long"  # the swap of an existing one
done
ln -s "$tmp/deleted-run" "$tmp/latest"
expect 2 "^quatcheck: --out: .*latest is a symbolic link to .*deleted-run, which does not exist" "$qc" run "${small[@]}" --out "$tmp/latest"

# ---- 18. a run interrupted before any row finished ----
o18="$tmp/i18"
"$qc" run --impl seed-c.f64 --op slerp --region uniform --cases 5000000 --jobs 1 --out "$o18" >/dev/null 2>&1 &
pid=$!
# The phase under test: the report folder's staging folder exists, i.e. the handlers are in, the options and
# the catalogue are done and the run is about to start or running (5,000,000 cases take far longer than this).
wait_for 30 test -d "$tmp/.i18.staging-$pid" || fail "18: quatcheck run (pid $pid) made no staging folder within 30 s"
kill -TERM $pid
wait $pid
st=$?
if [[ $st -ne 143 || ! -f "$o18.partial/PARTIAL" ]]; then fail "18: the interrupted run: exit $st, $(ls "$o18.partial" 2>&1 | head -3)"
else
    rows=$(($(wc -l <"$o18.partial/summary.csv") - 1))
    [[ $rows -eq 0 ]] && pass "18: (the partial summary.csv has no row: the case is not vacuous)" || echo "note: 18: the partial report has $rows row(s)"
    expect 0 'wrote' "$qc" leaderboard "$o18.partial"
    grep -qi 'partial' "$o18.partial/leaderboard.md" && pass "18: leaderboard.md notes the partial run" || fail "18: leaderboard.md has no note"
    if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
        expect 0 'report' "$qc" report "$o18.partial"
    fi
fi

# ---- 19. report.html#find=% and --window hexfloats ----
if command -v node >/dev/null && [[ -f "$m3/../r1/report.html" || -f "$r1/report.html" ]]; then
    /usr/bin/python3 - "$r1/report.html" >"$tmp/from.js" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"function fromAddress\(\) \{.*?\n    \}\n", t, re.S)
print(m.group(0) if m else "")
PY
    if [[ -s "$tmp/from.js" ]]; then
        for hash in '#find=%' '#find=%E0%A4%A' '#find=a%20b'; do
            node -e "
var location = {hash: process.argv[1]}, state = {f: {}}, regions = {};
$(cat "$tmp/from.js")
fromAddress(); console.log(JSON.stringify(state.find));" "$hash" >"$tmp/js.out" 2>&1 \
                && pass "19: report.html$hash: find = $(cat "$tmp/js.out")" || fail "19: report.html$hash: $(head -2 "$tmp/js.out")"
        done
    else fail "19: report.html has no fromAddress()"; fi
else echo "SKIP: 19 (report.html#find=%): node or report.html missing"; fi
expect_st 0 "$qc" sweep --over dot --t 0.25 --window 0x1.6p-1:0x1.7p-1 --points 64 --impl seed-c.f32 --jobs 1 --out "$tmp/w"
grep -q '"lo": "0x1.6p-1"' "$tmp/w/sweep_state.json" && pass "19: --window 0x1.6p-1:0x1.7p-1 is the window" || fail "19: window not taken: $(grep -m1 '"lo"' "$tmp/w/sweep_state.json")"
expect 2 "^quatcheck: sweep: --window: expected LO:HI, two finite numbers with LO <= HI, got '0x-1p0:1'" "$qc" sweep --over dot --window 0x-1p0:1 --out "$tmp/e"

finish
