// quatcheck process plugin (docs/plugin-protocol.md): vecmath's quaternion interpolation (issue 41).
//
// vecmath is the vector maths package of Java 3D (javax.vecmath; Debian libvecmath-java,
// /usr/share/java/vecmath.jar). Built by scripts/build-java into BUILD/java/, run as
//   java -cp BUILD/java:/usr/share/java/vecmath.jar VecmathAdapter
// Family:
//   vecmath-interpolate  slerp.f32  Quat4f.interpolate(q1, q2, alpha) (float fields, alpha a float)
//                        slerp.f64  Quat4d.interpolate(q1, q2, alpha) (double fields)
// Both write the result into `this`. The one-quaternion form interpolate(q1, alpha) interpolates from `this`
// to q1 with the same arithmetic, except for which key it negates (below): its output is the same bits, or
// the same bits negated where the keys' dot product is negative (the test calls both). vecmath's component
// order is (x, y, z, w), scalar last, as in its constructors and Tuple4*.set(x, y, z, w); the version is the
// jar's Implementation-Version.
//
// What the routine does, as its bytecode (javap -c) shows it in vecmath 1.5.2 (Debian ships no source):
//  - the dot product of the two keys; where it is negative, one key is negated IN PLACE, so the short arc is
//    taken and the caller's quaternion is changed: interpolate(q1, q2, a) negates its FIRST argument q1 (the
//    start: at a = 0 it returns -q1, the same rotation with the other sign), interpolate(q1, a) its argument
//    q1 (the end);
//  - where 1 - dot > EPS it takes the arc: om = acos(dot), weights sin((1 - a) om) / sin(om) and
//    sin(a om) / sin(om); otherwise plain lerp weights 1 - a and a, with no normalisation afterwards.
//    EPS is 1e-6 in Quat4f and 1e-12 in Quat4d (the double literals of the two classes);
//  - Quat4f computes the dot product in float, widens it and everything after it to double, and rounds each
//    output component to float;
//  - neither form normalises its inputs or its output. The class Javadoc says "The quaternion is always
//    normalized"; the constructors Quat4f(x, y, z, w) and Quat4d(x, y, z, w) do normalise their arguments,
//    Tuple4*.set does not. The adapter stores quatcheck's exact inputs with set(), so the routine sees the
//    inputs the case holds (a constructor would change them by its own rounding first).
// The documentation names no deviation (no threshold, no range of alpha), so the hello declares none.
import java.util.List;
import javax.vecmath.Quat4d;
import javax.vecmath.Quat4f;

public final class VecmathAdapter {
    private VecmathAdapter() {}

    /** The library's version: its jar's manifest (Implementation-Version), or "unknown". */
    public static String version() {
        Package p = Quat4d.class.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        return v != null && v.matches("[A-Za-z0-9._+-]{1,64}") ? v : "unknown";
    }

    /** Quat4f.interpolate(q1, q2, alpha) on (w, x, y, z) inputs; the result in out as (w, x, y, z). */
    public static void slerp32(float[] q0, float[] q1, float t, float[] out) {
        Quat4f a = new Quat4f(), b = new Quat4f(), r = new Quat4f();
        a.set(q0[1], q0[2], q0[3], q0[0]);
        b.set(q1[1], q1[2], q1[3], q1[0]);
        r.interpolate(a, b, t);
        out[0] = r.w;
        out[1] = r.x;
        out[2] = r.y;
        out[3] = r.z;
    }

    /** Quat4d.interpolate(q1, q2, alpha) on (w, x, y, z) inputs; the result in out as (w, x, y, z). */
    public static void slerp64(double[] q0, double[] q1, double t, double[] out) {
        Quat4d a = new Quat4d(), b = new Quat4d(), r = new Quat4d();
        a.set(q0[1], q0[2], q0[3], q0[0]);
        b.set(q1[1], q1[2], q1[3], q1[0]);
        r.interpolate(a, b, t);
        out[0] = r.w;
        out[1] = r.x;
        out[2] = r.y;
        out[3] = r.z;
    }

    public static void main(String[] args) {
        List<QcProtocol.Family> families =
            List.of(new QcProtocol.Family("vecmath-interpolate").slerp(VecmathAdapter::slerp32, VecmathAdapter::slerp64));
        System.exit(QcProtocol.serve("vecmath", version(), families, "VecmathAdapter"));
    }
}
