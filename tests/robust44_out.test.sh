#!/usr/bin/env bash
# Robustness, fourth pass (issue 44): findings, --out and the gate's baseline. Each check names the defect it
# covers; each fails on the tree before the fix.
#   1, 2  a library version with newlines and an implementation name with quotes, read from a doctored report,
#         do not become code in findings/*/repro.* (the reproducer is built and run: no payload runs; every
#         template's quoting is tested in tests/findings_quote_test.cpp);
#   3     a file system mounted inside --out is refused at the start, and nothing in it is deleted;
#   4     --out at a mount point is refused at the start (one line, exit 2), before any work;
#   5     --out .. (and ., and any folder holding the current one) is refused;
#   6     the <NAME>_baseline target, killed during its conform step, leaves the committed baseline as it was;
#   14    the report folder and the user's subfolders keep their extended attributes (user tags, POSIX ACLs);
#   15    the user's .staging-* files inside --out and look-alike siblings stay; the leftover of a run killed
#         outright (recorded in its lock file) is still removed.
# The mount checks run in a user and mount namespace of their own (unshare -rm); where that is not allowed they
# print SKIP and the rest runs.
# Usage: robust44_out.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
small=(--impl seed-c --op slerp --region uniform --cases 200 --no-leaderboard --jobs 1)
run_small() { "$qc" run "${small[@]}" --out "$1"; }

# ---- 1, 2. hostile values of a report do not become code in the reproducers ----
f="$tmp/find"
"$qc" run --impl recipe-rtm --op slerp --cases 400 --no-leaderboard --out "$f" >/dev/null 2>"$tmp/find.err" ||
  fail "1: quatcheck run: $(tail -1 "$tmp/find.err")"
# The family becomes recipe-magnum-<payload> (a family with a C++ template, impls/recipe/repro.txt), its version a
# list of shell, C++, JavaScript and Python lines. Rewritten with Python's csv and json, as a tamperer would.
payload='x";static int pwn=std::system("touch PWN1");//"""+__import__("os").system("touch PWN2")+"""*/ $(touch PWN3) \'
/usr/bin/python3 - "$f" "$payload" <<'PY'
import csv, json, os, sys
d, payload = sys.argv[1], sys.argv[2]
name = "recipe-magnum-" + payload
for fn in os.listdir(d):
    p = os.path.join(d, fn)
    if fn.endswith(".csv"):
        rows = list(csv.reader(open(p, newline="")))
        rows = [[c.replace("recipe-rtm", name) for c in r] for r in rows]
        csv.writer(open(p, "w", newline=""), lineterminator="\n").writerows(rows)
j = json.load(open(os.path.join(d, "run.json")))
for e in j["implementations"]:
    e["impl"] = e["impl"].replace("recipe-rtm", name)
    e["library_version"] = "1.0\ntouch PWN4\nint pwn5 = std::system(\"touch PWN5\");\n"
json.dump(j, open(os.path.join(d, "run.json"), "w"))
PY
if "$qc" findings "$f" >/dev/null 2>"$tmp/find.err"; then
  dir=$(find "$f/findings" -name repro.cpp -printf '%h\n' | head -1)
  if [ -z "$dir" ]; then
    fail "1, 2: no repro.cpp written for the doctored family: $(ls "$f/findings")"
  else
    (cd "$dir" && sh -n repro.sh) || fail "2: repro.sh does not parse"
    out=$(cd "$dir" && ./repro.sh 2>&1)
    rc=$?
    pwned=$(find "$f" -name 'PWN*' | head -3)
    if [ -n "$pwned" ]; then fail "1, 2: the reproducer ran a payload: $pwned"
    elif [ $rc -ne 2 ] || [[ "$out" != *"registers no family recipe-magnum-$payload"* ]]; then
      fail "1, 2: repro.sh exit $rc (want 2, the doctored family is not registered), output: $(echo "$out" | tail -3)"
    else pass "1, 2: doctored name and version stay data: repro.sh built, no payload ran, exit $rc: $(echo "$out" | tail -1 | cut -c1-80)"
    fi
  fi
else
  fail "1, 2: quatcheck findings failed: $(cat "$tmp/find.err")"
fi

# ---- 3, 4. mounts inside --out and at --out ----
if unshare -rm true 2>/dev/null; then
  mkdir -p "$tmp/vol" "$tmp/m3"
  echo "the user's data" >"$tmp/vol/precious.txt"
  run_small "$tmp/m3" >/dev/null 2>&1 || fail "3: first run"
  mkdir -p "$tmp/m3/data"
  cat >"$tmp/ns3.sh" <<SH
