#!/usr/bin/env bash
# Squad through the process protocol (version 3, docs/plugin-protocol.md#version-3-squad):
#  1. the C adapter's proc-seed-squad (c_adapter MODE squad: the built-in seed-squad's code) gives exactly the
#     built-in's squad figures, on the binary and on the text wire (negative control: the comparison notices
#     another squad, broken-squad);
#  2. a crash, a hang, garbage, a wrong count and a wrong sequence number in a squad batch are contained: squad
#     ends normally (exit 0 or 1, a report written), one line names the implementation and the status, and its
#     later cases count as non-finite outputs;
#  3. the squad-controls modes: a family that says `caller` is measured with the reference's control points (its
#     own columns equal its refcp columns).
# Usage: process_squad.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
adapter="$build/process/c_adapter"

# ---- 1. exact round trips ----
for wire in "" text; do
  out="$tmp/same$wire"
  "$qc" squad --plugin-cmd "$adapter ok squad $wire" --impl seed-squad --impl proc-seed-squad --impl broken-squad \
    --tracks 8 --jobs 2 --out "$out" >"$out.log" 2>&1
  [ $? -le 1 ] || fail "squad over the ${wire:-binary} wire: $(cat "$out.log")"
  python3 - "$out" "${wire:-binary}" <<'PY' || fail "exact squad round trips over the ${wire:-binary} wire"
import csv, os, sys
rows = {}
for r in csv.DictReader(open(os.path.join(sys.argv[1], "squad_summary.csv"))):
    fam, prec = r.pop("impl").rsplit(".", 1)
    rows[(fam, prec, r["region"])] = r
pairs = [k for k in rows if k[0] == "seed-squad"]
if len(pairs) < 10:
    sys.exit(f"FAIL: expected seed-squad rows for 5 regions x 2 precisions, got {sorted(rows)}")
for k in pairs:
    p = ("proc-seed-squad",) + k[1:]
    if rows.get(p) != rows[k]:
        sys.exit(f"FAIL: {p} differs from {k}:\n{rows[k]}\n{rows.get(p)}")
    if rows[("broken-squad",) + k[1:]] == rows[k]:
        sys.exit(f"FAIL: negative control: broken-squad compares equal to seed-squad on {k}")
print(f"exact: {len(pairs)} squad rows of the C adapter over the {sys.argv[2]} wire equal the built-in's")
PY
done

# ---- 2. containment ----
check_mode() {  # MODE STATUS [text]
  local mode="$1" want="$2" wire="${3:-}" out="$tmp/m-$1${3:-}"
  "$qc" squad --plugin-cmd "$adapter $mode squad $wire" --impl 'proc-seed-squad.f64' --region random \
    --tracks 4 --jobs 1 --out "$out" >"$out.log" 2>&1
  local rc=$?
  [ $rc -le 1 ] || { fail "$mode${wire:+ ($wire)}: squad exited $rc: $(tail -3 "$out.log")"; return; }
  grep -Eq "^quatcheck: proc-seed-squad.f64 squad: $want \(.*\); not called again" "$out.log" ||
    fail "$mode${wire:+ ($wire)}: no '$want' line: $(cat "$out.log")"
  [ "$(grep -c '^quatcheck: proc-seed-squad' "$out.log")" -eq 1 ] || fail "$mode: more than one line: $(cat "$out.log")"
  python3 - "$out" <<'PY' || fail "$mode${wire:+ ($wire)}: the failed batch's cases are not counted as non-finite"
import csv, os, sys
r = next(csv.DictReader(open(os.path.join(sys.argv[1], "squad_summary.csv"))))
if int(r["nonfinite"]) == 0:
    sys.exit(f"FAIL: nonfinite 0 in {r}")
PY
}
check_mode crash crashed
check_mode hang timeout
check_mode garbage out-of-bounds
check_mode count out-of-bounds
check_mode seq out-of-bounds
check_mode crash crashed text
check_mode garbage out-of-bounds text
check_mode count out-of-bounds text
# negative control: the well-behaved adapter gives no such line and no non-finite output
"$qc" squad --plugin-cmd "$adapter ok squad" --impl 'proc-seed-squad.f64' --region random --tracks 4 --jobs 1 \
  --out "$tmp/okrun" >"$tmp/okrun.log" 2>&1
grep -q "^quatcheck: proc-seed-squad" "$tmp/okrun.log" && fail "the ok adapter was reported: $(cat "$tmp/okrun.log")"
grep -q '^proc-seed-squad.f64,squad,random,4,[0-9]*,0,' "$tmp/okrun/squad_summary.csv" ||
  fail "the ok adapter's row: $(cat "$tmp/okrun/squad_summary.csv")"

# ---- 3. squad-controls caller: own = refcp ----
caller="$tmp/caller.sh"
cat >"$caller" <<SH
#!/bin/sh
# The C adapter's squad without its squad_setup, declared 'caller' (its hello rewritten on the way out).
exec "$adapter" ok squad | sed -u -e 's/^family proc-seed-squad .*/family proc-caller-squad squad.f64/' \
  -e 's/^end\$/squad-controls proc-caller-squad caller\nend/'
SH
chmod +x "$caller"
"$qc" squad --plugin-cmd "$caller" --impl 'proc-caller-squad.f64' --tracks 4 --jobs 1 --out "$tmp/caller" \
  >"$tmp/caller.log" 2>&1
[ $? -le 1 ] || fail "squad with a caller family: $(cat "$tmp/caller.log")"
python3 - "$tmp/caller" <<'PY' || fail "squad-controls caller"
import csv, os, sys
rows = list(csv.DictReader(open(os.path.join(sys.argv[1], "squad_summary.csv"))))
if len(rows) != 5:
    sys.exit(f"FAIL: expected 5 regions, got {rows}")
for r in rows:
    if r["max_angle_err_own_rad"] != r["max_angle_err_refcp_rad"]:
        sys.exit(f"FAIL: own and refcp differ for a caller family: {r}")
print("caller: own columns equal refcp columns on every region")
PY
# negative control: with its own squad_setup the same code's own and refcp columns differ somewhere
grep '^proc-seed-squad.f64,' "$tmp/same/squad_summary.csv" | awk -F, '$7 != $9 {d=1} END {exit !d}' ||
  fail "negative control: proc-seed-squad's own and refcp columns never differ"
finish
