#!/usr/bin/env bash
# The Debian packages (docs/install.md): `cpack -G DEB` with this build's CPackConfig.cmake, output into a
# temporary folder, gives quatcheck_<version>_<arch>.deb (the core package) and, from a build with engine modules,
# quatcheck-engines_<version>_<arch>.deb.
# The core package's metadata is right (name, version, architecture; Depends from the binary's shared libraries via
# dpkg-shlibdeps, python3, no -dev package and no engine library, whatever the build; Suggests python3-matplotlib,
# which is no Recommends: apt would install it by default) and its contents hold the binary, the report script, the
# plugin header, the CMake package, the pkg-config file, the man page and the docs, and no engine module. The binary
# unpacked with dpkg-deb -x into a temporary folder runs a small `run` and `report`, and lists no engine family.
# The engines package holds exactly the build's engine modules under /usr/LIBDIR/quatcheck/engines/, and its Depends
# names quatcheck of this version and the package of every library each module links (dpkg -S); unpacked beside the
# core package, the binary lists the same engine families, versions and ops as the build's quatcheck.
# apt accepts the packages (simulated install).
# Negative controls: the Depends check rejects a control file that names a -dev package or lacks python3, the engine
# check one that names libogremain, the engines check one that lacks a module's library, and the unpacked binary
# without its share/quatcheck cannot report (exit 2).
# Usage: bash tests/deb.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
for t in cpack dpkg-deb dpkg-shlibdeps dpkg readelf; do
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
# The core package depends on no engine library, from a default build too (issue 37: the engine adapters are
# modules of the quatcheck-engines package). Negative control: a Depends naming OGRE is caught by the same check.
engine_libs='libogre|libqt6|libqt5|libopenscenegraph|libassimp|libopencv|libvtk|libmrpt|libirrlicht|libbullet|libimath|libignition|liborocos|libcoin|libopenvdb'
no_engines() { ! field Depends "$1" | grep -qE "$engine_libs"; }
no_engines "$tmp/info" || fail "the core package depends on an engine library: $(field Depends "$tmp/info")"
sed 's/^ Depends: .*/ Depends: libc6, libmpfr6, libogremain1.12.10, python3/' "$tmp/info" >"$tmp/info.ogre"
no_engines "$tmp/info.ogre" && fail "negative control: a Depends with libogremain passed the engine check"
echo "core package: no engine library in Depends"

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
grep -q '/quatcheck/engines/' "$tmp/contents" && fail "the core package holds engine modules"

# The unpacked binary runs a small run and report, from a folder of its own.
dpkg-deb -x "$deb" "$tmp/x"
mkdir -p "$tmp/cwd" && cd "$tmp/cwd"
qc="$tmp/x/usr/bin/quatcheck"
"$qc" run --impl seed-c --impl nlerp --cases 300 --out r 2>"$tmp/run.err" || { cat "$tmp/run.err"; fail "unpacked run"; }
"$qc" report r 2>"$tmp/report.err" || { cat "$tmp/report.err"; fail "unpacked report"; }
[ -s r/report.html ] || fail "unpacked report wrote no report.html"
"$qc" list >"$tmp/list.core" 2>"$tmp/list.core.err" || { cat "$tmp/list.core.err"; fail "unpacked list"; }
! grep -q ' engine ' "$tmp/list.core" || fail "the core package alone lists engine families"
[ ! -s "$tmp/list.core.err" ] || { cat "$tmp/list.core.err"; fail "the core package alone warns"; }
rm -rf "$tmp/x/usr/share/quatcheck"
set +e
"$qc" report r 2>/dev/null
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "negative control: the unpacked binary without share/quatcheck reported (exit $rc)"