mount --bind "$tmp/vol" "$tmp/m3/data" || exit 99
"$qc" run ${small[*]} --out "$tmp/m3" >/dev/null 2>"$tmp/m3.err"
echo \$? >"$tmp/m3.rc"
ls -A "$tmp/m3/data" >"$tmp/m3.seen"
SH
  unshare -rm bash "$tmp/ns3.sh"
  rc=$(cat "$tmp/m3.rc" 2>/dev/null || echo none)
  if [ ! -f "$tmp/vol/precious.txt" ]; then fail "3: the mounted file system's files were deleted (exit $rc)"
  elif [ "$rc" != 2 ] || [ "$(wc -l <"$tmp/m3.err")" != 1 ] || ! grep -q "holds a mount point" "$tmp/m3.err"; then
    fail "3: --out holding a mount point: exit $rc (want 2, one line): $(head -2 "$tmp/m3.err")"
  elif ls -A "$tmp" | grep -q '^\.m3\.'; then fail "3: left $(ls -A "$tmp" | grep '^\.m3\.')"
  else pass "3: refused, the mount's files intact: $(cat "$tmp/m3.err")"
  fi
  # 4. --out at a mount point: refused before any work (the run below would take minutes).
  mkdir -p "$tmp/m4"
  cat >"$tmp/ns4.sh" <<SH
mount -t tmpfs qc "$tmp/m4" || exit 99
start=\$(date +%s%N)
"$qc" run --impl 'seed-*' --cases 2000000 --no-leaderboard --out "$tmp/m4" >/dev/null 2>"$tmp/m4.err"
echo \$? \$(( (\$(date +%s%N) - start) / 1000000 )) >"$tmp/m4.rc"
SH
  unshare -rm bash "$tmp/ns4.sh"
  read -r rc ms <"$tmp/m4.rc" || rc=none
  if [ "$rc" = 2 ] && [ "$ms" -lt 5000 ] && [ "$(wc -l <"$tmp/m4.err")" = 1 ] && grep -q "is a mount point" "$tmp/m4.err"; then
    pass "4: refused at the start ($ms ms): $(cat "$tmp/m4.err")"
  else fail "4: --out at a mount point: exit $rc after ${ms:-?} ms: $(head -2 "$tmp/m4.err")"
  fi
else
  echo "SKIP: 3, 4: this machine allows no user and mount namespace (unshare -rm)"
fi

# ---- 5. --out .., ., and a folder holding the current one ----
mkdir -p "$tmp/a/b/c"
touch "$tmp/a/keep" "$tmp/a/b/keep"
for o in .. . ../ "$tmp/a" "$tmp/a/b"; do
  (cd "$tmp/a/b" && expect 2 "current folder" "$qc" run "${small[@]}" --out "$o")
done
[ -f "$tmp/a/keep" ] && [ -f "$tmp/a/b/keep" ] || fail "5: a refused --out changed the folders above"
(cd "$tmp/a/b" && run_small ../sibling >/dev/null 2>&1) && [ -f "$tmp/a/sibling/summary.csv" ] &&
  pass "5: negative control: --out ../sibling is written" || fail "5: --out ../sibling failed"

# ---- 14. extended attributes of the report folder and the user's subfolders ----
x="$tmp/x"
mkdir -p "$x/mine"
if /usr/bin/python3 -c "import os,sys; [os.setxattr(p, 'user.qc_tag', b'kept') for p in sys.argv[1:]]" "$x" "$x/mine" 2>/dev/null; then
  run_small "$x" >/dev/null 2>&1 || fail "14: run"
  got=$(/usr/bin/python3 -c "import os,sys; print(*[os.getxattr(p, 'user.qc_tag').decode() if 'user.qc_tag' in os.listxattr(p) else '-' for p in sys.argv[1:]])" "$x" "$x/mine")
  [ "$got" = "kept kept" ] && pass "14: user.qc_tag kept on the folder and its subfolder" || fail "14: extended attributes after a run: '$got' (want 'kept kept')"
  if command -v setfacl >/dev/null && setfacl -m u:nobody:rx "$x/mine" 2>/dev/null; then
    run_small "$x" >/dev/null 2>&1
    getfacl -p "$x/mine" 2>/dev/null | grep -q '^user:nobody:r-x' && pass "14: POSIX ACL kept" || fail "14: the POSIX ACL of a subfolder was lost"
  else
    echo "SKIP: 14: POSIX ACLs (setfacl missing or not supported here)"
  fi
else
  echo "SKIP: 14: this file system takes no user extended attributes"
fi

