#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/robust_fuzz.test.sh into BUILD_DIR/fuzz with Debian's clang under ASan+UBSan
# (and libstdc++ assertions): fuzz_csv_read always, fuzz_shard_read and fuzz_sweep_state_read with --all (they link
# the build's libraries). Incremental: a source newer than its object (or a header newer than it) is compiled again,
# a target is linked again when an object or a link input is newer. The build runs it for fuzz_csv_read (target
# qc_fuzz_targets, tests/CMakeLists.txt), so that the test suite's time is the fuzzing, not the compiling.
# Exit 77 with one SKIP line when clang++ or the libFuzzer runtime is missing.
# Usage: fuzz/build.sh BUILD_DIR SOURCE_DIR [--all]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: fuzz/build.sh BUILD_DIR SOURCE_DIR [--all]" >&2; exit 2; }
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
all=0
[[ ${3:-} == --all ]] && all=1
cxx="$(command -v clang++ || true)"
if [[ -z $cxx ]]; then
    echo "SKIP: clang++ not found (apt-get install clang libclang-rt-14-dev; not in the core profile); fuzz targets not built"
    exit 77
fi
out="$build/fuzz"
mkdir -p "$out"
flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -D_GLIBCXX_ASSERTIONS
       -I"$src/harness/include" -I"$src/harness")

# The newest header of the tree: an object older than it is compiled again (a header's layout change would
# otherwise mix two layouts of one type in a reused build folder).
newest_header="$(find "$src/harness" "$src/fuzz" -name '*.h' -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)"
# target NAME SOURCES... -- LINK...: compiles each source newer than its object (or than the newest header), and
# links $out/NAME when an object or a link input (the build's libraries) is newer than it (a library change
# costs a link only).
target() {
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
target fuzz_csv_read "$src/fuzz/fuzz_csv_read.cpp" "${tables[@]}" -- -lfmt
((all)) || exit 0
# shard_file.cpp and shard.cpp (the checks merges share) are instrumented; what they call (regions, build info,
# reference statistics) comes from the build.
for lib in studies evaluation core base; do
    [[ -f $build/libqc_$lib.a ]] || { echo "FAIL: $build/libqc_$lib.a missing (build quatcheck first)"; exit 1; }
done
target fuzz_shard_read "$src/fuzz/fuzz_shard_read.cpp" "$src/harness/run/shard_file.cpp" "$src/harness/base/shard.cpp" -- \
    "$build/libqc_evaluation.a" "$build/libqc_core.a" "$build/libqc_base.a" -lmpfr -lgmp -lfmt -ldl -lpthread
target fuzz_sweep_state_read "$src/fuzz/fuzz_sweep_state_read.cpp" "$src/harness/sweep/sweep_report.cpp" -- \
    "$build/libqc_studies.a" "$build/libqc_evaluation.a" "$build/libqc_core.a" "$build/libqc_base.a" -lrapidcheck \
    -lbenchmark -lmpfr -lgmp -lfmt -ldl -lpthread
