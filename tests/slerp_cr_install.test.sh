#!/usr/bin/env bash
# quatcheck::slerp_cr as a user links it (docs/slerp-cr.md "Shipped as quatcheck::slerp_cr"): `cmake --install` into
# a temporary prefix; the installed library needs nothing but MPFR and GMP (its DT_NEEDED besides the C and C++
# runtimes), has no RPATH and exports only the C API; a downstream CMake project (tests/slerp_cr_downstream) that does
# find_package(quatcheck) and links only quatcheck::slerp_cr builds a C program (linked by the C compiler driver,
# without libstdc++ of its own) and a C++ program, and both get the expected bits (t = 0: the normalised q0; t = 1:
# the normalised q1 with +0 components; a general case checked against the harness's MPFR reference). The imported
# target carries no link dependency (Boost and MPFR stay PRIVATE to the library).
# Negative controls: the C program with one expected value altered by one ulp builds and fails; the C program
# built without the library does not link.
# Usage: bash tests/slerp_cr_install.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
source "$src/tests/install_lib.sh"
command -v cc >/dev/null || skip "no C compiler (cc) for the downstream project"
command -v readelf >/dev/null || skip "no readelf (binutils)"

install_prefix
libdir="$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")"
lib="$prefix/$libdir/libquatcheck_slerp_cr.so"
[ -f "$prefix/include/quatcheck/slerp_cr.h" ] || fail "not installed: include/quatcheck/slerp_cr.h"
[ -e "$lib" ] || fail "not installed: $libdir/libquatcheck_slerp_cr.so"

# What the library needs at run time: MPFR and GMP, and the C and C++ runtimes.
needed="$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
grep -q '^libmpfr\.so' <<<"$needed" || fail "libquatcheck_slerp_cr.so does not need libmpfr: $needed"
others="$(grep -Ev '^(libmpfr|libgmp|libstdc\+\+|libm|libgcc_s|libc|ld-linux.*)\.so' <<<"$needed" || true)"
[ -z "$others" ] || fail "libquatcheck_slerp_cr.so needs more than MPFR, GMP and the runtimes: $others"
! readelf -d "$lib" | grep -Eq '\((RPATH|RUNPATH)\)' || fail "the installed library has an RPATH"
exported="$(nm -D --defined-only "$lib" | awk '{print $3}' | sort | tr '\n' ' ')"
want="qc_slerp_cr_f32 qc_slerp_cr_f32_status qc_slerp_cr_f64 qc_slerp_cr_f64_status qc_slerp_cr_get_stats qc_slerp_cr_reset_stats "
[ "$exported" = "$want" ] || fail "exported symbols: '$exported', expected '$want'"
pass "installed: $(basename "$(readlink -f "$lib")"), needs $(tr '\n' ' ' <<<"$needed")"

# The downstream project, against the prefix only.
cp -r "$src/tests/slerp_cr_downstream" "$tmp/proj"
cmake -S "$tmp/proj" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; fail "configuring the downstream project failed"; }
grep -q "quatcheck::slerp_cr INTERFACE_LINK_LIBRARIES: qc_cr_libs-NOTFOUND" "$tmp/configure.log" ||
  { grep INTERFACE_LINK "$tmp/configure.log"; fail "quatcheck::slerp_cr carries link dependencies to its users"; }
cmake --build "$tmp/b" -j 2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "building the downstream project failed"; }
! readelf -d "$tmp/b/demo_c" | grep -q 'libstdc++' || fail "demo_c needs libstdc++ itself (linked as C++?)"
readelf -d "$tmp/b/demo_c" | grep -q 'libquatcheck_slerp_cr' || fail "demo_c does not need libquatcheck_slerp_cr"
out="$("$tmp/b/demo_c")" || { echo "$out"; fail "demo_c: wrong bits"; }
echo "$out"
out="$("$tmp/b/demo_cpp")" || { echo "$out"; fail "demo_cpp: wrong bits"; }
echo "$out"

# Negative controls.
cmake --build "$tmp/b" --target demo_c_altered >"$tmp/altered.log" 2>&1 || { cat "$tmp/altered.log"; fail "demo_c_altered did not build"; }
if out="$("$tmp/b/demo_c_altered")"; then fail "negative control: demo_c passed with an altered expected value: $out"; fi
grep -q "MISMATCH case 3 f64 out\[3\]" <<<"$out" && grep -q "MISMATCH case 3 f32 out\[3\]" <<<"$out" ||
  fail "negative control: demo_c_altered did not name the altered components: $out"
pass "negative control: one ulp off in the expected value is caught ($(grep -c MISMATCH <<<"$out") mismatches)"
if cmake --build "$tmp/b" --target demo_nolink >"$tmp/nolink.log" 2>&1; then
  fail "negative control: the C program linked without quatcheck::slerp_cr"
fi
grep -q "undefined reference to .qc_slerp_cr_f64" "$tmp/nolink.log" || { cat "$tmp/nolink.log"; fail "demo_nolink failed for another reason"; }
pass "negative control: without quatcheck::slerp_cr the C program does not link"
