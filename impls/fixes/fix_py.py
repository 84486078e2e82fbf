#!/usr/bin/python3
"""quatcheck process plugin: the Python port of quatcheck's recommended slerp (impls/fixes/qc_slerp.py, the fix
`quatcheck findings` hands Python maintainers), run as `/usr/bin/python3 impls/fixes/fix_py.py`.

Family fix-py, slerp.f64 and nlerp.f64: slerp(q0, q1, t) and nlerp(q0, q1, t) of qc_slerp.py on Python floats,
as a user would; the port takes any component order, so (w, x, y, z) passes as is. Standard library only; the
protocol loop is impls/python/qc_protocol.py (shared with the SciPy adapter). QC_FIX_PLANT=near0 (for
tests/fixes.test.sh's negative control only) plants a near-0 defect in this wrapper, not in the port: q0 is
returned where 1 - |q0.q1|/(|q0||q1|) < 1e-6.
"""
import math
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(os.path.dirname(here), "python")]
import qc_slerp  # noqa: E402
from qc_protocol import serve  # noqa: E402


def planted_near0(q0, q1):
    d = sum(a * b for a, b in zip(q0, q1))
    n = math.sqrt(sum(a * a for a in q0) * sum(b * b for b in q1))
    return n > 0.0 and 1.0 - abs(d) / n < 1e-6


def op(fn):
    if os.environ.get("QC_FIX_PLANT") == "near0":
        return lambda q0, q1, t: q0 if planted_near0(q0, q1) else fn(q0, q1, t)
    return fn


def main():
    ops = {"slerp.f64": op(qc_slerp.slerp), "nlerp.f64": op(qc_slerp.nlerp)}
    return serve("impls/fixes/qc_slerp.py", "1.0.0", [("fix-py", ops)], "fix_py")


if __name__ == "__main__":
    sys.exit(main())
