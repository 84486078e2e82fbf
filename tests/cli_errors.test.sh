#!/usr/bin/env bash
# Bad input: every malformed flag and every malformed file the tool reads gets one line on stderr,
# "quatcheck: <what>: <why>" naming the flag or FILE:LINE, and exit status 2 -- never a crash, a traceback
# or a silent skip. Usage: cli_errors.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
bad="$build/bad_plugins"
# expect STATUS REGEX CMD... (tests/lib.sh): the command exits STATUS and prints exactly one stderr line matching REGEX.

small=(--impl seed-c.f64 --op slerp --region uniform --cases 40 --jobs 1)

# ---- flags ----
expect 2 '^quatcheck: run: .*--bogus' "$qc" run --bogus
# CLI11 reports an unknown subcommand as a missing one; still one line and exit 2.
expect 2 '^quatcheck: usage: ' "$qc" frobnicate
expect 2 '^quatcheck: run: .*--cases' "$qc" run --cases abc
expect 2 "^quatcheck: run: --cases: expected a positive count, got '0'" "$qc" run --cases 0
expect 2 "^quatcheck: run: --cases: expected a positive count, got '-5'" "$qc" run --cases -5
# --cases-for GLOB=N: a glob and a count from max(1, --worst-k) to --cases, matching a selected implementation, not with --shard
expect 2 "^quatcheck: --cases-for: expected GLOB=N .*got 'seed-c'" "$qc" run --cases-for seed-c --out "$tmp/cf"
expect 2 "^quatcheck: --cases-for: expected GLOB=N .*got '=5'" "$qc" run --cases-for =5 --out "$tmp/cf"
expect 2 "^quatcheck: --cases-for: expected GLOB=N .*got 'seed-c=1e3'" "$qc" run --cases-for seed-c=1e3 --out "$tmp/cf"
expect 2 "^quatcheck: --cases-for seed-c=5000: N must be from 5 .* to --cases \(4000\)" "$qc" run --cases-for seed-c=5000 --out "$tmp/cf"
expect 2 "^quatcheck: --cases-for seed-c=3: N must be from 5" "$qc" run --cases-for seed-c=3 --out "$tmp/cf"
expect 2 "^quatcheck: --cases-for nothing-like-this=10: 'nothing-like-this' matches no selected implementation" "$qc" run --impl seed-c --cases-for nothing-like-this=10 --out "$tmp/cf"
expect 2 "^quatcheck: --cases-for: not with --shard" "$qc" run --shard 1/2 --cases-for seed-c=10 --out "$tmp/cf"
expect 2 '^quatcheck: run: .*--seed' "$qc" run --seed 1.5
expect 2 '^quatcheck: run: --jobs: expected 0 \(all cores\) to 1024' "$qc" run --impl seed-c.f64 --cases 10 --jobs -1
expect 2 "^quatcheck: run: --worst-k: expected a count >= 0, got '-1'" "$qc" run "${small[@]}" --worst-k -1
expect 2 "^quatcheck: --impl: no implementation matches 'nosuch'" "$qc" run --impl nosuch --cases 10
expect 2 "^quatcheck: run: --op: unknown op 'twirl'" "$qc" run --op twirl
expect 2 "^quatcheck: run: --region: unknown region 'nowhere'" "$qc" run --region nowhere
expect 2 "^quatcheck: run: --timeout: expected seconds in \\(0, 3600\\], got '0'" "$qc" run "${small[@]}" --timeout 0
expect 2 '^quatcheck: --out: ' "$qc" run "${small[@]}" --out /proc/quatcheck-cannot-write-here
touch "$tmp/a-file"
expect 2 '^quatcheck: --out: ' "$qc" run "${small[@]}" --out "$tmp/a-file/sub"
expect 2 "^quatcheck: run: --shard: expected K/N .*'3/2'" "$qc" run "${small[@]}" --shard 3/2
expect 2 "^quatcheck: run: --shard: .*'0/2'" "$qc" run "${small[@]}" --shard 0/2
expect 2 "^quatcheck: run: --shard: .*'x'" "$qc" run "${small[@]}" --shard x

# ---- the shared validators (harness/cli/validators.h): each refuses a bad value of every command that uses it
# at parse time, with one line "quatcheck: COMMAND: --flag: ..." and exit 2, before --out is made ----
o=(--out "$tmp/never")
# whole_in / whole_where: digits only, within the range (1e3, 2.5, 0x10 and beyond long long refused)
for v in 1e3 2.5 0x10 99999999999999999999; do
    expect 2 "^quatcheck: run: --cases: expected a positive count, got '$v'" "$qc" run "${o[@]}" --cases "$v"
