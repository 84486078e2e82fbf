"""A known case through a process-plugin adapter, for tests/adapters_*.test.sh: speaks the protocol of
docs/plugin-protocol.md itself (the binary wire, or the text wire when the hello says `wire text`), sends one
batch of one case, and compares the answer with a value computed here, independently of any library.

The case: q0 = (1, 0, 0, 0), q1 = (0.6, 0, 0.8, 0) (a.b = 0.6, exact in binary), t = 1/2. Slerp at t = 1/2 is
the normalised bisector (q0 + q1) / |q0 + q1| = (2, 0, 1, 0) / sqrt(5): (w, x, y, z) are all different, so a
scrambled component order shows. Usage:
  adapter_case.py 'COMMAND' FAMILY f32|f64 [--scramble]
Prints the answer; exits 1 when a component is more than 4 ulps of 1.0 in the precision (2^-23, 2^-52) from the
bisector.
--scramble swaps the expected y and w (the negative control: the check must then fail).
--squad sends the op squad (protocol 3) instead: q0 and q1 as above, the inner points a = (0.8, 0.6, 0, 0) and
b = (0.6, 0, 0, 0.8), t = 1/4, checked against Shoemake's form slerp(slerp(q0, q1, t), slerp(a, b, t), 2t(1-t))
computed here in double (every dot product is positive and far from 1, so no arc choice or fallback matters);
tolerance 64 ulps (three nested slerps in the library's precision)."""
import math, shlex, struct, subprocess, sys

command, family, prec = sys.argv[1], sys.argv[2], sys.argv[3]
scramble = "--scramble" in sys.argv[4:]
squad = "--squad" in sys.argv[4:]
width = 4 if prec == "f32" else 8
case = [1.0, 0.0, 0.0, 0.0, 0.6, 0.0, 0.8, 0.0, 0.5]
if squad:
    case = [1.0, 0.0, 0.0, 0.0, 0.6, 0.0, 0.8, 0.0, 0.8, 0.6, 0.0, 0.0, 0.6, 0.0, 0.0, 0.8, 0.25]
if width == 4:
    case = [struct.unpack("<f", struct.pack("<f", v))[0] for v in case]
s5 = math.sqrt(5.0)
want = [2 / s5, 0.0, 1 / s5, 0.0]


def slerp(a, b, t):
    w = math.acos(sum(x * y for x, y in zip(a, b)))
    return [(math.sin((1 - t) * w) * x + math.sin(t * w) * y) / math.sin(w) for x, y in zip(a, b)]


if squad:
    u = case[16]
    want = slerp(slerp(case[0:4], case[4:8], u), slerp(case[8:12], case[12:16], u), 2 * u * (1 - u))
if scramble:
    want[0], want[2] = want[2], want[0]

p = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
hello = b""
while not hello.endswith(b"\nend\n"):
    chunk = p.stdout.read1(4096)
    if not chunk:
        sys.exit(f"FAIL: {command}: ended before its hello was complete")
    hello += chunk
lines = hello.decode().splitlines()
families = [l.split()[1] for l in lines if l.startswith("family ")]
if family not in families:
    sys.exit(f"FAIL: {command}: no family {family} in its hello ({families})")
index = families.index(family)
if "wire text" in lines:
    body = " ".join(float.hex(v) for v in case) + "\n"
    p.stdin.write(f"batch 1 {index} {'squad' if squad else 'slerp'}.{prec} 1 {len(body)}\n{body}".encode())
    p.stdin.flush()
    head = p.stdout.readline().decode().split()
    out = [float.fromhex(v) for v in p.stdout.readline().decode().split()]
    ok_head = head[:3] == ["answer", "1", "1"]
else:
    fmt = "<" + ("f" if width == 4 else "d") * len(case)
    op = 3 if squad else 0
    p.stdin.write(struct.pack("<IIIBBHII", 0x31424351, 1, index, op, width, 0, 1, 0) + struct.pack(fmt, *case))
    p.stdin.flush()
    head = struct.unpack("<IIIIQ", p.stdout.read(24))
    out = list(struct.unpack("<" + ("f" if width == 4 else "d") * 4, p.stdout.read(4 * width)))
    ok_head = head[:3] == (0x31524351, 1, 1)
p.stdin.close()
p.wait(timeout=10)
if not ok_head:
    sys.exit(f"FAIL: {command}: answer header {head}")
ulp = 2.0 ** (-23 if width == 4 else -52)
worst = max(abs(a - b) for a, b in zip(out, want)) / ulp
print(f"{family}.{prec}: {[float.hex(v) for v in out]}, {worst:.2f} ulp from the {'squad' if squad else 'bisector'}")
if not worst <= (64 if squad else 4):
    sys.exit(f"FAIL: {family}.{prec}: the answer {out} is {worst:.3g} ulp from the bisector {want}")
