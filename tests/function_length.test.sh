#!/usr/bin/env bash
# No C or C++ function in the tree is longer than 80 lines (issue 27: long functions on the run path hid
# their seams; issue 42 lowered the limit from 120). Lengths come from universal-ctags (its start and end
# line of each function definition, lambdas counted in the function that holds them). Negative control: a
# generated 81-line function is reported by the same measurement, and an 80-line one is not.
# Usage: bash tests/function_length.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
limit=80
ctags=$(command -v ctags-universal || command -v universal-ctags || true)
[ -n "$ctags" ] || skip "universal-ctags is not installed (Debian universal-ctags; scripts/setup installs it)"

# Prints "LINES FILE:LINE NAME" for every function definition in the files named on stdin, longest first.
lengths() {
  "$ctags" -L - --languages=C,C++ --kinds-C=f --kinds-C++=f --fields=+ne -f - 2>/dev/null |
    awk -F'\t' '{ l = 0; e = 0
      for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) l = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
      if (e > 0) print e - l + 1, $2 ":" l, $1 }' | sort -rn
}

cd "$src"
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' 2>/dev/null)
[ "${#files[@]}" -gt 50 ] || fail "found only ${#files[@]} sources to measure"
printf '%s\n' "${files[@]}" | lengths >"$tmp/lengths"
[ "$(wc -l <"$tmp/lengths")" -gt 500 ] || fail "ctags measured only $(wc -l <"$tmp/lengths") functions"
long=$(awk -v m=$limit '$1 > m' "$tmp/lengths")
[ -z "$long" ] || fail "functions longer than $limit lines: $(echo "$long" | tr '\n' ';')"
pass "$(wc -l <"$tmp/lengths") functions, the longest: $(head -1 "$tmp/lengths")"

# Negative control: the same measurement sees a (limit + 1)-line function and passes a limit-line one.
over=$((limit + 1))
for n in $over $limit; do
  { echo "int f$n(int x) {"; for ((i = 0; i < n - 3; i++)); do echo "    x += $i;"; done; echo "    return x;"; echo "}"; } >"$tmp/f$n.cpp"
done
got=$(cd "$tmp" && printf '%s\n' "f$over.cpp" "f$limit.cpp" | lengths | awk -v m=$limit '$1 > m { print $3 }')
[ "$got" = "f$over" ] || fail "negative control: the over-long function was not told apart (got '$got')"
pass "negative control: a $((limit + 1))-line function is reported, a $limit-line one is not"
finish
