#!/usr/bin/env bash
# The text wire of the process-plugin protocol (`wire text` in the hello, docs/plugin-protocol.md#the-text-wire):
#  1. the C adapter on the text wire (c_adapter MODE text) gives exactly the figures of the same routines built
#     in, as it does on the binary wire (negative control: the comparison notices another routine);
#  2. the same containment as the binary wire: crash, hang, garbage, wrong sequence number, wrong count, short
#     answer, trailing bytes, and three faults only text has (a word that is not a hexfloat, a value the
#     request's precision cannot hold, an overlong line) end the row with a status and the triggering case;
#  3. a malformed `wire` line is refused at load time with one line and exit status 2.
# Usage: process_text.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
adapter="$build/process/c_adapter" adapter_wire=text
source "$src/tests/adapter_lib.sh"

# ---- 1. exact round trips ----
"$qc" list --plugin-cmd "$adapter ok text" >"$tmp/list" 2>&1 || fail "list with the text adapter: $(cat "$tmp/list")"
grep -q "^proc-seed-c.f32" "$tmp/list" || fail "list does not show proc-seed-c.f32 over the text wire"
"$qc" run --plugin-cmd "$adapter ok text" --impl seed-c --impl nlerp --impl proc-seed-c --impl proc-nlerp \
  --cases 300 --jobs 2 --no-leaderboard --out "$tmp/same" 2>"$tmp/same.err" || fail "run over the text wire: $(cat "$tmp/same.err")"
python3 - "$tmp/same" <<'PY' || fail "exact round trips over the text wire"
import csv, os, sys
SEEDED = {"impl", "max_angle_err_search_rad", "max_angle_err_rad"}  # the search is seeded by the name
rows = {(r["impl"], r["op"], r["region"]): {k: v for k, v in r.items() if k not in SEEDED}
        for r in csv.DictReader(open(os.path.join(sys.argv[1], "summary.csv")))}
pairs = [(k, ("proc-" + k[0],) + k[1:]) for k in rows if k[0] in ("seed-c.f32", "seed-c.f64", "nlerp.f32", "nlerp.f64")]
if len(pairs) < 8:
    sys.exit(f"FAIL: expected the built-in rows of seed-c and nlerp, got {sorted(rows)}")
for a, b in pairs:
    if rows.get(b) != rows[a]:
        sys.exit(f"FAIL: {b} over the text wire differs from {a}:\n{rows[a]}\n{rows.get(b)}")
region = pairs[0][0][2]
if rows[("seed-c.f32", "slerp", region)] == rows[("proc-seed-c.f64", "slerp", region)]:
    sys.exit("FAIL: negative control: seed-c.f32 and proc-seed-c.f64 compare equal")
print(f"exact: {len(pairs)} rows of the C adapter over the text wire equal their built-in ones")
PY

# ---- 2. containment ----
check_mode crash crashed 'SIGSEGV'
check_mode hang timeout 'no answer within 1 s'
check_mode garbage out-of-bounds "does not start with 'answer SEQ N NANOSECONDS' \(got 'junk "
check_mode seq out-of-bounds 'answer to batch [0-9]+ carries sequence number'
check_mode count out-of-bounds 'outputs announced for a batch of'
check_mode short crashed 'short answer: [0-9]+ of [0-9]+ lines'
check_mode trailing out-of-bounds 'more bytes after its answer'
check_mode badhex out-of-bounds "column w: '0x1.8q\+0' is not a hexfloat"
check_mode inexact out-of-bounds "column w: '0x1.000001p\+0' is not representable as a float" f32
check_mode longline out-of-bounds 'answer line 2 is longer than 512 bytes'
# inexact is a fault only in f32: the same digits are an exact double (negative control of the precision check).
"$qc" run --plugin-cmd "$adapter inexact text" --impl proc-seed-c.f64 --op slerp --region uniform --cases 200 --jobs 1 \
  --no-leaderboard --out "$tmp/inexact64" >/dev/null 2>&1
grep -q ',ok,' "$tmp/inexact64/summary.csv" || fail "negative control: an exact double in an f64 answer was refused"
# Negative control of the checker: the well-behaved adapter must not pass as failing.
# (Into a file: grep -q leaving a pipe early would end the subshell's later lines with SIGPIPE, and pipefail.)
( check_mode ok crashed '.' ) >"$tmp/control.out" 2>&1
grep -q "^FAIL: ok: uniform status 'ok'" "$tmp/control.out" || fail "negative control: check_mode accepted a healthy adapter as crashed"

# ---- 3. the wire line of the hello ----
expect_refused() {  # REGEX COMMAND
  "$qc" list --plugin-cmd "$2" >"$tmp/r.out" 2>"$tmp/r.err"
  local rc=$?
  if [ "$rc" -ne 2 ]; then fail "--plugin-cmd '$2': exit $rc, want 2"; return; fi
  if [ "$(wc -l <"$tmp/r.err")" -ne 1 ] || ! grep -Eq "$1" "$tmp/r.err"; then fail "--plugin-cmd '$2': stderr $(cat "$tmp/r.err")"; fi
}
h='quatcheck-plugin 1\nlibrary lib 1.0\n'
expect_refused "refused: hello line 3: expected 'wire binary' or 'wire text'" "printf '${h}wire hex\nfamily f slerp.f64\nend\n'"
expect_refused "refused: hello line 4: 'wire' must be the third line, once" "printf '${h}family f slerp.f64\nwire text\nend\n'"
expect_refused "refused: hello line 5: 'known' names family 'g', not declared above it" \
  "printf '${h}wire text\nfamily f slerp.f64\nknown g slerp shortest-arc why\nend\n'"
"$qc" list --plugin-cmd "printf '${h}wire binary\nfamily f slerp.f64\nend\n'" >/dev/null 2>"$tmp/wb.err" || fail "'wire binary' refused: $(cat "$tmp/wb.err")"

[ "$failures" -eq 0 ] && echo "process plugins, text wire: all checks passed"
finish
