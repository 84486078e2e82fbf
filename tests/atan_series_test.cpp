// The fast metric engine's atan2 of two chords (atan2_chords_fast, metrics.h; the series and the reduction of
// metrics_dd_internal.h) against MPFR: within its stated relative error in each of its three ranges of y/x, and the
// same comparison catching three damaged versions (negative controls).
#include "metrics/metrics.h"
#include "reference/real.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

using namespace qc;

namespace {

constexpr double kU = 0x1p-53;

// |got - atan(y/x)| / atan(y/x) in units of u, the exact value in MPFR at 256 bits (y/x rounded at 256 bits first:
// 2^-256 relative, nothing at this scale).
double rel_error_u(double got, double y, double x) {
    thread_local Real a, b;
    ensure_bits(a, 256), ensure_bits(b, 256);
    mpfr_set_d(mp(a), y, MPFR_RNDN);
    mpfr_div_d(mp(a), mp(a), x, MPFR_RNDN);
    mpfr_atan(mp(a), mp(a), MPFR_RNDN);
    mpfr_set_d(mp(b), got, MPFR_RNDN);
    mpfr_sub(mp(b), mp(b), mp(a), MPFR_RNDN);
    mpfr_div(mp(b), mp(b), mp(a), MPFR_RNDN);
    return std::fabs(mpfr_get_d(mp(b), MPFR_RNDN)) / kU;
}

// The largest relative error of f(y, x) over n pairs with y/x log-uniform in [lo, hi) and x uniform in [1, 8) (the
// chords on the sphere of radius |r| in [1, 4): the longer one is between sqrt(2) |r| and 2 |r|), plus the pairs
// whose ratio is the first double at or above lo and the last below hi. y = RN(q x); pairs whose ratio leaves
// [lo, hi) are skipped.
template <class F> double worst_u(F f, double lo, double hi, int n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> e(std::log2(lo), std::log2(hi)), xs(1, 8);
    double worst = 0;
    auto check = [&](double y, double x) {
        const double q = y / x;
        if (!(q >= lo && q < hi)) return;
        worst = std::max(worst, rel_error_u(f(y, x), y, x));
    };
    for (int i = 0; i < n; i++) {
        const double x = xs(rng);
        check(std::exp2(e(rng)) * x, x);
    }
    for (double x : {1.0, 1.5, 2.0, 3.999, 7.5}) {
        check(lo * x, x), check(std::nextafter(lo * x, INFINITY), x);
        check(std::nextafter(hi * x, 0.0), x), check(std::nextafter(std::nextafter(hi * x, 0.0), 0.0), x);
    }
    return worst;
}

// The middle range's series as atan_middle writes it, with `terms` coefficients and optionally without the
// quotient's low word, and the high range's reduction as atan_high writes it, optionally without the reduced
// argument's low word: the negative controls' damaged copies (the product code is atan2_chords_fast).
double series_correction(double h, double l, int terms) {
    const double t = h * h, m = -t;
    double p = 1.0 / (2 * terms + 1);
    for (int k = terms - 2; k >= 0; k--) p = std::fma(p, m, 1.0 / (2 * k + 3));
    return std::fma(-(h * t), p, l);
}
double damaged_middle(double y, double x, int terms, bool low_word) {
    const double qh = y / x;
    return qh + series_correction(qh, low_word ? std::fma(-qh, x, y) / x : 0, terms);
}
double damaged_high(double y, double x, bool low_word) {
    const bool one = y >= 0.75 * x;
    const double c = one ? 1.0 : 0.5, num = y - c * x;
    const double dh = x + c * y, dl = (x - dh) + c * y;  // TwoSum, |x| >= c y
    const double rh = num / dh;
    const double rl = low_word ? std::fma(-rh, dl, std::fma(-rh, dh, num)) / dh : 0;
    const double ah = one ? 0x1.921fb54442d18p-1 : 0x1.dac670561bb4fp-2;
    const double al = one ? 0x1.1a62633145c07p-55 : 0x1.a2b7f222f65e2p-56;
    const double sh = ah + rh, sl = (ah - sh) + rh;  // Fast2Sum, |ah| >= |rh|
    return sh + (sl + (al + series_correction(rh, rl, 14)));
}

constexpr int kPairs = 200000;

}  // namespace

TEST(AtanSeries, EachRangeWithinItsStatedErrorOfMpfr) {
    const double below = worst_u(atan2_chords_fast, 0x1p-40, 0x1p-20, kPairs / 4, 1);
    const double middle = worst_u(atan2_chords_fast, 0x1p-20, 0x1p-2, kPairs, 2);
    const double high = worst_u(atan2_chords_fast, 0x1p-2, std::nextafter(1.0, 2.0), kPairs, 3);
    std::printf(
        "atan2_chords_fast, largest relative error in u = 2^-53: %.3f below 2^-20 (stated 2u), %.3f in "
        "[2^-20, 2^-2) (stated 1.16u), %.3f in [2^-2, 1] (stated 1.16u)\n",
        below, middle, high);
    EXPECT_LE(below, 2.01);
    EXPECT_LE(middle, 1.16);
    EXPECT_LE(high, 1.16);
    EXPECT_GT(middle, 0.4);  // the sample reaches the final rounding's own half ulp: it measures something
    EXPECT_GT(high, 0.4);
    EXPECT_EQ(atan2_chords_fast(1, 1), 0x1.921fb54442d18p-1);  // pi/4 rounded, at the range's end
}

TEST(AtanSeries, DamagedSeriesIsCaught) {
    auto measure = [](auto f, double lo, double hi, uint64_t seed) { return worst_u(f, lo, hi, kPairs / 10, seed); };
    // Seven coefficients (enough up to 2^-4) used up to 2^-2: the cut series is off by up to t^7/17 ~ 2^-32.
    const double short_series =
        measure([](double y, double x) { return damaged_middle(y, x, 7, true); }, 0x1p-20, 0x1p-2, 4);
    // The quotient rounded once, its low word dropped: up to u more; the same in the high range's reduction.
    const double no_low_word =
        measure([](double y, double x) { return damaged_middle(y, x, 14, false); }, 0x1p-20, 0x1p-2, 5);
    const double high_no_low_word = measure([](double y, double x) { return damaged_high(y, x, false); }, 0x1p-2, 1, 6);
    // The same copies undamaged pass, so what fails is the damage.
    const double intact =
        measure([](double y, double x) { return damaged_middle(y, x, 14, true); }, 0x1p-20, 0x1p-2, 7);
    const double high_intact = measure([](double y, double x) { return damaged_high(y, x, true); }, 0x1p-2, 1, 8);
    std::printf(
        "damaged series, largest error in u: %.3g (7 terms), %.3f (no low word), %.3f (high range, no low "
        "word); intact copies %.3f, %.3f\n",
        short_series, no_low_word, high_no_low_word, intact, high_intact);
    EXPECT_GT(short_series, 1.16);
    EXPECT_GT(no_low_word, 1.16);
    EXPECT_GT(high_no_low_word, 1.16);
    EXPECT_LE(intact, 1.16);
    EXPECT_LE(high_intact, 1.16);
}
