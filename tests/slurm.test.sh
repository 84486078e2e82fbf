#!/usr/bin/env bash
# scripts/slurm-submit on a real Slurm (issue 31, docs/scale-out.md): a single-node cluster (munged, slurmctld,
# slurmd from scripts/slurm-local, everything in a temporary folder, 127.0.0.1 on free ports) runs
#  1. a 4-shard `run` plus its merge job (with --report, and --baseline: compare against the unsharded run) and a 4-shard
#     exhaustive `sweep` plus its merge job: the merged tables are byte-identical to the unsharded ones;
#  2. a third 4-shard run whose task 2 is cancelled while it runs and whose task 4 fails: its merge job fails and
#     names shards 2 and 4 and the command that resubmits only those; that command then completes the run
#     (byte-identical again);
#  3. a shard of another run (other seed) planted in its place: the merge job refuses it, naming shard 3
#     (negative control of the identity check); and a new submission into a used folder is refused (exit 2);
#  4. a 3-task `history` scan of 5 planted npm releases (tests/history's fake npm, no network) whose merged
#     history.csv, transitions.csv and history.html are byte-identical to the unsharded scan's; a lost shard 2
#     fails the merge job, naming it and the resubmit command, which completes it (skipped without node).
# The daemons it started are stopped by pid on exit and nothing is left behind. SKIP (exit 77) only when
# munge or slurm-wlm is not installed (scripts/setup installs them from scripts/packages.txt).
source "$(dirname "$0")/lib.sh" "$@"
submit="$src/scripts/slurm-submit"
# shellcheck source=../scripts/slurm-local
source "$src/scripts/slurm-local"
missing="$(slurm_local_missing)"
if [ -n "$missing" ]; then
  skip "Slurm test: $missing not installed (Debian packages slurm-wlm and munge; scripts/setup installs them)"
fi

# Default locations of munge and Slurm state: none of them may appear (everything stays in $tmp).
defaults=(/run/munge /var/lib/munge/munged.seed /var/log/munge/munged.log /var/spool/slurmd /var/spool/slurmctld
          /var/lib/slurm /var/log/slurm /run/slurmctld.pid /run/slurmd.pid)
before=""
for p in "${defaults[@]}"; do [ -e "$p" ] && before+="$p "; done

at_exit slurm_local_down

mkdir "$tmp/cluster"
slurm_local_up "$tmp/cluster"
pids=("${SLURM_LOCAL_PIDS[@]}")
echo "ok   cluster up: munged, slurmctld, slurmd (pids ${pids[*]})"

run_args=(--impl 'seed-*' --impl 'glm-slerp*' --cases 3000 --seed 7)
sweep_args=(--over t --pair-dot 0.7 --window 0.29:0.2902 --impl seed-c.f32 --impl broken-needle-t.f32)
"$qc" run "${run_args[@]}" --jobs 2 --out "$tmp/whole-run" 2>/dev/null
"$qc" sweep "${sweep_args[@]}" --jobs 2 --out "$tmp/whole-sweep" 2>/dev/null

job_ids() {  # ARRAY MERGE from slurm-submit's first line
  sed -n '1s/^array job \([0-9]*\) .*merge job \([0-9]*\) .*/\1 \2/p' "$1"
}
wait_merge() {  # DIR MERGE_ID EXPECTED_STATE
  local state
  state="$(slurm_local_wait "$2" 120)" || fail "$1: merge job $2 did not end within 120 s ($state); queue: $(squeue -h)"
  [ "$state" = "$3" ] || fail "$1: merge job $2 ended $state, expected $3: $(cat "$1/logs/merge-$2.out")"
}
same_tables() {  # MERGED WHOLE FILE...
  local m="$1" w="$2" f
  shift 2
  for f in "$@"; do
    cmp -s "$m/$f" "$w/$f" || fail "$m/$f differs from the unsharded $w/$f"
  done
}
run_tables=(summary.csv worst_cases.csv error_curve.csv leaderboard.csv)
sweep_tables=(sweep_summary.csv sweep_curve.csv t_branch_map.csv worst_cases.csv)

