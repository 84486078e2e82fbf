/* The reference process-plugin adapter (docs/plugin-protocol.md), in plain C with no dependency: it serves
 * the seed routines over stdin/stdout so that tests can compare the protocol's figures with the in-process
 * built-ins, and it misbehaves on request so that tests can check containment.
 *
 *   c_adapter [MODE [v2] [text]]
 *
 * Families: proc-seed-c (slerp.f32, slerp.f64: the seed 000 C slerp, as impls/seed/seed_c.cpp) and
 * proc-nlerp (nlerp.f32, nlerp.f64: as impls/seed/nlerp.cpp). MODE (default "ok") misbehaves on the first
 * batch holding a case with t > 0.75 ("the trigger"):
 *   crash     raise SIGSEGV            hang      sleep forever (see hang())   garbage   answer with a wrong magic
 *   seq       echo the wrong sequence  count     announce one output too few
 *   short     send half of the outputs, then exit 0
 *   badhello  send a hello with an invalid family name     nohello  send no hello at all
 *   exit      exit 3 before the hello                     notime    answer correctly but report 0 ns (not timed)
 *   trailing  append 8 stray bytes to the answer (one write)
 *   orphan    fork a child that keeps stdout open for 30 s (its pid appended to $QC_TEST_CHILD_PIDS if
 *             set), then exit 3
 * and on every batch, whatever its cases:
 *   single    raise SIGSEGV on a batch of exactly one case (batches of two or more are answered correctly)
 *   time1     answer correctly but report 1 ns per batch    timemax   report 2^64-1 ns per batch
 *   squadoff  answer correctly, but every squad output is off by 1e-3 in w (a planted squad defect)
 * and right after its hello, before any batch:
 *   closestdin  close stdin and stay alive with stdout open, reading nothing, until killed
 *   closeexit   close stdin, then exit 0
 *   slowhello   sleep $QC_TEST_HELLO_DELAY seconds (default 7) before the hello, then serve as "ok"
 * With "v2" the hello says protocol 2 and proc-seed-c also offers slerp_tau.f32 and slerp_tau.f64 (op 2): the
 * same routine with its threshold as a parameter (the arithmetic of the threshold study's acos+nlerp), for
 * `quatcheck threshold --impl proc-seed-c`; the modes misbehave on its batches the same way.
 * With "text" the hello chooses the text wire (`wire text`: hexfloat lines, docs/plugin-protocol.md) and the
 * modes misbehave in its terms (garbage: a first line that is not 'answer ...'; count, seq, short, trailing as
 * above); three more modes break only the text wire, on the trigger batch:
 *   badhex    a word that is not a hexfloat       inexact   on an f32 batch, a value no float holds
 *   longline  a line longer than 512 bytes
 * With "squad" the hello says protocol 3 and adds a third family, proc-seed-squad (squad.f32, squad.f64,
 * squad_setup.f32, squad_setup.f64: the seed squad of impls/seed/seed_squad.h, the code of the built-in
 * seed-squad), over either wire; the modes misbehave on its squad batches the same way (t > 0.75 triggers). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../seed/seed_squad.h"

#define MAX_CASES 4096u
#define MAX_VALUES 17u /* per case: squad's q0, q1, s0, s1, t */

static const char *mode = "ok";

static int read_full(void *p, size_t n) {
    char *c = p;
    while (n) {
        ssize_t k = read(0, c, n);
        if (k <= 0) return 0;
        c += k, n -= (size_t)k;
    }
    return 1;
}

static void write_full(const void *p, size_t n) {
    const char *c = p;
    while (n) {
        ssize_t k = write(1, c, n);
        if (k <= 0) exit(1);
        c += k, n -= (size_t)k;
    }
}

/* seed 000's C slerp: short arc by the sign of the dot product, acos arc, nlerp fallback above tau;
 * shipped with tau = 0.9995 (0.9995f in float as printed, 0.9995 in double). */
