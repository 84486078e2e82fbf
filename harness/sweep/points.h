// quatcheck sweep's points (sweep.cpp's own header): the format's values in order (ord), a slice's points in a
// shard (Points, make_points) and the case of one point (make_case).
#pragma once

#include "base/shard.h"
#include "sweep/sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace qc::sweep_detail {

// ---- floats in order: ord() maps the format's values to consecutive unsigned integers ----

template <class T> using Bits = std::conditional_t<std::is_same_v<T, float>, uint32_t, uint64_t>;

template <class T> uint64_t ord(T x) {
    Bits<T> b;
    std::memcpy(&b, &x, sizeof b);
    constexpr Bits<T> sign = Bits<T>(1) << (8 * sizeof(T) - 1);
    return uint64_t((b & sign) ? Bits<T>(~b) : Bits<T>(b | sign));
}

template <class T> T from_ord(uint64_t o) {
    constexpr Bits<T> sign = Bits<T>(1) << (8 * sizeof(T) - 1);
    Bits<T> u = Bits<T>(o), b = (u & sign) ? Bits<T>(u & ~sign) : Bits<T>(~u);
    T x;
    std::memcpy(&x, &b, sizeof x);
    return x;
}

// The window [lo, hi] of the swept value in the format: clipped to the dimension's range, ends rounded inwards.
template <class T> std::pair<T, T> format_window(SweepOver over, double lo, double hi) {
    const double min = over == SweepOver::dot ? -1.0 : 0.0;
    lo = std::max(lo, min), hi = std::min(hi, 1.0);
    T l = T(lo), h = T(hi);
    if (double(l) < lo) l = std::nextafter(l, T(2));
    if (double(h) > hi) h = std::nextafter(h, T(-2));
    return {l, h};
}

// The points of one slice (of this shard): consecutive values of the format (exhaustive) or a sorted list.
template <class T> struct Points {
    bool exhaustive = false;
    uint64_t first_ord = 0;       // exhaustive: ord of point 0
    std::vector<T> values;        // scan
    uint64_t begin = 0, end = 0;  // this shard's points [begin, end) of the whole slice
    uint64_t overlap = 0;         // 1 when point 0 is the previous shard's last (pairs only, not statistics)
    uint64_t size() const { return end - begin; }
    T at(uint64_t k) const { return exhaustive ? from_ord<T>(first_ord + begin + k) : values[size_t(begin + k)]; }
};

template <class T> Points<T> make_points(const SweepOptions &opt, const SliceSpec &s, const StopToken &stop) {
    Points<T> p;
    const T lo = T(s.lo), hi = T(s.hi);
    uint64_t n = ord(hi) - ord(lo) + 1;
    p.exhaustive = s.exhaustive;
    if (s.exhaustive) {
        p.first_ord = ord(lo);
    } else {
        const uint64_t N = opt.points ? opt.points : kDefaultScanPoints;
        std::vector<double> v;
        v.reserve(size_t(N) + 2 * kExactWindowHalf * kDotWindowCentres.size() + 2);
        const uint64_t half = std::max<uint64_t>(2, N / 2), quarter = std::max<uint64_t>(2, N / 4);
        const double L = double(lo), H = double(hi);
        for (uint64_t k = 0; k < half; k++) v.push_back(L + (H - L) * double(k) / double(half - 1));
        stop.throw_if_requested();
        for (int side = 0; side < 2; side++) {
            const T end = side == 0 ? lo : hi;
            T step = std::abs(std::nextafter(end, side == 0 ? hi : lo) - end);
            double dmin = std::max(double(step), double(std::numeric_limits<T>::denorm_min()));
            double dmax = (H - L) / 2;
            if (!(dmax > dmin)) continue;
            for (uint64_t k = 0; k < quarter; k++) {
                double d =
                    std::exp(std::log(dmin) + (std::log(dmax) - std::log(dmin)) * double(k) / double(quarter - 1));
                v.push_back(side == 0 ? L + d : H - d);
            }
        }
        if (opt.over == SweepOver::dot && std::is_same_v<T, double>) {
            for (double c : kDotWindowCentres) {
                if (c < L || c > H) continue;
                uint64_t oc = ord(T(c)), a = std::max(ord(lo), oc - std::min<uint64_t>(oc, kExactWindowHalf)),
                         b = std::min(ord(hi), oc + kExactWindowHalf);
                for (uint64_t o = a; o <= b; o++) v.push_back(double(from_ord<T>(o)));
            }
        }
        v.push_back(L);
        v.push_back(H);
        p.values.reserve(v.size());
        for (double x : v) {
            T y = T(x);
            if (y < lo) y = lo;
            if (y > hi) y = hi;
            p.values.push_back(y);
        }
        std::sort(p.values.begin(), p.values.end());
        p.values.erase(std::unique(p.values.begin(), p.values.end()), p.values.end());
        n = p.values.size();
    }
    auto [b, e] = shard_range(opt.shard, n);
    p.begin = b > 0 ? b - 1 : b;  // one point of overlap: the pair across the shard boundary is this shard's
    p.overlap = b > 0 ? 1 : 0;
    p.end = e;
    return p;
}

template <class T> SlerpCase<T> make_case(const SweepOptions &opt, const SliceSpec &s, T x) {
    SlerpCase<T> c;
    if (opt.over == SweepOver::dot) {
        c.q0 = {T(1), T(0), T(0), T(0)};
        c.q1 = {x, T(std::sqrt((1 - double(x)) * (1 + double(x)))), T(0), T(0)};
        c.t = T(s.fixed_t);
    } else {
        for (int i = 0; i < 4; i++) c.q0[i] = T(s.q0[i]), c.q1[i] = T(s.q1[i]);
        c.t = x;
    }
    return c;
}

}  // namespace qc::sweep_detail