done
expect 2 "^quatcheck: squad: --tracks: expected a positive count, got '0'" "$qc" squad "${o[@]}" --tracks 0
expect 2 "^quatcheck: squad: --track: expected a track index from 0, got '-1'" "$qc" squad "${o[@]}" --track -1
expect 2 "^quatcheck: squad: --worst-k: expected a count >= 0, got '-2'" "$qc" squad "${o[@]}" --worst-k -2
expect 2 "^quatcheck: threshold: --points: expected 40 to 100000 points, got '39'" "$qc" threshold "${o[@]}" --points 39
expect 2 "^quatcheck: curves: --points: expected at least 3 grid points, got '2'" "$qc" curves "${o[@]}" --points 2
expect 2 "^quatcheck: bench: --repetitions: expected 2 to 100 repetitions" "$qc" bench "${o[@]}" --repetitions 1
expect 2 "^quatcheck: bench: --parallel-cases: expected a positive count, got '0'" "$qc" bench "${o[@]}" --parallel-cases 0
expect 2 "^quatcheck: sweep: --points: expected 0 \\(exhaustive in f32\\) or a count in \\[16, 2\\^27\\], got '15'" "$qc" sweep "${o[@]}" --points 15
expect 2 "^quatcheck: sweep: --points: .*got '134217729'" "$qc" sweep "${o[@]}" --points 134217729
expect 2 "^quatcheck: sweep: --ci-shards: expected a positive count, got '0'" "$qc" sweep "${o[@]}" --ci-shards 0
expect 2 "^quatcheck: merge: --search-max-block: expected a batch of 1 to 4096 mutants, got '0'" "$qc" merge "${o[@]}" --search-max-block 0 "$tmp"
expect 2 "^quatcheck: run: --search-mode: fast not in \\{generations,steps\\}" "$qc" run "${o[@]}" --search-mode fast
for c in run conform squad threshold sweep merge; do
    expect 2 "^quatcheck: $c: --jobs: expected 0 \\(all cores\\) to 1024 threads, got '1025'" "$qc" $c "${o[@]}" --jobs 1025
done
# seed_number
expect 2 "^quatcheck: conform: --seed: expected a whole number from 0 to 18446744073709551615, got '0x1'" "$qc" conform "${o[@]}" --seed 0x1
# number_where / at_least: finite decimals or hexfloats within the range (nan, inf, 1x and ranges refused)
for v in 0 -1 nan inf 3601 1x; do
    expect 2 "^quatcheck: replay: --timeout: expected seconds in \\(0, 3600\\], got '$v'" "$qc" replay "$tmp/none.csv" --timeout "$v"
