#!/usr/bin/env bash
# The sweep's shortcuts (issue 45, sweep.h set_sweep_shortcuts: the median jump skipped where it cannot raise the
# edge threshold above its floor, the reference's memos of one key pair, reference/pair_memo.h) change no
# figure: each sweep below writes the same tables (byte for byte), the same reference statistics and the same
# sweep_state.json (its timings and checksum aside) with QC_SWEEP_PLAIN=1 and without: a t slice of the default
# selection in both precisions (scans), the exhaustive f32 window of broken-needle-t (edges, bisection), an
# exhaustive f32 dot window with seed-c's fallback edge, and a t slice with --reference mpfr (every reference an
# MPFR evaluation of the one pair). Negative control: the fast path damaged on purpose
# (QC_DAMAGE_FAST_PATH=sine_coefficient) changes what the comparison reads.
source "$(dirname "$0")/lib.sh" "$@"

sweep() {  # OUT [ENV=VALUE...] -- SWEEP ARGS...
  local out="$1" envs=()
  shift
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" "$qc" sweep "$@" --jobs 2 --out "$tmp/$out" >/dev/null 2>"$tmp/$out.err" || fail "sweep $out: $(tail -2 "$tmp/$out.err")"
}
# same A B: every file of the two reports identical, sweep.json's build and timings and sweep_state.json's
# timings and checksum aside; prints the first file that differs.
same() {
  /usr/bin/python3 - "$tmp/$1" "$tmp/$2" <<'PY'
import json, os, sys
a, b = sys.argv[1:3]
names = sorted(set(os.listdir(a)) | set(os.listdir(b)))
def norm(path, name):
    if not name.endswith(".json"):
        return open(path, "rb").read()
    d = json.load(open(path))
    if name == "sweep.json":
        d.pop("build", None), d.pop("wall_time_s", None)
        for p in d.get("throughput", {}).values():
            for k in list(p):
                if k not in ("points", "impl_evals", "impl_ops", "exhaustive_t_points"):
                    p.pop(k)
    if name == "sweep_state.json":
        d.pop("checksum_fnv1a64", None)
        d["throughput"].pop("cpu_s", None), d["throughput"].pop("wall_s", None)
    return d
for n in names:
    if not (os.path.exists(f"{a}/{n}") and os.path.exists(f"{b}/{n}")) or norm(f"{a}/{n}", n) != norm(f"{b}/{n}", n):
        print(n)
        sys.exit(1)
PY
}

t_scan=(--over t --window 0:1 --points 2000 --seed 3)
needle=(--over t --pair-dot 0.7 --window 0.2999:0.3001 --impl broken-needle-t.f32 --impl seed-c.f32)
fallback=(--over dot --t 0.25 --window 0.9994:0.9996 --impl seed-c.f32)
mpfr=(--over t --pair-dot 0.7 --window 0.3:0.31 --points 300 --reference mpfr --impl seed-c.f32 --impl seed-c.f64)
for name in t_scan needle fallback mpfr; do
  declare -n args="$name"
  sweep "$name-plain" QC_SWEEP_PLAIN=1 -- "${args[@]}"
  sweep "$name" -- "${args[@]}"
  d=$(same "$name-plain" "$name") || fail "$name: $d differs between QC_SWEEP_PLAIN=1 and the shortcuts"
  pass "$name: the same report with QC_SWEEP_PLAIN=1 and without (${args[*]})"
done
edges=$(grep -c broken-needle-t "$tmp/needle/t_branch_map.csv" || true)
[ "$edges" -ge 2 ] || fail "the needle's sweep found $edges edges (expected both of its window's): the test lost its edges"

sweep t_scan-damaged QC_DAMAGE_FAST_PATH=sine_coefficient -- "${t_scan[@]}"
d=$(same t_scan-plain t_scan-damaged) && fail "a damaged fast path left the report unchanged: the comparison cannot see the figures"
pass "negative control: a damaged fast path changes the report ($d differs)"