start=$SECONDS
"$submit" run --shards 4 --out "$tmp/run" --quatcheck "$qc" --report --baseline "$tmp/whole-run" -- "${run_args[@]}" > "$tmp/run.ids"
"$submit" sweep --shards 4 --out "$tmp/sweep" --quatcheck "$qc" -- "${sweep_args[@]}" > "$tmp/sweep.ids"
read -r run_array run_merge < <(job_ids "$tmp/run.ids")
read -r sweep_array sweep_merge < <(job_ids "$tmp/sweep.ids")
[ -n "${run_merge:-}" ] && [ -n "${sweep_merge:-}" ] || fail "no job ids in: $(cat "$tmp/run.ids" "$tmp/sweep.ids")"
grep -q "squeue -j $run_array,$run_merge" "$tmp/run.ids" || fail "no state command in: $(cat "$tmp/run.ids")"
wait_merge "$tmp/run" "$run_merge" COMPLETED
wait_merge "$tmp/sweep" "$sweep_merge" COMPLETED
same_tables "$tmp/run/merged" "$tmp/whole-run" "${run_tables[@]}"
same_tables "$tmp/sweep/merged" "$tmp/whole-sweep" "${sweep_tables[@]}"
[ -f "$tmp/run/merged/compare.md" ] || fail "--baseline: no compare.md in the merged run"
[ -f "$tmp/run/merged/report.html" ] || fail "--report: no report.html in the merged run"
[ ! -e "$tmp/run/merged/shard.bin" ] || fail "the merged run kept a shard.bin"
echo "ok   4-shard run and 4-shard sweep on Slurm, merged by their merge jobs: ${#run_tables[@]} + ${#sweep_tables[@]} tables byte-identical to the unsharded ones ($((SECONDS - start)) s)"

# A used folder is refused, with one line and exit 2.
status=0
"$submit" run --shards 4 --out "$tmp/run" --quatcheck "$qc" -- "${run_args[@]}" > /dev/null 2> "$tmp/err" || status=$?
[ "$status" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "^quatcheck: slurm-submit: .*already holds the shards of another submission" "$tmp/err" ||
  fail "a second submission into a used folder: exit $status: $(cat "$tmp/err")"
status=0
"$submit" run --shards 4 --out "$tmp/x" --quatcheck "$qc" -- --shard 1/4 > /dev/null 2> "$tmp/err" || status=$?
[ "$status" -eq 2 ] && grep -q "^quatcheck: slurm-submit: --shard: set by slurm-submit" "$tmp/err" || fail "--shard in the quatcheck arguments: exit $status: $(cat "$tmp/err")"
[ ! -e "$tmp/x" ] || fail "a refused submission created its folder"
"$submit" sweep --shards 3 --cpus-per-task 2 --time 5 --out "$tmp/dry" --quatcheck "$qc" --dry-run -- "${sweep_args[@]}" > "$tmp/dry.txt"
grep -q -- "--array=1-3 .*--cpus-per-task=2 --time=5 " "$tmp/dry.txt" && grep -q -- "--dependency=afterany:<array>" "$tmp/dry.txt" &&
  grep -q -- '--shard "$k/3" --out' "$tmp/dry.txt" || fail "--dry-run: $(cat "$tmp/dry.txt")"
[ ! -e "$tmp/dry" ] || fail "--dry-run wrote its folder"
echo "ok   a used output folder and a --shard of the user's own are refused (exit 2, one line); --dry-run submits nothing"

# A task cancelled while it runs and a task that fails: the third array runs quatcheck through a wrapper that,
# while $tmp/hang exists, holds task 2 (cancelled once RUNNING: Slurm signals the task's processes) and makes
# task 4 exit 3.
cat > "$tmp/qc-wrapper" <<EOF
#!/bin/bash
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 2 ] && [ -e "$tmp/hang" ]; then sleep 300; fi
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 4 ] && [ -e "$tmp/hang" ]; then echo "planted failure" >&2; exit 3; fi
exec "$qc" "\$@"
EOF
chmod +x "$tmp/qc-wrapper"
touch "$tmp/hang"
"$submit" run --shards 4 --out "$tmp/third" --quatcheck "$tmp/qc-wrapper" -- "${run_args[@]}" > "$tmp/third.ids"
read -r third_array third_merge < <(job_ids "$tmp/third.ids")
for ((i = 0; i < 600; i++)); do
  scontrol show job -o "${third_array}_2" 2>/dev/null | grep -q "JobState=RUNNING" && break
  sleep 0.1
done
scontrol show job -o "${third_array}_2" | grep -q "JobState=RUNNING" || fail "task 2 of the third array never ran"
status=0
"$submit" resubmit "$tmp/third" --tasks 2 > /dev/null 2> "$tmp/err" || status=$?
[ "$status" -eq 2 ] && grep -q "its jobs .*$third_array.* are still queued or running" "$tmp/err" ||
  fail "resubmit while the array runs: exit $status: $(cat "$tmp/err")"
