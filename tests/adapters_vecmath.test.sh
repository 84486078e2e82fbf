#!/usr/bin/env bash
# vecmath, Java 3D's vector maths (issue 41; Debian libvecmath-java) through impls/java/VecmathAdapter.java, built
# by scripts/build-java: a known case in f32 and f64, the worst cases replay, `list` shows the jar's version, and
# 100 cases per precision sent over the binary wire in one batch come back bit for bit as Quat4f/Quat4d
# .interpolate(q1, q2, a) give them when a small Java driver here calls them directly (and as interpolate(q1, a)
# from `this` gives them up to the sign: the two forms negate different keys); negative control: the driver on inputs one ulp away must differ. Malformed
# requests (wrong magic, sequence number, reserved field, count, op, a body cut short) each end the adapter with
# exit 2 and one line on stderr. SKIP (exit 77) without a JDK or the jar.
# Usage: adapters_vecmath.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
jar=/usr/share/java/vecmath.jar
command -v javac >/dev/null && command -v java >/dev/null || skip "vecmath: no JDK (javac, java; Debian default-jdk-headless)"
[ -f "$jar" ] || skip "vecmath: $jar is missing (Debian libvecmath-java)"
"$src/scripts/build-java" "$build" || fail "scripts/build-java $build"
keep_going
source "$src/tests/adapter_lib.sh"
adapter="java -cp $build/java:$jar VecmathAdapter"
known_case "$adapter" vecmath-interpolate f32
known_case "$adapter" vecmath-interpolate f64
version=$(unzip -p "$jar" META-INF/MANIFEST.MF | tr -d '\r' | sed -n 's/^Implementation-Version: //p')
[ -n "$version" ] || fail "no Implementation-Version in $jar's manifest"
for p in f32 f64; do
  "$qc" list --plugin-cmd "$adapter" 2>&1 | grep -Eq "^vecmath-interpolate\.$p +plugin +slerp +$version\$" ||
    fail "list does not show vecmath-interpolate.$p with version $version"
done
CASES=200 replay_worst "$adapter" 'vecmath-*' vecmath

# The direct driver: reads N cases (9 doubles each, quatcheck's w,x,y,z order) and writes, per case, the outputs
# of interpolate(q1, q2, a) and of interpolate(q1, a) from `this`, in float (Quat4f, inputs rounded to float)
# and in double (Quat4d), as 16 doubles. NUDGE=1 moves q0's x one ulp up first (in the precision called).
mkdir -p "$tmp/driver"
cat >"$tmp/driver/Direct.java" <<'JAVA'
import java.io.*;
import java.nio.*;
import java.nio.file.*;
import javax.vecmath.*;

public class Direct {
    public static void main(String[] a) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(Paths.get(a[0]))).order(ByteOrder.LITTLE_ENDIAN);
        boolean nudge = a.length > 2 && a[2].equals("nudge");
        int n = in.capacity() / 72;
        ByteBuffer out = ByteBuffer.allocate(n * 128).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < n; k++) {
            double[] v = new double[9];
            for (int i = 0; i < 9; i++) v[i] = in.getDouble();
            float x0 = (float) v[1];
            if (nudge) x0 = Math.nextUp(x0);
            Quat4f fa = new Quat4f(), fb = new Quat4f(), fr = new Quat4f();
            fa.set(x0, (float) v[2], (float) v[3], (float) v[0]);
            fb.set((float) v[5], (float) v[6], (float) v[7], (float) v[4]);
            fr.interpolate(fa, fb, (float) v[8]);
            fa.set(x0, (float) v[2], (float) v[3], (float) v[0]);
            fb.set((float) v[5], (float) v[6], (float) v[7], (float) v[4]);
            fa.interpolate(fb, (float) v[8]);
            double dx0 = nudge ? Math.nextUp(v[1]) : v[1];
            Quat4d da = new Quat4d(), db = new Quat4d(), dr = new Quat4d();
            da.set(dx0, v[2], v[3], v[0]);
            db.set(v[5], v[6], v[7], v[4]);
            dr.interpolate(da, db, v[8]);
            da.set(dx0, v[2], v[3], v[0]);
            db.set(v[5], v[6], v[7], v[4]);
            da.interpolate(db, v[8]);
            double[] o = {fr.w, fr.x, fr.y, fr.z, fa.w, fa.x, fa.y, fa.z, dr.w, dr.x, dr.y, dr.z, da.w, da.x, da.y, da.z};
            for (double x : o) out.putDouble(x);
        }
        Files.write(Paths.get(a[1]), out.array());
    }
}
JAVA
javac -cp "$jar" -d "$tmp/driver" "$tmp/driver/Direct.java" || fail "the direct driver does not compile"
/usr/bin/python3 - "$adapter" "$tmp/driver" "$jar" <<'PY' || fail "the adapter against vecmath called directly (above)"
import random, shlex, struct, subprocess, sys

adapter, driver, jar = sys.argv[1:4]
rng = random.Random(41)
f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
cases = []
for k in range(100):
    q0 = [rng.uniform(-1, 1) for _ in range(4)]
    # every third pair nearly opposite or nearly equal: the sign flip and the lerp branch (1 - |dot| <= EPS)
    q1 = [rng.uniform(-1, 1) for _ in range(4)] if k % 3 else [(-v if k % 2 else v) + rng.uniform(-1e-7, 1e-7) for v in q0]
    n0, n1 = sum(v * v for v in q0) ** 0.5, sum(v * v for v in q1) ** 0.5
    cases.append([v / n0 for v in q0] + [v / n1 for v in q1] + [rng.uniform(0, 1)])

