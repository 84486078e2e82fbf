# quatcheck history on planted releases (no network: tests/history/fake_npm.sh serves fake gl-matrix packages
# from a folder as QC_NPM, tests/history/plant.sh writes them): range parsing (a pre-release only when named),
# the cache (a second run installs nothing), an unsupported version (one SKIP line), the transitions of a
# planted regression and fix, a history without change (no transition: the negative control), --bisect giving
# the full scan's transitions.csv on a range with one transition per figure, a sharded scan (--shard K/N, 3
# shards at once into one cache, quatcheck merge) byte-identical to the unsharded one with its negative
# controls (a missing shard, another seed or range, ...), concurrent scans sharing one empty cache, and bad
# input (one line, exit 2). Small by default (label `heavy`): the sharded and concurrent scans run at full size only.
source "$(dirname "$0")/lib.sh" "$@"
command -v node > /dev/null || skip "node is not installed"
export QC_NPM="$src/tests/history/fake_npm.sh" FAKE_NPM_LOG="$tmp/npm.log" QC_JS_ADAPTERS="$src/impls/js"
: > "$FAKE_NPM_LOG"
plant="$src/tests/history/plant.sh"
"$plant" "$tmp/regfix" 1.9.0:good 2.0.0:good 2.1.0:good 2.2.0:bad 2.3.0-beta.1:bad 2.3.0:bad 2.4.0:good
"$plant" "$tmp/reg" 2.0.0:good 2.1.0:good 2.2.0:bad 2.3.0:bad 2.4.0:bad
"$plant" "$tmp/same" 2.0.0:good 2.1.0:good
sel=(--impl glmatrix-slerp.f64 --op slerp --region uniform --region near-0 --cases 60)
history() {  # REGISTRY CACHE OUT ARGS...: quatcheck history against a planted registry and cache
  local reg="$1" cache="$2" out="$3"; shift 3
  FAKE_REGISTRY="$reg" XDG_CACHE_HOME="$cache" "$qc" history "${sel[@]}" --out "$out" "$@"
}
labels() { python3 -c 'import json,sys; print(" ".join(v["label"] for v in json.load(open(sys.argv[1]))["versions"]))' "$1"; }

# A regression (2.2.0) and its fix (2.4.0); 1.9.0 is older than the adapter supports: one SKIP line.
history "$tmp/regfix" "$tmp/c1" "$tmp/h1" --npm gl-matrix@1.9.0,2.0.0,2.1.0,2.2.0,2.3.0,2.4.0 --jobs 2 > "$tmp/h1.txt"
[ "$(grep -c '^SKIP ' "$tmp/h1.txt")" = 1 ] && grep -q '^SKIP gl-matrix 1.9.0: gl-matrix 1.9.0 is older than 2.0.0' "$tmp/h1.txt" ||
  fail "unsupported 1.9.0: expected one SKIP line: $(cat "$tmp/h1.txt")"
grep -q 'install.*gl-matrix@1.9.0' "$FAKE_NPM_LOG" && fail "the unsupported 1.9.0 was installed"
t="$tmp/h1/transitions.csv"
[ "$(grep -c ',2.1.0,2.2.0,.*,regressed$' "$t")" -ge 1 ] || fail "no regression 2.1.0 -> 2.2.0: $(cat "$t")"
[ "$(grep -c ',2.3.0,2.4.0,.*,fixed$' "$t")" -ge 1 ] || fail "no fix 2.3.0 -> 2.4.0: $(cat "$t")"
[ "$(tail -n +2 "$t" | grep -vc ',2.1.0,2.2.0,\|,2.3.0,2.4.0,')" = 0 ] || fail "transitions elsewhere: $(cat "$t")"
grep -q ',max_angle_err_rad,2.1.0,2.2.0,' "$t" && grep -q 'glmatrix-slerp,slerp,f64,symmetry,verdict,2.1.0,2.2.0,pass,fail,regressed' "$t" ||
  fail "transitions.csv lacks the angle error or the symmetry property: $(cat "$t")"
