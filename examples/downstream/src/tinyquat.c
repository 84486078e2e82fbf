/* tinyquat's slerp, in double and float from one definition. The fallback near dot = 1 is a lerp followed by
 * a normalisation; compiled with -DTINYQUAT_PLAIN_LERP_FALLBACK the normalisation is left out (a plain lerp,
 * off the unit sphere): the planted regression that quatcheck's accuracy gate must catch (quatcheck's
 * tests/downstream.test.sh). */
#include "tinyquat.h"

#include <math.h>

#ifdef TINYQUAT_PLAIN_LERP_FALLBACK
#define TQ_NORMALISE_FALLBACK 0
#else
#define TQ_NORMALISE_FALLBACK 1
#endif

/* NAME(q0, q1, t, out) in type T with that type's acos, sin and sqrt. */
#define TQ_DEFINE_SLERP(NAME, T, ACOS, SIN, SQRT)                                              \
    void NAME(const T q0[4], const T q1[4], T t, T out[4]) {                                   \
        T d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];                   \
        T sign = 1;                                                                            \
        if (d < 0) { /* q1 and -q1 are the same rotation: take the shorter arc */              \
            d = -d;                                                                            \
            sign = -1;                                                                         \
        }                                                                                      \
        const int linear = d > (T)TQ_LERP_THRESHOLD;                                           \
        T w0, w1;                                                                              \
        if (linear) { /* sin(theta) near 0: the arc weights lose their precision */            \
            w0 = 1 - t;                                                                        \
            w1 = t;                                                                            \
        } else {                                                                               \
            T theta = ACOS(d), s = SIN(theta);                                                 \
            w0 = SIN((1 - t) * theta) / s;                                                     \
            w1 = SIN(t * theta) / s;                                                           \
        }                                                                                      \
        w1 *= sign;                                                                            \
        for (int i = 0; i < 4; i++) out[i] = w0 * q0[i] + w1 * q1[i];                          \
        if (linear && TQ_NORMALISE_FALLBACK) {                                                 \
            T n = SQRT(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]); \
            for (int i = 0; i < 4; i++) out[i] /= n;                                           \
        }                                                                                      \
    }

TQ_DEFINE_SLERP(tq_slerp, double, acos, sin, sqrt)
TQ_DEFINE_SLERP(tq_slerpf, float, acosf, sinf, sqrtf)
