#!/usr/bin/env bash
# scripts/search-quality (issue 45, docs/worst-case-search.md "Steps and generations") at a small size: both search
# modes on the default selection and the planted defects, the JSON it writes and the docs block generated from it.
# Negative control: a row whose search maximum is lowered in the generations folder is counted and named as weaker.
# The generator escapes names read from the JSON and refuses a figure that is not a number.
source "$(dirname "$0")/lib.sh" "$@"
export QC_BUILD_DIR="$build"
q="$src/scripts/search-quality"
"$q" --cases 200 --seeds 4 --jobs 2 --out "$tmp/q" > "$tmp/q.txt" 2> "$tmp/q.err" || fail "search-quality failed: $(cat "$tmp/q.err")"
/usr/bin/python3 - "$tmp/q/search_quality.json" <<'PY' || fail "search_quality.json: $(head -c 600 "$tmp/q/search_quality.json")"
import json, sys
q = json.load(open(sys.argv[1]))
s = q["seeds"][0]
assert s["seed"] == 4 and s["default"]["rows"] > 100 and s["broken"]["rows"] > 10, s
assert 0 <= s["default"]["at_least_as_bad"] <= s["default"]["rows"]
assert q["search_cpu_s"]["steps"] > 0 and q["search_cpu_s"]["generations"] > 0
assert len(q["needles"]["steps"]) == 8 and isinstance(q["needles_lost"], list), q["needles"]
PY
/usr/bin/python3 "$src/scripts/readme/search_quality.py" "$tmp/q" > "$tmp/block.md" || fail "the generator failed"
grep -q '^| 4 | default | ' "$tmp/block.md" || fail "no seed row: $(cat "$tmp/block.md")"
pass "both modes measured on seed 4 ($(grep -o '[0-9]* of [0-9]* rows ([0-9.]* %)' "$tmp/block.md"))"

# --compare, and its negative control: one row of the generations folder lowered to half.
for m in steps generations; do
  "$build/quatcheck" run --cases 400 --seed 3 --impl seed-c.f32 --search-mode $m --no-leaderboard --out "$tmp/$m" >/dev/null 2>&1 ||
    fail "run --search-mode $m failed"
done
"$q" --compare "$tmp/steps" "$tmp/generations" > "$tmp/c.json" || fail "--compare failed"
cp -r "$tmp/generations" "$tmp/lowered"
/usr/bin/python3 - "$tmp/lowered/summary.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["impl"] == "seed-c.f32" and r["op"] == "slerp" and r["region"] == "near-0":
        r["max_angle_err_search_rad"] = repr(float(r["max_angle_err_search_rad"]) / 2)
with open(sys.argv[1], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
PY
"$q" --compare "$tmp/steps" "$tmp/lowered" > "$tmp/l.json" || fail "--compare (lowered) failed"
/usr/bin/python3 - "$tmp/c.json" "$tmp/l.json" <<'PY' || fail "the lowered row was not counted: $(cat "$tmp/l.json")"
import json, sys
c, l = (json.load(open(p)) for p in sys.argv[1:])
assert c["rows"] == l["rows"] == 5, (c["rows"], l["rows"])
names = [w["row"] for w in l["weaker"]]
assert "seed-c.f32/slerp/near-0" in names, names
assert l["at_least_as_bad"] <= c["at_least_as_bad"] and len(l["weaker"]) >= len(c["weaker"])
PY
pass "--compare counts a lowered row as weaker and names it"

# The generator: a hostile name is escaped, a figure that is not a number is refused with one line.
/usr/bin/python3 - "$tmp/q/search_quality.json" "$tmp/h" <<'PY'
import json, os, sys
q = json.load(open(sys.argv[1]))
q["needles"]["steps"]["x|<b>y\nz"] = True
q["needles"]["generations"]["x|<b>y\nz"] = True
os.makedirs(sys.argv[2] + "/ok"); os.makedirs(sys.argv[2] + "/bad")
json.dump(q, open(sys.argv[2] + "/ok/search_quality.json", "w"))
q["load_start"] = "1 | 2"
json.dump(q, open(sys.argv[2] + "/bad/search_quality.json", "w"))
PY
/usr/bin/python3 "$src/scripts/readme/search_quality.py" "$tmp/h/ok" > "$tmp/h.md" || fail "the generator failed on the hostile name"
grep -qF 'x\|\<b>y z' "$tmp/h.md" || fail "the name was not escaped: $(grep -a needles "$tmp/h.md")"
expect 1 "not a number" /usr/bin/python3 "$src/scripts/readme/search_quality.py" "$tmp/h/bad"
rc=0; /usr/bin/python3 "$src/scripts/readme/search_quality.py" "$tmp/none" > /dev/null || rc=$?
[ "$rc" = 3 ] || fail "a folder without the JSON must keep the block (exit 3)"
pass "the generator escapes names and refuses a non-number"
expect 2 "--seeds: expected integers" "$q" --seeds one
finish
