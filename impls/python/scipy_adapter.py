#!/usr/bin/python3
"""quatcheck process plugin (docs/plugin-protocol.md): SciPy's scipy.spatial.transform.Slerp.

Run as `/usr/bin/python3 impls/python/scipy_adapter.py`. Family scipy-slerp, slerp.f64: for each case,
Slerp([0, 1], Rotation.from_quat([q0, q1]))([t]).as_quat(), as robotics code calls it. SciPy's order is
(x, y, z, w), scalar last; Rotation normalises its input and Slerp computes in double. Where SciPy refuses
a case (a zero quaternion, t outside [0, 1]) it raises ValueError; the adapter answers NaN for that case.
"""
import sys
import warnings

import scipy
from scipy.spatial.transform import Rotation, Slerp

NAN = (float("nan"),) * 4


def slerp(q0, q1, t):
    keys = Rotation.from_quat([[q0[1], q0[2], q0[3], q0[0]], [q1[1], q1[2], q1[3], q1[0]]])
    x, y, z, w = Slerp([0.0, 1.0], keys)([t]).as_quat()[0]
    return (w, x, y, z)


def slerp_or_nan(q0, q1, t):
    try:
        return slerp(q0, q1, t)
    except ValueError:
        return NAN


def main():
    # The protocol loop, impls/python/qc_protocol.py (this script's folder is on sys.path), imported here: the
    # standalone reproducer of `quatcheck findings` copies this file alone and calls slerp().
    from qc_protocol import serve

    warnings.simplefilter("ignore")
    return serve("scipy", scipy.__version__, [("scipy-slerp", {"slerp.f64": slerp_or_nan})], "scipy_adapter")


if __name__ == "__main__":
    sys.exit(main())