proc = subprocess.Popen(shlex.split(adapter), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
hello = []
while not hello or hello[-1] != "end":
    hello.append(proc.stdout.readline().decode().strip())


def over_wire(seq, width):
    code = "f" if width == 4 else "d"
    rows = [[f32(v) for v in c] if width == 4 else c for c in cases]
    body = b"".join(struct.pack(f"<9{code}", *r) for r in rows)
    proc.stdin.write(struct.pack("<IIIBBHII", 0x31424351, seq, 0, 0, width, 0, len(cases), 0) + body)
    proc.stdin.flush()
    magic, s, n, _, _ = struct.unpack("<IIIIQ", proc.stdout.read(24))
    assert magic == 0x31524351 and s == seq and n == len(cases), (magic, s, n)
    v = struct.unpack(f"<{4 * n}{code}", proc.stdout.read(4 * width * n))
    return [tuple(v[4 * i:4 * i + 4]) for i in range(n)]


def direct(nudge):
    open(f"{driver}/cases.bin", "wb").write(b"".join(struct.pack("<9d", *c) for c in cases))
    subprocess.run(["java", "-cp", f"{driver}:{jar}", "Direct", f"{driver}/cases.bin", f"{driver}/out.bin"]
                   + (["nudge"] if nudge else []), check=True)
    raw = open(f"{driver}/out.bin", "rb").read()
    v = struct.unpack(f"<{16 * len(cases)}d", raw)
    rows = [v[16 * i:16 * i + 16] for i in range(len(cases))]
    return {"f32": [r[0:4] for r in rows], "f32-this": [r[4:8] for r in rows],
            "f64": [r[8:12] for r in rows], "f64-this": [r[12:16] for r in rows]}


bits = lambda rows, code: [struct.pack(f"<4{code}", *r) for r in rows]
mine, nudged = direct(False), direct(True)
for seq, (p, width, code) in enumerate((("f32", 4, "f"), ("f64", 8, "d")), start=1):
    wire = bits(over_wire(seq, width), code)
    assert wire == bits(mine[p], code), f"{p}: the adapter's outputs differ from Quat4{p[1] == '3' and 'f' or 'd'}.interpolate's"
    # interpolate(q1, q2, a) negates its first key where the dot product is negative, interpolate(q1, a) its
    # argument (the end): the same bits up to the sign, and the sign differs exactly there.
    dot = lambda c: sum((f32(c[i]) * f32(c[4 + i]) if width == 4 else c[i] * c[4 + i]) for i in range(4))
    this = [r if dot(c) >= 0 else tuple(-x for x in r) for c, r in zip(cases, mine[p + "-this"])]
    assert wire == bits(this, code), f"{p}: interpolate(q1, a) from this is not interpolate(q1, q2, a) up to the sign"
    flipped = sum(dot(c) < 0 for c in cases)
    assert 20 < flipped < 80, f"{p}: only {flipped} of 100 cases have a negative dot product"
    moved = sum(a != b for a, b in zip(wire, bits(nudged[p], code)))
    assert moved > 20, f"negative control: {p}: inputs one ulp away changed only {moved} of 100 outputs"
    print(f"vecmath-interpolate.{p}: 100 cases over the wire equal vecmath called directly bit for bit (the one-key form: up to the sign, negated in the {flipped} cases of a negative dot product); one ulp away, {moved} differ")
proc.stdin.close()
assert proc.wait() == 0, "the adapter did not exit 0 at the end of its input"
PY

# Untrusted input: each malformed request ends the adapter with exit 2 and one line on stderr.
/usr/bin/python3 - "$adapter" <<'PY' || fail "malformed requests (above)"
import shlex, struct, subprocess, sys

good = dict(magic=0x31424351, seq=1, family=0, op=0, width=8, r16=0, n=1, r32=0)
bad = {"magic": dict(magic=0x31424352), "sequence": dict(seq=2), "family": dict(family=1), "op": dict(op=1),
       "precision": dict(width=2), "reserved16": dict(r16=1), "reserved32": dict(r32=7), "count 0": dict(n=0),
       "count 4097": dict(n=4097), "cut body": {}, "cut header": {}}
for what, change in bad.items():
    h = dict(good, **change)
    req = struct.pack("<IIIBBHII", h["magic"], h["seq"], h["family"], h["op"], h["width"], h["r16"], h["n"], h["r32"])
    req = req[:10] if what == "cut header" else req + struct.pack("<9d", 1, 0, 0, 0, 1, 0, 0, 0, 0.5)[: 40 if what == "cut body" else 72]
    p = subprocess.run(shlex.split(sys.argv[1]), input=req, capture_output=True, timeout=60)
    lines = p.stderr.decode().splitlines()
    assert p.returncode == 2 and len(lines) == 1 and "malformed request" in lines[0], (what, p.returncode, lines)
    assert p.stdout.decode().endswith("end\n"), (what, "wrote more than its hello", p.stdout[-40:])
    print(f"malformed ({what}): exit 2, {lines[0]}")
PY
[ "$failures" -eq 0 ] && echo "vecmath adapter (issue 41): all checks passed"
finish
