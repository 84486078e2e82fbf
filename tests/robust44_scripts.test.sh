#!/usr/bin/env bash
# Robustness, fourth pass (issue 44): the scripts. Each check names the defect of the issue it covers.
#   13 scripts/build-rust while the installed adapter runs (scripts/run executing it beside scripts/setup):
#      the install neither fails with "Text file busy" nor disturbs the running process; identical bytes are
#      not copied at all (same inode, same time). Checked on the install function with stand-in executables
#      (always) and on the real scripts/build-rust (when Debian's cargo and librust-euclid-dev are there).
#   10 scripts/slurm-submit on a real single-node Slurm (scripts/slurm-local): a refused sbatch (a partition
#      that does not exist) leaves --out as it was, absent or empty, and the same command then succeeds; an
#      array queued while its merge job is refused (a fake sbatch early on PATH that refuses its second call)
#      is cancelled before it ever runs; a submission killed between its two sbatch calls has already recorded
#      the queued array in a slurm.json; SIGTERM during a submission cancels what was queued; a resubmission
#      whose merge job is refused cancels its array and leaves slurm.json as it was.
# SKIP (exit 77) only when Slurm cannot start (munge or slurm-wlm not installed), after the checks of 13.
# Usage: robust44_scripts.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
submit="$src/scripts/slurm-submit"
build_rust="$src/scripts/build-rust"