static void slerp_tau_f32(const float q0[4], const float q1[4], float u, float tau, float out[4]) {
    float d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3], s = 1.0f;
    if (d < 0.0f) {
        d = -d;
        s = -1.0f;
    }
    if (d > tau) {
        for (int i = 0; i < 4; i++) out[i] = q0[i] + u * (s * q1[i] - q0[i]);
        float n = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    float w = acosf(d), a = sinf((1.0f - u) * w) / sinf(w), b = sinf(u * w) / sinf(w);
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * (s * q1[i]);
}

static void slerp_tau_f64(const double q0[4], const double q1[4], double u, double tau, double out[4]) {
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3], s = 1.0;
    if (d < 0.0) {
        d = -d;
        s = -1.0;
    }
    if (d > tau) {
        for (int i = 0; i < 4; i++) out[i] = q0[i] + u * (s * q1[i] - q0[i]);
        double n = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
        return;
    }
    double w = acos(d), a = sin((1.0 - u) * w) / sin(w), b = sin(u * w) / sin(w);
    for (int i = 0; i < 4; i++) out[i] = a * q0[i] + b * (s * q1[i]);
}

static void slerp_f32(const float q0[4], const float q1[4], float u, float out[4]) {
    slerp_tau_f32(q0, q1, u, 0.9995f, out);
}
static void slerp_f64(const double q0[4], const double q1[4], double u, double out[4]) {
    slerp_tau_f64(q0, q1, u, 0.9995, out);
}

/* nlerp with the sign flip: ((1 - t) q0 + t s q1) / |...|. */
static void nlerp_f32(const float q0[4], const float q1[4], float t, float out[4]) {
    float d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3], s = d < 0.0f ? -1.0f : 1.0f, v[4];
    for (int i = 0; i < 4; i++) v[i] = (1.0f - t) * q0[i] + t * (s * q1[i]);
    float n = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    for (int i = 0; i < 4; i++) out[i] = v[i] / n;
}

static void nlerp_f64(const double q0[4], const double q1[4], double t, double out[4]) {
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3], s = d < 0.0 ? -1.0 : 1.0, v[4];
    for (int i = 0; i < 4; i++) v[i] = (1.0 - t) * q0[i] + t * (s * q1[i]);
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    for (int i = 0; i < 4; i++) out[i] = v[i] / n;
}

static int is(const char *m) { return strcmp(mode, m) == 0; }
/* single: the largest request that fails, QC_TEST_FAIL_AT_MOST cases (default 1: one-case requests only). */
static unsigned fail_at_most(void) {
    const char *v = getenv("QC_TEST_FAIL_AT_MOST");
    return v && *v ? (unsigned)strtoul(v, NULL, 10) : 1u;
}

/* hang: sleep until killed, first creating the file $QC_TEST_HANG_MARK (if set), so that a test can signal
 * quatcheck while it is known to be waiting for this batch's answer. */
static void hang(void) {
    const char *mark = getenv("QC_TEST_HANG_MARK");
    if (mark) close(open(mark, O_WRONLY | O_CREAT, 0644));
    for (;;) pause();
}

/* The values per case of an op (0 slerp, 1 nlerp, 2 slerp_tau, 3 squad, 4 squad_setup). */
static unsigned stride_of(unsigned op) { return op == 2 ? 10 : op == 3 ? 17 : op == 4 ? 12 : 9; }

/* Is op valid for family (0 proc-seed-c, 1 proc-nlerp, 2 proc-seed-squad) given the hello's options? */
static int serves(unsigned family, unsigned op, int v2, int squad) {
    if (family == 0) return op == 0 || (v2 && op == 2);
    if (family == 1) return op == 1;
    return squad && family == 2 && (op == 3 || op == 4);
}

