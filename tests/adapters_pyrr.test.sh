#!/usr/bin/env bash
# pyrr (issue 41; Debian python3-pyrr) through impls/python/pyrr_adapter.py: a known case in each family, the worst
# cases replay, `list` shows pyrr's version, and 100 cases sent over the binary wire in one batch come back bit for
# bit as pyrr.quaternion.slerp / lerp give them when called directly here; negative controls: a direct call on
# inputs one ulp away, and a replay of an altered output, must differ. SKIP (exit 77) without pyrr.
# Usage: adapters_pyrr.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
/usr/bin/python3 -c 'import pyrr.quaternion' 2>/dev/null || skip "pyrr: /usr/bin/python3 cannot import pyrr (Debian python3-pyrr)"
keep_going
source "$src/tests/adapter_lib.sh"
adapter="/usr/bin/python3 $src/impls/python/pyrr_adapter.py"
known_case "$adapter" pyrr-slerp f64
version=$(/usr/bin/python3 -c 'import pyrr; print(pyrr.__version__)')
"$qc" list --plugin-cmd "$adapter" 2>&1 | grep -Eq "^pyrr-slerp\.f64 +plugin +slerp +$version\$" || fail "list does not show pyrr-slerp with version $version"
"$qc" list --plugin-cmd "$adapter" 2>&1 | grep -Eq "^pyrr-lerp\.f64 +plugin +nlerp +$version\$" || fail "list does not show pyrr-lerp"
CASES=200 replay_worst "$adapter" 'pyrr-*' pyrr
/usr/bin/python3 - "$src/impls/python/pyrr_adapter.py" <<'PY' || fail "the adapter against pyrr called directly (above)"
import random, struct, subprocess, sys
import numpy as np
from pyrr import quaternion

proc = subprocess.Popen(["/usr/bin/python3", sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
hello = []
while not hello or hello[-1] != "end":
    hello.append(proc.stdout.readline().decode().strip())
families = [l.split()[1] for l in hello if l.startswith("family ")]
rng = random.Random(41)
cases = []
for k in range(100):
    q0 = [rng.uniform(-1, 1) for _ in range(4)]
    q1 = [rng.uniform(-1, 1) for _ in range(4)] if k % 3 else [-v + rng.uniform(-1e-3, 1e-3) for v in q0]  # |dot| > 0.95 too
    cases.append((q0, q1, rng.uniform(0, 1)))


def over_wire(family, op):
    body = b"".join(struct.pack("<9d", *q0, *q1, t) for q0, q1, t in cases)
    proc.stdin.write(struct.pack("<IIIBBHII", 0x31424351, 1, families.index(family), op, 8, 0, len(cases), 0) + body)
    proc.stdin.flush()
    magic, seq, n, _, _ = struct.unpack("<IIIIQ", proc.stdout.read(24))
    assert magic == 0x31524351 and n == len(cases), (magic, n)
    v = struct.unpack(f"<{4 * n}d", proc.stdout.read(32 * n))
    return [v[4 * i:4 * i + 4] for i in range(n)]


def xyzw(q):
    return np.array([q[1], q[2], q[3], q[0]])


def direct(fn, nudge=False):
    out = []
    for q0, q1, t in cases:
        a = list(q0)
        if nudge:
            a[1] = np.nextafter(a[1], 2.0)  # one ulp
        x, y, z, w = fn(xyzw(a), xyzw(q1), t)
        out.append((w, x, y, z))
    return out


bits = lambda rows: [struct.pack("<4d", *r) for r in rows]
for family, op, fn in (("pyrr-slerp", 0, quaternion.slerp), ("pyrr-lerp", 1, quaternion.lerp)):
    wire = over_wire(family, op)
    assert bits(wire) == bits(direct(fn)), f"{family}: the adapter's outputs differ from pyrr's"
    nudged = sum(a != b for a, b in zip(bits(wire), bits(direct(fn, nudge=True))))
    assert nudged > 20, f"negative control: {family}: inputs one ulp away changed only {nudged} of 100 outputs"
    print(f"{family}: 100 cases over the wire equal pyrr's own outputs bit for bit; one ulp away, {nudged} differ")
proc.stdin.close()
assert proc.wait() == 0
PY
[ "$failures" -eq 0 ] && echo "pyrr adapter (issue 41): all checks passed"
finish
