#!/usr/bin/env bash
# The installed tool works on its own (docs/install.md): `cmake --install` into a temporary prefix, then, with
# the source tree and the build folder hidden (an empty tmpfs mounted over them in a private mount namespace,
# where unshare is allowed: root, as in CI), from a temporary working folder: --version, --help-all, a plugin
# built with pkg-config's flags, run, compare and report; `list` gives what the build's `list` gives, its engine
# families read from the installed engine modules (LIBDIR/quatcheck/engines); the man page renders; the prefix still
# works after it is moved; no installed text file names the source or build folder.
# Negative controls: the installed binary without share/quatcheck fails `report` with its one-line error
# (so report really uses the installed script), and a .pc without the include path fails the plugin build.
# Usage: bash tests/install.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
source "$src/tests/install_lib.sh"

install_prefix
for f in bin/quatcheck include/quatcheck/plugin.h share/quatcheck/scripts/plot_report.py \
         share/quatcheck/scripts/qc_tables.py share/quatcheck/scripts/bench_peers.py \
         share/quatcheck/scripts/readme/frontier.py \
         share/quatcheck/scripts/qc_report/cards.py share/quatcheck/scripts/qc_report/static/table.js share/pkgconfig/quatcheck.pc \
         share/man/man1/quatcheck.1 share/doc/quatcheck/README.md share/doc/quatcheck/docs/install.md \
         share/doc/quatcheck/help-all.txt; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
config="$(find "$prefix" -name quatcheckConfig.cmake)"
[ -n "$config" ] || fail "quatcheckConfig.cmake not installed"
for f in quatcheckConfigVersion.cmake quatcheckTargets.cmake QuatcheckGate.cmake QuatcheckGateStep.cmake; do
  [ -f "$(dirname "$config")/$f" ] || fail "not installed beside quatcheckConfig.cmake: $f"
done
# Nothing installed refers back to the checkout (the binary aside: compile-time strings are not paths it uses).
if grep -rIl -e "$src" -e "$build" "$prefix" --exclude-dir=bin >"$tmp/refs"; then
  cat "$tmp/refs"; fail "installed files name the source or build folder"
fi
want_version="$("$build/quatcheck" --version)"
# The engine modules (issue 37): installed under <libdir>/quatcheck/engines, where the installed tool finds them.
"$build/quatcheck" list >"$tmp/list.want" 2>/dev/null
libdir="$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")"
n_modules=0
for m in "$build"/engines/quatcheck-engine-*.so; do
  [ -f "$m" ] || continue
  n_modules=$((n_modules + 1))
  [ -f "$prefix/$libdir/quatcheck/engines/$(basename "$m")" ] || fail "not installed: $libdir/quatcheck/engines/$(basename "$m")"
done
echo "$n_modules $libdir" >"$tmp/n_modules"
cp "$src/impls/examples/example_plugin.c" "$tmp/"

