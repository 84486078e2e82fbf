#!/usr/bin/env bash
# Issue 38 items 2 and 3 (conform and squad): every failure explains itself, and every reproduce command runs as
# printed. Each check has its negative control.
#   1  an endpoints failure names the end that broke and what the routine returned there: broken-end-noflip
#      (q1 unflipped at t = 1 only) fails at t = 1 and not at t = 0; broken-swapped-weights fails at both ends;
#      seed-c (passing) explains nothing. conform's stderr says the same;
#   2  `conform --case` (a failed row's reproduce command) prints the input, the output and the reference of
#      every call, each component as a hexfloat with its 64- or 32-bit pattern; the patterns are the values';
#   3  squad_conformance.csv: a failed c1 row names the side of the key and its calls (broken-squad); the
#      passing seed-squad row explains nothing;
#   4  the reproduce commands of conform (a shared-library plugin given by a relative path, a process plugin
#      whose program and script are relative paths) and of squad (a process plugin) run as printed in a fresh
#      shell from another working directory and exit 0 or 1, never 2. Negative control: the same commands with
#      the plugin words as given exit 2 there.
# Usage: conform_explain.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
adapter="$build/process/c_adapter"
plugin="$build/impls/examples/example_plugin.so"

# Column values of a CSV, one row per line: csv_cols FILE COL...  (fields joined by |)
csv_cols() { python3 - "$@" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("|".join(r.get(c, "<none>") for c in sys.argv[2:]))
PY
}

# ---- 1. endpoints names the side ----
"$qc" conform --impl broken-end-noflip --impl broken-swapped-weights --impl seed-c --op slerp --property endpoints \
  --jobs 2 --out "$tmp/e" >"$tmp/e.out" 2>"$tmp/e.err"
