// Implementations often agree to the bit on a case (one formula in several libraries, correctly rounded
// results), and the metrics are a function of (output, reference, op) alone: each distinct output and op of a
// case is measured once and the others copy its figures. SameOutputs finds the earlier equal output of a case.
#pragma once

#include "quatcheck/types.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace qc {

template <class T> class SameOutputs {
public:
    static constexpr size_t npos = size_t(-1);
    // Call before each case.
    void clear() { seen_.clear(); }
    // The slot of an earlier output of this case with the same bits and op as r, or npos after recording r
    // under `slot` (whatever the caller indexes its figures by).
    size_t find_or_add(const T r[4], Op op, size_t slot) {
        const uint64_t key = key_of(r, op);
        for (const Seen &s : seen_)
            if (s.key == key && s.op == op && std::memcmp(s.r, r, sizeof s.r) == 0) return s.slot;
        Seen s{key, op, slot, {}};
        std::memcpy(s.r, r, sizeof s.r);
        seen_.push_back(s);
        return npos;
    }

private:
    struct Seen {
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
    std::vector<Seen> seen_;
};

}  // namespace qc
