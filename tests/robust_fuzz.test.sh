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
# three targets on two loaded cores), so only fuzz_csv_read, the reader of every report table, is built and run;
# at full size (script.robust_fuzz.full, QC_TEST_FULL=1) all three.
# Skipped, with a message, when clang or libFuzzer is absent.
# Usage: robust_fuzz.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
runs="${QC_FUZZ_RUNS:-4000}"
seconds="${QC_FUZZ_SECONDS:-}"
cxx="$(command -v clang++ || true)"
if [[ -z $cxx ]]; then
    skip "clang++ not found (apt-get install clang libclang-rt-14-dev; not in the core profile); fuzz targets not run"
fi
out="$build/fuzz"
mkdir -p "$out"
flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -D_GLIBCXX_ASSERTIONS
       -I"$src/harness/include" -I"$src/harness")

# The newest header of the tree: an object older than it is compiled again (a header's layout change would
# otherwise mix two layouts of one type in a reused build folder).
newest_header="$(find "$src/harness" "$src/fuzz" -name '*.h' -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)"
# build NAME SOURCES... -- LINK...: compiles each source newer than its object (or than the newest header), and
# links $out/NAME when an object or a link input (the build's libraries) is newer than it (a library change
# costs a link only).
build() {
    local name=$1 relink=0 objs=() link=()
    shift
    local bin="$out/$name"
    while (($#)) && [[ $1 != -- ]]; do
        local obj="$out/$name.$(basename "$1" .cpp).o"
        if [[ ! -f $obj || $1 -nt $obj || $newest_header -nt $obj ]]; then
            if ! "$cxx" "${flags[@]}" -c "$1" -o "$obj.tmp" 2>"$out/$name.log"; then cat "$out/$name.log"; exit 1; fi
            mv "$obj.tmp" "$obj"
        fi
        objs+=("$obj")
        shift
    done
    (($#)) && shift
    link=("$@")
    for f in "${objs[@]}" "${link[@]}"; do [[ -f $f && $f -nt $bin ]] && relink=1; done
    [[ -x $bin && $relink == 0 ]] && return 0
    if ! "$cxx" -fsanitize=fuzzer,address,undefined "${objs[@]}" "${link[@]}" -o "$bin.tmp" 2>"$out/$name.log"; then
        if grep -q "libclang_rt.fuzzer\|cannot find -l.*fuzzer\|fuzzer.*not found" "$out/$name.log"; then
            echo "SKIP: libFuzzer runtime missing (apt-get install libclang-rt-14-dev; not in the core profile)"
            exit 77
        fi
        cat "$out/$name.log"
        exit 1
    fi
    mv "$bin.tmp" "$bin"
}
tables=("$src/harness/tables/table.cpp" "$src/harness/tables/rows.cpp" "$src/harness/tables/schemas.cpp")
build fuzz_csv_read "$src/fuzz/fuzz_csv_read.cpp" "${tables[@]}" -- -lfmt
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
# shard_file.cpp and shard.cpp (the checks merges share) are instrumented; what they call (regions, build info,
# reference statistics) comes from the build.
if [[ -f $build/libqc_studies.a && -f $build/libqc_evaluation.a && -f $build/libqc_core.a && -f $build/libqc_base.a ]]; then
    build fuzz_shard_read "$src/fuzz/fuzz_shard_read.cpp" "$src/harness/run/shard_file.cpp" "$src/harness/base/shard.cpp" -- \
        "$build/libqc_evaluation.a" "$build/libqc_core.a" "$build/libqc_base.a" -lmpfr -lgmp -lfmt -ldl -lpthread
    build fuzz_sweep_state_read "$src/fuzz/fuzz_sweep_state_read.cpp" "$src/harness/sweep/sweep_report.cpp" -- \
        "$build/libqc_studies.a" "$build/libqc_evaluation.a" "$build/libqc_core.a" "$build/libqc_base.a" -lrapidcheck \
        -lbenchmark -lmpfr -lgmp \
        -lfmt -ldl -lpthread
else
    echo "FAIL: $build/libqc_{studies,evaluation,core,base}.a missing (build quatcheck first)"
    exit 1
fi

fuzz fuzz_shard_read "$src/fuzz/corpus_shard"
# (a sweep state is 130 KB of JSON: a quarter of the inputs of the others takes as long)
fuzz fuzz_sweep_state_read "$src/fuzz/corpus_sweep" $((runs / 4))
