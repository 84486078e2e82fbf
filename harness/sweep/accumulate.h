// quatcheck sweep's per-row accumulation (sweep.cpp's own header): the error histogram, a row's statistics over
// the points it evaluated (RowAcc), its edge candidates, and the displacement jumps they are found by.
#pragma once

#include "metrics/metrics.h"
#include "reference/reference.h"
#include "sweep/sweep.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace qc::sweep_detail {

constexpr int kHistPerOctave = 64, kHistMinExp = -80, kHistMaxExp = 12;
constexpr int kHistBins = (kHistMaxExp - kHistMinExp) * kHistPerOctave + 2;

inline int hist_bin(double e) {
    if (!(e >= std::ldexp(1.0, kHistMinExp))) return 0;  // below 2^-80 (and 0)
    if (!std::isfinite(e)) return kHistBins - 1;
    int b = 1 + int(std::floor((std::log2(e) - kHistMinExp) * kHistPerOctave));
    return std::min(b, kHistBins - 1);
}
inline double hist_upper(int b) {
    if (b == 0) return std::ldexp(1.0, kHistMinExp);
    if (b == kHistBins - 1) return INFINITY;
    return std::exp2(kHistMinExp + double(b) / kHistPerOctave);
}

struct Candidate {
    uint64_t k = 0;  // the pair (k - 1, k) of the shard's points
    double jump = 0, threshold = 0;
    double delta_below[4], delta_above[4];
    double err_below = 0, err_above = 0;
};

struct RowAcc {
    uint64_t cases = 0, nonfinite = 0;
    double max_angle = -1, max_ulp1 = 0;
    uint64_t argmax = 0;
    std::vector<uint64_t> hist = std::vector<uint64_t>(kHistBins, 0);
    std::vector<double> curve_max = std::vector<double>(kCurveBins, 0.0);
    std::vector<uint64_t> curve_cases = std::vector<uint64_t>(kCurveBins, 0);
    std::vector<Candidate> candidates;

    // Point k's figures (in the block's own range): its metrics, angle error and curve bin; its histogram bin is
    // counted apart (count_hist: a block's bins row by row, each row's histogram in one pass).
    void count(uint64_t k, const CaseMetrics &m, double err, int cb) {
        cases++;
        nonfinite += m.nonfinite;
        if (err > max_angle || (err == max_angle && k < argmax)) max_angle = err, argmax = k;
        if (!m.nonfinite) max_ulp1 = std::max(max_ulp1, m.ulp1);
        curve_max[size_t(cb)] = std::max(curve_max[size_t(cb)], err);
        curve_cases[size_t(cb)]++;
    }

    void count_hist(double err) { hist[size_t(hist_bin(err))]++; }

    void add(const RowAcc &o) {
        cases += o.cases, nonfinite += o.nonfinite;
        if (o.max_angle > max_angle || (o.max_angle == max_angle && o.argmax < argmax))
            max_angle = o.max_angle, argmax = o.argmax;
        max_ulp1 = std::max(max_ulp1, o.max_ulp1);
        for (int b = 0; b < kHistBins; b++) hist[size_t(b)] += o.hist[size_t(b)];
        for (int b = 0; b < kCurveBins; b++)
            curve_max[size_t(b)] = std::max(curve_max[size_t(b)], o.curve_max[size_t(b)]),
            curve_cases[size_t(b)] += o.curve_cases[size_t(b)];
        candidates.insert(candidates.end(), o.candidates.begin(), o.candidates.end());
    }
};

