// What the direct comparisons of tests/engine_direct/*.cpp share (issue 41: "Each adapter's test calls the library
// directly and compares with the adapter's output: bit-identical on 100 cases, with a negative control"). Each file
// is its own test binary, linked to one engine library: it calls the library's routine in its own code and the
// adapter through the engine module the build wrote (builtin_impls() loads BUILD/engines), on the same 100 cases.
//
// The cases: four unit keys and a t in [0, 1] each, from a fixed seed; every fourth case has its second key within
// about 0.1 degree of the first (the near-equal branches), and about half have a negative key dot product.
// Negative controls, on every comparison: (1) the comparison sees a one-ulp change in one output component of one
// case; (2) the library called on inputs nudged by one ulp differs from the adapter on some case, so the cases
// reach the routine's inputs (a comparison that ignored them, or an adapter that dropped t, would be caught).
#pragma once

#include "quatcheck/registry.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace qc::direct {

inline const BuiltinImpl *engine(const std::string &family) {
    for (const auto &b : builtin_impls())
        if (family == b.table->family) return &b;
    return nullptr;
}

constexpr int kCases = 100;

template <class T> struct Case {
    std::array<std::array<T, 4>, 4> q;  // keys q0..q3 (two-key routines use q0, q1; squad q0, q1 and q2, q3 as s0, s1)
    T t;
    size_t segment;  // for a key-track curve over q0..q3: segment i % 3
};

// Case i of 100, the same for every library and precision (drawn in double, then rounded to T).
template <class T> std::vector<Case<T>> cases() {
    std::mt19937_64 g(20261203);
    std::normal_distribution<double> n(0, 1);
    std::uniform_real_distribution<double> u(0, 1);
    auto unit = [&](std::array<double, 4> q) {
        const double s = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (double &c : q) c /= s;
        return q;
    };
    std::vector<Case<T>> out(kCases);
    for (int i = 0; i < kCases; i++) {
        std::array<std::array<double, 4>, 4> q;
        for (auto &k : q) k = unit({n(g), n(g), n(g), n(g)});
        if (i % 4 == 3)
            q[1] = unit({q[0][0] + 1e-3 * n(g), q[0][1] + 1e-3 * n(g), q[0][2] + 1e-3 * n(g), q[0][3] + 1e-3 * n(g)});
        for (int k = 0; k < 4; k++)
            for (int c = 0; c < 4; c++) out[i].q[k][c] = static_cast<T>(q[k][c]);
        out[i].t = static_cast<T>(u(g));
        out[i].segment = static_cast<size_t>(i % 3);
    }
    return out;
}

// The cases with t and every key component moved one ulp up.
template <class T> std::vector<Case<T>> nudged(std::vector<Case<T>> cs) {
    const T up = std::numeric_limits<T>::infinity();
    for (auto &c : cs) {
        c.t = std::nextafter(c.t, up);
        for (auto &k : c.q)
            for (T &v : k) v = std::nextafter(v, up);
    }
    return cs;
}

// One routine on one case, writing (w, x, y, z) to out.
template <class T> using Eval = std::function<void(const Case<T> &, T out[4])>;

// The cases where the outputs of A and B differ in any bit (a NaN equals only the same NaN bits); `first` names
// the first such case with both outputs (hexfloats).
template <class T> int mismatches(const std::vector<Case<T>> &cs, const std::vector<std::array<T, 4>> &a,
                                  const std::vector<std::array<T, 4>> &b, std::string *first) {
    int n = 0;
    for (size_t i = 0; i < cs.size(); i++) {
        if (std::memcmp(a[i].data(), b[i].data(), sizeof a[i]) == 0) continue;
        if (n++ == 0 && first) {
            std::ostringstream m;
            m << std::hexfloat << "case " << i << ": adapter";
            for (T v : a[i]) m << ' ' << v;
            m << ", library";
            for (T v : b[i]) m << ' ' << v;
            *first = m.str();
        }
    }
    return n;
}

template <class T> std::vector<std::array<T, 4>> outputs(const Eval<T> &f, const std::vector<Case<T>> &cs) {
    std::vector<std::array<T, 4>> out(cs.size());
    for (size_t i = 0; i < cs.size(); i++) f(cs[i], out[i].data());
    return out;
}

// The adapter's output equals the library's, bit for bit, on all 100 cases; and both negative controls.
template <class T> void expect_identical(const std::string &what, const Eval<T> &adapter, const Eval<T> &library) {
    const auto cs = cases<T>();
    const auto a = outputs(adapter, cs), b = outputs(library, cs);
    std::string first;
    EXPECT_EQ(mismatches(cs, a, b, &first), 0) << what << ": the adapter differs from the library, first at " << first;
    auto altered = b;
    const int i = kCases / 2;
    altered[i][2] = std::nextafter(altered[i][2], std::numeric_limits<T>::infinity());
    EXPECT_EQ(mismatches(cs, a, altered, nullptr), 1) << what << ": negative control: a one-ulp change not seen";
    EXPECT_GT(mismatches(cs, a, outputs(library, nudged(cs)), nullptr), 0)
        << what << ": negative control: the library on inputs one ulp off gives the adapter's outputs on every case";
}

// The f32 or the f64 one of a routine's two slots, for the precision T.
template <class T, class F32, class F64> auto pick(F32 f32, F64 f64) {
    if constexpr (sizeof(T) == sizeof(float)) return f32;
    else return f64;
}

// The library's quaternion from a case's key K, through the library's own (w, x, y, z) or (x, y, z, w) maker.
template <class Q, class T> Q wxyz(const std::array<T, 4> &k) { return Q(k[0], k[1], k[2], k[3]); }

}  // namespace qc::direct

// This binary is built only beside the module, so a family that did not load is a failure, not a skip.
#define QC_DIRECT_ENGINE(var, family)                                              \
    const ::qc::BuiltinImpl *var = ::qc::direct::engine(family);                   \
    ASSERT_NE(var, nullptr) << "the engine module with '" family "' did not load " \
                            << "(quatcheck list --modules says why)"