# ---- 13. installing the Rust adapter while it runs ----
children=()
at_exit 'for c in "${children[@]}"; do kill -KILL "$c"; wait "$c"; done 2>/dev/null'
inode_time() { stat -c '%i %Y.%y' "$1"; }
runs() { [ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$2" ]; }  # runs PID PATH: PID executes the file PATH
# install_step SRC DST: scripts/build-rust's install step alone, sourced (given a build folder that does not exist:
# a build-rust that builds when sourced stops at once on it, under its own set -e).
install_step() {
  bash -c 'source "$1" "$2/no-such-build"; qc_install_atomic "$3" "$4"' _ "$build_rust" "$tmp" "$1" "$2"
}
mkdir "$tmp/i"
sleep_bin="$(command -v sleep)"
tail_bin="$(command -v tail)"
cp "$sleep_bin" "$tmp/i/adapter"
"$tmp/i/adapter" 600 &
running=$!
children+=("$running")
wait_for 10 runs "$running" "$tmp/i/adapter" || fail "13: the stand-in adapter did not start"
# Negative control: writing into the running executable fails here as in the issue (else the check is vacuous).
if cp "$tail_bin" "$tmp/i/adapter" 2>"$tmp/i/cp.err"; then
  fail "13: negative control: cp over a running executable succeeded; the hazard cannot be shown here"
elif ! grep -q "Text file busy" "$tmp/i/cp.err"; then
  fail "13: negative control: cp over a running executable: $(cat "$tmp/i/cp.err")"
fi
cp "$tail_bin" "$tmp/i/new"
before="$(inode_time "$tmp/i/adapter")"
if install_step "$tmp/i/new" "$tmp/i/adapter" 2>"$tmp/i/err" && cmp -s "$tmp/i/new" "$tmp/i/adapter" &&
   [ -x "$tmp/i/adapter" ] && kill -0 "$running" 2>/dev/null && [ "$(inode_time "$tmp/i/adapter")" != "$before" ] &&
   [ -z "$(find "$tmp/i" -name '.adapter.new.*')" ]; then
  pass "13: other bytes installed over a running adapter: renamed in, the running process kept its inode"
else
  fail "13: install over a running adapter: $(cat "$tmp/i/err") (running: $(kill -0 "$running" 2>&1 && echo yes))"
fi
"$tmp/i/adapter" -f /dev/null &  # now the installed file (tail) runs
running2=$!
children+=("$running2")
wait_for 10 runs "$running2" "$tmp/i/adapter" || fail "13: the second stand-in did not start"
before="$(inode_time "$tmp/i/adapter")"
sleep 1.1  # a copy would show in the modification time
if install_step "$tmp/i/new" "$tmp/i/adapter" 2>"$tmp/i/err" && [ "$(inode_time "$tmp/i/adapter")" = "$before" ]; then
  pass "13: the same bytes over a running adapter: not copied (inode and time unchanged)"
else
  fail "13: the same bytes over a running adapter: $(cat "$tmp/i/err"); $before -> $(inode_time "$tmp/i/adapter")"
fi

# The real scripts/build-rust, when it can build: its output installed while the adapter at its place runs.
mkdir "$tmp/b"
status=0
"$build_rust" "$tmp/b" >"$tmp/b.out" 2>&1 || status=$?
if [ "$status" -eq 77 ]; then
  echo "note 13: scripts/build-rust skips here ($(cat "$tmp/b.out")): only its install step was checked"
elif [ "$status" -ne 0 ]; then
  fail "13: scripts/build-rust $tmp/b: exit $status: $(tail -3 "$tmp/b.out")"
else
  adapter="$tmp/b/rust/qc-euclid-adapter"
  built="$tmp/b/rust/target/release/qc-euclid-adapter"
  cp "$sleep_bin" "$adapter"  # an older adapter, other bytes, running
  "$adapter" 600 &
  children+=($!)
  wait_for 10 runs "${children[-1]}" "$adapter" || fail "13: the older adapter did not start"
  status=0
  "$build_rust" "$tmp/b" >"$tmp/b.out" 2>&1 || status=$?
  if [ "$status" -eq 0 ] && cmp -s "$built" "$adapter" && kill -0 "${children[-1]}" 2>/dev/null; then
    pass "13: scripts/build-rust while an older adapter runs from its place: exit 0, the new one installed"
  else
    fail "13: scripts/build-rust while an older adapter runs: exit $status: $(tail -2 "$tmp/b.out")"
  fi
  mkfifo "$tmp/b/in"
  "$adapter" <"$tmp/b/in" >/dev/null &  # the real adapter, as scripts/run runs it, waiting for a request
  children+=($!)
  exec 9>"$tmp/b/in"
  wait_for 10 runs "${children[-1]}" "$adapter" || fail "13: the adapter did not start"
  before="$(inode_time "$adapter")"
  sleep 1.1
  status=0
  "$build_rust" "$tmp/b" >"$tmp/b.out" 2>&1 || status=$?
  if [ "$status" -eq 0 ] && [ "$(inode_time "$adapter")" = "$before" ] && kill -0 "${children[-1]}" 2>/dev/null; then
    pass "13: scripts/build-rust again while the adapter runs (scripts/setup beside scripts/run): exit 0, not copied"
  else
    fail "13: scripts/build-rust while the adapter runs: exit $status: $(tail -2 "$tmp/b.out"); $before -> $(inode_time "$adapter")"
  fi
  exec 9>&-
fi

# ---- 10. transactional Slurm submission ----
# shellcheck source=../scripts/slurm-local
source "$src/scripts/slurm-local"
missing="$(slurm_local_missing)"
if [ -n "$missing" ]; then
  ((failures == 0)) || finish
  skip "item 10 (Slurm): $missing not installed (Debian packages slurm-wlm and munge; scripts/setup installs them); item 13 passed"
fi
at_exit slurm_local_down
mkdir "$tmp/cluster"
if ! slurm_local_up "$tmp/cluster" >"$tmp/cluster.out" 2>&1; then
  ((failures == 0)) || finish
  skip "item 10 (Slurm): the local cluster did not start: $(tail -3 "$tmp/cluster.out" | tr '\n' ' ')"
fi
real_sbatch="$(command -v sbatch)"
args=(--impl seed-c.f32 --cases 300 --seed 5)

# A fake sbatch early on PATH: it delegates to the real one and logs the job ids it got; its call number
# $FAKE_AT instead refuses (FAKE_MODE=refuse), SIGKILLs its caller (kill) or sends it SIGTERM and goes on (term).
mkdir "$tmp/fake"
cat >"$tmp/fake/sbatch" <<EOF
#!/bin/bash
n=\$((\$(cat "$tmp/fake/count" 2>/dev/null || echo 0) + 1))
echo "\$n" >"$tmp/fake/count"
if [ "\$n" = "\${FAKE_AT:-0}" ]; then
  case "\${FAKE_MODE:-}" in
    refuse) echo "sbatch: error: Batch job submission failed: refused by the test's fake sbatch" >&2; exit 1 ;;
    kill) kill -KILL "\$PPID"; exit 1 ;;
    term) kill -TERM "\$PPID" ;;
  esac
