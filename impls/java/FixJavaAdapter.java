// quatcheck process plugin: the Java port of quatcheck's recommended slerp (impls/fixes/QcSlerp.java, the fix
// `quatcheck findings` hands Java maintainers), built by scripts/build-java beside the vecmath adapter and run as
//   java -cp BUILD/java FixJavaAdapter
// Family fix-java, slerp.f64 and nlerp.f64: QcSlerp.slerp(q0, q1, t) and QcSlerp.nlerp(q0, q1, t) on doubles, as
// a user would call them; the port takes either component order, so (w, x, y, z) passes as is. JDK standard
// library only. QC_FIX_PLANT=near0 (for tests/fixes.test.sh's negative control only) plants a near-0 defect in
// this wrapper, not in the port: q0 is returned where 1 - |q0.q1|/(|q0||q1|) < 1e-6.
import java.util.List;

public final class FixJavaAdapter {
    private FixJavaAdapter() {}

    static boolean plantedNear0(double[] a, double[] b) {
        double d = 0, na = 0, nb = 0;
        for (int i = 0; i < 4; i++) {
            d += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        double n = Math.sqrt(na * nb);
        return n > 0.0 && 1.0 - Math.abs(d) / n < 1e-6;
    }

    interface Port {
        double[] call(double[] q0, double[] q1, double t);
    }

    static QcProtocol.Op64 op(Port port, boolean plant) {
        return (q0, q1, t, out) -> {
            double[] r = plant && plantedNear0(q0, q1) ? q0.clone() : port.call(q0, q1, t);
            System.arraycopy(r, 0, out, 0, 4);
        };
    }

    public static void main(String[] args) {
        boolean plant = "near0".equals(System.getenv("QC_FIX_PLANT"));
        QcProtocol.Family fix = new QcProtocol.Family("fix-java")
                                    .slerp(null, op(QcSlerp::slerp, plant))
                                    .nlerp(null, op(QcSlerp::nlerp, plant));
        System.exit(QcProtocol.serve("impls/fixes/QcSlerp.java", "1.0.0", List.of(fix), "FixJavaAdapter"));
    }
}
