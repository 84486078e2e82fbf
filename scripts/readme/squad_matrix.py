#!/usr/bin/env python3
"""docs/squad.md block: which squad implementations are C1 at the keys on each track family, how far each
departs from Shoemake's curve (the reference), where the departure comes from, and why, from
REPORT_DIR/squad_summary.csv and squad_conformance.csv.

Every number and verdict is read from the report. The `where` column is computed: on each region whose largest
departure with the implementation's own control points (or own curve) exceeds DEPART rad, the departure is put
down to the control points when the same evaluation with the reference's control points (refcp, the control
case) stays below DEPART, and to the evaluation otherwise. The `why` column is one sentence per family on the
mechanism in the library's code (FAMILY_WHY below: prose, no figures)."""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import qc_tables  # noqa: E402

# Families whose own curve is judged at keys where the reference nearly stops (see the control line below).
CONTROL_APART = {"godot-cubic"}
DEPART = 1e-3  # rad: a departure a viewer can see (0.06 degrees); rounding stays far below it in f32 and f64

# The mechanism behind each family's behaviour, from its code (impls/*/ and the libraries' headers).
FAMILY_WHY = {
    "broken-squad": "planted negative control: the seed squad with the control-point tangent's sign reversed",
    "seed-squad": "seed slerps inside squad take the short arc, which Shoemake's form does not; seed 003 leaves "
                  "the hemisphere walk to the caller (sign-flip recorded as known)",
    "glm-squad": "glm::squad is built on glm::mix (no short-arc flip) and glm::intermediate takes the logs of "
                 "the keys as stored: Shoemake's form on the stored signs",
    "ogre-shortest": "Squad passes shortestPath only to its key-to-key Slerp; the other two Slerps keep the "
                     "default false, so on sign-flip tracks the two layers take different arcs",
    "ogre-noshortest": "no Slerp flips to the short arc and Intermediate takes the keys as stored: Shoemake's "
                       "form on the stored signs",
    "recipe-dxmath-squad": "XMQuaternionSquadSetup flips neighbours into one hemisphere and builds world-frame "
                           "control points; XMQuaternionSlerp takes the short arc",
    "opencv": "Quat::squad's three slerps take the short arc (directChange = true, the default) and switch to "
              "nlerp above a dot of 0.995; interPoint takes the logs of the keys as given",
    "opencv-unit": "as opencv, without the normalisation (QUAT_ASSUME_UNIT)",
    "opencv-spline": "Quat::spline flips its four keys into one hemisphere, then squad without short-arc flips "
                     "(Shoemake's form); its slerps still switch to nlerp above a dot of 0.995, where the curve "
                     "kinks",
    "opencv-spline-unit": "as opencv-spline, without the normalisation (QUAT_ASSUME_UNIT)",
    "vtk": "squad composed of vtkQuaternion::Slerp as vtkQuaternionInterpolator does: Slerp takes the short "
           "arc (and lerps unnormalised when 1 - |cos| < 1e-6); InnerPoint takes the keys as given",
    "vtk-spline": "vtkQuaternionInterpolator's Spline mode (VTK's default) ends with NormalizeWithAngleInDegrees: "
                  "w comes back multiplied by 180/pi inside the track, so the output is not the rotation",
    "vtk-spline-radians": "the Spline mode's curve with w converted back: the squad of vtk (short-arc Slerp, "
                          "InnerPoint) on the normalised keys",
    "vtk-linear": "Linear mode: one Slerp per segment, not C1 at the keys by design (recorded as known)",
    "imath": "Imath::squad is Shoemake's form on Imath::slerp, which takes no short arc ('without the automatic "
             "flipping', as documented), and intermediate takes the logs of the keys as stored: Shoemake's form "
             "on the stored signs",
    "imath-spline": "Imath::spline is intermediate and squad on the four keys around the segment, as stored (no "
                    "hemisphere walk): the curve of imath",
    "ignition": "OGRE's Squad: shortestPath (default false) reaches only the key-to-key Slerp, and every Slerp "
                "switches to a normalised lerp when abs(cos) >= 1 - 1e-3; no Intermediate in the library, so the "
                "control points are composed from its Inverse, Log and Exp on the keys as stored",
    "ignition-shortest": "as ignition with shortestPath = true: the key-to-key Slerp flips to the short arc, the "
                         "other two do not, so on sign-flip tracks the two layers take different arcs",
    "godot-cubic": "Quat.cubic_slerp(b, pre_a, post_b, t) is Shoemake's squad form with pre_a and post_b where the "
                   "control points go, but Godot's reference and its animation tracks pass the neighbouring keys "
                   "there, so the curve is not Shoemake's and kinks at every key; its two slerpni layers take no "
                   "short arc and return their first argument when |dot| > 0.9999",
    "wgpu-sqlerp": "quat.sqlerp(a, b, c, d, t) is squad with control points the caller supplies (wgpu-matrix "
                   "computes none: measured with the reference's); all three slerps take the short arc",
}


