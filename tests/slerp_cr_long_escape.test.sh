#!/usr/bin/env bash
# scripts/readme/slerp_cr_long_check.py (the docs' block of the long check, docs/slerp-cr.md) on a fixture folder,
# without running the check: text it takes from the folder, run.txt's first line and a region's name in a shard
# line, is escaped for Markdown, so a '|', '<' or line break in it cannot split a cell, add a row or open an HTML tag.
# A run.txt of blanks prints no "started" part (it used to fail). Negative control: a copy of the generator whose
# escaping is made a no-op gives a table that the same check refuses.
source "$(dirname "$0")/lib.sh" "$@"
gen="$src/scripts/readme/slerp_cr_long_check.py"
f="$tmp/f"
mkdir -p "$f"
line() {  # line PRECISION REGION SHARD
  echo "slerp_cr_check $1 $2 seed 1 shard $3/2: cases 10 components 40 misrounded 0 undecided 0 capped 0" \
    "checked-by-dd 40 checked-by-mpfr 0 phase2-calls 0 seconds 0.5"
}
line f32 uniform 1 >"$f/1.line"
line f32 uniform 2 >"$f/2.line"
line f64 'evil|<script>x</script>|' 1 >"$f/3.line"
printf 'started at load 1 | <b>bold</b> \\| on 2 CPUs\nsecond line | x\n' >"$f/run.txt"
/usr/bin/python3 "$gen" "$f" >"$tmp/out.md" 2>"$tmp/err" || fail "slerp_cr_long_check.py: $(cat "$tmp/err")"
cat >"$tmp/shape.py" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
table = [l for l in text.splitlines() if l.startswith("|")]
if len(table) != 4:
    sys.exit(f"FAIL: expected a header, a rule and 2 rows, got:\n{text}")
for l in table:
    pipes = len(re.findall(r"(?<!\\)(?:\\\\)*\|", l))
    if pipes != 12:
        sys.exit(f"FAIL: {pipes} unescaped '|' (12 expected) in {l!r}")
if re.search(r"(?<!\\)<(script|b)", text) or "second line" in text:
    sys.exit(f"FAIL: an unescaped tag or run.txt's second line:\n{text}")
first = text.splitlines()[0]
if "(started at load 1 \\| \\<b>bold\\</b> \\\\\\| on 2 CPUs):" not in first:
    sys.exit(f"FAIL: run.txt's first line, escaped: {first!r}")
if "| f64 | evil\\|\\<script>x\\</script>\\| | 10 |" not in text:
    sys.exit(f"FAIL: the region's name, escaped:\n{text}")
EOF
/usr/bin/python3 "$tmp/shape.py" "$tmp/out.md" || fail "the block's shape (above)"
pass "run.txt's first line and a region's name are escaped: $(head -1 "$tmp/out.md")"

# Negative control: a copy of the generator whose md_cell is made a no-op breaks the table, and the check says so.
mkdir -p "$tmp/s/readme"
cp "$gen" "$src/scripts/readme/measured.py" "$tmp/s/readme/"
{ cat "$src/scripts/qc_tables.py"; printf '\n\ndef md_cell(text):\n    return str(text)\n'; } >"$tmp/s/qc_tables.py"
/usr/bin/python3 "$tmp/s/readme/slerp_cr_long_check.py" "$f" >"$tmp/raw.md" 2>"$tmp/err" || fail "the copy: $(cat "$tmp/err")"
/usr/bin/python3 "$tmp/shape.py" "$tmp/raw.md" >"$tmp/raw.check" 2>&1 && fail "the unescaped block passed the check"
pass "negative control: unescaped, the block fails the check: $(head -1 "$tmp/raw.check")"

printf '   \n\n' >"$f/run.txt"
/usr/bin/python3 "$gen" "$f" >"$tmp/out2.md" 2>"$tmp/err" || fail "a run.txt of blanks: $(cat "$tmp/err")"
head -1 "$tmp/out2.md" | grep -q 'shards per row:$' || fail "a run.txt of blanks: $(head -1 "$tmp/out2.md")"
pass "a run.txt of blanks: no started part"
