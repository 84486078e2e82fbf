# scripts/bisect-gate under `git bisect run`: a throwaway repository of six commits whose plugin's slerp is
# replaced by a normalised lerp in commit 4 (a planted regression); commit 5 does not compile (bisect must skip
# it: exit 125) and commit 6 fixes the build only. git bisect must name commit 4. Negative controls: the gate
# says good (0) at commit 3 and bad (1) at commit 6, and 125 at commit 5.
source "$(dirname "$0")/lib.sh" "$@"
command -v git > /dev/null && command -v cc > /dev/null || skip "git or cc is not installed"
repo="$tmp/repo"
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.email t@example.invalid
git config user.name test
write() {  # BODY [BROKEN]: mylib.c with the given slerp body
  cat > mylib.c <<C
#include <math.h>
#include <stddef.h>
#include "quatcheck/plugin.h"
static void slerp64(const double a[4], const double b[4], double t, double out[4]) {
    double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], s = c < 0 ? -1 : 1, k0, k1;
    c *= s;
    $1
    for (int i = 0; i < 4; i++) out[i] = k0 * a[i] + k1 * s * b[i];
    $2
}
static const qc_impl_v1 impls[] = {{"mylib", NULL, NULL, NULL, NULL, slerp64, NULL, NULL, NULL}};
const qc_impl_v1 *qc_plugin_v1(size_t *count) { *count = 1; return impls; }
C
}
good='if (c > 0.9999) { k0 = 1 - t; k1 = t; } else { double o = acos(c), so = sin(o); k0 = sin((1 - t) * o) / so; k1 = sin(t * o) / so; }'
bad='k0 = 1 - t; k1 = t;'
norm='double n = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]); for (int i = 0; i < 4; i++) out[i] /= n;'
commit() { git add mylib.c && git commit -q -m "$1" && git rev-parse HEAD; }
write "$good" "";                   c1=$(commit "1: slerp")
write "$good" "/* 2 */";            c2=$(commit "2: a comment")
write "$good" "/* 3 */";            c3=$(commit "3: another comment")
write "$bad" "$norm";               c4=$(commit "4: faster (the planted regression: a normalised lerp)")
write "$bad" "$norm syntax error";  c5=$(commit "5: does not build")
write "$bad" "$norm /* 6 */";       c6=$(commit "6: builds again")
build="cc -O2 -shared -fPIC -ffp-contract=off -I$src/harness/include mylib.c -o mylib.so -lm"
gate=("$src/scripts/bisect-gate" --build "$build" --plugin "$repo/mylib.so" --impl mylib --baseline "$tmp/baseline"
      --quatcheck "$qc" -- --op slerp --region uniform --cases 300)

# The baseline, made at the first commit and kept outside the work tree.
git checkout -q "$c1"
sh -c "$build"
"$qc" run --plugin "$repo/mylib.so" --impl mylib --op slerp --region uniform --cases 300 --no-leaderboard --out "$tmp/baseline" 2> /dev/null
gate_at() { git checkout -q "$1"; set +e; "${gate[@]}" 2> "$tmp/gate.log"; local s=$?; set -e; echo $s; }
[ "$(gate_at "$c3")" = 0 ] || fail "the gate at commit 3 is not good: $(cat "$tmp/gate.log")"
[ "$(gate_at "$c6")" = 1 ] || fail "the gate at commit 6 is not bad: $(cat "$tmp/gate.log")"
[ "$(gate_at "$c5")" = 125 ] || fail "the gate at commit 5 (no build) does not skip: $(cat "$tmp/gate.log")"
pass "the gate: commit 3 good (0), commit 6 bad (1), commit 5 no build (125)"

git checkout -q main
git bisect start "$c6" "$c1" > /dev/null
git bisect run "${gate[@]}" > "$tmp/bisect.log" 2>&1 || fail "git bisect run failed: $(tail -5 "$tmp/bisect.log")"
grep -q "^$c4 is the first bad commit" "$tmp/bisect.log" || fail "git bisect did not name commit 4: $(grep 'first bad' "$tmp/bisect.log")"
git bisect reset > /dev/null 2>&1
pass "git bisect run scripts/bisect-gate names commit 4 ($(git log -1 --format="%h %s" "$c4" | cut -c1-30))"
