/* The cases of the slerp_cr downstream test and their expected results, bit for bit (C99 and C++17).
 *
 * 1. t = 0 gives the normalised q0: q0 = (1, 2, 2, 4), |q0| = 5, so out = RN(0.2, 0.4, 0.4, 0.8); the compiler
 *    rounds the decimal literals correctly, in each format.
 * 2. t = 1 gives the normalised q1, its zero components +0: q1 = (0, 3, 0, 4), out = (+0, RN(0.6), +0, RN(0.8)).
 * 3. A general case, q0 = (1/2, 1/2, 1/2, 1/2), q1 = (0.6, 0, 0.8, 0) rounded to the format, t = 0.3 rounded to the
 *    format: the hexfloats are the harness's MPFR reference (ReferenceEngine, --reference mpfr, validated)
 *    rounded to nearest by mpfr_get_d and mpfr_get_flt, and the same as mpmath at 400 bits rounded exactly (each
 *    component more than 2^-200 ulp from a midpoint).
 * DEMO_ALTERED (a negative control) changes the last bit of one expected value of case 3 in each format. */
#ifndef SLERP_CR_DOWNSTREAM_EXPECTED_H
#define SLERP_CR_DOWNSTREAM_EXPECTED_H

#define CASE3_F64_0 0x1.231c5a87dd25dp-1
#define CASE3_F64_1 0x1.7adf3d997f552p-2
#define CASE3_F64_2 0x1.4500991b91a44p-1
#define CASE3_F32_0 0x1.231c5ap-1f
#define CASE3_F32_1 0x1.7adf3ep-2f
#define CASE3_F32_2 0x1.45009ap-1f
#ifdef DEMO_ALTERED
#define CASE3_F64_3 0x1.7adf3d997f553p-2
#define CASE3_F32_3 0x1.7adf40p-2f
#else
#define CASE3_F64_3 0x1.7adf3d997f552p-2
#define CASE3_F32_3 0x1.7adf3ep-2f
#endif

#endif
