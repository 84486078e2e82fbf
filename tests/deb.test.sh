#!/usr/bin/env bash
# The Debian package (docs/install.md): `cpack -G DEB` with this build's CPackConfig.cmake, output into a
# temporary folder, gives quatcheck_<version>_<arch>.deb whose metadata is right (name, version, architecture;
# Depends from the binary's shared libraries via dpkg-shlibdeps, python3, and no -dev package; Suggests
# python3-matplotlib, which is no Recommends: apt would install it by default) and whose contents hold the binary, the report script, the plugin header, the CMake
# package, the pkg-config file, the man page and the docs. The binary unpacked with dpkg-deb -x into a
# temporary folder runs a small `run` and `report`. apt accepts the package (simulated install).
# Negative controls: the Depends check rejects a control file that names a -dev package or lacks python3,
# and the unpacked binary without its share/quatcheck cannot report (exit 2).
# Usage: bash tests/deb.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
for t in cpack dpkg-deb dpkg-shlibdeps dpkg; do
  command -v "$t" >/dev/null || skip "$t not found (Debian dpkg-dev and cmake provide it)"
done

cd "$tmp"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack -G DEB failed"; }
version="$("$build/quatcheck" --version | sed 's/^quatcheck //')"
arch="$(dpkg --print-architecture)"
deb="$tmp/out/quatcheck_${version}_${arch}.deb"
[ -f "$deb" ] || { ls "$tmp/out"; fail "no quatcheck_${version}_${arch}.deb"; }
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"

dpkg-deb -I "$deb" >"$tmp/info"
field() { sed -n "s/^ $1: //p" "$2"; }
[ "$(field Package "$tmp/info")" = quatcheck ] || fail "Package is not quatcheck"
[ "$(field Version "$tmp/info")" = "$version" ] || fail "Version is not $version"
[ "$(field Architecture "$tmp/info")" = "$arch" ] || fail "Architecture is not $arch"
# check_depends CONTROL: the Depends line is shlibdeps' (libc6, libmpfr, libgmp), names python3, and no -dev.
check_depends() {
  local d
  d="$(field Depends "$1")"
  [ -n "$d" ] || { echo "no Depends"; return 1; }
  for want in libc6 libmpfr libgmp libstdc++6 python3; do
    grep -q "\b$want" <<<"$d" || { echo "Depends lacks $want: $d"; return 1; }
  done
  if grep -qE -- '-dev\b' <<<"$d"; then echo "Depends names a -dev package: $d"; return 1; fi
}
why="$(check_depends "$tmp/info")" || fail "$why"
field Suggests "$tmp/info" | grep -q python3-matplotlib || fail "Suggests lacks python3-matplotlib"
field Recommends "$tmp/info" | grep -q python3-matplotlib && fail "python3-matplotlib is a Recommends (apt installs it by default)"
# Negative controls of the Depends check.
sed 's/^ Depends: .*/ Depends: libc6 (>= 2.34), libmpfr6, libgmp10, libstdc++6, python3, libmpfr-dev/' "$tmp/info" >"$tmp/info.dev"
check_depends "$tmp/info.dev" >/dev/null && fail "negative control: a Depends with libmpfr-dev passed the check"
sed 's/^ Depends: .*/ Depends: libc6 (>= 2.34), libmpfr6, libgmp10, libstdc++6/' "$tmp/info" >"$tmp/info.nopy"
check_depends "$tmp/info.nopy" >/dev/null && fail "negative control: a Depends without python3 passed the check"
echo "Depends: $(field Depends "$tmp/info")"
# A package made from a build without engine adapters (QC_ENGINES=off, build-core/) depends on no engine library
# (issue 37: the core package). Negative control: a Depends naming OGRE is caught by the same check.
engine_libs='libogre|libqt6|libopenscenegraph|libassimp|libopencv|libvtk|libmrpt|libirrlicht|libbullet'
no_engines() { ! field Depends "$1" | grep -qE "$engine_libs"; }
if grep -q '^QC_ENGINES:STRING=off$' "$build/CMakeCache.txt"; then
  no_engines "$tmp/info" || fail "the core package (QC_ENGINES=off) depends on an engine library: $(field Depends "$tmp/info")"
  sed 's/^ Depends: .*/ Depends: libc6, libmpfr6, libogremain1.12.10, python3/' "$tmp/info" >"$tmp/info.ogre"
  no_engines "$tmp/info.ogre" && fail "negative control: a Depends with libogremain passed the engine check"
  echo "core package: no engine library in Depends"
