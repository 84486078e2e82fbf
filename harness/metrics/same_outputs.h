// Implementations often agree to the bit on a case (one formula in several libraries, correctly rounded
// results), and the metrics are a function of (output, reference, op) alone: each distinct output and op of a
// case is measured once, all of them in one MetricEngine::measure_batch call (the same metrics as one measure()
// each), and the others copy its figures. One case at a time: add() every output, measure(), then clear().
// Used by the runner's sampling (run/runner.cpp) and the sweep (sweep/sweep.cpp).
#pragma once

#include "metrics/metrics.h"
#include "quatcheck/types.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace qc {

template <class T> class SameOutputs {
public:
    void clear() { distinct_.clear(), copies_.clear(), outs_.clear(), ops_.clear(); }
    // Output r of `slot` (whatever the caller indexes its figures by) with op: a new distinct output, or a copy of
    // an earlier slot's with the same bits and op.
    void add(const T r[4], Op op, size_t slot) {
        const uint64_t key = key_of(r, op);
        for (const Distinct &d : distinct_)
            if (d.key == key && d.op == op && std::memcmp(d.r, r, sizeof d.r) == 0) {
                copies_.push_back({slot, d.slot});
                return;
            }
        Distinct d{key, op, slot, {}};
        std::memcpy(d.r, r, sizeof d.r);
        distinct_.push_back(d);
        outs_.push_back({double(r[0]), double(r[1]), double(r[2]), double(r[3])});
        ops_.push_back(op);
    }
    // Every added slot's metrics into at(slot) (a CaseMetrics &): the distinct outputs in one batch, in the order
    // they were added, then the copies.
    template <class At> void measure(MetricEngine &metric, const SlerpReference &ref, At &&at) {
        metrics_.resize(distinct_.size());
        metric.measure_batch(reinterpret_cast<const double(*)[4]>(outs_.data()), ops_.data(), distinct_.size(), ref,
                             metrics_.data());
        for (size_t j = 0; j < distinct_.size(); j++) at(distinct_[j].slot) = metrics_[j];
        for (const auto &[slot, first] : copies_) at(slot) = at(first);
    }
    // The slots of the distinct outputs, in the order added, and (slot, the earlier slot it repeats) of the others.
    size_t distinct_count() const { return distinct_.size(); }
    size_t distinct_slot(size_t j) const { return distinct_[j].slot; }
    const std::vector<std::pair<size_t, size_t>> &copies() const { return copies_; }

private:
    struct Distinct {
        uint64_t key;
        Op op;
        size_t slot;
        T r[4];
    };
    // A hash of the output's bits and the op (equal outputs, equal keys; the bits are compared after it).
    static uint64_t key_of(const T r[4], Op op) {
        uint64_t h = 0x9E3779B97F4A7C15ull * (uint64_t(op) + 1);
        for (int i = 0; i < 4; i++) {
            uint64_t bits = 0;
            std::memcpy(&bits, &r[i], sizeof r[i]);
            h = (h ^ bits) * 0x100000001b3ull;
            h ^= h >> 29;
        }
        return h;
    }
    std::vector<Distinct> distinct_;
    std::vector<std::pair<size_t, size_t>> copies_;
    std::vector<std::array<double, 4>> outs_;  // measure_batch's arguments and results
    std::vector<Op> ops_;
    std::vector<CaseMetrics> metrics_;
};

}  // namespace qc
