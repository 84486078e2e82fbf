#!/usr/bin/env bash
# quatcheck findings (docs/findings.md) on a short run with a narrow sweep near a.b = 1 (the branch map): RTM,
# Filament and Bullet f32 (C++, through their adapter files), PlayCanvas and gl-matrix (JavaScript, in the
# libraries' own API, when node and impls/js/node_modules are present), SciPy (Python, when importable), vecmath
# (Java, when a JDK and Debian's vecmath jar are present) and qc-slerp (a correct routine).
#  1. every reproducer the short run writes is executed and exits 1 (the finding reproduces outside quatcheck),
#     from a copy of its folder outside the checkout; with QC_REPRO_APPLY_FIX=1 it exits 0 (the fix keeps every
#     promise); its tests to paste fail (--tests: exit 1) and pass with the fix (exit 0);
#  2. negative controls: the same reproducer with QC_REPRO_SUBSTITUTE=expected (the reference's own output in
#     place of the library's answer) exits 0; a fix that does not fix (the port replaced by one that returns
#     q0) exits 1, and so does its fixed test; the correct routine qc-slerp gets no folder at all;
#  2c. grouping: PlayCanvas's near-0 defect is one cause, formed by the branch map's switch, its source quoted
#     from the installed package with the `sinHalfTheta < 1e-3` line marked; negative control: without the
#     branch map the same findings are not that one cause;
#  3. inputs round-trip bit for bit: each reproducer's literals (C++ hexfloats, JS and Java bit patterns, Python
#     float.fromhex), parsed back, equal the worst_cases.csv row of its case-N.csv; negative control: a literal
#     changed by one ulp is caught;
#  4. a missing compiler or runtime is a SKIP line with exit 77, never a pass;
#  5. a malformed table is a one-line error, exit 2, and findings/ is left as it was.
# Usage: bash tests/findings.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
set +e  # exit statuses are checked one by one below
cd "$src" || exit 1

plugins=()
js=0
if command -v node >/dev/null && [ -d impls/js/node_modules ]; then
  plugins+=(--plugin-cmd "node impls/js/playcanvas.js" --plugin-cmd "node impls/js/gl-matrix.js")
  js=1
else
  echo "SKIP: the JavaScript reproducers: node or impls/js/node_modules is missing (scripts/setup installs them)"
fi
py=0
if /usr/bin/python3 -c 'import scipy.spatial.transform' 2>/dev/null; then
  plugins+=(--plugin-cmd "/usr/bin/python3 impls/python/scipy_adapter.py")
  py=1
else
  echo "SKIP: the SciPy reproducer: /usr/bin/python3 cannot import scipy (Debian python3-scipy)"
fi
java=0
if command -v java >/dev/null && command -v javac >/dev/null && [ -f /usr/share/java/vecmath.jar ] &&
  scripts/build-java "$build" >/dev/null 2>&1; then
  plugins+=(--plugin-cmd "java -cp $build/java:/usr/share/java/vecmath.jar VecmathAdapter")
  java=1
else
  echo "SKIP: the vecmath reproducer (Java): no JDK or no /usr/share/java/vecmath.jar (Debian default-jdk-headless, libvecmath-java)"
fi
impls=(--impl recipe-rtm --impl recipe-filament --impl qc-slerp)
bullet=0
if "$qc" list 2>/dev/null | grep '^bullet\.f32 ' >/dev/null; then
  impls+=(--impl bullet.f32)
  bullet=1
else
  echo "SKIP: the Bullet finding: the bullet adapter is not built (a core-only build, -DQC_ENGINES=off, or Bullet missing)"
fi
[ $js = 1 ] && impls+=(--impl playcanvas-slerp --impl glmatrix-slerp)
[ $py = 1 ] && impls+=(--impl scipy-slerp)
[ $java = 1 ] && impls+=(--impl vecmath-interpolate)
r="$tmp/r"
# --timeout: node may need more than the default 5 s to load a package on a busy machine.
# --cases-for: recipe-filament's rows at 200 of the 400 cases (a capped library: its environment line says so).
"$qc" run --out "$r" --cases 400 --cases-for recipe-filament=200 --timeout 60 --no-leaderboard "${impls[@]}" "${plugins[@]}" >/dev/null 2>"$tmp/err" ||
  fail "quatcheck run failed: $(tail -1 "$tmp/err")"
