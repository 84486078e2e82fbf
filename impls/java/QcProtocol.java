// The adapter side of quatcheck's process-plugin protocol, version 1, binary wire (docs/plugin-protocol.md),
// for adapters written in Java. JDK standard library only (java.io, java.nio): no dependency to install.
//
// An adapter builds its families (Family: a name and, per op and precision, a routine over quatcheck's
// (w, x, y, z) order) and calls QcProtocol.serve(LIBRARY, VERSION, FAMILIES, NAME). serve writes the hello,
// answers batches until stdin ends, and returns the exit status: 0 at a clean end of input, 2 for a request
// that breaks the protocol (one line on stderr naming what: wrong magic or sequence number, an op the family
// does not offer, a reserved field that is not 0, a count outside 1..4096, or input that ends mid-request).
// Every read is bounded: a request is a 24-byte header and at most 4096 x 9 x 8 bytes of cases, read into
// buffers of fixed size; nothing the parent sends can make the adapter allocate more.
// The nanoseconds of a reply are those of the loop of library calls alone (System.nanoTime, monotonic).
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public final class QcProtocol {
    public static final int REQUEST_MAGIC = 0x31424351;  // "QCB1"
    public static final int ANSWER_MAGIC = 0x31524351;   // "QCR1"
    public static final int MAX_CASES = 4096;
    static final int HEADER = 24;

    /** A routine in f64: q0 and q1 are (w, x, y, z); writes (w, x, y, z) into out. */
    public interface Op64 {
        void call(double[] q0, double[] q1, double t, double[] out);
    }

    /** A routine in f32, over float storage as the library's users hold it. */
    public interface Op32 {
        void call(float[] q0, float[] q1, float t, float[] out);
    }

    /** One family of the hello: its routines per op (0 slerp, 1 nlerp) and precision, null where not offered. */
    public static final class Family {
        final String name;
        final Op32[] f32 = new Op32[2];
        final Op64[] f64 = new Op64[2];
        final List<String> known = new ArrayList<>();

        public Family(String name) {
            this.name = name;
        }

        public Family slerp(Op32 f, Op64 d) {
            f32[0] = f;
            f64[0] = d;
            return this;
        }

        public Family nlerp(Op32 f, Op64 d) {
            f32[1] = f;
            f64[1] = d;
            return this;
        }

        /** A deviation the library documents: `known FAMILY OP PROPERTY WHY` in the hello. */
        public Family known(String op, String property, String why) {
            known.add("known " + name + " " + op + " " + property + " " + why);
            return this;
        }
    }

    /** A request that breaks the protocol: its message is the stderr line's detail. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String what) {
            super(what);
        }
    }

    private QcProtocol() {}

    static String hello(String library, String version, List<Family> families) {
        StringBuilder s = new StringBuilder("quatcheck-plugin 1\nlibrary " + library + " " + version + "\n");
        String[] ops = {"slerp", "nlerp"};
        for (Family f : families) {
            s.append("family ").append(f.name);
            for (int op = 0; op < 2; op++) {
                if (f.f32[op] != null) s.append(' ').append(ops[op]).append(".f32");
                if (f.f64[op] != null) s.append(' ').append(ops[op]).append(".f64");
            }
            s.append('\n');
            for (String k : f.known) s.append(k).append('\n');
        }
        return s.append("end\n").toString();
    }

    /** Fills buf[0, n) from in. False at end of input before the first byte (when allowed); a partial read throws. */
    static boolean readFully(InputStream in, byte[] buf, int n, boolean endAllowed) throws IOException, Malformed {
        int got = 0;
        while (got < n) {
            int k = in.read(buf, got, n - got);
            if (k < 0) {
                if (got == 0 && endAllowed) return false;
                throw new Malformed("input ends mid-request (" + got + " of " + n + " bytes)");
            }
            got += k;
        }
        return true;
    }

    public static int serve(String library, String version, List<Family> families, String name) {
        try {
            return loop(new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out), library,
                        version, families);
        } catch (Malformed e) {
            System.err.println(name + ": malformed request: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println(name + ": " + e.getMessage());
            return 2;
        }
    }

    static int loop(InputStream in, OutputStream out, String library, String version, List<Family> families)
        throws IOException, Malformed {
        out.write(hello(library, version, families).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        byte[] head = new byte[HEADER];
        byte[] body = new byte[MAX_CASES * 9 * 8];
        byte[] reply = new byte[HEADER + MAX_CASES * 4 * 8];
        for (long expected = 1;; expected++) {
            if (!readFully(in, head, HEADER, true)) return 0;
            ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
            int magic = h.getInt(0), family = h.getInt(8), op = head[12] & 0xff, width = head[13] & 0xff;
            long seq = h.getInt(4) & 0xffffffffL, n = h.getInt(16) & 0xffffffffL;
            if (magic != REQUEST_MAGIC) throw new Malformed(String.format("magic 0x%08x", magic));
            if (seq != expected) throw new Malformed("sequence number " + seq + ", expected " + expected);
            if (h.getShort(14) != 0 || h.getInt(20) != 0) throw new Malformed("a reserved field is not 0");
            if (n < 1 || n > MAX_CASES) throw new Malformed("count " + n + " outside 1.." + MAX_CASES);
            if (family < 0 || family >= families.size()) throw new Malformed("family index " + (family & 0xffffffffL));
            if (op > 1 || (width != 4 && width != 8)) throw new Malformed("op " + op + ", precision " + width);
            Family f = families.get(family);
            if ((width == 4 ? f.f32[op] : f.f64[op]) == null)
                throw new Malformed("family " + f.name + " does not offer op " + op + " in precision " + width);
            int cases = (int) n;
            readFully(in, body, cases * 9 * width, false);
            ByteBuffer b = ByteBuffer.wrap(body, 0, cases * 9 * width).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer r = ByteBuffer.wrap(reply).order(ByteOrder.LITTLE_ENDIAN);
            long ns = width == 4 ? answer32(f.f32[op], b, r, cases) : answer64(f.f64[op], b, r, cases);
            r.putInt(0, ANSWER_MAGIC).putInt(4, (int) seq).putInt(8, cases).putInt(12, 0).putLong(16, ns);
            out.write(reply, 0, HEADER + cases * 4 * width);
            out.flush();
        }
    }

    // The cases are decoded into arrays first, then the library runs on each between two clock reads, then
    // the outputs are encoded after the header's place.
    static long answer64(Op64 fn, ByteBuffer in, ByteBuffer out, int n) {
        double[] v = new double[9 * n], o = new double[4 * n];
        in.asDoubleBuffer().get(v);
        double[] q0 = new double[4], q1 = new double[4], r = new double[4];
        long t0 = System.nanoTime();
        for (int k = 0; k < n; k++) {
            System.arraycopy(v, 9 * k, q0, 0, 4);
            System.arraycopy(v, 9 * k + 4, q1, 0, 4);
            fn.call(q0, q1, v[9 * k + 8], r);
            System.arraycopy(r, 0, o, 4 * k, 4);
        }
        long ns = System.nanoTime() - t0;
        out.position(HEADER);
        out.slice().order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(o);
        return ns;
    }

    static long answer32(Op32 fn, ByteBuffer in, ByteBuffer out, int n) {
        float[] v = new float[9 * n], o = new float[4 * n];
        in.asFloatBuffer().get(v);
        float[] q0 = new float[4], q1 = new float[4], r = new float[4];
        long t0 = System.nanoTime();
        for (int k = 0; k < n; k++) {
            System.arraycopy(v, 9 * k, q0, 0, 4);
            System.arraycopy(v, 9 * k + 4, q1, 0, 4);
            fn.call(q0, q1, v[9 * k + 8], r);
            System.arraycopy(r, 0, o, 4 * k, 4);
        }
        long ns = System.nanoTime() - t0;
        out.position(HEADER);
        out.slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(o);
        return ns;
    }
}