fi

# (a symbolic link's line ends "PATH -> TARGET": its path is the field before the arrow)
dpkg-deb -c "$deb" | awk '{ print ($(NF-1) == "->") ? $(NF-2) : $NF }' >"$tmp/contents"
for f in ./usr/bin/quatcheck ./usr/include/quatcheck/plugin.h ./usr/share/quatcheck/scripts/plot_report.py \
         ./usr/share/quatcheck/scripts/qc_tables.py ./usr/share/quatcheck/scripts/qc_report/overview.py \
         ./usr/share/quatcheck/scripts/qc_report/static/report.css ./usr/share/pkgconfig/quatcheck.pc ./usr/share/man/man1/quatcheck.1 \
         ./usr/share/doc/quatcheck/README.md ./usr/share/doc/quatcheck/docs/install.md \
         ./usr/include/quatcheck/reference.h ./usr/include/quatcheck/gtest.h ./usr/include/quatcheck/rapidcheck.h \
         ./usr/include/quatcheck/properties.h ./usr/include/quatcheck/case.h ./usr/share/doc/quatcheck/docs/testing-api.md \
         ./usr/share/doc/quatcheck/examples/unit-tests/myquat_test.cpp; do
  grep -qxF "$f" "$tmp/contents" || fail "the package lacks $f"
done
grep -qE '^\./usr/lib/.*cmake/quatcheck/quatcheckConfig\.cmake$' "$tmp/contents" || fail "the package lacks quatcheckConfig.cmake"
grep -qE '^\./usr/lib/.*cmake/quatcheck/QuatcheckGate\.cmake$' "$tmp/contents" || fail "the package lacks QuatcheckGate.cmake"
grep -qE '^\./usr/lib/(.*/)?libquatcheck_testing\.so' "$tmp/contents" || fail "the package lacks libquatcheck_testing.so"
outside="$(grep -vE '^\./$|^\./usr/$|^\./usr/(bin|include|lib|share)/' "$tmp/contents" || true)"
[ -z "$outside" ] || { echo "$outside" | head; fail "files outside /usr/{bin,include,lib,share}"; }

# The unpacked binary runs a small run and report, from a folder of its own.
dpkg-deb -x "$deb" "$tmp/x"
mkdir -p "$tmp/cwd" && cd "$tmp/cwd"
qc="$tmp/x/usr/bin/quatcheck"
"$qc" run --impl seed-c --impl nlerp --cases 300 --out r 2>"$tmp/run.err" || { cat "$tmp/run.err"; fail "unpacked run"; }
"$qc" report r 2>"$tmp/report.err" || { cat "$tmp/report.err"; fail "unpacked report"; }
[ -s r/report.html ] || fail "unpacked report wrote no report.html"
rm -rf "$tmp/x/usr/share/quatcheck"
set +e
"$qc" report r 2>/dev/null
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "negative control: the unpacked binary without share/quatcheck reported (exit $rc)"

# apt accepts the package as it is (simulated: nothing is installed).
apt-get install -s "$deb" >"$tmp/apt.log" 2>&1 || { tail -5 "$tmp/apt.log"; fail "apt-get install -s rejects the package"; }
grep -q "^Inst quatcheck " "$tmp/apt.log" || { tail -5 "$tmp/apt.log"; fail "apt-get install -s would not install quatcheck"; }
echo "PASS: deb"