scancel "${third_array}_2"
wait_merge "$tmp/third" "$third_merge" FAILED
rm "$tmp/hang"
log="$tmp/third/logs/merge-$third_merge.out"
# Cancelled, the task script either dies with quatcheck (no status) or records the signal's status (143).
grep -q "merge: 2 of 4 shards missing or broken" "$log" &&
  grep -E -q "shard 2/4: (no exit status: the task was cancelled|quatcheck was killed by SIGTERM \(status 143\): cancelled)" "$log" &&
  grep -q "shard 4/4: quatcheck exited with status 3 (log: logs/task-${third_array}_4.out)" "$log" ||
  fail "the failed merge job does not name shards 2 and 4: $(cat "$log")"
! grep -q "shard [13]/4:" "$log" || fail "the merge job blames shards that completed: $(cat "$log")"
resubmit="$(sed -n 's/^resubmit only those: //p' "$log")"
[[ "$resubmit" == *" resubmit $tmp/third --tasks 2,4" ]] || fail "no resubmit command for shards 2 and 4 only: $(cat "$log")"
[ ! -e "$tmp/third/merged" ] || fail "the failed merge left a merged report"
echo "ok   resubmit refused while the array runs; task 2 cancelled while running, task 4 failed: the merge job failed naming shards 2/4 and 4/4 and 'slurm-submit ${resubmit#* }'"
eval "$resubmit" > "$tmp/third2.ids"
read -r _ third_merge2 < <(job_ids "$tmp/third2.ids")
grep -q "tasks 2,4 of 4" "$tmp/third2.ids" || fail "the resubmission is not shards 2 and 4 alone: $(cat "$tmp/third2.ids")"
wait_merge "$tmp/third" "$third_merge2" COMPLETED
same_tables "$tmp/third/merged" "$tmp/whole-run" "${run_tables[@]}"
echo "ok   shards 2 and 4 resubmitted alone: the new merge job completed, tables byte-identical to the unsharded run"

# Shards of different runs are never merged: shard 3 replaced by shard 3 of the same run with another seed.
other_args=(--impl 'seed-*' --impl 'glm-slerp*' --cases 3000 --seed 8)
"$qc" run "${other_args[@]}" --shard 3/4 --jobs 1 --out "$tmp/third/shards/3" 2>/dev/null
"$submit" resubmit "$tmp/third" > "$tmp/third3.ids"
third_merge3="$(sed -n '1s/^merge job \([0-9]*\)$/\1/p' "$tmp/third3.ids")"
[ -n "$third_merge3" ] || fail "resubmit without --tasks: $(cat "$tmp/third3.ids")"
wait_merge "$tmp/third" "$third_merge3" FAILED
log="$tmp/third/logs/merge-$third_merge3.out"
grep -q "shard 3/4: refused by quatcheck merge (.*not shards of one run)" "$log" && grep -q -- "--tasks 3$" "$log" ||
  fail "the merge of another run's shard 3 was not refused naming shard 3: $(cat "$log")"
! grep -q "shard [124]/4:" "$log" || fail "the merge job blames shards other than 3: $(cat "$log")"
same_tables "$tmp/third/merged" "$tmp/whole-run" "${run_tables[@]}"  # the refused merge left the good one as it was
echo "ok   a shard of another run (seed 8) is refused by the merge job, naming shard 3/4"

