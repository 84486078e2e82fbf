#!/usr/bin/env bash
# Builds the libFuzzer target fuzz/fuzz_csv_read.cpp (the hexfloat parser and the table reader on worst_cases.csv) with
# Debian's clang under ASan+UBSan and runs it for a bounded time (QC_FUZZ_SECONDS, default 20) from the
# committed corpus fuzz/corpus/. Skipped, with a message, when clang or libFuzzer is absent.
# Usage: robust_fuzz.test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
seconds="${QC_FUZZ_SECONDS:-20}"
cxx="$(command -v clang++ || true)"
if [[ -z $cxx ]]; then
    echo "SKIPPED: clang++ not found (apt-get install clang libclang-rt-14-dev); fuzz target not run"
    exit 0
fi
out="$build/fuzz"
mkdir -p "$out"
fuzzer="$out/fuzz_csv_read"
reader=("$src/harness/tables/table.cpp" "$src/harness/tables/rows.cpp" "$src/harness/tables/schemas.cpp")
stale=0
for f in "$src/fuzz/fuzz_csv_read.cpp" "${reader[@]}"; do [[ $f -nt $fuzzer ]] && stale=1; done
if [[ ! -x $fuzzer || $stale == 1 ]]; then
    if ! "$cxx" -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -I"$src/harness/include" -I"$src/harness" \
        "$src/fuzz/fuzz_csv_read.cpp" "${reader[@]}" -lfmt -o "$fuzzer.tmp" 2>"$out/build.log"; then
        if grep -q "libclang_rt.fuzzer\|cannot find -l.*fuzzer\|fuzzer.*not found" "$out/build.log"; then
            echo "SKIPPED: libFuzzer runtime missing (apt-get install libclang-rt-14-dev)"
            exit 0
        fi
        cat "$out/build.log"
        exit 1
    fi
    mv "$fuzzer.tmp" "$fuzzer"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# New inputs go to a scratch corpus; the committed one is only read.
cd "$work"
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
    "$work" "$src/fuzz/corpus" 2>"$work/log" || { tail -40 "$work/log"; exit 1; }
grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/log" || true
tail -1 "$work/log"
