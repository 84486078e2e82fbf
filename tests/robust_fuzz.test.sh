#!/usr/bin/env bash
# Builds the libFuzzer targets for every reader of the tool's own output with Debian's clang under
# ASan+UBSan (and libstdc++ assertions) and runs each from its committed corpus:
#   fuzz/fuzz_csv_read.cpp    the hexfloat parser, worst_cases.csv (replay), and a whole report folder as
#                             compare, leaderboard and report read it (summary, squad_summary, conformance,
#                             squad_conformance, timing, worst_cases CSVs and run.json);  corpus fuzz/corpus/
#   fuzz/fuzz_shard_read.cpp  shard.bin (merge), with and without a valid payload checksum; corpus fuzz/corpus_shard/
#   fuzz/fuzz_sweep_state_read.cpp  sweep_state.json (merge of sweep --shard K/N);          corpus fuzz/corpus_sweep/
# By default each target runs a fixed number of inputs from a fixed seed (deterministic, about 10 s each:
# QC_FUZZ_RUNS, default 4000; a quarter of that for the sweep state). Nightly: QC_FUZZ_SECONDS=S runs each for S seconds with a random seed instead.
# Small by default (CTest label `heavy`): compiling under ASan is most of the time (about 230 s of 266 for the
# three targets on two loaded cores), so only fuzz_csv_read, the reader of every report table, is run, and the
# build compiles it beforehand (fuzz/build.sh, target qc_fuzz_targets); at full size (script.robust_fuzz.full,
# QC_TEST_FULL=1) all three, the other two compiled here.
# Skipped, with a message, when clang or libFuzzer is absent.
# Usage: robust_fuzz.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
runs="${QC_FUZZ_RUNS:-4000}"
seconds="${QC_FUZZ_SECONDS:-}"
# The targets are built by fuzz/build.sh (the build runs it for fuzz_csv_read: target qc_fuzz_targets), here again
# in case this build folder has not: it compiles only what is out of date.
out="$build/fuzz"
build_args=()
if ((full)); then build_args=(--all); fi
bash "$src/fuzz/build.sh" "$build" "$src" "${build_args[@]}" || exit $?
work="$tmp"
export QC_FUZZ_TMP="$work"  # the targets' scratch files go there, and with it
# fuzz NAME CORPUS [RUNS]: new inputs go to a scratch corpus; the committed one is only read.
fuzz() {
    local name=$1 corpus=$2
    mkdir -p "$work/$name"
    local budget=(-seed=1 -runs="${3:-$runs}")
    [[ -n $seconds ]] && budget=(-max_total_time="$seconds")
    (cd "$work" && "$out/$name" "${budget[@]}" -timeout=10 -rss_limit_mb=1024 -max_len=262144 -print_final_stats=1 \
        "$work/$name" "$corpus" 2>"$work/$name.log") || { tail -40 "$work/$name.log"; echo "FAIL: $name"; exit 1; }
    echo "$name: $SECONDS s, $(grep -E 'stat::number_of_executed_units' "$work/$name.log" | awk '{print $2}') inputs, $(tail -1 "$work/$name.log")"
}
fuzz fuzz_csv_read "$src/fuzz/corpus"
((full)) || { echo "small size: fuzz_shard_read and fuzz_sweep_state_read run in script.robust_fuzz.full"; exit 0; }
fuzz fuzz_shard_read "$src/fuzz/corpus_shard"
# (a sweep state is 130 KB of JSON: a quarter of the inputs of the others takes as long)
fuzz fuzz_sweep_state_read "$src/fuzz/corpus_sweep" $((runs / 4))