fi
out="\$("$real_sbatch" "\$@")"
rc=\$?
echo "\$out"
[ -n "\$out" ] && echo "\${out%%;*}" >>"$tmp/fake/ids"
exit \$rc
EOF
chmod +x "$tmp/fake/sbatch"
fake() {  # MODE AT COMMAND...: COMMAND with the fake sbatch first on PATH
  local mode="$1" at="$2"
  shift 2
  rm -f "$tmp/fake/count" "$tmp/fake/ids"
  FAKE_MODE="$mode" FAKE_AT="$at" PATH="$tmp/fake:$PATH" "$@"
}
job_state() {  # every JobState of the job (an array: of its tasks), sorted and unique
  scontrol show job -o "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort -u | tr '\n' ' ' | sed 's/ $//'
}
merge_of() { sed -n '1s/^array job [0-9]* .*merge job \([0-9]*\) .*/\1/p' "$1"; }
leftovers() { find "$tmp" -maxdepth 2 -name '*slurm-submit-staging*' | tr '\n' ' '; }
queue_empty() { [ -z "$(squeue -h -o %i)" ]; }
# submitted DIR IDS_FILE: the submission's merge job completes (its array ran, released) and slurm.json has both ids.
submitted() {
  local m state
  m="$(merge_of "$2")"
  [ -n "$m" ] || { echo "no job ids in: $(cat "$2")"; return 1; }
  state="$(slurm_local_wait "$m" 120)" || { echo "merge job $m did not end: $state; $(squeue -h)"; return 1; }
  [ "$state" = COMPLETED ] || { echo "merge job $m ended $state: $(cat "$1/logs/merge-$m.out" 2>&1)"; return 1; }
  /usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["submissions"][-1]; sys.exit(0 if s["merge"] == sys.argv[2] and s["array"] else 1)' \
    "$1/slurm.json" "$m" || { echo "slurm.json does not record merge job $m: $(cat "$1/slurm.json")"; return 1; }
  [ -f "$1/merged/summary.csv" ] || { echo "no merged summary.csv"; return 1; }
}

