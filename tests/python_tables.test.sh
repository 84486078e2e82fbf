#!/usr/bin/env bash
# The Python readers go through the schema (scripts/qc_tables.py): a report folder holds schema.json, equal
# to `quatcheck tables`; the README generators and plot_report.py read it, and a renamed column, in the
# CSV or in the schema, fails loudly with one line (exit 2) instead of a KeyError or a blank cell.
# Usage: bash tests/python_tables.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
export QC_QUATCHECK="$qc"

r="$tmp/report"
"$qc" run --out "$r" --cases 50 --impl 'seed-c*' --reference fast >/dev/null 2>&1
[[ -f $r/schema.json ]] || fail "run wrote no schema.json"
cmp -s "$r/schema.json" <("$qc" tables) || fail "schema.json differs from quatcheck tables"
/usr/bin/python3 "$src/scripts/readme/summary.py" "$r" > "$tmp/ok.out" || fail "summary.py failed on a good report"
grep -q "seed-c" "$tmp/ok.out" || fail "summary.py printed no rows"

# expect -F 2 EXPECTED CMD... (tests/lib.sh): CMD exits 2 with exactly one stderr line containing EXPECTED

# A column renamed in the CSV: missing from the file.
cp -r "$r" "$tmp/renamed"
sed -i '1s/max_angle_err_rad,/max_angle_error_rad,/' "$tmp/renamed/summary.csv"
# README generator, renamed CSV column
expect -F 2 "summary.csv:1: missing column 'max_angle_err_rad'" \
    /usr/bin/python3 "$src/scripts/readme/summary.py" "$tmp/renamed"
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
    # plot_report, renamed CSV column
    expect -F 2 "quatcheck: report: $tmp/renamed/summary.csv:1: missing column 'max_angle_err_rad'" \
        /usr/bin/python3 "$src/scripts/plot_report.py" "$tmp/renamed"
fi

# A column renamed in the schema (the C++ declaration changed, the script not): not declared.
cp -r "$r" "$tmp/schema"
sed -i 's/"max_angle_err_rad"/"max_angle_error_rad"/' "$tmp/schema/schema.json"
# README generator, column not in the schema
expect -F 2 "column 'max_angle_err_rad' is not in summary.csv's schema" \
    /usr/bin/python3 "$src/scripts/readme/summary.py" "$tmp/schema"

# A row asked for a column the script did not list up front: checked too.
/usr/bin/python3 - "$src/scripts" "$r" > /dev/null 2> "$tmp/err" <<'PY' || true
import sys
sys.path.insert(0, sys.argv[1])
import qc_tables
rows = qc_tables.rows(sys.argv[2], "summary.csv", ["impl"])
try:
    rows[0]["max_angle_error_rad"]
except qc_tables.TableError as e:
    print(e, file=sys.stderr)
    sys.exit(2)
PY
grep -q "column 'max_angle_error_rad' is not in summary.csv's schema" "$tmp/err" || fail "row access: $(cat "$tmp/err")"

# A folder without schema.json is read with the binary's schema.
rm "$tmp/renamed/schema.json"
# no schema.json, binary's schema
expect -F 2 "summary.csv:1: missing column 'max_angle_err_rad'" \
    /usr/bin/python3 "$src/scripts/readme/summary.py" "$tmp/renamed"
echo "PASS"