/* One case of op in one precision (r: its values, o: its output); returns whether it is the trigger (t > 0.75). */
#define QC_EVAL_CASE(T, SFX)                                                  \
    static int eval_case_##SFX(unsigned op, const T *r, T *o) {               \
        if (op == 4) {                                                        \
            qc_seed_squad_setup_##SFX(r, r + 4, r + 8, o);                    \
            return 0;                                                         \
        }                                                                     \
        if (op == 3) {                                                        \
            qc_seed_squad_##SFX(r, r + 4, r + 8, r + 12, r[16], o);           \
            if (is("squadoff")) o[0] += (T)1e-3; /* a planted squad defect */ \
        } else if (op == 2) slerp_tau_##SFX(r, r + 4, r[8], r[9], o);         \
        else (op == 0 ? slerp_##SFX : nlerp_##SFX)(r, r + 4, r[8], o);        \
        return r[op == 3 ? 16 : 8] > (T)0.75;                                 \
    }
QC_EVAL_CASE(float, f32)
QC_EVAL_CASE(double, f64)

/* Case i of a batch: evaluates it into out; returns whether it is the trigger. */
static int eval_case(unsigned op, unsigned width, const unsigned char *in, unsigned char *out, uint32_t i) {
    const unsigned stride = stride_of(op);
    if (width == 4) return eval_case_f32(op, (const float *)in + stride * i, (float *)out + 4 * i);
    return eval_case_f64(op, (const double *)in + stride * i, (double *)out + 4 * i);
}

/* The text wire: each request line (at most 9 or 10 hexfloats of at most 30 bytes each) fits in `line`; a
 * longer one is malformed. Returns 0 at end of input. */
static int read_line(char *line, size_t size) {
    if (!fgets(line, (int)size, stdin)) return 0;
    size_t k = strlen(line);
    if (k == 0 || line[k - 1] != '\n') {
        fprintf(stderr, "c_adapter: request line too long or unterminated\n");
        exit(2);
    }
    line[k - 1] = '\0';
    return 1;
}