# (a) a partition that does not exist: one line, exit 2, --out absent (or empty) as before, nothing queued.
mkdir "$tmp/empty"
ok=1
for out in "$tmp/absent" "$tmp/empty"; do
  status=0
  "$submit" run --shards 2 --partition nosuch --out "$out" --quatcheck "$qc" -- "${args[@]}" >/dev/null 2>"$tmp/err" || status=$?
  if [ "$status" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q '^quatcheck: slurm-submit: sbatch refused the array job: .*[Pp]artition' "$tmp/err"; then
    fail "10: --partition nosuch into $out: exit $status: $(cat "$tmp/err")"; ok=0
  fi
  if [ "$out" = "$tmp/absent" ] && [ -e "$out" ]; then fail "10: --partition nosuch left $out: $(ls -A "$out")"; ok=0; fi
  if [ "$out" = "$tmp/empty" ] && [ -n "$(ls -A "$out")" ]; then fail "10: --partition nosuch filled the empty $out: $(ls -A "$out")"; ok=0; fi
done
[ -z "$(leftovers)" ] || { fail "10: staging folders left: $(leftovers)"; ok=0; }
queue_empty || { fail "10: jobs queued after a refused submission: $(squeue -h)"; ok=0; }
((ok)) && pass "10: a refused sbatch (--partition nosuch): exit 2, $(cut -c1-110 "$tmp/err"); --out left absent, and empty"
# ... and the same command, with a partition that exists, then works in both.
ok=1
for out in "$tmp/absent" "$tmp/empty"; do
  status=0
  "$submit" run --shards 2 --out "$out" --quatcheck "$qc" -- "${args[@]}" >"$tmp/ids" 2>"$tmp/err" || status=$?
  [ "$status" -eq 0 ] || { fail "10: the retry into $out: exit $status: $(cat "$tmp/err")"; ok=0; continue; }
  why="$(submitted "$out" "$tmp/ids")" || { fail "10: the retry into $out: $why"; ok=0; }
done
[ -z "$(leftovers)" ] || { fail "10: staging folders left after a submission: $(leftovers)"; ok=0; }
((ok)) && pass "10: the retry after the refusal succeeds in both folders: merge jobs COMPLETED, ids in slurm.json"

# (b) the array queued, its merge job refused: the array is cancelled (it never ran), --out stays absent, and a
# retry works.
status=0
fake refuse 2 "$submit" run --shards 2 --out "$tmp/b1" --quatcheck "$qc" -- "${args[@]}" >/dev/null 2>"$tmp/err" || status=$?
array="$(head -n1 "$tmp/fake/ids" 2>/dev/null)"
sleep 2  # a job that was left queued has time to start
state="$(job_state "$array")"
if [ "$status" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "sbatch refused the merge job: .*fake.*cancelled job(s) .*$array" "$tmp/err" &&
   [ -n "$array" ] && [ "$state" = CANCELLED ] && [ ! -e "$tmp/b1" ] && [ -z "$(leftovers)" ] && queue_empty; then
  pass "10: the merge job refused after the array was queued: array $array $state, never ran; --out absent; $(cut -c1-90 "$tmp/err")"
else
  fail "10: merge refused after the array: exit $status, array '$array' state '$state', --out: $(ls -A "$tmp/b1" 2>&1 | tr '\n' ' '), leftovers '$(leftovers)': $(cat "$tmp/err")"
fi
status=0
"$submit" run --shards 2 --out "$tmp/b1" --quatcheck "$qc" -- "${args[@]}" >"$tmp/ids" 2>"$tmp/err" || status=$?
[ "$status" -eq 0 ] && why="$(submitted "$tmp/b1" "$tmp/ids")" || fail "10: the retry after a refused merge job: exit $status: $(cat "$tmp/err") ${why:-}"
# Negative control: the fake sbatch passing every call through submits normally (into a new folder).
status=0
fake none 0 "$submit" run --shards 2 --out "$tmp/e1" --quatcheck "$qc" -- "${args[@]}" >"$tmp/ids" 2>"$tmp/err" || status=$?
if [ "$status" -eq 0 ] && why="$(submitted "$tmp/e1" "$tmp/ids")" && [ "$(wc -l <"$tmp/fake/ids")" -eq 2 ]; then
  pass "10: negative control: the fake sbatch passing both calls through: the submission completes"
else
  fail "10: negative control: a submission through the fake sbatch: exit $status: $(cat "$tmp/err") ${why:-}"
fi

# (c) slurm-submit killed (SIGKILL) between its two sbatch calls: the queued array is already recorded in a
# slurm.json (of the staging folder, beside --out), it is held (it never runs into a folder that is not there),
# and --out is still absent, so a retry works.
status=0
fake kill 2 "$submit" run --shards 2 --out "$tmp/c1" --quatcheck "$qc" -- "${args[@]}" >/dev/null 2>"$tmp/err" || status=$?
array="$(head -n1 "$tmp/fake/ids" 2>/dev/null)"
recorded="$(grep -l "\"array\": \"$array\"" "$tmp"/.c1*/slurm.json "$tmp"/c1/slurm.json 2>/dev/null | head -n1)"
sleep 2
state="$(job_state "$array")"
reason="$(scontrol show job -o "$array" 2>/dev/null | grep -o 'Reason=[A-Za-z]*' | sort -u | tr '\n' ' ')"
if [ "$status" -eq 137 ] && [ -n "$array" ] && [ -n "$recorded" ] && [ "$state" = PENDING ] && [ ! -e "$tmp/c1" ]; then
  pass "10: killed between the two sbatch calls: array $array recorded in ${recorded#"$tmp"/}, $state (${reason% }), --out absent"
else
  fail "10: killed between the two sbatch calls: exit $status, array '$array' recorded in '${recorded}', state '$state' ($reason), --out: $(ls -A "$tmp/c1" 2>&1 | tr '\n' ' ')"
fi
[ -n "$array" ] && scancel "$array"  # what the user does with the job the record names
rm -rf "$tmp"/.c1*slurm-submit-staging*
status=0
"$submit" run --shards 2 --out "$tmp/c1" --quatcheck "$qc" -- "${args[@]}" >"$tmp/ids" 2>"$tmp/err" || status=$?
[ "$status" -eq 0 ] && why="$(submitted "$tmp/c1" "$tmp/ids")" || fail "10: the retry after the kill: exit $status: $(cat "$tmp/err") ${why:-}"

# (d) SIGTERM while the merge job is submitted (the fake sends it, then queues the job): exit 143, one line, both
# jobs cancelled, --out absent.
status=0
fake term 2 "$submit" run --shards 2 --out "$tmp/d1" --quatcheck "$qc" -- "${args[@]}" >/dev/null 2>"$tmp/err" || status=$?
mapfile -t ids < <(cat "$tmp/fake/ids" 2>/dev/null)
sleep 2
states="$(for j in "${ids[@]}"; do job_state "$j"; echo; done | sort -u | tr '\n' ' ')"
if [ "$status" -eq 143 ] && [ "${#ids[@]}" -eq 2 ] && [ "$states" = "CANCELLED " ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
   grep -q "interrupted by SIGTERM; cancelled job(s)" "$tmp/err" && [ ! -e "$tmp/d1" ] && [ -z "$(leftovers)" ]; then
  pass "10: SIGTERM during the submission: exit 143, jobs ${ids[*]} cancelled, --out absent"
else
  fail "10: SIGTERM during the submission: exit $status, jobs '${ids[*]}' states '$states', --out: $(ls -A "$tmp/d1" 2>&1 | tr '\n' ' '): $(cat "$tmp/err")"
fi

# (e) a resubmission whose merge job is refused: its array is cancelled before it runs (the shards that are there
# stay), slurm.json as it was.
cp "$tmp/e1/slurm.json" "$tmp/manifest.before"
shard_before="$(find "$tmp/e1/shards/2" "$tmp/e1/status/2" -type f -exec md5sum {} + | sort)"
status=0
fake refuse 2 "$submit" resubmit "$tmp/e1" --tasks 2 >/dev/null 2>"$tmp/err" || status=$?
array="$(head -n1 "$tmp/fake/ids" 2>/dev/null)"
sleep 2
state="$(job_state "$array")"
if [ "$status" -eq 2 ] && [ -n "$array" ] && [ "$state" = CANCELLED ] && cmp -s "$tmp/manifest.before" "$tmp/e1/slurm.json" &&
   [ "$(find "$tmp/e1/shards/2" "$tmp/e1/status/2" -type f -exec md5sum {} + | sort)" = "$shard_before" ]; then
  pass "10: a resubmission whose merge job is refused: array $array cancelled, shard 2 and slurm.json unchanged"
else
  fail "10: resubmission with a refused merge job: exit $status, array '$array' state '$state', slurm.json $(cmp "$tmp/manifest.before" "$tmp/e1/slurm.json" 2>&1 || true): $(cat "$tmp/err")"
fi

finish