# A history scan as an array (docs/history.md#slurm): 5 planted gl-matrix releases (tests/history, no network) in 3
# tasks sharing one empty cache, merged by the merge job byte-identically to the unsharded scan; then shard 2
# lost (its folder and status gone): the merge job fails naming it and the resubmit command, which completes it.
if command -v node > /dev/null; then
  export QC_NPM="$src/tests/history/fake_npm.sh" FAKE_NPM_LOG="$tmp/npm.log" QC_JS_ADAPTERS="$src/impls/js" \
    FAKE_REGISTRY="$tmp/registry" XDG_CACHE_HOME="$tmp/hcache"
  "$src/tests/history/plant.sh" "$tmp/registry" 2.0.0:good 2.1.0:good 2.2.0:bad 2.3.0:bad 2.4.0:good
  hist_args=(--npm gl-matrix@2.0.0..2.4.0 --impl glmatrix-slerp.f64 --op slerp --region uniform --region near-0 --cases 60)
  XDG_CACHE_HOME="$tmp/hcache-whole" "$qc" history "${hist_args[@]}" --out "$tmp/whole-history" > /dev/null
  hist_tables=(history.csv transitions.csv history.html)
  start=$SECONDS
  "$submit" history --shards 3 --out "$tmp/hist" --quatcheck "$qc" -- "${hist_args[@]}" > "$tmp/hist.ids"
  read -r hist_array hist_merge < <(job_ids "$tmp/hist.ids")
  [ -n "${hist_merge:-}" ] || fail "history: no job ids in: $(cat "$tmp/hist.ids")"
  grep -q "^history: 5 version(s) (gl-matrix 2.0.0 .. gl-matrix 2.4.0)" "$tmp/hist.ids" || fail "history: no plan line: $(cat "$tmp/hist.ids")"
  wait_merge "$tmp/hist" "$hist_merge" COMPLETED
  same_tables "$tmp/hist/merged" "$tmp/whole-history" "${hist_tables[@]}"
  [ "$(grep -c ',2.1.0,2.2.0,' "$tmp/hist/merged/transitions.csv")" -ge 1 ] && [ "$(grep -c ',2.3.0,2.4.0,' "$tmp/hist/merged/transitions.csv")" -ge 1 ] ||
    fail "history: the merged scan lacks the planted transitions: $(cat "$tmp/hist/merged/transitions.csv")"
  [ "$(grep -c "^install --prefix $tmp/hcache/" "$FAKE_NPM_LOG")" = 5 ] || fail "history: expected 5 installs by the 3 tasks: $(cat "$FAKE_NPM_LOG")"
  echo "ok   history scan of 5 releases as a 3-task array sharing one empty cache: ${#hist_tables[@]} tables of the merge job byte-identical to the unsharded scan ($((SECONDS - start)) s)"

  rm -r "$tmp/hist/shards/2" "$tmp/hist/status/2"
  "$submit" resubmit "$tmp/hist" > "$tmp/hist2.ids"
  hist_merge2="$(sed -n '1s/^merge job \([0-9]*\)$/\1/p' "$tmp/hist2.ids")"
  wait_merge "$tmp/hist" "$hist_merge2" FAILED
  log="$tmp/hist/logs/merge-$hist_merge2.out"
  grep -q "merge: 1 of 3 shards missing or broken" "$log" && grep -q "shard 2/3: no exit status" "$log" ||
    fail "history: the merge of a lost shard 2 does not name it: $(cat "$log")"
  ! grep -q "shard [13]/3:" "$log" || fail "history: the merge job blames shards that completed: $(cat "$log")"
  resubmit="$(sed -n 's/^resubmit only those: //p' "$log")"
  [[ "$resubmit" == *" resubmit $tmp/hist --tasks 2" ]] || fail "history: no resubmit command for shard 2: $(cat "$log")"
  eval "$resubmit" > "$tmp/hist3.ids"
  read -r _ hist_merge3 < <(job_ids "$tmp/hist3.ids")
  wait_merge "$tmp/hist" "$hist_merge3" COMPLETED
  same_tables "$tmp/hist/merged" "$tmp/whole-history" "${hist_tables[@]}"
  echo "ok   history shard 2/3 lost: the merge job failed naming it and 'slurm-submit ${resubmit#* }', which completed the scan byte-identically"

  status=0
  "$submit" history --shards 2 --out "$tmp/hx" --quatcheck "$qc" -- "${hist_args[@]}" --bisect > /dev/null 2> "$tmp/err" || status=$?
  [ "$status" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "^quatcheck: slurm-submit: --bisect: not with slurm-submit history" "$tmp/err" ||
    fail "history --bisect: exit $status: $(cat "$tmp/err")"
  status=0
  "$submit" history --shards 6 --out "$tmp/hx" --quatcheck "$qc" -- "${hist_args[@]}" > /dev/null 2> "$tmp/err" || status=$?
  [ "$status" -eq 2 ] && grep -q "^quatcheck: slurm-submit: --shards 6: the scan has 5 version(s): use at most 5 shards" "$tmp/err" ||
    fail "history --shards 6 of 5 versions: exit $status: $(cat "$tmp/err")"
  status=0
  "$submit" history --shards 2 --out "$tmp/hx" --quatcheck "$qc" -- --npm gl-matrix@2.0.0..9.9.9 > /dev/null 2> "$tmp/err" || status=$?
  [ "$status" -eq 2 ] && grep -q "^quatcheck: slurm-submit: quatcheck history --plan: .*the registry has no version 9.9.9" "$tmp/err" ||
    fail "history of an unknown version: exit $status: $(cat "$tmp/err")"
  [ ! -e "$tmp/hx" ] || fail "a refused history submission created its folder"
  echo "ok   slurm-submit history refuses --bisect, more shards than versions and a range the registry lacks before queueing anything (exit 2, one line)"
else
  echo "ok   (history array not run: node is not installed)"
fi

slurm_local_down
for pid in "${pids[@]}"; do
  ! kill -0 "$pid" 2>/dev/null || fail "daemon $pid still running after slurm_local_down"
done
after=""
for p in "${defaults[@]}"; do [ -e "$p" ] && after+="$p "; done
[ "$after" = "$before" ] || fail "state outside the test's folder: before '$before', after '$after'"
echo "ok   the 3 daemons stopped by pid; no munge or Slurm state outside the test's temporary folder"
