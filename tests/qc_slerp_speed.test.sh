#!/usr/bin/env bash
# qc-slerp's speed block (scripts/readme/qc_slerp_speed.py): on fixture CSVs with known answers, the ratio is
# taken against the fastest engine/recipe slerp whose max ulp1 is <= 2 in every region with no non-finite
# output. Controls: a faster engine that misses the bound in one region, one with non-finite outputs and a
# faster negative control (group broken) are all left out; a ratio above 1.5 reads "over"; a missing
# timing.csv is one line and exit 2.
# Usage: bash tests/qc_slerp_speed.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
fixture_report
# Accuracy: acc.f32 within 2 ulp1 everywhere; sloppy.f32 over it near 0 only; nan.f32 with non-finite
# output; ctl.f32 a faster negative control; acc.f64 within.
cat > "$r/summary.csv" <<'CSV'
impl,op,region,cases,nonfinite,branch_disagree,max_angle_err_rad,p99_angle_err_rad,max_ulp,max_ulp1,max_norm_err_ulp1,ties,max_angle_err_vs_exact_nlerp_rad,status,status_detail,failed_case
qc-slerp.f32,slerp,uniform,10,0,0,1e-7,1e-7,1,0.25,1,0,,ok,,
qc-slerp.f32,slerp,near-0,10,0,0,1e-7,1e-7,1,0.25,1,0,,ok,,
acc.f32,slerp,uniform,10,0,0,1e-7,1e-7,1,1.5,1,0,,ok,,
acc.f32,slerp,near-0,10,0,0,1e-7,1e-7,1,2,1,0,,ok,,
sloppy.f32,slerp,uniform,10,0,0,1e-7,1e-7,1,1,1,0,,ok,,
sloppy.f32,slerp,near-0,10,0,0,1e-7,1e-7,1,190,1,0,,ok,,
nan.f32,slerp,uniform,10,3,0,1e-7,1e-7,1,1,1,0,,ok,,
nan.f32,slerp,near-0,10,0,0,1e-7,1e-7,1,1,1,0,,ok,,
ctl.f32,slerp,uniform,10,0,0,1e-7,1e-7,1,1,1,0,,ok,,
ctl.f32,slerp,near-0,10,0,0,1e-7,1e-7,1,1,1,0,,ok,,
qc-slerp.f64,slerp,uniform,10,0,0,1e-16,1e-16,1,1.6,1,0,,ok,,
acc.f64,slerp,uniform,10,0,0,1e-16,1e-16,1,1.9,1,0,,ok,,
CSV
cat > "$r/timing.csv" <<'CSV'
impl,op,region,mode,ns_per_call,cv,repetitions
qc-slerp.f32,slerp,uniform,throughput,40,0.01,3
qc-slerp.f32,slerp,near-0,throughput,12,0.01,3
qc-slerp.f32,slerp,near-0,latency,1,0.01,3
acc.f32,slerp,uniform,throughput,20,0.01,3
acc.f32,slerp,near-0,throughput,10,0.01,3
sloppy.f32,slerp,uniform,throughput,5,0.01,3
sloppy.f32,slerp,near-0,throughput,5,0.01,3
nan.f32,slerp,uniform,throughput,5,0.01,3
nan.f32,slerp,near-0,throughput,5,0.01,3
ctl.f32,slerp,uniform,throughput,1,0.01,3
ctl.f32,slerp,near-0,throughput,1,0.01,3
qc-slerp.f64,slerp,uniform,throughput,30,0.01,3
acc.f64,slerp,uniform,throughput,25,0.01,3
CSV
/usr/bin/python3 - "$r/leaderboard.csv" <<'PY'
import json, os, subprocess, sys
schema = json.loads(subprocess.run([os.environ["QC_QUATCHECK"], "tables"], capture_output=True, text=True, check=True).stdout)
entry = schema["leaderboard.csv"]
cols = [c["name"] for c in entry["columns"]]
groups = {"qc-slerp.f32": "recommended", "acc.f32": "engine", "sloppy.f32": "engine", "nan.f32": "recipe",
          "ctl.f32": "broken", "qc-slerp.f64": "recommended", "acc.f64": "recipe"}
with open(sys.argv[1], "w") as f:
    f.write(",".join(cols) + "\n")
    for impl, g in groups.items():
        row = {c: "" for c in cols}
        row.update(impl=impl, group=g, op="slerp")
        f.write(",".join(row[c] for c in cols) + "\n")
PY
out="$(/usr/bin/python3 "$src/scripts/readme/qc_slerp_speed.py" "$r")" || fail "qc_slerp_speed.py failed: $out"
line() { grep -F "| $1 | $2 |" <<<"$out" || fail "no row $1 $2: $out"; }
line f32 uniform | grep -qF '| `acc.f32` | 20 | 2.00 | **over 1.5x** |' || fail "uniform: $(line f32 uniform)"
line f32 near-0 | grep -qF '| `acc.f32` | 10 | 1.20 | within |' || fail "near-0: $(line f32 near-0)"
line f64 uniform | grep -qF '| `acc.f64` | 25 | 1.20 | within |' || fail "f64: $(line f64 uniform)"
grep -q "sloppy\|nan.f32\|ctl.f32" <<<"$out" && fail "an inaccurate, non-finite or broken implementation was compared: $out"
rm "$r/timing.csv"
status=0
err="$(/usr/bin/python3 "$src/scripts/readme/qc_slerp_speed.py" "$r" 2>&1 >/dev/null)" || status=$?
[[ $status == 2 ]] || fail "missing timing.csv: exit $status"
[[ $(wc -l <<<"$err") == 1 ]] || fail "missing timing.csv: not one line: $err"
echo "ok: qc-slerp's speed ratio against the fastest comparable engine, inaccurate/non-finite/broken left out"