def family(impl):
    return impl.rsplit(".", 1)[0]


def main():
    report = sys.argv[1]
    rows = qc_tables.rows(report, "squad_summary.csv",
                          ["impl", "region", "max_angle_err_own_rad", "max_angle_err_refcp_rad", "max_c1_jump_ref",
                           "c1_failures", "c1_keys", "nonfinite"])
    conf = qc_tables.rows(report, "squad_conformance.csv", ["impl", "property", "verdict"])
    verdict = {(c["impl"], c["property"]): c["verdict"] for c in conf}
    impls, regions = [], []
    for r in rows:
        if r["impl"] not in impls:
            impls.append(r["impl"])
        if r["region"] not in regions:
            regions.append(r["region"])
    cell = {(r["impl"], r["region"]): r for r in rows}
    mark = {"pass": "C1", "fail": "**not C1**", "known": "not C1 (known)"}

    print("C¹ at the keys per track region (failed / judged interior keys; `known`: a documented deviation),")
    print("then the largest departure from Shoemake's curve (rotation angle in rad, own control points or own")
    print(f"curve). `where`: on the regions departing by more than {DEPART:g} rad, whether the reference's control")
    print("points (the control case, `refcp`) remove the departure (`control points`) or not (`evaluation`).\n")
    print("| impl | " + " | ".join(f"C¹ {g}" for g in regions) + " | " +
          " | ".join(f"departure {g}" for g in regions) + " | where | why |")
    print("|---|" + "---|" * (2 * len(regions)) + "---|---|")
    for impl in impls:
        c1, dep, where = [], [], []
        for g in regions:
            r = cell.get((impl, g))
            if r is None:
                c1.append("")
                dep.append("")
                continue
            prop = "c1-sign-flip" if g == "sign-flip" else "c1"
            v = verdict.get((impl, prop), "")
            # the verdict is per property (all non-sign-flip regions share c1); the count is this region's
            failed = int(r["c1_failures"])
            word = mark.get(v, v) if failed else "C1"
            c1.append(f'{word} {failed}/{r["c1_keys"]}')
            own, refcp = float(r["max_angle_err_own_rad"]), float(r["max_angle_err_refcp_rad"])
            nf = int(r["nonfinite"])
            dep.append(f"{own:.1e}" + (f" ({nf} non-finite)" if nf else ""))
            if own > DEPART or nf:
                where.append(f"{g}: {'control points' if refcp <= DEPART else 'evaluation'}")
        print(f"| `{impl}` | " + " | ".join(c1) + " | " + " | ".join(dep) + " | " +
              ("; ".join(where) if where else "follows") + f" | {FAMILY_WHY.get(family(impl), '')} |")
    # the control case: the reference curve's own jump at the keys. A family whose own curve moves where the
    # reference nearly stops (CONTROL_APART) judges keys at which the reference's relative jump is divided by a
    # speed near zero; its rows are left out of the control and named.
    ref = {}
    for r in rows:
        if family(r["impl"]) not in CONTROL_APART:
            ref[r["region"]] = max(ref.get(r["region"], 0.0), float(r["max_c1_jump_ref"]))
    print("\nControl: the reference curve's own largest relative angular-velocity jump at the judged keys, per "
          "region: " + ", ".join(f"{g} {ref[g]:.0e}" for g in regions if g in ref) + ".")
    apart = sorted({r["impl"] for r in rows if family(r["impl"]) in CONTROL_APART})
    if apart:
        worst = {g: max(float(r["max_c1_jump_ref"]) for r in rows
                        if r["region"] == g and family(r["impl"]) in CONTROL_APART) for g in regions}
        print("Left out of the control: " + ", ".join(f"`{i}`" for i in apart) + ", whose own curve (through the "
              "neighbouring keys) is judged at keys where the reference curve nearly stops, so the reference's "
              "relative jump there divides rounding by a speed near zero: " +
              ", ".join(f"{g} {worst[g]:.0e}" for g in regions) + ".")


if __name__ == "__main__":
    main()