# ---- 15. the user's .staging-* files stay; a killed run's leftover goes ----
s="$tmp/s"
run_small "$s" >/dev/null 2>&1
dead=$( (sleep 0 & echo $!) ); wait
echo notes >"$s/.staging-notes.txt"
mkdir -p "$s/.staging-$dead" "$tmp/.s.staging-$dead"
echo mine >"$s/.staging-$dead/f"
echo mine >"$tmp/.s.staging-$dead/f"
run_small "$s" >/dev/null 2>&1 || fail "15: run"
[ -f "$s/.staging-notes.txt" ] && [ -f "$s/.staging-$dead/f" ] && [ -f "$tmp/.s.staging-$dead/f" ] &&
  pass "15: the user's .staging-notes.txt, .staging-$dead/ and sibling .s.staging-$dead/ stay" ||
  fail "15: a user's .staging-* entry was deleted: $(ls -A "$s" "$tmp" | tr '\n' ' ')"
# A run killed outright leaves its staging folder and its lock record; the next writer removes exactly that.
"$qc" run --impl 'seed-*' --cases 3000000 --no-leaderboard --jobs 1 --out "$s" >/dev/null 2>&1 &
pid=$!
wait_for 20 test -d "$tmp/.s.staging-$pid" || fail "15: the run's staging folder did not appear"
kill -9 $pid
wait $pid 2>/dev/null
[ -d "$tmp/.s.staging-$pid" ] || fail "15: the killed run left no staging folder to clean (test setup)"
run_small "$s" >/dev/null 2>&1 || fail "15: run after the kill"
[ ! -e "$tmp/.s.staging-$pid" ] && pass "15: the killed run's .s.staging-$pid was removed by the next writer" ||
  fail "15: the killed run's leftover .s.staging-$pid stayed"

# ---- 6. the baseline target changes the baseline in one step ----
prefix="$tmp/prefix"
if cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
  mkdir -p "$tmp/proj/tools"
  cp "$build/process/c_adapter" "$tmp/proj/tools/adapter"
  cat >"$tmp/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(basegate LANGUAGES NONE)
enable_testing()
find_package(quatcheck CONFIG REQUIRED)
set(CASES 300 CACHE STRING "cases")
quatcheck_add_accuracy_test(base PLUGIN_CMD "tools/adapter" IMPL "proc-seed-c.*" BASELINE quatcheck-baseline
                            CASES ${CASES} REGIONS near-0)
CMAKE
  (cd "$tmp" && { cmake -S proj -B b -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cfg.log" 2>&1 || { cat "$tmp/cfg.log"; false; }; } &&
    cmake --build b --target base_baseline >"$tmp/base.log" 2>&1) || fail "6: first baseline: $(tail -3 "$tmp/base.log")"
  before=$(cd "$tmp/proj/quatcheck-baseline" && sha256sum -- * | sha256sum)
  [ -s "$tmp/proj/quatcheck-baseline/conformance.csv" ] || fail "6: the baseline has no conformance.csv"
  # Refresh with another case count (new figures), killed while its conform step runs.
  (cd "$tmp" && cmake -S proj -B b -DCASES=400 >/dev/null 2>&1)
  setsid cmake --build "$tmp/b" --target base_baseline >"$tmp/base2.log" 2>&1 &
  bpid=$!
  if wait_for 120 pgrep -f "quatcheck conform .*base" >/dev/null; then
    kill -9 -- -"$bpid" 2>/dev/null
    wait $bpid 2>/dev/null
    after=$(cd "$tmp/proj/quatcheck-baseline" && sha256sum -- * | sha256sum)
    [ "$before" = "$after" ] && pass "6: killed during conform: the committed baseline is the old one, whole" ||
      fail "6: killed during conform: the baseline changed (a mix of two runs): $(ls "$tmp/proj/quatcheck-baseline")"
  else
    kill -9 -- -"$bpid" 2>/dev/null
    fail "6: the baseline target never reached its conform step: $(tail -3 "$tmp/base2.log")"
  fi
  # Negative control: not killed, the refresh replaces the baseline as a whole.
  cmake --build "$tmp/b" --target base_baseline >"$tmp/base3.log" 2>&1 || fail "6: refresh: $(tail -3 "$tmp/base3.log")"
  grep -q '^proc-seed-c.f64,slerp,near-0,400,' "$tmp/proj/quatcheck-baseline/summary.csv" && [ -s "$tmp/proj/quatcheck-baseline/conformance.csv" ] &&
    pass "6: negative control: an uninterrupted refresh replaces it (400 cases)" || fail "6: the refresh did not replace the baseline"
else
  fail "6: cmake --install failed: $(tail -2 "$tmp/install.log")"
fi
finish
