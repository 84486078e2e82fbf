"""The adapter side of quatcheck's process-plugin protocol, version 1, binary wire (docs/plugin-protocol.md),
shared by the Python adapters (impls/python/scipy_adapter.py, impls/fixes/fix_py.py). Standard library only.

An adapter calls serve(LIBRARY, VERSION, FAMILIES), FAMILIES a list of (NAME, {"OP.PRECISION": fn}) with OP
slerp or nlerp and PRECISION f32 or f64; fn(q0, q1, t) takes two tuples of 4 floats in quatcheck's
(w, x, y, z) order and a float, calls the library as its users do and returns 4 numbers (w, x, y, z).
serve writes the hello, answers batches until stdin ends and returns the exit status (0, or 2 for a
malformed request, with one line on stderr). The reply's nanoseconds are those of the loop of fn calls alone.
"""
import itertools
import struct
import sys
import time

MAX_CASES = 4096
OPS = ("slerp", "nlerp")
WIDTHS = {4: ("f32", "f"), 8: ("f64", "d")}


def read_exactly(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def hello(library, version, families, claims=()):
    lines = ["quatcheck-plugin 1", f"library {library} {version}"]
    lines += [f"family {name} {' '.join(ops)}" for name, ops in families]
    # What the library documents, held to conform's claimed-KIND property: (FAMILY, OP, KIND, VALUE, WHY).
    lines += [f"claim {family} {op} {kind} {value!r} {why}" for family, op, kind, value, why in claims]
    return ("\n".join(lines + ["end"]) + "\n").encode("ascii")


def answer(fn, n, width, body):
    """Decodes one batch's cases, calls fn on each and encodes the outputs; returns (bytes, nanoseconds)."""
    code = WIDTHS[width][1]
    values = struct.unpack(f"<{9 * n}{code}", body)
    cases = [values[k:k + 9] for k in range(0, 9 * n, 9)]
    t0 = time.monotonic_ns()
    out = [fn(c[0:4], c[4:8], c[8]) for c in cases]
    elapsed = time.monotonic_ns() - t0
    return struct.pack(f"<{4 * n}{code}", *itertools.chain.from_iterable(out)), elapsed


def serve(library, version, families, name="adapter", claims=()):
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    stdout.write(hello(library, version, families, claims))
    stdout.flush()
    while True:
        head = read_exactly(stdin, 24)
        if head is None:
            return 0
        magic, seq, family, op, width, reserved16, n, reserved32 = struct.unpack("<IIIBBHII", head)
        fn = None
        if family < len(families) and op < len(OPS) and width in WIDTHS:
            fn = families[family][1].get(f"{OPS[op]}.{WIDTHS[width][0]}")
        if magic != 0x31424351 or fn is None or reserved16 or reserved32 or not 1 <= n <= MAX_CASES:
            sys.stderr.write(f"{name}: malformed request\n")
            return 2
        body = read_exactly(stdin, n * 9 * width)
        if body is None:
            return 2
        data, elapsed = answer(fn, n, width, body)
        stdout.write(struct.pack("<IIIIQ", 0x31524351, seq, n, 0, elapsed))
        stdout.write(data)
        stdout.flush()
