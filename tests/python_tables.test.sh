#!/usr/bin/env bash
# The Python readers go through the schema (scripts/qc_tables.py): a report folder holds schema.json, equal
# to `quatcheck tables`; the README generators and plot_report.py read it, and a renamed column, in the
# CSV or in the schema, fails loudly with one line (exit 2) instead of a KeyError or a blank cell.
# Usage: bash tests/python_tables.test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
qc="$build/quatcheck"
export QC_QUATCHECK="$qc"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

r="$work/report"
"$qc" run --out "$r" --cases 50 --impl 'seed-c*' --reference fast >/dev/null 2>&1
[[ -f $r/schema.json ]] || fail "run wrote no schema.json"
cmp -s "$r/schema.json" <("$qc" tables) || fail "schema.json differs from quatcheck tables"
/usr/bin/python3 "$src/scripts/readme/summary.py" "$r" > "$work/ok.out" || fail "summary.py failed on a good report"
grep -q "seed-c" "$work/ok.out" || fail "summary.py printed no rows"

# expect_loud NAME EXPECTED CMD...: CMD exits 2 with exactly one stderr line containing EXPECTED
expect_loud() {
    local name="$1" expected="$2"
    shift 2
    local status=0
    "$@" > /dev/null 2> "$work/err" || status=$?
    [[ $status == 2 ]] || fail "$name: exit status $status, expected 2 ($(cat "$work/err"))"
    [[ $(wc -l < "$work/err") == 1 ]] || fail "$name: not one line: $(cat "$work/err")"
    grep -qF -- "$expected" "$work/err" || fail "$name: '$(cat "$work/err")' does not say '$expected'"
    echo "ok: $name: $(cat "$work/err")"
}

# A column renamed in the CSV: missing from the file.
cp -r "$r" "$work/renamed"
sed -i '1s/max_angle_err_rad,/max_angle_error_rad,/' "$work/renamed/summary.csv"
expect_loud "README generator, renamed CSV column" "summary.csv:1: missing column 'max_angle_err_rad'" \
    /usr/bin/python3 "$src/scripts/readme/summary.py" "$work/renamed"
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
    expect_loud "plot_report, renamed CSV column" "quatcheck: report: $work/renamed/summary.csv:1: missing column 'max_angle_err_rad'" \
        /usr/bin/python3 "$src/scripts/plot_report.py" "$work/renamed"
fi

# A column renamed in the schema (the C++ declaration changed, the script not): not declared.
cp -r "$r" "$work/schema"
sed -i 's/"max_angle_err_rad"/"max_angle_error_rad"/' "$work/schema/schema.json"
expect_loud "README generator, column not in the schema" "column 'max_angle_err_rad' is not in summary.csv's schema" \
    /usr/bin/python3 "$src/scripts/readme/summary.py" "$work/schema"

# A row asked for a column the script did not list up front: checked too.
/usr/bin/python3 - "$src/scripts" "$r" > /dev/null 2> "$work/err" <<'PY' || true
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
grep -q "column 'max_angle_error_rad' is not in summary.csv's schema" "$work/err" || fail "row access: $(cat "$work/err")"

# A folder without schema.json is read with the binary's schema.
rm "$work/renamed/schema.json"
expect_loud "no schema.json, binary's schema" "summary.csv:1: missing column 'max_angle_err_rad'" \
    /usr/bin/python3 "$src/scripts/readme/summary.py" "$work/renamed"
echo "PASS"
