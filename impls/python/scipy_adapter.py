#!/usr/bin/python3
"""quatcheck process plugin (docs/plugin-protocol.md): SciPy's scipy.spatial.transform.Slerp.

Run as `/usr/bin/python3 impls/python/scipy_adapter.py`. Family scipy-slerp, slerp.f64: for each case,
Slerp([0, 1], Rotation.from_quat([q0, q1]))([t]).as_quat(), as robotics code calls it. SciPy's order is
(x, y, z, w), scalar last; Rotation normalises its input and Slerp computes in double. Where SciPy refuses
a case (a zero quaternion, t outside [0, 1]) it raises ValueError; the adapter answers NaN for that case.
"""
import struct
import sys
import time
import warnings

import numpy as np
import scipy
from scipy.spatial.transform import Rotation, Slerp

MAX_CASES = 4096


def read_exactly(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def slerp(q0, q1, t):
    keys = Rotation.from_quat([[q0[1], q0[2], q0[3], q0[0]], [q1[1], q1[2], q1[3], q1[0]]])
    x, y, z, w = Slerp([0.0, 1.0], keys)([t]).as_quat()[0]
    return (w, x, y, z)


def main():
    warnings.simplefilter("ignore")
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    stdout.write(f"quatcheck-plugin 1\nlibrary scipy {scipy.__version__}\nfamily scipy-slerp slerp.f64\nend\n".encode("ascii"))
    stdout.flush()
    nan = (float("nan"),) * 4
    while True:
        head = read_exactly(stdin, 24)
        if head is None:
            return 0
        magic, seq, family, op, width, reserved16, n, reserved32 = struct.unpack("<IIIBBHII", head)
        if magic != 0x31424351 or family != 0 or op != 0 or width != 8 or reserved16 or reserved32 or not 1 <= n <= MAX_CASES:
            sys.stderr.write("scipy_adapter: malformed request\n")
            return 2
        body = read_exactly(stdin, n * 9 * 8)
        if body is None:
            return 2
        values = np.frombuffer(body, dtype="<f8").reshape(n, 9)
        out = []
        t0 = time.monotonic_ns()
        for r in values:
            try:
                out.extend(slerp(r[0:4], r[4:8], float(r[8])))
            except ValueError:
                out.extend(nan)
        elapsed = time.monotonic_ns() - t0
        stdout.write(struct.pack("<IIIIQ", 0x31524351, seq, n, 0, elapsed))
        stdout.write(np.asarray(out, dtype="<f8").tobytes())
        stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
