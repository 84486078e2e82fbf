#!/usr/bin/env bash
# The fast reference's lane kernels (fast_reference_avx2.cpp, fast_reference_avx512.cpp) are compiled whole for AVX2
# or AVX-512 and run only where the CPU has those. Were one of their objects to define a symbol another file could
# link to (an inline function of a header, a template instantiation, a static member: weak or unique symbols), the
# linker could keep that copy, with its AVX-512 instructions, for the whole program, which would then fail with an
# illegal instruction on a CPU without them. Each object must define exactly one global symbol, its entry point, and
# nothing weak. Negative control: an object that emits an inline function of a header is refused.
source "$(dirname "$0")/lib.sh" "$@"
case "$(uname -m)" in x86_64 | amd64) ;; *) skip "the lane kernels are built for x86-64 only" ;; esac
command -v nm >/dev/null || skip "nm (binutils) is not installed"

# check OBJECT ENTRY: prints what is wrong, if anything
check() {
  local defined
  defined="$(nm -C --defined-only "$1" | awk '$2 !~ /^[tbdrn]$/ {$1 = ""; print substr($0, 2)}')"
  if [ "$(printf '%s\n' "$defined" | grep -c .)" != 1 ] || ! printf '%s\n' "$defined" | grep -q "^T qc::fast_detail::$2("; then
    printf 'defines, besides local symbols:\n%s\n' "$defined"
  fi
}

for k in avx2:slerp4_avx2 avx512:slerp8_avx512; do
  file="fast_reference_${k%%:*}.cpp.o"
  obj="$(find "$build/CMakeFiles/qc_slerp_cr_objects.dir" -name "$file" | head -1)"
  [ -n "$obj" ] || fail "no $file under $build/CMakeFiles/qc_slerp_cr_objects.dir"
  problem="$(check "$obj" "${k#*:}")"
  [ -z "$problem" ] || fail "$file: $problem"
  pass "$file defines only qc::fast_detail::${k#*:}"
done

# Negative control: an inline function of a header, odr-used and so emitted (weak) in the object, is refused.
cat >"$tmp/leak.cpp" <<'CPP'
namespace qc::fast_detail {
inline double header_helper(double x) { return x * 3; }
double (*keep)(double) = header_helper;
bool slerp8_avx512() { return keep(1) > 0; }
}
CPP
c++ -std=c++20 -O2 -c "$tmp/leak.cpp" -o "$tmp/leak.o" || fail "the control object did not compile"
[ -n "$(check "$tmp/leak.o" slerp8_avx512)" ] || fail "an object with a weak inline function was not refused"
pass "negative control: a weak inline function (and a second global) is refused"