s=0
"$qc" conform --out "$r" --cases 60 --timeout 60 --property finite --property endpoints --property unit --property shortest-arc \
  "${impls[@]}" "${plugins[@]}" >/dev/null 2>"$tmp/err" || s=$?
[ $s -le 1 ] || fail "quatcheck conform failed: $(tail -1 "$tmp/err")"
# The branch map near a.b = 1: where PlayCanvas's slerp switches to its midpoint branch (r-nomap: the report
# without it, for the grouping's negative control).
cp -r "$r" "$tmp/r-nomap"
if [ $js = 1 ]; then
  "$qc" sweep --over dot --t 0.25 --window 0.99999:1 --points 20000 --impl playcanvas-slerp --impl glmatrix-slerp \
    --timeout 60 --out "$r/sweep" "${plugins[@]}" >/dev/null 2>"$tmp/err" || fail "quatcheck sweep failed: $(tail -1 "$tmp/err")"
fi
export QC_NODE_MODULES="$src/impls/js/node_modules" PYTHON=/usr/bin/python3
"$qc" findings "$r" 2>"$tmp/err" || fail "quatcheck findings failed: $(cat "$tmp/err")"
f="$r/findings"
[ -f "$f/index.json" ] || fail "no findings/index.json"
[ ! -e "$f/qc-slerp" ] || fail "the correct routine qc-slerp has a findings folder"
want=(recipe-rtm recipe-filament)
[ $bullet = 1 ] && want+=(bullet)
[ $js = 1 ] && want+=(playcanvas gl-matrix)
[ $java = 1 ] && want+=(vecmath)
for w in "${want[@]}"; do [ -x "$f/$w/repro.sh" ] || fail "no findings/$w/repro.sh"; done
grep -q "^## Summary" "$f/recipe-rtm/README.md" || fail "recipe-rtm/README.md has no 'Summary'"
grep -q "^## Environment" "$f/recipe-rtm/README.md" || fail "recipe-rtm/README.md has no 'Environment'"
# The environment line gives the library's own count: the capped one names the cap, the others the run's count.
grep -q "(run seed 1, 200 cases per region of the run's 400: capped by --cases-for)" "$f/recipe-filament/README.md" ||
  fail "recipe-filament/README.md does not name its capped count: $(grep 'Report:' "$f/recipe-filament/README.md")"
grep -q "(run seed 1, 400 cases per region)" "$f/recipe-rtm/README.md" ||
  fail "recipe-rtm/README.md does not give the run's count: $(grep 'Report:' "$f/recipe-rtm/README.md")"