// A point's outputs grouped by value, as metrics/same_outputs.h's SameOutputs groups them (the same bytes and op:
// the same figures, measured once), for the sweep's hot loop: the outputs compared as machine words where
// SameOutputs hashes them and copies a record per output (a store-to-load stall that was 3 % of a sweep point).
// One point at a time: clear(), add() every row's output, then measure the distinct ones (outs(), ops(), slot()).
template <class T> class DistinctOutputs {
public:
    void clear() { n_ = 0, copies_.clear(); }
    // Output r of `slot` with op: a new distinct output, or a copy of an earlier slot's with the same bytes and op.
    void add(const T r[4], Op op, size_t slot) {
        Word w;
        std::memcpy(w.data(), r, sizeof w);
        for (size_t j = 0; j < n_; j++)
            if (same_words(words_[j], w) && ops_[j] == op) {
                copies_.push_back({slot, slots_[j]});
                return;
            }
        if (n_ == slots_.size())
            words_.emplace_back(), ops_.emplace_back(), slots_.emplace_back(), outs_.emplace_back();
        words_[n_] = w, ops_[n_] = op, slots_[n_] = slot;
        for (int c = 0; c < 4; c++) outs_[n_][size_t(c)] = double(r[c]);
        n_++;
    }
    size_t count() const { return n_; }
    const double (*outs() const)[4] { return reinterpret_cast<const double(*)[4]>(outs_.data()); }
    const Op *ops() const { return ops_.data(); }
    size_t slot(size_t j) const { return slots_[j]; }
    // (slot, the earlier slot whose output it repeats), in the order added
    const std::vector<std::pair<size_t, size_t>> &copies() const { return copies_; }

private:
    using Word = std::array<uint64_t, 4 * sizeof(T) / sizeof(uint64_t)>;
    static_assert(sizeof(Word) == sizeof(T[4]));
    // word by word (std::array's == calls memcmp, which cost more than the rest of add())
    static bool same_words(const Word &a, const Word &b) {
        bool same = true;
        for (size_t w = 0; w < a.size(); w++) same = same && a[w] == b[w];
        return same;
    }
    static_assert(sizeof(std::array<double, 4>) == sizeof(double[4]));  // outs() as double[4] rows
    size_t n_ = 0;
    std::vector<Word> words_;
    std::vector<Op> ops_;
    std::vector<size_t> slots_;
    std::vector<std::array<double, 4>> outs_;
    std::vector<std::pair<size_t, size_t>> copies_;
};

// 2 |a - b|: the jump between two displacements (radians of rotation to first order); NaN = non-finite output.
inline double jump_between(const double *a, const double *b) {
    bool fa = std::isfinite(a[0]), fb = std::isfinite(b[0]);
    if (!fa || !fb) return fa == fb ? 0.0 : INFINITY;
    double s = 0;
    for (int i = 0; i < 4; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return 2 * std::sqrt(s);
}

// The displacement of an output from its target (R for slerp, N for nlerp), sign-aligned; NaN if non-finite.
template <class T> void displacement(const T out[4], const DDQuat &target, double d[4]) {
    double dot = 0;
    bool finite = true;
    for (int i = 0; i < 4; i++) finite = finite && std::isfinite(out[i]), dot += double(out[i]) * target[i].hi;
    if (!finite) {
        for (int i = 0; i < 4; i++) d[i] = NAN;
        return;
    }
    const double s = dot < 0 ? -1.0 : 1.0;
    for (int i = 0; i < 4; i++) d[i] = (s * double(out[i]) - target[i].hi) - target[i].lo;
}

// 2 |mean(above) - mean(below)| of displacements: a branch moves every displacement past it by the same step;
// rounding noise averages out and a lone outlier is diluted. Non-finite on either side: infinite (or 0 when
// both sides are entirely non-finite).
inline double persistent_step(const std::vector<const double *> &below, const std::vector<const double *> &above) {
    if (below.empty() || above.empty()) return INFINITY;
    double mb[4] = {0, 0, 0, 0}, ma[4] = {0, 0, 0, 0};
    bool fb = true, fa = true;
    for (const double *p : below) {
        fb = fb && std::isfinite(p[0]);
        for (int c = 0; c < 4; c++) mb[c] += p[c] / double(below.size());
    }
    for (const double *p : above) {
        fa = fa && std::isfinite(p[0]);
        for (int c = 0; c < 4; c++) ma[c] += p[c] / double(above.size());
    }
    if (!fb || !fa) return INFINITY;
    return jump_between(mb, ma);
}

}  // namespace qc::sweep_detail
