#!/usr/bin/env bash
# The layering check (scripts/check_layers.py, run by every build): the tree passes; an upward include
# (a core file including a study's header), a directory placed in no layer, a file of the cli layer
# included from the output layer, and a cycle between folders of one layer (two folders, and three) each
# fail it with one line naming the file or the cycle, and so does a getenv below harness/cli (a comment
# naming getenv does not; harness/cli may call it) (negative controls on copies). The link check (--link) passes
# on the built layer libraries and refuses a definition moved up a layer (negative control on copied archives).
# Usage: bash tests/check_layers.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
check="$src/scripts/check_layers.py"

/usr/bin/python3 "$check" "$src" || fail "the tree violates its own layering"

copy() { rm -rf "$tmp/t" && mkdir -p "$tmp/t" && cp -r "$src/harness" "$tmp/t/harness"; }
expect_violation() {  # NAME PATTERN
    if /usr/bin/python3 "$check" "$tmp/t" 2> "$tmp/err"; then fail "$1: not caught"; fi
    [[ $(wc -l < "$tmp/err") -eq 1 ]] || { cat "$tmp/err"; fail "$1: not exactly one line"; }
    grep -q "$2" "$tmp/err" || { cat "$tmp/err"; fail "$1: the message does not name $2"; }
}

copy
printf '#include "search/search.h"\n' >> "$tmp/t/harness/metrics/metrics.cpp"
expect_violation "core includes studies" 'harness/metrics/metrics.cpp: includes "search/search.h": layer core may not include layer studies'

copy
mkdir -p "$tmp/t/harness/newpart" && printf '// nothing\n' > "$tmp/t/harness/newpart/x.cpp"
expect_violation "unplaced directory" 'harness/newpart/: directory in no layer'

copy
printf '#include "cli/command.h"\n' >> "$tmp/t/harness/report/run_report.h"
expect_violation "output includes cli" 'harness/report/run_report.h: includes "cli/command.h"'
copy
printf '#include "plugins/impls.h"\n' >> "$tmp/t/harness/isolate/eval.cpp"
expect_violation "two folders of one layer include each other" \
    'folder cycle in layer evaluation among isolate, plugins: isolate -> plugins -> isolate (isolate/eval.cpp includes "plugins/impls.h"; plugins/'

copy
printf '#include "sweep/sweep.h"\n' >> "$tmp/t/harness/squad/tracks.h"
printf '#include "curves/velocity.h"\n' >> "$tmp/t/harness/sweep/sweep.cpp"
expect_violation "three folders of one layer in a cycle" \
    'folder cycle in layer studies among curves, squad, sweep: curves -> squad -> sweep -> curves (curves/'
copy
printf '// std::getenv("X") is not called here\nconst char *x = std::getenv("QC_X");\n' >> "$tmp/t/harness/isolate/isolated.cpp"
line=$(grep -n 'std::getenv("QC_X")' "$tmp/t/harness/isolate/isolated.cpp" | cut -d: -f1)
expect_violation "getenv below the cli" "harness/isolate/isolated.cpp:$line: getenv below the cli layer"

copy
printf '// getenv( in a comment\n' >> "$tmp/t/harness/run/runner.cpp"
printf 'const char *y = ::getenv("QC_Y");\n' >> "$tmp/t/harness/cli/context.cpp"
/usr/bin/python3 "$check" "$tmp/t" 2>"$tmp/err" || { cat "$tmp/err"; fail "a getenv in a comment, or in harness/cli, was refused"; }

# The link check (--link): the built layer libraries pass; with types.h's definitions (base/types.cpp.o) moved up
# into the studies library, an evaluation object's use of one is refused, naming both objects and layers.
/usr/bin/python3 "$check" --link "$build" || fail "the built layer libraries use a symbol defined above them"
mkdir -p "$tmp/ar" && cd "$tmp/ar" || fail "no temporary folder"
for l in base core evaluation studies output; do cp "$build/libqc_$l.a" "$tmp/ar/$l.a"; done
ar x base.a types.cpp.o && ar d base.a types.cpp.o && ar q studies.a types.cpp.o || fail "ar failed"
layers=(); for l in base core evaluation studies output; do layers+=("$l=$tmp/ar/$l.a"); done
if /usr/bin/python3 "$check" --link "$tmp/ar" "${layers[@]}" 2> "$tmp/err"; then fail "a definition moved up: not caught"; fi
grep -q '^check_layers: evaluation/impls\.cpp\.o uses qc::to_string(qc::Precision), defined only in layer studies (types\.cpp\.o)' "$tmp/err" ||
    { cat "$tmp/err"; fail "the moved definition: the message does not name the user, the symbol and the layer"; }
cd "$src" || fail "cd"
echo "check_layers: ok"