/* One batch on the text wire; returns 0 at end of input. */
static int serve_text(int v2, int squad, unsigned char *in, unsigned char *out) {
    static const char *const names[] = {"slerp", "nlerp", "slerp_tau", "squad", "squad_setup"};
    char line[512], opname[32];
    unsigned seq, family, n, bytes, op = 5;
    if (!read_line(line, sizeof line)) return 0;
    int k = 0;
    if (sscanf(line, "batch %u %u %31s %u %u%n", &seq, &family, opname, &n, &bytes, &k) == 5 && line[k] == '\0') {
        char *dot = strrchr(opname, '.');
        if (dot) *dot = '\0';
        for (unsigned j = 0; j < 5; j++)
            if (strcmp(opname, names[j]) == 0) op = j;
        if (dot) *dot = '.';
    }
    if (op > 4 || !serves(family, op, v2, squad) || n == 0 || n > MAX_CASES) {
        fprintf(stderr, "c_adapter: malformed request '%s'\n", line);
        exit(2);
    }
    const int f32 = strstr(opname, ".f32") != NULL;
    const unsigned stride = stride_of(op);
    for (unsigned i = 0; i < n; i++) {
        if (!read_line(line, sizeof line)) exit(2);
        char *p = line;
        for (unsigned j = 0; j < stride; j++) {
            char *end;
            double v = strtod(p, &end);
            if (end == p) exit(2);
            if (f32) ((float *)in)[stride * i + j] = (float)v;
            else ((double *)in)[stride * i + j] = v;
            p = end;
        }
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int trigger = 0;
    for (uint32_t i = 0; i < n; i++) trigger |= eval_case(op, f32 ? 4 : 8, in, out, i);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    unsigned long long ns =
        (unsigned long long)(t1.tv_sec - t0.tv_sec) * 1000000000u + (unsigned long long)(t1.tv_nsec - t0.tv_nsec);
    if (is("notime")) ns = 0;
    if (is("time1")) ns = 1;
    if (is("timemax")) ns = 18446744073709551615ull;
    if (is("single") && n <= fail_at_most()) raise(SIGSEGV);
    unsigned lines = n;
    if (trigger) {
        if (is("crash")) raise(SIGSEGV);
        if (is("hang")) hang();
        if (is("garbage")) printf("junk %u %u %llu\n", seq, n, ns);
        if (is("seq")) seq++;
        if (is("count")) n--;
        if (is("short")) lines = n / 2;
    }
    if (!(trigger && is("garbage"))) printf("answer %u %u %llu\n", seq, n, ns);
    for (unsigned i = 0; i < lines; i++) {
        double v[4];
        for (int j = 0; j < 4; j++) v[j] = f32 ? (double)((float *)out)[4 * i + j] : ((double *)out)[4 * i + j];
        if (trigger && i == 0 && is("badhex")) printf("0x1.8q+0 %a %a %a\n", v[1], v[2], v[3]);
        else if (trigger && i == 0 && is("inexact") && f32) printf("0x1.000001p+0 %a %a %a\n", v[1], v[2], v[3]);
        else if (trigger && i == 0 && is("longline")) printf("%a %a %a %a %600s\n", v[0], v[1], v[2], v[3], "");
        else printf("%a %a %a %a\n", v[0], v[1], v[2], v[3]);
    }
    if (trigger && is("trailing")) printf("trailing\n");
    fflush(stdout);
    if (trigger && is("short")) exit(0);
    return 1;
}

/* closestdin: the adapter stops reading its requests but keeps running with its stdout open, so that only
 * the closed stdin (a write failing with EPIPE, or a request left unread) tells quatcheck it will not answer. */
static void stop_reading(void) {
    close(0);
    if (is("closeexit")) exit(0);
    for (;;) pause();
}

/* The hello the adapter introduces itself with: protocol 3 (squad), 2 (slerp_tau) or 1, or a malformed one. */
static const char *hello_text(int v2, int squad) {
    return is("badhello") ? "quatcheck-plugin 1\nlibrary quatcheck-c-adapter 1.0\nfamily proc.seed slerp.f32\nend\n"
           : squad        ? "quatcheck-plugin 3\nlibrary quatcheck-c-adapter 1.0\n"
                            "family proc-seed-c slerp.f32 slerp.f64\nfamily proc-nlerp nlerp.f32 nlerp.f64\n"
                            "family proc-seed-squad squad.f32 squad.f64 squad_setup.f32 squad_setup.f64\nend\n"
           : v2           ? "quatcheck-plugin 2\nlibrary quatcheck-c-adapter 1.0\n"
                            "family proc-seed-c slerp.f32 slerp.f64 slerp_tau.f32 slerp_tau.f64\nfamily proc-nlerp "
                            "nlerp.f32 nlerp.f64\nend\n"
                          : "quatcheck-plugin 1\nlibrary quatcheck-c-adapter 1.0\n"
                            "family proc-seed-c slerp.f32 slerp.f64\nfamily proc-nlerp nlerp.f32 nlerp.f64\nend\n";
}

/* orphan: the adapter leaves a child behind (its pid appended to QC_TEST_CHILD_PIDS) and exits, so that the
 * tests see whether quatcheck ends the adapter's whole process group. */
static void leave_orphan(void) {
    /* The parent exits only once the child has recorded its pid (a byte on `ready`): quatcheck ends the process
     * group as soon as the adapter is gone, and a child not yet recorded would leave the test nothing to check. */
    int ready[2];
    if (pipe(ready) != 0) exit(4);
    if (fork() == 0) {
        close(ready[0]);
        const char *path = getenv("QC_TEST_CHILD_PIDS");
        int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND, 0644) : -1;
        if (fd >= 0) {
            char buf[32];
            int k = snprintf(buf, sizeof buf, "%d\n", (int)getpid());
            if (write(fd, buf, (size_t)k) != k) _exit(1);
            close(fd);
        }
        if (write(ready[1], "r", 1) != 1) _exit(1);
        close(ready[1]);
        sleep(30);
        _exit(0);
    }
    close(ready[1]);
    char c;
    while (read(ready[0], &c, 1) < 0 && errno == EINTR) {}
    exit(3);
}

