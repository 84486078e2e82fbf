#!/usr/bin/python3
"""quatcheck process plugin (docs/plugin-protocol.md): pyrr's quaternion.slerp and quaternion.lerp.

Run as `/usr/bin/python3 impls/python/pyrr_adapter.py`. pyrr (Debian python3-pyrr) is a NumPy maths library for
3-D graphics. Families:
  pyrr-slerp  slerp.f64  pyrr.quaternion.slerp(q0, q1, t)
  pyrr-lerp   nlerp.f64  pyrr.quaternion.lerp(q0, q1, t) (normalised, no sign flip: the long arc where q0.q1 < 0)
pyrr's order is (x, y, z, w), scalar last, and it computes in float64. What its source documents, as data for the
catalogue (known deviations, docs/engines.md): both clamp t to [0, 1] ("The parameter t is clamped to the range
[0, 1]"); slerp takes the short arc and switches to lerp where |q0.q1| >= 0.95; neither normalises its keys.
"""
import sys
import warnings

import numpy as np
import pyrr
from pyrr import quaternion

SLERP_THRESHOLD = 0.95  # pyrr.quaternion.slerp: "if dot < 0.95: ... else: res = lerp(quat1, quat2, t)"


def slerp(q0, q1, t):
    x, y, z, w = quaternion.slerp(np.array([q0[1], q0[2], q0[3], q0[0]]), np.array([q1[1], q1[2], q1[3], q1[0]]), t)
    return (float(w), float(x), float(y), float(z))


def lerp(q0, q1, t):
    x, y, z, w = quaternion.lerp(np.array([q0[1], q0[2], q0[3], q0[0]]), np.array([q1[1], q1[2], q1[3], q1[0]]), t)
    return (float(w), float(x), float(y), float(z))


def main():
    # The protocol loop, impls/python/qc_protocol.py (this script's folder is on sys.path), imported here: the
    # standalone reproducer of `quatcheck findings` copies this file alone and calls slerp().
    from qc_protocol import serve

    warnings.simplefilter("ignore")  # NumPy's divide-by-zero warnings: the NaN is the answer
    families = [("pyrr-slerp", {"slerp.f64": slerp}), ("pyrr-lerp", {"nlerp.f64": lerp})]
    clamped = '"The parameter t is clamped to the range [0, 1]" (pyrr/quaternion.py, docstring of {})'
    claims = [
        ("pyrr-slerp", "slerp", "threshold", SLERP_THRESHOLD,
         "pyrr/quaternion.py slerp: 'if dot < 0.95:' the slerp formula, 'else: res = lerp(quat1, quat2, t)'"),
        ("pyrr-slerp", "slerp", "t-clamp", 0, clamped.format("slerp")),
        ("pyrr-lerp", "nlerp", "t-clamp", 0, clamped.format("lerp")),
    ]
    return serve("pyrr", pyrr.__version__, families, "pyrr_adapter", claims)


if __name__ == "__main__":
    sys.exit(main())
