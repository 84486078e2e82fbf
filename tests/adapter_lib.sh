# Shared by tests/adapters_*.test.sh (sourced; not a test itself): the checks every library adapter gets.
#   known_case COMMAND FAMILY PREC   the library's answer on a fixed case equals the bisector computed by
#                                    tests/adapter_case.py; and the same check fails on a scrambled expectation
#   replay_worst COMMAND GLOB NAME   a short run of the families, then `replay --strict` re-evaluates every
#                                    worst case to the recorded output; and fails once a recorded output is altered
#   check_mode MODE STATUS DETAIL_REGEX [PRECISION]
#                                    (tests/process_*.test.sh) a short run of proc-seed-c.PRECISION (f64 unless
#                                    given) through "$adapter MODE $adapter_wire", the C adapter misbehaving as
#                                    MODE: its rows have status STATUS and a detail matching DETAIL_REGEX
# Needs: qc, src, tmp and fail of tests/lib.sh, after keep_going (the checks go on after a failure).
known_case() {  # COMMAND FAMILY PRECISION [--squad]
  python3 "$src/tests/adapter_case.py" "$1" "$2" "$3" ${4:-} || fail "$2.$3: the known case${4:+ ($4)}"
  python3 "$src/tests/adapter_case.py" "$1" "$2" "$3" ${4:-} --scramble >/dev/null 2>&1 && fail "negative control: $2.$3 passed a scrambled expectation"
}
replay_worst() {
  local out="$tmp/$3"
  "$qc" run --plugin-cmd "$1" --impl "$2" --cases "${CASES:-400}" --jobs 2 --no-leaderboard --out "$out" >"$out.log" 2>&1
  local rc=$?
  if [ "$rc" -gt 1 ] || [ ! -s "$out/worst_cases.csv" ]; then fail "$3: run exit $rc: $(tail -2 "$out.log")"; return; fi
  grep -q ',ok,' "$out/summary.csv" || fail "$3: no row with status ok"
  "$qc" replay --strict --plugin-cmd "$1" "$out/worst_cases.csv" >"$out.replay" 2>&1 || fail "$3: replay --strict: $(tail -2 "$out.replay")"
  echo "$3: $(($(wc -l <"$out/worst_cases.csv") - 1)) worst cases replay to the recorded outputs"
  # Negative control: one recorded output changed (out_w of the first case negated) must be noticed.
  python3 - "$out/worst_cases.csv" "$out/altered.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = rows[0]
r["out_w"] = r["out_w"][1:] if r["out_w"].startswith("-") else "-" + r["out_w"]
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
w.writerows(rows)
PY
  "$qc" replay --strict --plugin-cmd "$1" "$out/altered.csv" >/dev/null 2>&1
  [ $? -eq 1 ] || fail "negative control: $3: replay --strict accepted an altered output"
}
check_mode() {
  local mode="$1" want="$2" detail="$3" impl="proc-seed-c.${4:-f64}" out="$tmp/m-$1"
  "$qc" run --plugin-cmd "$adapter $mode${adapter_wire:+ $adapter_wire}" --impl "$impl" --op slerp --region uniform \
    --region near-0 --cases 200 --jobs 1 --timeout 1 --no-leaderboard --out "$out" >"$out.log" 2>&1
  local rc=$?
  if [ "$rc" -gt 1 ] || [ ! -f "$out/summary.csv" ]; then fail "$mode: exit $rc, $(head -3 "$out.log")"; return; fi
  python3 "$src/tests/process_mode_check.py" "$out/summary.csv" "$mode" "$want" "$detail" "$impl" || fail "$mode: the row's status or detail"
}
