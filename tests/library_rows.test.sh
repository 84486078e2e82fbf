#!/usr/bin/env bash
# scripts/readme/library_rows.py on a fixture report: a library's row carries its figures, and the text it takes
# from the report (a finding's title, a version) is escaped for a Markdown table cell: a '|' or a line break in it
# cannot open a new cell or row, a '<' cannot open an HTML tag. Negative control: a report without the card's
# families is refused.
source "$(dirname "$0")/lib.sh" "$@"
fixture_report
cols="rank,impl,op,group,library_version,cases,nonfinite,status,worst_region,worst_max_angle_err_rad,conformance"
{
  echo "$cols"
  echo '1,coin.f32,slerp,engine,4.0 | <b>x</b>,100,0,ok,uniform,1.5e-07,7/9 pass; fail: unit endpoints'
} > "$r/leaderboard.csv"
mkdir -p "$r/findings"
cat > "$r/findings/index.json" <<'JSON'
{"libraries": [{"library": "coin", "causes": [{"title": "evil | <script>alert(1)</script>\nnext row"}]}]}
JSON
/usr/bin/python3 "$src/scripts/readme/library_rows.py" "$r" impls/engines/libraries.json > "$tmp/out.md" 2>&1 ||
  fail "library_rows.py: $(tail -1 "$tmp/out.md")"
row="$(grep '^| coin ' "$tmp/out.md")" || fail "no row for coin: $(cat "$tmp/out.md")"
[[ $row == *'| 4.0 \| \<b>x\</b> |'* ]] || fail "the version is not escaped: $row"
[[ $row == *'| 1.5e-07: `coin.f32` slerp, uniform |'* ]] || fail "the figure and where: $row"
[[ $row == *'| endpoints unit | 1 |'* ]] || fail "the failed properties and the cause count: $row"
[[ $row == *'evil \| \<script>alert(1)\</script> next row |' ]] || fail "the title is not escaped: $row"
[ "$(grep -c 'next row' "$tmp/out.md")" = 1 ] || fail "the title's line break opened a row"
pass "a row per library, its report text escaped for the table"
# Negative control: no row of the cards' families.
echo "$cols" > "$r/leaderboard.csv"
/usr/bin/python3 "$src/scripts/readme/library_rows.py" "$r" impls/engines/libraries.json > /dev/null 2>&1 &&
  fail "a report without the libraries was accepted"
pass "a report without the libraries is refused"
