#!/usr/bin/env bash
# The script tests' preamble (tests/lib.sh) itself, on small scripts that source it: expect passes a command
# with the right status and one matching stderr line, and fails one with the wrong status, two lines or another
# message (negative controls); fail stops a test at once, or after keep_going counts and finish exits 1; skip
# exits 77; the temporary folder is removed on exit, at_exit commands run first; wait_for polls until its command
# succeeds or gives up; catches_term tells a process with a SIGTERM handler from one without (and a gone one).
# Usage: bash tests/lib.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
# probe NAME BODY: runs BODY after sourcing lib.sh as tests/NAME.test.sh would; prints its exit status and output.
probe() {
  printf 'source "%s/tests/lib.sh" "$@"\n%s\n' "$src" "$2" >"$tmp/$1.test.sh"
  local st=0
  bash "$tmp/$1.test.sh" "$build" "$src" >"$tmp/$1.out" 2>&1 || st=$?
  echo "$st"
}
one_line='echo "quatcheck: x: bad" >&2; return 2'
# check NAME WANT_STATUS WANT_TEXT BODY
check() {
  local st
  st=$(probe "$1" "$4")
  [ "$st" = "$2" ] && { [ -z "$3" ] || grep -qF -- "$3" "$tmp/$1.out"; } || fail "$1: exit $st (want $2), output: $(head -3 "$tmp/$1.out")"
  pass "$1: exit $st, '$3'"
}
check expect-ok 0 "ok   exit 2  quatcheck: x: bad" "f() { $one_line; }; expect 2 '^quatcheck: x: ' f"
check expect-fixed 0 "ok   exit 2" "f() { $one_line; }; expect -F 2 'x: bad' f"
# Negative controls: each way the command can miss the expectation is caught.
check expect-status 1 "want 3" "f() { $one_line; }; expect 3 '^quatcheck: x: ' f"
check expect-lines 1 "FAIL: " "f() { echo one >&2; echo two >&2; return 2; }; expect 2 'one' f"
check expect-pattern 1 "FAIL: " "f() { $one_line; }; expect 2 '^quatcheck: y: ' f"
check expect-fixed-not-regex 1 "FAIL: " "f() { $one_line; }; expect -F 2 'x:.bad' f"
check fail-stops 1 "FAIL: first" 'fail first; echo "not reached"'
grep -q "not reached" "$tmp/fail-stops.out" && fail "fail did not stop the test"
check keep-going 1 "keep-going: 2 failure(s)" 'keep_going; fail a; false; fail b; echo reached; finish'
grep -q "^reached" "$tmp/keep-going.out" || fail "keep_going stopped at a failed check"
check finish-clean 0 "finish-clean: 0 failure(s)" 'keep_going; pass fine; finish'
check skip 77 "SKIP: no runtime" 'skip "no runtime"; echo "not reached"'
check set-e 1 "" 'false; echo "not reached"'
grep -q "not reached" "$tmp/set-e.out" && fail "lib.sh does not set -e"
check cleanup 0 "" "echo \"\$tmp\" >\"$tmp/cleanup.tmp\"; at_exit 'echo at-exit-ran; [ -d \"\$tmp\" ] && echo tmp-still-there'"
grep -q "at-exit-ran" "$tmp/cleanup.out" && grep -q "tmp-still-there" "$tmp/cleanup.out" || fail "at_exit did not run before the removal"
[ ! -e "$(cat "$tmp/cleanup.tmp")" ] || fail "the temporary folder was not removed on exit"
st=0
bash "$tmp/set-e.test.sh" >"$tmp/noargs.out" 2>&1 || st=$?
[ "$st" = 2 ] && grep -q "^usage: bash .* BUILD_DIR" "$tmp/noargs.out" || fail "no arguments: exit $st, $(cat "$tmp/noargs.out")"
pass "no arguments: exit 2, $(cat "$tmp/noargs.out")"
# wait_for returns as soon as its command succeeds, and 1 after its time when it never does (negative control).
check wait-for 0 "waited" "n=0; bump() { n=\$((n + 1)); [ \$n -ge 3 ]; }; wait_for 5 bump && echo waited \$n"
grep -q "^waited 3$" "$tmp/wait-for.out" || fail "wait_for did not stop at the first success: $(cat "$tmp/wait-for.out")"
check wait-for-never 0 "gave up" "wait_for 1 false || echo gave up"
# catches_term: a process that traps TERM has it in SigCgt; sleep (default action) and a gone pid have not.
check catches-term 0 "trapping: yes, plain: no, gone: no" 'bash -c "trap \"exit 0\" TERM; while :; do sleep 0.1; done" & t=$!; sleep 30 & p=$!
  a=0 b=0 c=0; wait_for 10 catches_term $t || a=$?; catches_term $p || b=$?
  kill $t $p; wait $t $p || true; catches_term $p || c=$?
  yn() { [ "$1" = 0 ] && echo yes || echo no; }; echo "trapping: $(yn $a), plain: $(yn $b), gone: $(yn $c)"'
echo "lib: ok"