done
expect 2 "^quatcheck: sweep: --timeout: expected seconds in" "$qc" sweep "${o[@]}" --timeout -0x1p0
expect 2 "^quatcheck: threshold: --min-time: expected seconds in \\[0, 60\\], got '61'" "$qc" threshold "${o[@]}" --min-time 61
expect 2 "^quatcheck: bench: --min-time: expected seconds in \\(0, 60\\], got '0'" "$qc" bench "${o[@]}" --min-time 0
expect 2 "^quatcheck: threshold: --floor-factor: expected a finite number >= 1, got '0.5'" "$qc" threshold "${o[@]}" --floor-factor 0.5
expect 2 "^quatcheck: compare: --ratio: expected a finite number >= 1, got '0.9'" "$qc" compare "$tmp" "$tmp" --ratio 0.9
expect 2 "^quatcheck: compare: --floor-ulp1: expected a finite number >= 0, got '-1'" "$qc" compare "$tmp" "$tmp" --floor-ulp1 -1
expect 2 "^quatcheck: compare: --timing-ratio: expected a finite number >= 1, got 'nan'" "$qc" compare "$tmp" "$tmp" --timing-ratio nan
expect 2 "^quatcheck: sweep: --t: expected a t in \\[0, 1\\], got '0x1.8p\\+0'" "$qc" sweep "${o[@]}" --t 0x1.8p+0
expect 2 "^quatcheck: sweep: --pair-dot: expected a dot product in \\[-1, 1\\], got '-2'" "$qc" sweep "${o[@]}" --over t --pair-dot -2
expect 2 "^quatcheck: findings: --factor: expected a factor from 1 to 1e12, got '0'" "$qc" findings "$tmp" --factor 0
# shard_spec (also sweep's), window_spec, number_list
expect 2 "^quatcheck: sweep: --shard: expected K/N with 1 <= K <= N \\(e.g. 2/4\\), got '2/1'" "$qc" sweep "${o[@]}" --shard 2/1
expect 2 "^quatcheck: sweep: --window: expected LO:HI, two finite numbers with LO <= HI, got '1:0'" "$qc" sweep "${o[@]}" --window 1:0
expect 2 "^quatcheck: sweep: --window: .*got '0.5'" "$qc" sweep "${o[@]}" --window 0.5
expect 2 "^quatcheck: conform: --case: '0x1p-1x' is not a finite number \\(expected hexfloats" "$qc" conform "${o[@]}" --case '0x1p+0, 0x1p-1x'
# known_name: the names each parser knows
expect 2 "^quatcheck: bench: --region: unknown region 'near-1'" "$qc" bench "${o[@]}" --region near-1
expect 2 "^quatcheck: curves: --op: unknown op 'lerp' \\(expected slerp, nlerp or squad\\)" "$qc" curves "${o[@]}" --op lerp
expect 2 "^quatcheck: squad: --region: unknown track region 'uniform' \\(expected random, " "$qc" squad "${o[@]}" --region uniform
expect 2 "^quatcheck: threshold: --precision: unknown precision 'f16' \\(expected f32 or f64\\)" "$qc" threshold "${o[@]}" --precision f16
expect 2 "^quatcheck: bench: --suite: unknown suite 'all' \\(expected impls, harness, parallel or slerp-cr\\)" "$qc" bench "${o[@]}" --suite all
expect 2 "^quatcheck: sweep: --over: unknown dimension 'angle' \\(expected dot or t\\)" "$qc" sweep "${o[@]}" --over angle
# A value is quoted on one line, at most 64 bytes of it.
expect 2 "^quatcheck: run: --region: unknown region 'a\\?b'" "$qc" run "${o[@]}" --region $'a\nb'
[[ -e "$tmp/never" ]] && fail "a refused option created its --out"
# Positive control: every bound is accepted (the run then fails on --impl, after the options).
expect 2 "^quatcheck: --impl: no implementation matches 'nosuch'" "$qc" run "${o[@]}" --impl nosuch --cases 1 --jobs 1024 \
    --worst-k 0 --seed 18446744073709551615 --timeout 3600 --shard 1/1 --region near-0 --op nlerp
expect 2 "^quatcheck: --impl: no implementation matches 'nosuch'" "$qc" sweep "${o[@]}" --impl nosuch --points 0 \
    --t 0x1p-1 --t 1 --window=-0x1p0:-0.5 --shard 4/4 --ci-shards 1 --timeout 0x1p-10

# ---- plugins: only named paths, refused with the file and the reason ----
expect 2 "^quatcheck: example_plugin.so: plugin path must contain a '/'" "$qc" list --plugin example_plugin.so
expect 2 '^quatcheck: /nonexistent/p.so: cannot load plugin: ' "$qc" list --plugin /nonexistent/p.so
expect 2 "^quatcheck: $bad/bad_no_entry.so: not a quatcheck plugin: no qc_plugin_v1 or qc_plugin_v2 entry point" "$qc" list --plugin "$bad/bad_no_entry.so"
expect 2 "^quatcheck: $bad/bad_null_table.so: refused: qc_plugin_v1 returned a NULL table" "$qc" list --plugin "$bad/bad_null_table.so"
expect 2 "^quatcheck: $bad/bad_bad_family.so: refused: descriptor 0 has a family name that is not" "$qc" list --plugin "$bad/bad_bad_family.so"
expect 2 "^quatcheck: $bad/bad_dup_family.so: refused: family 'bad-twice' is declared twice" "$qc" list --plugin "$bad/bad_dup_family.so"
expect 2 "^quatcheck: $bad/bad_load_crash.so: refused: the plugin crashed while loading" "$qc" list --plugin "$bad/bad_load_crash.so"
expect 2 "^quatcheck: $bad/bad_crash.so: refused: family 'bad-crash' already exists" "$qc" list --plugin "$bad/bad_crash.so" --plugin "$bad/bad_crash.so"