grep -q '^gl-matrix,2.2.0,sha512-fake-2.2.0,glmatrix-slerp.f64,glmatrix-slerp,slerp,f64,uniform,' "$tmp/h1/history.csv" ||
  fail "history.csv lacks 2.2.0's row with its integrity: $(head -3 "$tmp/h1/history.csv")"
grep -q 'regressed' "$tmp/h1/history.html" || fail "history.html marks no transition"
pass "a planted regression and fix: $(($(wc -l < "$t") - 1)) transitions, all at 2.1.0 -> 2.2.0 and 2.3.0 -> 2.4.0; 1.9.0 one SKIP line"

# The cache: the same range again installs nothing (and asks the registry nothing).
before=$(wc -l < "$FAKE_NPM_LOG")
history "$tmp/regfix" "$tmp/c1" "$tmp/h1b" --npm gl-matrix@2.0.0..2.4.0 --jobs 2 > "$tmp/h1b.txt"
[ "$(wc -l < "$FAKE_NPM_LOG")" = "$before" ] || fail "the second run called npm: $(tail -n +$((before + 1)) "$FAKE_NPM_LOG")"
grep -q ', 0 installed,' "$tmp/h1b.txt" && [ "$(grep -c ': .* rows, cached,' "$tmp/h1b.txt")" = 5 ] ||
  fail "second run: expected 5 cached versions and 0 installed: $(cat "$tmp/h1b.txt")"
cmp -s "$tmp/h1/transitions.csv" "$tmp/h1b/transitions.csv" || fail "the cached run found other transitions"
[ "$(grep -c '^install' "$FAKE_NPM_LOG")" = 5 ] || fail "expected 5 installs in all: $(cat "$FAKE_NPM_LOG")"
pass "cache: the second run installed nothing and found the same transitions"

# Each version's adapter is pointed at its install by QC_JS_PREFIX, set over the caller's environment: one the
# caller happens to export must not win (it did while the variables were appended after environ).
QC_JS_PREFIX=/nonexistent history "$tmp/regfix" "$tmp/c1" "$tmp/h1d" --npm gl-matrix@2.1.0,2.2.0 > "$tmp/h1d.txt" ||
  fail "history with QC_JS_PREFIX=/nonexistent exported: $(tail -2 "$tmp/h1d.txt")"
[ "$(grep -c ',2.1.0,2.2.0,.*,regressed$' "$tmp/h1d/transitions.csv")" -ge 1 ] ||
  fail "with QC_JS_PREFIX exported, 2.1.0 -> 2.2.0 no longer regresses: $(cat "$tmp/h1d/transitions.csv")"
pass "an exported QC_JS_PREFIX does not override the version's own"

# Range parsing: A..B is every stable release in semver order; a pre-release only when named.
[ "$(labels "$tmp/h1b/history.json")" = "2.0.0 2.1.0 2.2.0 2.3.0 2.4.0" ] ||
  fail "2.0.0..2.4.0 selected $(labels "$tmp/h1b/history.json")"
history "$tmp/regfix" "$tmp/c1" "$tmp/h1c" --npm gl-matrix@2.3.0-beta.1..2.3.0 > /dev/null
[ "$(labels "$tmp/h1c/history.json")" = "2.3.0-beta.1 2.3.0" ] ||
  fail "2.3.0-beta.1..2.3.0 selected $(labels "$tmp/h1c/history.json")"
pass "range parsing: 2.0.0..2.4.0 leaves out 2.3.0-beta.1; 2.3.0-beta.1..2.3.0 takes it"

# Negative control: releases that do not change give no transition.
history "$tmp/same" "$tmp/c2" "$tmp/h2" --npm gl-matrix@2.0.0..2.1.0 > "$tmp/h2.txt"
[ "$(wc -l < "$tmp/h2/transitions.csv")" = 1 ] || fail "no change gave transitions: $(cat "$tmp/h2/transitions.csv")"
grep -q '^quatcheck history: 0 transition(s); 2 of 2 version(s) measured' "$tmp/h2.txt" || fail "$(cat "$tmp/h2.txt")"
pass "negative control: two identical releases, no transition"