[ $? -eq 1 ] || fail "conform on the endpoint controls: exit 1 expected: $(cat "$tmp/e.err")"
python3 - "$tmp/e/conformance.csv" <<'PY' && pass "endpoints: the failing end and what it returned, per row" || fail "endpoints rows"
import csv, sys
rows = {r["impl"]: r for r in csv.DictReader(open(sys.argv[1]))}
want = {"broken-end-noflip": "op(q0,q1,1)", "broken-swapped-weights": "op(q0,q1,0) op(q0,q1,1)", "seed-c": ""}
bad = []
for impl, r in rows.items():
    fam = impl.rsplit(".", 1)[0]
    if r["failed_call"] != want[fam]:
        bad.append(f"{impl}: failed_call {r['failed_call']!r}, want {want[fam]!r}")
    if fam == "seed-c":
        if r["verdict"] != "pass" or r["calls"]:
            bad.append(f"{impl}: a passing row explains nothing: {r['verdict']} {r['calls']!r}")
        continue
    calls = [dict(w.split("=", 1) for w in rec.split()) for rec in r["calls"].split(";")]
    by = {c["call"]: c for c in calls}
    if set(by) != {"op(q0,q1,0)", "op(q0,q1,1)"} or by["op(q0,q1,1)"]["t"] != "0x1p+0" or by["op(q0,q1,0)"]["t"] != "0x0p+0":
        bad.append(f"{impl}: calls {r['calls']!r}")
        continue
    if fam == "broken-end-noflip":
        # what it returned at t = 1 is q1 as given, and the expected end is -q1
        q1 = [float.fromhex(x) for x in r["counterexample"].split()[4:8]]
        out = [float.fromhex(x) for x in by["op(q0,q1,1)"]["out"].split(",")]
        exp = [float.fromhex(x) for x in by["op(q0,q1,1)"]["expected"].split(",")]
        if out != q1 or max(abs(e + q) for e, q in zip(exp, q1)) > 1e-6:
            bad.append(f"{impl}: t = 1 returned {out}, expected {exp}, q1 {q1}")
        if by["op(q0,q1,0)"]["verdict"] != "pass" or by["op(q0,q1,1)"]["verdict"] != "fail":
            bad.append(f"{impl}: verdicts {r['calls']!r}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad or len(rows) != 6 else 0)
PY
grep -q 'fail: broken-end-noflip.f64 slerp endpoints .*counterexample: op(q0,q1,1) at t = 0x1p+0 returned (' "$tmp/e.err" &&
  ! grep -q 'fail: seed-c' "$tmp/e.err" && pass "conform's stderr names the call and what it returned" ||
  fail "stderr summary: $(cat "$tmp/e.err")"

# ---- 2. conform --case prints both bit patterns ----
for impl in broken-end-noflip.f64 broken-end-noflip.f32; do
  cmd=$(python3 -c 'import csv,sys; print([r for r in csv.DictReader(open(sys.argv[1])) if r["impl"]==sys.argv[2]][0]["reproduce"])' \
    "$tmp/e/conformance.csv" "$impl")
  (cd "$tmp" && PATH="$build:$PATH" bash -c "$cmd") >"$tmp/case.out" 2>&1
  st=$?
  [ $st -eq 1 ] || fail "$impl: the reproduce command exits $st, not 1: $cmd"
  python3 - "$tmp/case.out" "$impl" <<'PY' && pass "$impl: --case prints output and reference with their bit patterns" || fail "$impl --case output: $(cat "$tmp/case.out")"
import re, struct, sys
text = open(sys.argv[1]).read()
f32 = sys.argv[2].endswith("f32")
width = 8 if f32 else 16
def bits(x):
    return "0x" + (struct.pack(">f", x) if f32 else struct.pack(">d", x)).hex()
seen = {}
for m in re.finditer(r"^    (q0|q1|output|reference) +\(([^)]*)\)\n +bits ((?:0x[0-9a-f]+ ?)+)$", text, re.M):
    vals = [float.fromhex(v) for v in m.group(2).split(", ")]
    pats = m.group(3).split()
    assert all(len(p) == 2 + width for p in pats), (m.group(0), width)
    assert [bits(v) for v in vals] == pats, ("bit patterns are not the values'", m.group(0))
    seen.setdefault(m.group(1), []).append(pats)
assert "call op(q0,q1,1): FAIL" in text and "call op(q0,q1,0): pass" in text, text
assert len(seen.get("output", [])) == 2 and len(seen.get("reference", [])) == 2, seen
# the failed call's output is not its reference (negative control: the bits tell them apart)
assert seen["output"][1] != seen["reference"][1], seen
assert re.search(r"^    t +0x1p\+0  bits 0x" + ("3f800000" if f32 else "3ff0000000000000") + "$", text, re.M), text
PY
done

# ---- 3. squad_conformance.csv: the side of the key ----
"$qc" squad --impl broken-squad.f64 --impl seed-squad.f64 --region random --tracks 8 --jobs 2 --out "$tmp/sq" \
  >/dev/null 2>"$tmp/sq.err"
[ $? -eq 1 ] || fail "squad on broken-squad: exit 1 expected: $(cat "$tmp/sq.err")"
csv_cols "$tmp/sq/squad_conformance.csv" impl property verdict failed_call calls >"$tmp/sq.rows"
grep -Eq '^broken-squad.f64\|c1\|fail\|(left|right)\(segment=[0-9]+,t=[01]\).*\|call=left\(segment=[0-9]+,t=1\) t=0x1p\+0 out=[^ ]+ expected=[^ ]+ omega=[^ ]+ omega_ref=[^ ]+ err=[^ ]+ tol=[^ ]+ unit=rel verdict=(pass|fail); call=right\(segment=[0-9]+,t=0\) t=0x0p\+0 ' "$tmp/sq.rows" &&
  grep -Eq '^seed-squad.f64\|c1\|pass\|\|$' "$tmp/sq.rows" &&
  pass "squad c1: the failing side of the key and its calls; the passing row explains nothing" ||
  fail "squad_conformance rows: $(cat "$tmp/sq.rows")"

# ---- 4. every reproduce command runs as printed from another working directory ----
work="$tmp/work"
mkdir -p "$work/lib" "$tmp/bin" "$tmp/elsewhere"
cp "$plugin" "$work/lib/example_plugin.so"
cp "$adapter" "$work/c_adapter"
printf '#!/bin/sh\nexec "$(dirname "$0")/c_adapter" "$@"\n' >"$work/adapter.sh"
ln -s "$qc" "$tmp/bin/quatcheck"
(cd "$work" && "$qc" conform --plugin lib/example_plugin.so --plugin-cmd './c_adapter ok' --impl 'example-*' --impl 'proc-seed-c*' --cases 20 --jobs 2 --out "$tmp/p") \
  >/dev/null 2>"$tmp/p.err"
st=$?
[ $st -le 1 ] || fail "conform with plugins: exit $st: $(cat "$tmp/p.err")"
# Two process plugins with the same families cannot load together: the second command is run on its own.
(cd "$work" && "$qc" conform --plugin-cmd 'sh adapter.sh ok' --impl 'proc-seed-c.f64' --op slerp \
  --property unit --property endpoints --cases 20 --jobs 2 --out "$tmp/p2") >/dev/null 2>"$tmp/p2.err"
st=$?
[ $st -le 1 ] || fail "conform with a script adapter: exit $st: $(cat "$tmp/p2.err")"
(cd "$work" && "$qc" squad --plugin-cmd './c_adapter ok squad' --impl proc-seed-squad --tracks 3 --worst-k 1 \
  --jobs 2 --out "$tmp/sp") >/dev/null 2>"$tmp/sp.err"
st=$?
[ $st -le 1 ] || fail "squad with a process plugin: exit $st: $(cat "$tmp/sp.err")"
{
  for f in "$tmp/p/conformance.csv" "$tmp/p2/conformance.csv" "$tmp/sp/squad_worst_cases.csv" \
    "$tmp/sp/squad_conformance.csv"; do
    [ -f "$f" ] && csv_cols "$f" reproduce
  done
} | grep -v '^$' >"$tmp/commands"
n=$(wc -l <"$tmp/commands")
grep -q -- "--plugin $work/lib/example_plugin.so " "$tmp/commands" &&
  grep -q -- "--plugin-cmd '$work/c_adapter ok squad'" "$tmp/commands" &&
  grep -q -- "--plugin-cmd 'sh $work/adapter.sh ok'" "$tmp/commands" &&
  pass "the plugin words are absolute" || fail "plugin words: $(head -3 "$tmp/commands")"
ran=0 bad=0
while IFS= read -r cmd; do
  (cd "$tmp/elsewhere" && env -i PATH="$tmp/bin:/usr/bin:/bin" HOME="$tmp" bash -c "$cmd") >"$tmp/one.out" 2>&1
  st=$?
  ran=$((ran + 1))
  if [ $st -gt 1 ]; then
    bad=$((bad + 1))
    fail "exit $st from another directory: $cmd: $(head -2 "$tmp/one.out")"
  fi
  # Negative control: the same command with the plugin words as they were given fails there with 2.
  if [ $ran -le 3 ]; then
    given=$(python3 - "$cmd" "$work/" <<'PY'
import sys
print(sys.argv[1].replace(sys.argv[2], ""))
PY
)
    (cd "$tmp/elsewhere" && env -i PATH="$tmp/bin:/usr/bin:/bin" HOME="$tmp" bash -c "$given") >/dev/null 2>&1
    st=$?
    [ $st -eq 2 ] || fail "negative control: with relative plugin words, exit $st (want 2): $given"
  fi
done <"$tmp/commands"
[ "$ran" -ge 20 ] && [ "$bad" -eq 0 ] && pass "$ran reproduce commands ran from another directory, none exited 2" ||
  fail "ran $ran of $n commands, $bad exited 2 or more"

finish