# ---- files: replay reads worst_cases.csv ----
"$qc" run "${small[@]}" --out "$tmp/r" 2>/dev/null || { echo "FAIL: cannot make a report to mutate"; exit 1; }
good="$tmp/r/worst_cases.csv"
"$qc" replay "$good" >/dev/null 2>"$tmp/err" || fail "replay of a good file: $(cat "$tmp/err")"
# cell FILE COLUMN ROW VALUE / drop FILE COLUMN: edit a CSV by column name (row 1 = first data row).
cell() { python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); r[int(sys.argv[3])][r[0].index(sys.argv[2])]=sys.argv[4]; csv.writer(sys.stdout,lineterminator="\n").writerows(r)' "$@"; }
drop() { python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); k=r[0].index(sys.argv[2]); csv.writer(sys.stdout,lineterminator="\n").writerows([x[:k]+x[k+1:] for x in r])' "$@"; }
f="$tmp/missing_column.csv"; drop "$good" ulp1 >"$f"
expect 2 "^quatcheck: $f:1: missing column 'ulp1'" "$qc" replay "$f"
f="$tmp/bad_hexfloat.csv"; cell "$good" q0_w 1 0x1.zzp+0 >"$f"
expect 2 "^quatcheck: $f:2: column q0_w: '0x1.zzp\\+0' is not a hexfloat" "$qc" replay "$f"
f="$tmp/decimal.csv"; cell "$good" q0_w 1 0.5 >"$f"
expect 2 "^quatcheck: $f:2: column q0_w: '0.5' is not a hexfloat" "$qc" replay "$f"
f="$tmp/truncated.csv"; head -c $(( $(head -2 "$good" | wc -c) - 30 )) "$good" >"$f"
expect 2 "^quatcheck: $f:2: " "$qc" replay "$f"
f="$tmp/short_row.csv"; { head -1 "$good"; echo "seed-c.f64,slerp,uniform,0x1p+0"; } >"$f"
expect 2 "^quatcheck: $f:2: " "$qc" replay "$f"
f="$tmp/non_utf8.csv"; { head -2 "$good"; printf 'seed-c.f64,slerp,\xff\xfe\n'; } >"$f"
expect 2 "^quatcheck: $f:3: byte 0xff is not valid UTF-8" "$qc" replay "$f"
f="$tmp/nul.csv"; { head -1 "$good"; printf 'a\0b\n'; } >"$f"
expect 2 "^quatcheck: $f:2: NUL byte" "$qc" replay "$f"
f="$tmp/empty.csv"; : >"$f"
expect 2 "^quatcheck: $f:1: the file is empty" "$qc" replay "$f"
f="$tmp/header_only.csv"; head -1 "$good" >"$f"
expect 2 "^quatcheck: $f:2: no data rows" "$qc" replay "$f"
f="$tmp/unknown_impl.csv"; sed '2s/^seed-c.f64/nosuch.f64/' "$good" >"$f"
expect 2 "^quatcheck: $f:2: unknown implementation 'nosuch.f64'" "$qc" replay "$f"
f="$tmp/f32_inexact.csv"; cell "$good" impl 1 seed-c.f32 >"$tmp/f32.csv"; cell "$tmp/f32.csv" q0_w 1 0x1.0000000000001p+0 >"$f"
expect 2 "^quatcheck: $f:2: column q0_w: '0x1.0000000000001p\\+0' is not representable as a float" "$qc" replay "$f"
expect 2 "^quatcheck: $tmp/none.csv: cannot open" "$qc" replay "$tmp/none.csv"

# ---- report folders: compare and merge (written by issues 7 and 8; tested as far as they exist) ----
if "$qc" --help 2>&1 | grep -q '^  compare'; then
    expect 2 "^quatcheck: .*$tmp/nofolder" "$qc" compare "$tmp/nofolder" "$tmp/r"
    mkdir -p "$tmp/c1"; cp "$tmp/r/"* "$tmp/c1/" 2>/dev/null
    { head -1 "$tmp/r/summary.csv"; echo "seed-c.f64,slerp,uniform,40,0"; } >"$tmp/c1/summary.csv"
    expect 2 "^quatcheck: $tmp/c1/summary.csv:2: " "$qc" compare "$tmp/r" "$tmp/c1"
    : >"$tmp/c1/summary.csv"
    expect 2 "^quatcheck: $tmp/c1/summary.csv:1: " "$qc" compare "$tmp/r" "$tmp/c1"
fi
if "$qc" --help 2>&1 | grep -q '^  merge'; then
    expect 2 "^quatcheck: .*$tmp/nofolder" "$qc" merge --out "$tmp/m" "$tmp/nofolder"
fi

finish