# --bisect on a range with one transition per figure (2.1.0 -> 2.2.0): the full scan's transitions.csv.
history "$tmp/reg" "$tmp/c3" "$tmp/full" --npm gl-matrix@2.0.0..2.4.0 --jobs 2 > /dev/null
history "$tmp/reg" "$tmp/c3" "$tmp/bis" --npm gl-matrix@2.0.0..2.4.0 --bisect > "$tmp/bis.txt"
[ "$(wc -l < "$tmp/full/transitions.csv")" -gt 1 ] || fail "the full scan found no transition"
cmp "$tmp/full/transitions.csv" "$tmp/bis/transitions.csv" || fail "--bisect found other transitions than the full scan"
probes=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["probes"]))' "$tmp/bis/history.json")
[ "$probes" -lt 5 ] || fail "--bisect measured all $probes versions"
# Its negative control: on the regression-and-fix range the ends agree, and bisection (as documented) sees nothing.
history "$tmp/regfix" "$tmp/c1" "$tmp/bis2" --npm gl-matrix@2.1.0..2.4.0 --bisect > /dev/null
[ "$(wc -l < "$tmp/bis2/transitions.csv")" = 1 ] || fail "bisect over a fixed-again range: $(cat "$tmp/bis2/transitions.csv")"
pass "--bisect: the full scan's $(($(wc -l < "$tmp/full/transitions.csv") - 1)) transitions from $probes of 5 versions; a regression fixed inside the range is missed, as documented"

