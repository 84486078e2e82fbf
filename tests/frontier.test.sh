#!/usr/bin/env bash
# The accuracy-versus-cost frontier (scripts/readme/frontier.py, drawn by plot_report.py's frontier_plot):
# on fixture CSVs with known answers, the Pareto column marks exactly the points nothing beats on both
# axes; a dominated point, a point with non-finite outputs and a negative control (group broken, left out)
# are checked, and a missing timing.csv is one line and exit 2.
# Usage: bash tests/frontier.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
fixture_report
cat > "$r/summary.csv" <<'CSV'
impl,op,region,cases,nonfinite,branch_disagree,max_angle_err_rad,p99_angle_err_rad,max_ulp,max_ulp1,max_norm_err_ulp1,ties,max_angle_err_vs_exact_nlerp_rad,status,status_detail,failed_case
fast.f32,slerp,uniform,10,0,0,1e-2,1e-2,1,1,1,0,,ok,,
fast.f32,slerp,near-0,10,0,0,2e-2,1e-2,1,1,1,0,,ok,,
good.f32,slerp,uniform,10,0,0,1e-7,1e-7,1,1,1,0,,ok,,
worse.f32,slerp,uniform,10,0,0,1e-6,1e-6,1,1,1,0,,ok,,
nan.f32,slerp,uniform,10,3,0,1e-9,1e-9,1,1,1,0,,ok,,
ctl.f32,slerp,uniform,10,0,0,1e-12,1e-12,1,1,1,0,,ok,,
only.f64,slerp,uniform,10,0,0,1e-15,1e-15,1,1,1,0,,ok,,
CSV
cat > "$r/timing.csv" <<'CSV'
impl,op,region,mode,ns_per_call,cv,repetitions
fast.f32,slerp,uniform,throughput,5,0.01,2
fast.f32,slerp,near-0,throughput,7,0.01,2
fast.f32,slerp,uniform,latency,500,0.01,2
good.f32,slerp,uniform,throughput,20,0.01,2
worse.f32,slerp,uniform,throughput,30,0.01,2
nan.f32,slerp,uniform,throughput,1,0.01,2
ctl.f32,slerp,uniform,throughput,1,0.01,2
only.f64,slerp,uniform,throughput,9,0.01,2
CSV
# leaderboard.csv names the groups: ctl is a negative control and must be left out.
"$qc" tables | /usr/bin/python3 -c '
import json, sys
cols = [c["name"] for c in json.load(sys.stdin)["leaderboard.csv"]["columns"]]
print(",".join(cols))
for impl, group in [("fast.f32", "seed"), ("good.f32", "seed"), ("worse.f32", "seed"), ("nan.f32", "seed"),
                    ("ctl.f32", "broken"), ("only.f64", "seed")]:
    print(",".join({"impl": impl, "group": group}.get(c, "") for c in cols))
' > "$r/leaderboard.csv"

out="$(/usr/bin/python3 "$src/scripts/readme/frontier.py" "$r")" || fail "frontier.py failed: $out"
row() { grep -F "| \`$1\` |" <<<"$out" || fail "no row for $1"; }
row fast.f32 | grep -q '| 6 | 2.00e-02 | 0 | \*\*yes\*\* |$' || fail "fast.f32 (mean of throughput 5 and 7, worst region 2e-2) should be optimal: $(row fast.f32)"
row good.f32 | grep -q '\*\*yes\*\*' || fail "good.f32 should be optimal"
row worse.f32 | grep -q '\*\*yes\*\*' && fail "worse.f32 is dominated by good.f32 but marked optimal"
row nan.f32 | grep -q '\*\*yes\*\*' && fail "nan.f32 has non-finite outputs but is marked optimal"
grep -q 'ctl.f32' <<<"$out" && fail "a negative control (group broken) is listed"
row only.f64 | grep -q '\*\*yes\*\*' || fail "a precision's only point is optimal"
# the f32 table is sorted by ns per call
[[ "$(grep -o '`[a-z]*\.f32`' <<<"$out" | tr -d '`' | tr '\n' ' ')" == "nan.f32 fast.f32 good.f32 worse.f32 " ]] \
    || fail "f32 rows not sorted by ns per call: $out"

rm "$r/timing.csv"
status=0
/usr/bin/python3 "$src/scripts/readme/frontier.py" "$r" > /dev/null 2> "$tmp/err" || status=$?
[[ $status == 2 && $(wc -l < "$tmp/err") == 1 ]] || fail "missing timing.csv: exit $status, stderr $(cat "$tmp/err")"
echo "ok: frontier marks the Pareto set, leaves out controls, fails loudly without timing.csv"