/* One batch on the binary wire; returns 0 at end of input (quatcheck is done). */
static int serve_binary(int v2, int squad, unsigned char *in, unsigned char *out) {
    uint32_t head[6];
    if (!read_full(head, sizeof head)) return 0;
    uint32_t magic = head[0], seq = head[1], family = head[2], op = head[3] & 0xff, width = (head[3] >> 8) & 0xff,
             n = head[4];
    if (magic != 0x31424351u || !serves(family, op, v2, squad) || (width != 4 && width != 8) || n == 0 ||
        n > MAX_CASES || head[5] != 0 || (head[3] >> 16) != 0) {
        fprintf(stderr, "c_adapter: malformed request\n");
        exit(2);
    }
    if (!read_full(in, (size_t)n * stride_of(op) * width)) exit(2);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int trigger = 0;
    for (uint32_t i = 0; i < n; i++) trigger |= eval_case(op, width, in, out, i);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    uint64_t ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)(t1.tv_nsec - t0.tv_nsec);
    if (is("notime")) ns = 0; /* "not measured": quatcheck bench must not time this adapter */
    if (is("time1")) ns = 1;
    if (is("timemax")) ns = UINT64_MAX;
    if (is("single") && n <= fail_at_most()) raise(SIGSEGV);
    uint32_t reply[6] = {0x31524351u, seq, n, 0, (uint32_t)ns, (uint32_t)(ns >> 32)};
    size_t body = (size_t)n * 4 * width;
    if (trigger) {
        if (is("crash")) raise(SIGSEGV);
        if (is("hang")) hang();
        if (is("garbage")) reply[0] = 0x6b6e756a;
        if (is("seq")) reply[1] = seq + 1;
        if (is("count")) reply[2] = n - 1;
        if (is("trailing")) { /* the answer and 8 more bytes in one write: all there when it is read */
            static unsigned char msg[sizeof reply + MAX_CASES * 4 * 8 + 8];
            memcpy(msg, reply, sizeof reply);
            memcpy(msg + sizeof reply, out, body);
            memcpy(msg + sizeof reply + body, "trailing", 8);
            write_full(msg, sizeof reply + body + 8);
            return 1;
        }
        if (is("orphan")) leave_orphan();
        if (is("short")) {
            write_full(reply, sizeof reply);
            write_full(out, body / 2);
            exit(0);
        }
    }
    write_full(reply, sizeof reply);
    write_full(out, body);
    return 1;
}

int main(int argc, char **argv) {
    if (argc > 1) mode = argv[1];
    int v2 = 0, text = 0, squad = 0;
    for (int i = 2; i < argc; i++)
        v2 |= strcmp(argv[i], "v2") == 0, text |= strcmp(argv[i], "text") == 0, squad |= strcmp(argv[i], "squad") == 0;
    if (is("exit")) return 3;
    if (is("nohello"))
        for (;;) pause();
    if (is("slowhello")) { /* a runtime that loads slowly on a busy machine (node under load) */
        const char *delay = getenv("QC_TEST_HELLO_DELAY");
        sleep(delay ? (unsigned)atoi(delay) : 7u);
    }
    const char *hello = hello_text(v2, squad);
    static unsigned char in[MAX_CASES * MAX_VALUES * 8], out[MAX_CASES * 4 * 8];
    if (text) { /* the same hello with `wire text` as its third line */
        const char *rest = strchr(strchr(hello, '\n') + 1, '\n') + 1;
        fwrite(hello, 1, (size_t)(rest - hello), stdout);
        printf("wire text\n%s", rest);
        fflush(stdout);
        if (is("closestdin") || is("closeexit")) stop_reading();
        while (serve_text(v2, squad, in, out)) {}
        return 0;
    }
    write_full(hello, strlen(hello));
    if (is("closestdin") || is("closeexit")) stop_reading();
    while (serve_binary(v2, squad, in, out)) {}
    return 0; /* EOF on stdin: quatcheck is done */
}
