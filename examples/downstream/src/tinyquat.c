/* tinyquat's slerp. The fallback near dot = 1 is a lerp followed by a normalisation; compiled with
 * -DTINYQUAT_PLAIN_LERP_FALLBACK the normalisation is left out (a plain lerp, off the unit sphere): the planted
 * regression that quatcheck's accuracy gate must catch (tests/downstream.test.sh in quatcheck). */
#include "tinyquat.h"

#include <math.h>

void tq_slerp(const double q0[4], const double q1[4], double t, double out[4]) {
    double d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    double sign = 1.0;
    if (d < 0) { /* q1 and -q1 are the same rotation: take the shorter arc */
        d = -d;
        sign = -1.0;
    }
    double w0, w1;
    if (d > TQ_LERP_THRESHOLD) {
        w0 = 1.0 - t;
        w1 = t;
    } else {
        double theta = acos(d), s = sin(theta);
        w0 = sin((1.0 - t) * theta) / s;
        w1 = sin(t * theta) / s;
    }
    w1 *= sign;
    for (int i = 0; i < 4; i++) out[i] = w0 * q0[i] + w1 * q1[i];
#ifndef TINYQUAT_PLAIN_LERP_FALLBACK
    if (d > TQ_LERP_THRESHOLD) {
        double n = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
    }
#endif
}

void tq_slerpf(const float q0[4], const float q1[4], float t, float out[4]) {
    float d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    float sign = 1.0f;
    if (d < 0) {
        d = -d;
        sign = -1.0f;
    }
    float w0, w1;
    if (d > (float)TQ_LERP_THRESHOLD) {
        w0 = 1.0f - t;
        w1 = t;
    } else {
        float theta = acosf(d), s = sinf(theta);
        w0 = sinf((1.0f - t) * theta) / s;
        w1 = sinf(t * theta) / s;
    }
    w1 *= sign;
    for (int i = 0; i < 4; i++) out[i] = w0 * q0[i] + w1 * q1[i];
#ifndef TINYQUAT_PLAIN_LERP_FALLBACK
    if (d > (float)TQ_LERP_THRESHOLD) {
        float n = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= n;
    }
#endif
}