# The engines package, from a build with engine modules.
modules=()
for m in "$build"/engines/quatcheck-engine-*.so; do [ -f "$m" ] && modules+=("$m"); done
edeb="$tmp/out/quatcheck-engines_${version}_${arch}.deb"
libdir="$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")"
if [ ${#modules[@]} -eq 0 ]; then
  [ ! -e "$edeb" ] || fail "a build without engine modules made $(basename "$edeb")"
  echo "no engine modules in this build: no engines package (checked)"
  debs=("$deb")
else
  [ -f "$edeb" ] || { ls "$tmp/out"; fail "no quatcheck-engines_${version}_${arch}.deb from a build with ${#modules[@]} engine modules"; }
  echo "built $(basename "$edeb") ($(stat -c %s "$edeb") bytes)"
  dpkg-deb -I "$edeb" >"$tmp/einfo"
  [ "$(field Package "$tmp/einfo")" = quatcheck-engines ] || fail "Package is not quatcheck-engines"
  [ "$(field Version "$tmp/einfo")" = "$version" ] || fail "engines: Version is not $version"
  field Depends "$tmp/einfo" | grep -qF "quatcheck (= $version)" || fail "engines: Depends lacks quatcheck (= $version): $(field Depends "$tmp/einfo")"
  dpkg-deb -c "$edeb" | awk '{ print $NF }' | grep -v '/$' | sort >"$tmp/econtents"
  (cd "$build/engines" && for m in quatcheck-engine-*.so; do echo "./usr/$libdir/quatcheck/engines/$m"; done) | sort >"$tmp/ewant"
  diff "$tmp/ewant" "$tmp/econtents" >"$tmp/ediff" || { cat "$tmp/ediff"; fail "the engines package does not hold exactly the build's modules"; }
  # The package (dpkg -S) of every library a module links directly (readelf NEEDED, resolved as ldd resolves it).
  # (ldd: "SONAME => PATH (addr)", or "PATH (addr)" for the dynamic loader)
  : >"$tmp/eneeds.all"
  for m in "${modules[@]}"; do
    for so in $(readelf -d "$m" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      path="$(ldd "$m" | awk -v so="$so" '$1 == so && $2 == "=>" { print $3 } $1 ~ ("/" so "$") { print $1 }' | head -1)"
      [ -n "$path" ] || fail "$(basename "$m"): $so does not resolve"
      pkg="$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null)" ||
        fail "$(basename "$m"): no package owns $path"
      echo "${pkg%%:*}" >>"$tmp/eneeds.all"
    done
  done
  sort -u "$tmp/eneeds.all" >"$tmp/eneeds"
  # has_needs CONTROL: its Depends names every package in eneeds.
  has_needs() {
    local d p
    d=" $(field Depends "$1" | sed 's/([^)]*)//g; s/[,|]/ /g') "
    while read -r p; do [[ $d == *" $p "* ]] || { echo "Depends lacks $p"; return 1; }; done <"$tmp/eneeds"
  }
  why="$(has_needs "$tmp/einfo")" || fail "engines: $why: $(field Depends "$tmp/einfo")"
  drop="$(grep -E "$engine_libs" "$tmp/eneeds" | head -1)"
  [ -n "$drop" ] || fail "no module links an engine library (eneeds: $(tr '\n' ' ' <"$tmp/eneeds"))"
  sed "s/^ Depends: .*/ Depends: $(field Depends "$tmp/einfo" | sed "s/$drop[^,]*,\? *//")/" "$tmp/einfo" >"$tmp/einfo.drop"
  has_needs "$tmp/einfo.drop" >/dev/null && fail "negative control: a Depends without $drop passed the engines check"
  echo "engines package: $(wc -l <"$tmp/ewant") modules; Depends names quatcheck (= $version) and the $(wc -l <"$tmp/eneeds") packages of their libraries"
  # Unpacked beside the core package (the checkout's modules are not in reach: the binary is outside the build
  # folder), the tool lists the build's engine families, with the same versions and ops.
  dpkg-deb -x "$edeb" "$tmp/x"
  "$qc" list >"$tmp/list.both" 2>"$tmp/list.both.err" || { cat "$tmp/list.both.err"; fail "unpacked list with the engines"; }
  [ ! -s "$tmp/list.both.err" ] || { cat "$tmp/list.both.err"; fail "the unpacked engines warn"; }
  "$build/quatcheck" list 2>/dev/null | grep ' engine ' >"$tmp/list.want"
  grep ' engine ' "$tmp/list.both" >"$tmp/list.got" || true
  diff "$tmp/list.want" "$tmp/list.got" >"$tmp/list.diff" || { cat "$tmp/list.diff"; fail "the unpacked packages list other engine families than the build"; }
  "$qc" list --modules | grep -q "^engine modules: ${#modules[@]} loaded, 0 skipped, from $tmp/x/usr/$libdir/quatcheck/engines$" ||
    { "$qc" list --modules; fail "list --modules does not name the unpacked modules"; }
  echo "unpacked: $(wc -l <"$tmp/list.got") engine implementations from the engines package, as the build lists them"
  debs=("$deb" "$edeb")
fi

# apt accepts the packages as they are (simulated: nothing is installed).
apt-get install -s "${debs[@]}" >"$tmp/apt.log" 2>&1 || { tail -5 "$tmp/apt.log"; fail "apt-get install -s rejects the packages"; }
grep -q "^Inst quatcheck " "$tmp/apt.log" || { tail -5 "$tmp/apt.log"; fail "apt-get install -s would not install quatcheck"; }
if [ ${#debs[@]} -eq 2 ]; then
  grep -q "^Inst quatcheck-engines " "$tmp/apt.log" || { tail -5 "$tmp/apt.log"; fail "apt-get install -s would not install quatcheck-engines"; }
fi
echo "PASS: deb"
