#!/usr/bin/env bash
# scripts/slerp-cr-long-check at a small size (the long check itself: docs/slerp-cr.md): every region in both
# precisions, 0 misrounded; its negative controls: the checker catches phase 1's value moved past its bound
# (--damage value_shift, exit 1), and the sum refuses a missing shard and a misrounded one. Also the exact-case
# families at their smallest range (integer keys with components in [-1, 1]).
source "$(dirname "$0")/lib.sh" "$@"
export QC_BUILD_DIR="$build"
check="$build/tests/qc_slerp_cr_check"
"$src/scripts/slerp-cr-long-check" --f32 400 --f64 400 --shards 2 --families 1 --out "$tmp/ok" > "$tmp/ok.txt" 2> "$tmp/ok.err" ||
  fail "the small long check failed: $(cat "$tmp/ok.txt" "$tmp/ok.err")"
[ "$(grep -c '^| f[36][24] | ' "$tmp/ok.txt")" = 12 ] || fail "expected 10 region rows and 2 exact-family rows: $(cat "$tmp/ok.txt")"
grep -q '^| f64 | exact-families-1 | 19200 | 76800 | 0 | 0 | 0 |' "$tmp/ok.txt" || fail "exact families: $(grep exact "$tmp/ok.txt")"
grep -q '^| f32 | uniform | 400 | 1600 | 0 | 0 | 0 |' "$tmp/ok.txt" || fail "f32 uniform: $(grep uniform "$tmp/ok.txt")"
pass "5 regions x 2 precisions, 400 cases each in 2 shards, and the exact-case families of integer keys in [-1, 1] (19200 calls per precision): 0 misrounded"

"$check" --precision f64 --region uniform --cases 2000 --damage value_shift > "$tmp/bad.line" 2> "$tmp/bad.err" &&
  fail "the checker passed phase 1 moved past its bound"
grep -Eq 'misrounded [1-9]' "$tmp/bad.line" || fail "no misrounded count: $(cat "$tmp/bad.line")"
cp -r "$tmp/ok" "$tmp/damaged" && cp "$tmp/bad.line" "$tmp/damaged/1.line"
"$src/scripts/slerp-cr-long-check" --sum "$tmp/damaged" --f32 400 --f64 400 --shards 2 --families 1 > "$tmp/d.txt" &&
  fail "the sum passed a misrounded shard"
grep -q '^FAIL: f64 uniform: [1-9][0-9]* misrounded' "$tmp/d.txt" || fail "$(cat "$tmp/d.txt")"
cp -r "$tmp/ok" "$tmp/lost" && rm "$tmp/lost/3.line"
"$src/scripts/slerp-cr-long-check" --sum "$tmp/lost" --f32 400 --f64 400 --shards 2 --families 1 > "$tmp/l.txt" &&
  fail "the sum passed with a shard missing"
grep -q '^FAIL: 23 shard results of 24 expected' "$tmp/l.txt" || fail "$(cat "$tmp/l.txt")"
pass "negative controls: value_shift caught ($(grep -o 'misrounded [0-9]*' "$tmp/bad.line")); a misrounded or missing shard fails the sum"
expect 2 "--shards: 'two' is not a non-negative integer" "$src/scripts/slerp-cr-long-check" --shards two
expect 2 "--shard: expected K/N with 1 <= K <= N" "$check" --precision f32 --region uniform --cases 1 --shard 3/2
finish
