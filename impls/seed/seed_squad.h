/* The seed squad in C (seed documents 000 and 003), shared by the built-in seed-squad (seed_squad.cpp),
 * the planted broken-squad and the plugin build (impls/examples/seed_squad_plugin.c), so all three run the
 * very same code.
 *
 *   slerp        seed 000's printed C routine: sign flip to the short arc, acos arc, normalised-lerp
 *                fallback above dot 0.9995 (0.9995f in float, 0.9995 in double)
 *   log(q)       (0, acos(w) v / sin(acos(w))), v when sin(acos(w)) is 0   (as commonly printed; unit q)
 *   exp(0, v)    (cos|v|, sin|v| v / |v|), (1, 0, 0, 0) when |v| is 0
 *   squad_setup  s_i = q_i exp(-(log(q_i^-1 q_{i+1}) + log(q_i^-1 q_{i-1})) / 4), q^-1 = conj(q)
 *   squad        slerp(slerp(q_i, q_{i+1}, t), slerp(s_i, s_{i+1}, t), 2t(1-t)), every slerp the seed routine
 * Quaternions are (w, x, y, z). QC_SEED_SQUAD_DEFINE(T, SUFFIX, ...) defines the functions for one type. */
#ifndef QC_SEED_SQUAD_H
#define QC_SEED_SQUAD_H

#include <math.h>

#if defined(__GNUC__)
#define QC_SEED_MAYBE_UNUSED __attribute__((unused))
#else
#define QC_SEED_MAYBE_UNUSED
#endif

#define QC_SEED_SQUAD_DEFINE(T, SUFFIX, SQRT, ACOS, SIN, COS, THRESHOLD)                                            \
    QC_SEED_MAYBE_UNUSED static void qc_seed_slerp_##SUFFIX(const T q0[4], const T q1[4], T u, T out[4]) {          \
        T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];                                        \
        T s = (T)1;                                                                                                 \
        int i;                                                                                                      \
        if (d < (T)0) {                                                                                             \
            d = -d;                                                                                                 \
            s = (T)-1;                                                                                              \
        } /* take the short arc */                                                                                  \
        if (d > THRESHOLD) {                                                                                        \
            T n;                                                                                                    \
            for (i = 0; i < 4; i++) out[i] = q0[i] + u * (s * q1[i] - q0[i]);                                       \
            n = SQRT(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);                        \
            for (i = 0; i < 4; i++) out[i] /= n;                                                                    \
            return;                                                                                                 \
        }                                                                                                           \
        {                                                                                                           \
            T w = ACOS(d);                                                                                          \
            T a = SIN(((T)1 - u) * w) / SIN(w);                                                                     \
            T b = SIN(u * w) / SIN(w);                                                                              \
            for (i = 0; i < 4; i++) out[i] = a * q0[i] + b * (s * q1[i]);                                           \
        }                                                                                                           \
    }                                                                                                               \
    /* out = conj(a) b */                                                                                           \
    QC_SEED_MAYBE_UNUSED static void qc_seed_conj_mul_##SUFFIX(const T a[4], const T b[4], T out[4]) {              \
        out[0] = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];                                             \
        out[1] = a[0] * b[1] - a[1] * b[0] - a[2] * b[3] + a[3] * b[2];                                             \
        out[2] = a[0] * b[2] - a[2] * b[0] - a[3] * b[1] + a[1] * b[3];                                             \
        out[3] = a[0] * b[3] - a[3] * b[0] - a[1] * b[2] + a[2] * b[1];                                             \
    }                                                                                                               \
    QC_SEED_MAYBE_UNUSED static void qc_seed_mul_##SUFFIX(const T a[4], const T b[4], T out[4]) {                   \
        out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];                                             \
        out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];                                             \
        out[2] = a[0] * b[2] + a[2] * b[0] + a[3] * b[1] - a[1] * b[3];                                             \
        out[3] = a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1];                                             \
    }                                                                                                               \
    QC_SEED_MAYBE_UNUSED static void qc_seed_log_##SUFFIX(const T q[4], T out[4]) {                                 \
        T w = q[0] > (T)1 ? (T)1 : (q[0] < (T)-1 ? (T)-1 : q[0]);                                                   \
        T th = ACOS(w), s = SIN(th), k = s > (T)0 ? th / s : (T)1;                                                  \
        out[0] = (T)0, out[1] = k * q[1], out[2] = k * q[2], out[3] = k * q[3];                                     \
    }                                                                                                               \
    QC_SEED_MAYBE_UNUSED static void qc_seed_exp_##SUFFIX(const T v[4], T out[4]) {                                 \
        T th = SQRT(v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);                                                       \
        T k = th > (T)0 ? SIN(th) / th : (T)1;                                                                      \
        out[0] = COS(th), out[1] = k * v[1], out[2] = k * v[2], out[3] = k * v[3];                                  \
    }                                                                                                               \
    /* s_i = q_i exp(SCALE (log(q_i^-1 q_{i+1}) + log(q_i^-1 q_{i-1}))); the seed's SCALE is -1/4 */                \
    QC_SEED_MAYBE_UNUSED static void qc_seed_squad_setup_scaled_##SUFFIX(const T prev[4], const T cur[4],           \
                                                                         const T next[4], T scale, T s[4]) {        \
        T r[4], l1[4], l2[4], e[4];                                                                                 \
        int i;                                                                                                      \
        qc_seed_conj_mul_##SUFFIX(cur, next, r);                                                                    \
        qc_seed_log_##SUFFIX(r, l1);                                                                                \
        qc_seed_conj_mul_##SUFFIX(cur, prev, r);                                                                    \
        qc_seed_log_##SUFFIX(r, l2);                                                                                \
        for (i = 0; i < 4; i++) l1[i] = scale * (l1[i] + l2[i]);                                                    \
        qc_seed_exp_##SUFFIX(l1, e);                                                                                \
        qc_seed_mul_##SUFFIX(cur, e, s);                                                                            \
    }                                                                                                               \
    QC_SEED_MAYBE_UNUSED static void qc_seed_squad_setup_##SUFFIX(const T prev[4], const T cur[4], const T next[4], \
                                                                  T s[4]) {                                         \
        qc_seed_squad_setup_scaled_##SUFFIX(prev, cur, next, (T)-0.25, s);                                          \
    }                                                                                                               \
    QC_SEED_MAYBE_UNUSED static void qc_seed_squad_##SUFFIX(const T q0[4], const T q1[4], const T s0[4],            \
                                                            const T s1[4], T t, T out[4]) {                         \
        T a[4], b[4];                                                                                               \
        qc_seed_slerp_##SUFFIX(q0, q1, t, a);                                                                       \
        qc_seed_slerp_##SUFFIX(s0, s1, t, b);                                                                       \
        qc_seed_slerp_##SUFFIX(a, b, (T)2 * t * ((T)1 - t), out);                                                   \
    }

QC_SEED_SQUAD_DEFINE(float, f32, sqrtf, acosf, sinf, cosf, 0.9995f)
QC_SEED_SQUAD_DEFINE(double, f64, sqrt, acos, sin, cos, 0.9995)

#endif