# The sharded and concurrent scans below (about half of this test's time) run at full size only (label `full`,
# `scripts/test --full`, QC_TEST_FULL=1); the default suite runs the rest.
if ((full)); then
# Sharded: --shard K/N measures versions K, K+N, ... into a shard folder; quatcheck merge of the N folders writes
# the unsharded scan's history.csv, transitions.csv and history.html byte for byte. The 3 shards run at once
# into one empty cache (concurrent registry lists and installs); 1.9.0 (skipped) is in shard 1, the regression
# 2.1.0 -> 2.2.0 spans shards 3 and 1.
range=(--npm gl-matrix@1.9.0..2.4.0)
history "$tmp/regfix" "$tmp/c1" "$tmp/whole" "${range[@]}" > /dev/null
[ "$(history "$tmp/regfix" "$tmp/c1" "$tmp/x" "${range[@]}" --shard 2/3 --plan)" = "gl-matrix 2.0.0
gl-matrix 2.3.0" ] || fail "--plan of shard 2/3: $(history "$tmp/regfix" "$tmp/c1" "$tmp/x" "${range[@]}" --shard 2/3 --plan)"
[ ! -e "$tmp/x" ] || fail "--plan wrote $tmp/x"
pids=()
for k in 1 2 3; do
  history "$tmp/regfix" "$tmp/c4" "$tmp/s$k" "${range[@]}" --shard "$k/3" > "$tmp/s$k.txt" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "a shard failed: $(cat "$tmp"/s?.txt)"; done
grep -q '^SKIP gl-matrix 1.9.0:' "$tmp/s1.txt" || fail "shard 1/3 did not skip 1.9.0: $(cat "$tmp/s1.txt")"
[ "$(ls "$tmp/s3/versions")" = "gl-matrix@2.1.0
gl-matrix@2.4.0" ] || fail "shard 3/3 measured $(ls "$tmp/s3/versions")"
[ "$(LC_ALL=C ls -A "$tmp/c4/quatcheck/npm/gl-matrix" | tr '\n' ' ')" = ".2.0.0.lock .2.1.0.lock .2.2.0.lock .2.3.0.lock .2.4.0.lock 2.0.0 2.1.0 2.2.0 2.3.0 2.4.0 versions.json " ] ||
  fail "the shared cache after 3 concurrent shards: $(ls -A "$tmp/c4/quatcheck/npm/gl-matrix")"
"$qc" merge "$tmp/s3" "$tmp/s1" "$tmp/s2" --out "$tmp/merged" > "$tmp/merged.txt"
for f in history.csv transitions.csv history.html; do
  cmp "$tmp/whole/$f" "$tmp/merged/$f" || fail "the merged $f differs from the unsharded scan's"
done
[ "$(wc -l < "$tmp/merged/transitions.csv")" -gt 1 ] || fail "the merged scan found no transition"
[ "$(labels "$tmp/merged/history.json")" = "1.9.0 2.0.0 2.1.0 2.2.0 2.3.0 2.4.0" ] || fail "merged history.json: $(labels "$tmp/merged/history.json")"
python3 -c 'import json,sys; h=json.load(open(sys.argv[1])); assert h["shards"]["count"]==3 and h["installs"]==5, h' "$tmp/merged/history.json" ||
  fail "merged history.json: shards or installs wrong"
# (the unsharded scan took its versions from the cache: no install logs; the shards installed 5)
diff <(cd "$tmp/whole" && find versions logs -type f | sort) <(cd "$tmp/merged" && find versions logs -type f | grep -v '\.install\.log$' | sort) ||
  fail "the merged versions/ and logs/ are not the unsharded scan's"
[ "$(find "$tmp/merged/logs" -name '*.install.log' | wc -l)" = 5 ] || fail "the merged logs lack the shards' 5 install logs"
pass "3 shards at once into one empty cache, merged: history.csv, transitions.csv, history.html byte-identical to the unsharded scan ($(($(wc -l < "$tmp/merged/transitions.csv") - 1)) transitions), the same versions/ and logs/"

# Negative controls: a missing shard, a shard of another seed or range, a whole scan, a folder that is no
# history shard, a damaged history_shard.json: one line, exit 2, nothing written.
expect -F 2 "merge: shards missing: 2/3 (every shard of the history scan is needed)" "$qc" merge "$tmp/s1" "$tmp/s3" --out "$tmp/x"
history "$tmp/regfix" "$tmp/c1" "$tmp/seed2" "${range[@]}" --shard 2/3 --seed 2 > /dev/null
expect 2 "merge: $tmp/seed2: 'seed' differs from $tmp/s1's: not shards of one history scan" \
  "$qc" merge "$tmp/s1" "$tmp/seed2" "$tmp/s3" --out "$tmp/x"
history "$tmp/regfix" "$tmp/c1" "$tmp/other" --npm gl-matrix@2.0.0..2.4.0 --shard 2/3 > /dev/null
expect 2 "merge: $tmp/other: 'npm' differs from $tmp/s1's: not shards of one history scan" \
  "$qc" merge "$tmp/s1" "$tmp/other" "$tmp/s3" --out "$tmp/x"
expect -F 2 "merge: $tmp/whole: the output of a whole history scan, not a shard of one" "$qc" merge "$tmp/whole" --out "$tmp/x"
mkdir "$tmp/empty"
expect -F 2 "merge: $tmp/empty: no history_shard.json: not a shard of a history scan" "$qc" merge "$tmp/s1" "$tmp/empty" "$tmp/s3" --out "$tmp/x"
cp -r "$tmp/s2" "$tmp/bad2" && echo '{"format":' > "$tmp/bad2/history_shard.json"
expect -F 2 "merge: $tmp/bad2/history_shard.json: damaged, or not a history shard" "$qc" merge "$tmp/s1" "$tmp/bad2" "$tmp/s3" --out "$tmp/x"
cp -r "$tmp/s1" "$tmp/lost1" && rm -r "$tmp/lost1/versions/gl-matrix@2.2.0"
expect -F 2 "merge: $tmp/lost1: versions/gl-matrix@2.2.0 is missing" "$qc" merge "$tmp/lost1" "$tmp/s2" "$tmp/s3" --out "$tmp/x"
expect 2 "--shard: expected K/N" "$qc" history "${range[@]}" --shard 4/3 --out "$tmp/x"
expect 2 "--shard: expected K/N" "$qc" history "${range[@]}" --shard 1/0 --out "$tmp/x"
expect 2 "--shard: expected K/N" "$qc" history "${range[@]}" --shard two --out "$tmp/x"
expect -F 2 "history: --bisect cannot be split with --shard" "$qc" history "${range[@]}" --bisect --shard 1/2 --out "$tmp/x"
[ ! -e "$tmp/x" ] || fail "a refused merge or shard wrote $tmp/x"
pass "merge refuses a missing shard (2/3), another seed, another range, a whole scan, a non-shard folder, a damaged or incomplete shard; --shard K/N checked, --bisect refused with --shard"

# Concurrent scans of one range into one empty cache: each version installed into place once, the other
# install dropped (a lock on .VERSION.lock: 5 installs in place in all), both scans complete and equal, no temporary prefix left.
history "$tmp/regfix" "$tmp/c5" "$tmp/ca" --npm gl-matrix@2.0.0..2.4.0 > /dev/null &
pa=$!
history "$tmp/regfix" "$tmp/c5" "$tmp/cb" --npm gl-matrix@2.0.0..2.4.0 > /dev/null &
pb=$!
wait "$pa" && wait "$pb" || fail "one of two concurrent scans failed"
cmp "$tmp/ca/history.csv" "$tmp/cb/history.csv" || fail "two concurrent scans of one cache differ"
[ -z "$(find "$tmp/c5" -name '*installing*' -o -name '.versions-*')" ] || fail "left in the cache: $(find "$tmp/c5" -name '*installing*' -o -name '.versions-*')"
python3 -c 'import json,sys; a,b=(json.load(open(p))["installs"] for p in sys.argv[1:]); assert a+b==5, (a,b)' "$tmp/ca/history.json" "$tmp/cb/history.json" ||
  fail "concurrent scans: not exactly one install into place per version"
pass "two scans at once into one empty cache: both complete, identical history.csv, nothing half-installed left"
else
  echo "sharded and concurrent scans: at full size only (QC_TEST_FULL=1)"
fi

# Bad input: one line, exit 2.
export FAKE_REGISTRY="$tmp/regfix" XDG_CACHE_HOME="$tmp/c1"
expect 2 "--npm: expected PACKAGE@A\.\.B" "$qc" history --npm gl-matrix --out "$tmp/x"
expect 2 "'2\.0' is not a version" "$qc" history --npm gl-matrix@2.0..2.4.0 --out "$tmp/x"
expect 2 "2\.4\.0 comes after 2\.0\.0" "$qc" history --npm gl-matrix@2.4.0..2.0.0 --out "$tmp/x"
expect 2 "the registry has no version 9\.9\.9" "$qc" history --npm gl-matrix@2.0.0..9.9.9 --out "$tmp/x"
expect 2 "no adapter for 'left-pad'" "$qc" history --npm left-pad@1.0.0..1.1.0 --out "$tmp/x"
expect 2 "--version: expected LABEL=" "$qc" history --version 'v1=--nope x' --impl seed-c --out "$tmp/x"
[ ! -e "$tmp/x" ] || fail "a refused history wrote $tmp/x"
pass "bad input: one line and exit 2, nothing written"

# --version LABEL='--plugin PATH.so': builds by label. v1 and v2 are the same build (no transition between
# them: the negative control), v3 a normalised lerp (regressed).
command -v cc > /dev/null || skip "cc is not installed"
cp "$src/tests/history/mylib.c" "$tmp/mylib.c"
cc -O2 -shared -fPIC -ffp-contract=off -I"$src/harness/include" "$tmp/mylib.c" -o "$tmp/good.so" -lm
cc -DPLANT_LERP -O2 -shared -fPIC -ffp-contract=off -I"$src/harness/include" "$tmp/mylib.c" -o "$tmp/bad.so" -lm
"$qc" history --version v1="--plugin $tmp/good.so" --version v2="--plugin $tmp/good.so" --version v3="--plugin $tmp/bad.so" \
  --impl mylib --op slerp --region uniform --cases 100 --out "$tmp/hv" > /dev/null
t="$tmp/hv/transitions.csv"
grep -q '^builds,mylib,slerp,f64,uniform,max_angle_err_rad,v2,v3,.*,regressed$' "$t" || fail "--version: no regression v2 -> v3: $(cat "$t")"
grep -q ',v1,v2,' "$t" && fail "--version: a transition between two identical builds: $(cat "$t")"
pass "--version: v2 -> v3 regressed; v1 -> v2 (the same build) none"
