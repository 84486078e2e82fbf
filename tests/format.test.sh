#!/usr/bin/env bash
# The C and C++ sources follow .clang-format (the tree's style, written down; one format pass made it so).
# Fails naming the files clang-format would change. Negative control: a copy of a source file with its
# layout broken (one statement's spaces doubled, a brace moved) must be reported by the same check.
# Usage: bash tests/format.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
command -v clang-format >/dev/null || skip "clang-format is not installed (scripts/setup installs it)"
cd "$src"
[ -f .clang-format ] || fail "no .clang-format at the source root"
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' 2>/dev/null || find harness impls tests bench examples -name '*.[ch]' -o -name '*.cpp')
[ "${#files[@]}" -gt 50 ] || fail "found only ${#files[@]} sources to check"
bad=()
for f in "${files[@]}"; do
  clang-format --style=file --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
[ "${#bad[@]}" -eq 0 ] || fail "not formatted (run: clang-format -i ${bad[*]})"
pass "${#files[@]} sources follow .clang-format"

# Negative control: a broken layout is caught.
cp .clang-format "$tmp/"
printf 'int  f( int x ){\nreturn x+1 ;}\n' >"$tmp/broken.cpp"
if clang-format --style=file --dry-run --Werror "$tmp/broken.cpp" >/dev/null 2>&1; then
  fail "negative control: a badly laid out file passed the check"
fi
pass "negative control: a badly laid out file is reported"