# What runs with the checkout hidden.
cat >"$tmp/inner.sh" <<'INNER'
set -euo pipefail
tmp="$1" prefix="$2" want_version="$3" src="$4"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ ! -e "$src/CMakeLists.txt" ] || echo "note: the source tree is still reachable here (no private mount namespace)"
mkdir -p "$tmp/cwd" && cd "$tmp/cwd"
qc="$prefix/bin/quatcheck"
got="$("$qc" --version)"
[ "$got" = "$want_version" ] || fail "--version: '$got', expected '$want_version'"
[[ $got =~ ^quatcheck\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version: '$got' is not 'quatcheck X.Y.Z'"
# The installed tool lists what the build's lists, engine families included (read from the installed modules).
"$qc" list >"$tmp/list.got" 2>"$tmp/list.err" || { cat "$tmp/list.err"; fail "list"; }
diff "$tmp/list.want" "$tmp/list.got" >"$tmp/list.diff" || { head "$tmp/list.diff"; fail "the installed tool lists other implementations than the build"; }
[ ! -s "$tmp/list.err" ] || { cat "$tmp/list.err"; fail "the installed tool warns on list"; }
read -r n_modules libdir <"$tmp/n_modules"
if [ "$n_modules" -gt 0 ]; then
  "$qc" list --modules | grep -q "^engine modules: $n_modules loaded, 0 skipped, from $prefix/$libdir/quatcheck/engines$" ||
    { "$qc" list --modules; fail "list --modules does not name the installed modules"; }
  echo "installed: $(grep -c ' engine ' "$tmp/list.got") engine implementations from $n_modules installed modules, as the build lists them"
fi
help="$("$qc" --help-all)" || fail "--help-all exited non-zero"
grep -q "^compare" <<<"$help" || fail "--help-all does not list compare"
man="$(MANPAGER=cat MANWIDTH=100 man -l "$prefix/share/man/man1/quatcheck.1" 2>/dev/null)" || fail "man -l failed on the man page"
grep -q "EXIT STATUS" <<<"$man" || fail "the man page does not render"
# A plugin built with nothing but pkg-config's flags.
export PKG_CONFIG_PATH="$prefix/share/pkgconfig"
cflags="$(pkg-config --cflags quatcheck)"
cc -O2 -shared -fPIC $cflags "$tmp/example_plugin.c" -o "$tmp/example.so" -lm || fail "plugin build with pkg-config --cflags quatcheck ($cflags) failed"
[ "$(pkg-config --variable=quatcheck quatcheck)" -ef "$qc" ] || fail "pkg-config's quatcheck variable is not the installed binary"
# One build flag set (issue 38 item 7): the pkg-config route and the CMake route (quatcheck_add_plugin) compile
# the same routine the same way, -ffp-contract=off included, so they measure the same code even on a target
# with FMA (-mfma here: the user's -march). Same figures, byte for byte. Negative control: -mfma without
# -ffp-contract=off contracts the routine, and the figures differ (so the comparison can fail).
if grep -qw fma /proc/cpuinfo; then
  fig() { "$qc" run --plugin "$1" --impl example-slerp --cases 2000 --seed 3 --no-leaderboard --out "$2" >/dev/null 2>&1 || fail "run --plugin $1"; }
  cc -O2 -mfma -shared -fPIC $cflags "$tmp/example_plugin.c" -o "$tmp/route_pc.so" -lm || fail "pkg-config route with -mfma"
  mkdir -p "$tmp/route_proj"
  cp "$tmp/example_plugin.c" "$tmp/route_proj/"
  cat >"$tmp/route_proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(route LANGUAGES C)
find_package(quatcheck CONFIG REQUIRED)
quatcheck_add_plugin(route_cmake SOURCES example_plugin.c)
CMAKE
  cmake -S "$tmp/route_proj" -B "$tmp/route_build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS=-mfma >"$tmp/route.log" 2>&1 && cmake --build "$tmp/route_build" >>"$tmp/route.log" 2>&1 ||
    { cat "$tmp/route.log"; fail "CMake route with -mfma"; }
  cc -O2 -mfma -shared -fPIC -I"$prefix/include" "$tmp/example_plugin.c" -o "$tmp/route_contracted.so" -lm ||
    fail "negative control build"
  fig "$tmp/route_pc.so" "$tmp/fig_pc"
  fig "$tmp/route_build/route_cmake.so" "$tmp/fig_cmake"
  fig "$tmp/route_contracted.so" "$tmp/fig_contracted"
  cmp -s "$tmp/fig_pc/summary.csv" "$tmp/fig_cmake/summary.csv" ||
    fail "the pkg-config and CMake routes measure different figures ($cflags)"
  cmp -s "$tmp/fig_pc/summary.csv" "$tmp/fig_contracted/summary.csv" &&
    fail "negative control: -mfma without -ffp-contract=off gave the same figures (the comparison cannot fail)"
  echo "one flag set: pkg-config ($cflags) and quatcheck_add_plugin give the same figures with -mfma"
else
  echo "SKIP: the two build routes with -mfma (this CPU has no FMA)"
fi
"$qc" run --plugin "$tmp/example.so" --impl example-slerp --impl seed-c --cases 300 --out r 2>"$tmp/run.err" || { cat "$tmp/run.err"; fail "run"; }
"$qc" compare r r >"$tmp/compare.out" 2>&1 || { cat "$tmp/compare.out"; fail "compare of a folder with itself"; }
grep -q "^OK: 0 regression" "$tmp/compare.out" || fail "compare r r did not say OK"
"$qc" report r 2>"$tmp/report.err" || { cat "$tmp/report.err"; fail "report"; }
[ -s r/report.html ] || fail "report wrote no report.html"
# Moved: the prefix is relocatable (the binary finds its script from its own path).
mv "$prefix" "$tmp/moved"
"$tmp/moved/bin/quatcheck" report r 2>"$tmp/report2.err" || { cat "$tmp/report2.err"; fail "report from the moved prefix"; }
"$tmp/moved/bin/quatcheck" list 2>/dev/null | diff -q "$tmp/list.want" - >/dev/null || fail "the moved prefix lists other implementations"
PKG_CONFIG_PATH="$tmp/moved/share/pkgconfig" pkg-config --cflags quatcheck | grep -q -- "-I$tmp/moved/share/pkgconfig/../../include\|-I$tmp/moved/include" \
  || fail "the moved .pc does not point into the moved prefix"
# Negative control: without share/quatcheck, report cannot find its script and says so (exit 2, one line).
rm -rf "$tmp/moved/share/quatcheck"
set +e
"$tmp/moved/bin/quatcheck" report r 2>"$tmp/report3.err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "negative control: report without share/quatcheck exited $rc, expected 2"
grep -q "^quatcheck: report: cannot find plot_report.py" "$tmp/report3.err" || { cat "$tmp/report3.err"; fail "negative control: no one-line error"; }
# Negative control: a .pc without the include path does not build the plugin.
mkdir -p "$tmp/badpc" && grep -v '^Cflags' "$tmp/moved/share/pkgconfig/quatcheck.pc" >"$tmp/badpc/quatcheck.pc"
if cc -shared -fPIC $(PKG_CONFIG_PATH="$tmp/badpc" pkg-config --cflags quatcheck) "$tmp/example_plugin.c" -o "$tmp/bad.so" 2>/dev/null; then
  fail "negative control: the plugin built without quatcheck's include path"
fi
echo "inner checks passed"
INNER

run_hidden "the installed tool" "$tmp" "$prefix" "$want_version" "$src"
echo "PASS: install"