# The replay command, pasted into sh, runs exactly quatcheck replay with the case file's absolute path (a
# built-in: no plugin option; issue 38: it runs as printed from any folder).
if [ $bullet = 1 ]; then
  line=$(grep -m1 '^ *quatcheck replay ' "$f/bullet/README.md") || fail "bullet/README.md has no replay command"
  line=${line#"${line%%[! ]*}"}
  argv=$(sh -c 'quatcheck() { printf "[%s]" "$@"; }; '"$line")
  want="[replay][$(cd "$f/bullet" && pwd)/case-1.csv]"
  [ "$argv" = "$want" ] || fail "bullet/README.md's replay command runs $argv (want $want)"
fi

# 1 and 2: every reproducer, from a copy outside the checkout, as it is, with the reference's answer substituted,
# and with the fix.
mkdir -p "$tmp/outside"
for d0 in "$f"/*/; do
  name="$(basename "$d0")"
  cp -r "$d0" "$tmp/outside/$name" && d="$tmp/outside/$name"
  "$d/repro.sh" >"$tmp/$name.out" 2>&1
  s=$?
  if [ $s = 77 ]; then
    echo "SKIP: findings/$name: $(grep SKIP "$tmp/$name.out" | head -1)"
    [ $js = 1 ] && [ -f "$d/repro.mjs" ] && fail "$name: skipped although node and the packages are present"
    [ $java = 1 ] && [ -f "$d/Repro.java" ] && fail "$name: skipped although the JDK and the jar are present"
    continue
  fi
  [ $s = 1 ] || fail "findings/$name/repro.sh exited $s, not 1: $(tail -5 "$tmp/$name.out")"
  grep -q "BROKEN" "$tmp/$name.out" || fail "$name: exit 1 without a BROKEN case"
  QC_REPRO_SUBSTITUTE=expected "$d/repro.sh" >"$tmp/$name.neg" 2>&1
  s=$?
  [ $s = 0 ] || fail "negative control: findings/$name/repro.sh with the reference's output exited $s, not 0: $(tail -5 "$tmp/$name.neg")"
  if [ -d "$d/fix" ]; then
    QC_REPRO_APPLY_FIX=1 "$d/repro.sh" >"$tmp/$name.fix" 2>&1; s=$?
    [ $s = 0 ] || fail "findings/$name with the fix exited $s, not 0: $(tail -5 "$tmp/$name.fix")"
  fi
  if [ -d "$d/tests" ]; then
    "$d/repro.sh" --tests >"$tmp/$name.tests" 2>&1; s=$?
    [ $s = 1 ] || fail "findings/$name's tests to paste exited $s before the fix, not 1: $(tail -5 "$tmp/$name.tests")"
    QC_REPRO_APPLY_FIX=1 "$d/repro.sh" --tests >"$tmp/$name.tests-fixed" 2>&1; s=$?
    [ $s = 0 ] || fail "findings/$name's tests to paste exited $s with the fix, not 0: $(tail -5 "$tmp/$name.tests-fixed")"
  fi
  echo "ok: findings/$name reproduces (exit 1), passes on the reference's output and with the fix (exit 0)"
done
# 2: a fix that does not fix is caught, by the reproducer and by the fixed tests.
if [ $js = 1 ]; then
  d="$tmp/outside/playcanvas"
  printf '%s\n' 'export const slerp = (q0, q1, t) => q0.slice();' 'export const nlerp = slerp;' > "$d/fix/qc_slerp.mjs"
  QC_REPRO_APPLY_FIX=1 "$d/repro.sh" >/dev/null 2>&1; s=$?
  [ $s = 1 ] || fail "negative control: a fix that returns q0 passed the reproducer (exit $s)"
  QC_REPRO_APPLY_FIX=1 "$d/repro.sh" --tests >/dev/null 2>&1; s=$?
  [ $s = 1 ] || fail "negative control: a fix that returns q0 passed the tests to paste (exit $s)"
  echo "ok: a fix that does not fix fails the reproducer and the tests"
fi

# 2c: the grouping and the source quote, with negative controls.
if [ $js = 1 ]; then
  /usr/bin/python3 - "$f" "$tmp/r-nomap" "$qc" <<'PY' || fail "the grouping or the source quote"
import json, os, subprocess, sys
f, nomap, qc = sys.argv[1:4]

def near0_causes(folder):
    lib = next(l for l in json.load(open(os.path.join(folder, "index.json")))["libraries"] if l["library"] == "playcanvas")
    return [c for c in lib["causes"] if any(e["impl"] == "playcanvas-slerp.f64" and e["what"] == "near-0"
                                             for e in c["evidence"])], lib

def check(folder):
    """The near-0 defect is one cause, formed by the branch map, with the quoted line marked. Returns why not."""
    causes, lib = near0_causes(folder)
    if len(causes) != 1:
        return f"{len(causes)} causes hold the near-0 finding"
    c = causes[0]
    if "branch map" not in c["formed"]:
        return f"formed by {c['formed']!r}, not the branch map"
    others = [x for x in lib["causes"] if x is not c and any(e["impl"].startswith("playcanvas-slerp")
                                                             and e["what"] in ("near-0", "near-pi") for e in x["evidence"])]
    if others:
        return "near-0 or near-pi findings of the same defect in another cause"
    if not c["quoted"].endswith("quat.js"):
        return f"quoted from {c['quoted']!r}"
    lines = open(c["quoted"]).read().splitlines()
    marked = [lines[n - 1] for n in c["marked_lines"]]
    if not any("sinHalfTheta" in m and "1e-3" in m for m in marked):
        return f"marked lines {c['marked_lines']} are not the sinHalfTheta < 1e-3 test: {marked}"
    return None

why = check(f)
if why:
    sys.exit("PlayCanvas: " + why)
print("ok: PlayCanvas's near-0 defect is one cause, by the branch map, the sinHalfTheta < 1e-3 line marked")
# negative control: the same report without the branch map groups differently (the check catches it)
subprocess.run([qc, "findings", nomap], check=True, capture_output=True)
if check(os.path.join(nomap, "findings")) is None:
    sys.exit("negative control: without the branch map the grouping check still passed")
print("ok: without the branch map, the check catches the different grouping")
PY
fi
# ... and each finding on its own: at least one of its cases (same property or region, same precision) breaks.
/usr/bin/python3 - "$f" "$tmp" <<'PY' || fail "a finding that none of its cases reproduces"
import json, os, re, sys
folder, work = sys.argv[1], sys.argv[2]
checked = 0
for lib in json.load(open(os.path.join(folder, "index.json")))["libraries"]:
    out = os.path.join(work, lib["folder"] + ".out")
    if not os.path.exists(out) or "SKIP" in open(out).read():
        continue
    cases = []
    for block in re.split(r"(?m)^case \d+(?: \(cause \d+\))?: ", open(out).read())[1:]:
        cases.append((block.split("\n")[0], re.search(r" f(32|64)\b", block).group(1), "BROKEN" in block))
    for x in (e for c in lib["causes"] for e in c["evidence"]):
        if x["cases"] == 0:
            continue
        prefix = ("region " if x["kind"] == "region" else "property ") + x["what"] + ":"
        mine = [c for c in cases if c[0].startswith(prefix) and c[1] == x["impl"][-2:]]
        if not any(c[2] for c in mine):
            sys.exit(f"{lib['folder']}: {x['impl']} {x['kind']} {x['what']}: none of its {len(mine)} cases breaks the promise")
        checked += 1
print(f"ok: each of the {checked} findings with cases is reproduced by at least one of its own cases")
PY

# 2b: negative control, the reproducer pointed at a correct routine: a fabricated `fail` row for Eigen's slerp
# (C++) and SciPy's (Python) on an ordinary case gives a reproducer that finds the promise kept (exit 0).
r2="$tmp/r2"
cp -r "$r" "$r2" && rm -rf "$r2/findings"
case9='0x1p+0 0x0p+0 0x0p+0 0x0p+0 0x1.6a09e667f3bcdp-1 0x1.6a09e667f3bcdp-1 0x0p+0 0x0p+0 0x1p-2'
# (the row's empty cells up to the header's width: conformance.csv gained failed_call and calls, issue 38)
pad=$(head -1 "$r2/conformance.csv" | tr -cd , | cut -c9-)
printf '%s\n' "eigen.f64,slerp,shortest-arc,fail,1,,,$case9,$pad" >>"$r2/conformance.csv"
[ $py = 1 ] && printf '%s\n' "scipy-slerp.f64,slerp,shortest-arc,fail,1,,,$case9,$pad" >>"$r2/conformance.csv"
"$qc" findings "$r2" 2>"$tmp/err" || fail "quatcheck findings on the fabricated rows failed: $(cat "$tmp/err")"
correct=()
if pkg-config --exists eigen3 2>/dev/null; then
  correct+=(eigen)
else
  echo "SKIP: findings/eigen on a correct case: pkg-config module eigen3 not found (Debian libeigen3-dev; not in the core profile)"
fi
[ $py = 1 ] && correct+=(scipy)
for name in "${correct[@]}"; do
  "$r2/findings/$name/repro.sh" >"$tmp/$name.correct" 2>&1; s=$?
  [ $s = 77 ] && fail "findings/$name skipped although its runtime is present: $(head -1 "$tmp/$name.correct")"
  [ $s = 0 ] || fail "negative control: $name's reproducer on a case it gets right exited $s, not 0: $(tail -4 "$tmp/$name.correct")"
  grep -q ": kept" "$tmp/$name.correct" || fail "$name: exit 0 without a kept case"
  echo "ok: findings/$name, pointed at a correct routine, exits 0"
done

# 3: the literals round-trip to the worst_cases.csv rows; a one-ulp change is caught.
roundtrip() {
  /usr/bin/python3 - "$1" <<'PY'
import csv, pathlib, re, struct, sys
folder = pathlib.Path(sys.argv[1])
checked = 0
for d in sorted(p for p in folder.iterdir() if p.is_dir()):
    rows = [next(csv.DictReader(open(c))) for c in sorted(d.glob("case-*.csv"), key=lambda p: int(p.stem[5:]))]
    if (d / "repro.cpp").exists():
        text = (d / "repro.cpp").read_text()
        lines = [l for l in text.splitlines() if l.strip().startswith('{"region ')]
        parse = lambda l: [float.fromhex(x) for x in re.findall(r"-?0x[0-9a-f.]+p[-+]\d+", l)][:9]
    elif (d / "repro.mjs").exists():
        lines = [l for l in (d / "repro.mjs").read_text().splitlines() if l.strip().startswith('{ label: "region ')]
        parse = lambda l: [struct.unpack(">d", bytes.fromhex(x))[0] for x in re.findall(r"'([0-9a-f]{16})'", l)][:9]
    elif (d / "rust" / "src" / "main.rs").exists():
        continue
    elif (d / "Repro.java").exists():
        lines = [l for l in (d / "Repro.java").read_text().splitlines() if l.strip().startswith('new Case("region ')]
        parse = lambda l: [struct.unpack(">d", bytes.fromhex(x))[0] for x in re.findall(r"0x([0-9a-f]{16})L", l)][:9]
    elif (d / "repro.py").exists():
        lines = [l for l in (d / "repro.py").read_text().splitlines() if l.strip().startswith('{"label": "region ')]
        parse = lambda l: [float.fromhex(x) for x in re.findall(r"h\('([^']+)'\)", l)][:9]
    else:
        continue
    if len(lines) != len(rows):
        sys.exit(f"{d.name}: {len(lines)} region cases in the reproducer, {len(rows)} case-N.csv files")
    for line, row in zip(lines, rows):
        want = [float.fromhex(row[k]) for k in ("q0_w", "q0_x", "q0_y", "q0_z", "q1_w", "q1_x", "q1_y", "q1_z", "t")]
        got = parse(line)
        if [struct.pack("<d", x) for x in got] != [struct.pack("<d", x) for x in want]:
            sys.exit(f"{d.name}: the reproducer's inputs {got} differ from worst_cases.csv's {want}")
        checked += 1
if checked == 0:
    sys.exit("no region case to check")
print(f"ok: {checked} reproducer inputs equal their worst_cases.csv rows bit for bit")
PY
}
roundtrip "$f" || fail "round trip"
cp -r "$f" "$tmp/mutant"
/usr/bin/python3 - "$tmp/mutant/recipe-rtm/repro.cpp" <<'PY' || fail "could not make the one-ulp mutant"
import re, sys
p = sys.argv[1]
s = open(p).read()
lines = s.splitlines(keepends=True)
for i, l in enumerate(lines):
    if l.strip().startswith('{"region '):
        m = re.search(r"(-?0x1\.)([0-9a-f]+)(p)", l)
        digits = m.group(2)
        bumped = format(int(digits, 16) ^ 1, "0%dx" % len(digits))
        lines[i] = l[:m.start(2)] + bumped + l[m.end(2):]
        break
else:
    sys.exit("no region case in recipe-rtm/repro.cpp")
open(p, "w").write("".join(lines))
PY
if roundtrip "$tmp/mutant" >/dev/null 2>&1; then fail "negative control: a one-ulp change of an input literal passed the round trip"; fi
echo "ok: the round trip catches a one-ulp change of an input"

# 4: a missing compiler or runtime is a SKIP (77), never a pass.
rm -f "$tmp/mutant/recipe-rtm/repro"
out="$(CXX=/nonexistent/c++ "$tmp/mutant/recipe-rtm/repro.sh" 2>&1)"; s=$?
[ $s = 77 ] && grep -q "^SKIP: no C++ compiler" <<<"$out" || fail "a missing compiler: exit $s, '$out'"
if [ $js = 1 ]; then
  out="$(env -u QC_NODE_MODULES PATH=/usr/bin:/bin bash -c "rm -f '$tmp/mutant/playcanvas/node_modules'; '$tmp/mutant/playcanvas/repro.sh'" 2>&1)"; s=$?
  [ $s = 77 ] && grep -q "^SKIP: npm package playcanvas not found" <<<"$out" || fail "a missing npm package: exit $s, '$out'"
  out="$(PATH=/nonexistent /bin/sh "$tmp/mutant/playcanvas/repro.sh" 2>&1)"; s=$?
  [ $s = 77 ] && grep -q "^SKIP: node is not on PATH" <<<"$out" || fail "missing node: exit $s, '$out'"
fi
if [ $java = 1 ]; then
  out="$(JAVAC=/nonexistent/javac "$tmp/mutant/vecmath/repro.sh" 2>&1)"; s=$?
  [ $s = 77 ] && grep -q "^SKIP: /nonexistent/javac is not on PATH" <<<"$out" || fail "a missing JDK: exit $s, '$out'"
  out="$(QC_JAVA_CLASSPATH=/nonexistent/vecmath.jar "$tmp/mutant/vecmath/repro.sh" 2>&1)"; s=$?
  [ $s = 77 ] && grep -q "^SKIP: /nonexistent/vecmath.jar (javax.vecmath) is missing" <<<"$out" || fail "a missing jar: exit $s, '$out'"
fi
echo "ok: a missing compiler or runtime is a SKIP with exit 77"

# 4b: --history: a `quatcheck history` folder's transitions.csv gives the first bad release in the README of the
# library whose family it names; a malformed one is a one-line error (exit 2).
if [ $js = 1 ]; then
  mkdir -p "$tmp/hist"
  printf '%s\n' 'library,family,op,precision,region_or_property,metric,from_version,to_version,before,after,change' \
    'playcanvas,playcanvas-slerp,slerp,f64,near-0,max_angle_err_rad,1.62.0,1.63.0,1e-16,0.001,regressed' > "$tmp/hist/transitions.csv"
  cp -r "$r" "$tmp/rh" && rm -rf "$tmp/rh/findings"
  "$qc" findings "$tmp/rh" --history "$tmp/hist" 2>"$tmp/err" || fail "findings --history failed: $(cat "$tmp/err")"
  grep -q 'first bad release: `1.63.0`' "$tmp/rh/findings/playcanvas/README.md" || fail "--history: no first bad release in PlayCanvas's README"
  ! grep -q 'Since which release' "$tmp/rh/findings/gl-matrix/README.md" || fail "--history: a transition of PlayCanvas in gl-matrix's README"
  sed -i 's/,regressed$/,worse/' "$tmp/hist/transitions.csv"
  "$qc" findings "$tmp/rh" --history "$tmp/hist" >/dev/null 2>"$tmp/err"; s=$?
  [ $s = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] || fail "--history with a malformed transitions.csv: exit $s, $(cat "$tmp/err")"
  echo "ok: --history names the first bad release in the library's README; a malformed transitions.csv is one line, exit 2"
fi

# 5: a malformed table: one line, exit 2, findings/ untouched.
before="$(cd "$f" && find . -type f | sort | xargs md5sum)"
cp "$r/conformance.csv" "$tmp/conformance.csv"
sed -i '2s/,fail,/,fial,/; 2s/,pass,/,fial,/' "$r/conformance.csv"
"$qc" findings "$r" >"$tmp/out" 2>"$tmp/err"; s=$?
[ $s = 2 ] || fail "a malformed conformance.csv: exit $s, not 2"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^quatcheck: .*conformance.csv:2:" "$tmp/err" || fail "malformed table message: $(cat "$tmp/err")"
[ "$before" = "$(cd "$f" && find . -type f | sort | xargs md5sum)" ] || fail "a failed findings changed findings/"
echo "ok: a malformed table is a one-line error (exit 2) and findings/ is left as it was"
echo "PASS"
