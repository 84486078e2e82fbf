#!/usr/bin/env bash
# The worst cases of the issue-30 engine adapters (OpenCV, VTK, MRPT) replay: a short run of each family that
# was built, then `quatcheck replay --strict` re-runs every recorded worst case and must reproduce every
# output bit for bit. Negative control: the same file with one recorded output changed by one hex digit is
# refused (exit 1). A family whose library was not found at configure time is a SKIP line; with none built,
# the test exits 77 (SKIP).
# Usage: bash tests/engines_replay.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"

"$qc" list >"$tmp/list" 2>&1 || fail "quatcheck list failed"
impls=()
for f in opencv:libopencv-core-dev opencv-unit:libopencv-core-dev vtk:libvtk9-dev mrpt:libmrpt-dev; do
  fam=${f%%:*}
  if grep -q "^$fam\.f" "$tmp/list"; then impls+=(--impl "$fam.*")
  else echo "SKIP: $fam is not built (${f#*:} was not found when configuring)"; fi
done
[ ${#impls[@]} -gt 0 ] || skip "none of the OpenCV, VTK, MRPT adapters is built"

"$qc" run "${impls[@]}" --cases 300 --jobs 2 --worst-k 3 --out "$tmp/r" >/dev/null 2>"$tmp/err" ||
  [ $? -eq 1 ] || { cat "$tmp/err"; fail "run"; }
w="$tmp/r/worst_cases.csv"
[ -s "$w" ] || fail "no worst_cases.csv"
for f in "${impls[@]}"; do
  [ "$f" = --impl ] && continue
  grep -q "^${f%.\*}\.f" "$w" || fail "no worst case of $f"
done
"$qc" replay --strict "$w" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "replay --strict of the run's own worst cases"; }
grep -q ' 0 outputs differ from the recording' "$tmp/out" || { cat "$tmp/out"; fail "replay reports differing outputs"; }
echo "ok: $(grep 'rows replayed' "$tmp/out")"

# Negative control: one recorded out_w changed in its last hex digit.
/usr/bin/python3 - "$w" "$tmp/bad.csv" <<'PY' || fail "could not write the changed copy"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
col = rows[0].index("out_w")
for r in rows[1:]:
    mant, sep, exp = r[col].partition("p")
    if sep and "." in mant:  # a hexfloat 0x1.hhhhp-e: change its last mantissa digit
        r[col] = mant[:-1] + ("1" if mant[-1] != "1" else "2") + "p" + exp
        break
else:
    sys.exit("no finite out_w with a fraction to change")
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(rows)
PY
if "$qc" replay --strict "$tmp/bad.csv" >"$tmp/out2" 2>&1; then fail "replay --strict accepted a changed output"; fi
grep -q ' 1 outputs differ from the recording' "$tmp/out2" || { cat "$tmp/out2"; fail "the changed output was not the one counted"; }
echo "ok: a changed recorded output is caught"
