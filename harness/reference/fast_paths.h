// Issue 29's faster paths, each with a switch back to the path it replaced, so that one `quatcheck bench` run
// times both side by side (BM_Runner/fast against BM_Runner/fast_before), and the tests show that both give the
// same figures. Every path computes bit-identical results with the switch on or off; only the time differs.
// Process-wide; the CLI sets them from QC_FORCE_SCALAR (harness/cli: the only place that reads the
// environment), the bench and the tests set them directly.
#pragma once

#include <atomic>

namespace qc {

struct FastPaths {
    bool vector_reference = true;  // the batched reference, four cases per AVX2 lane group where the CPU has
                                   // AVX2 and FMA (reference/fast_reference.h); off: one case at a time, scalar
    bool quick_metric = true;      // the fast metric engine's common-case path (metrics/metrics_dd.cpp); off: the
                                   // double-double engine as it was
};

inline std::atomic<FastPaths> &fast_paths_setting() {
    static std::atomic<FastPaths> s{FastPaths{}};
    return s;
}
inline void set_fast_paths(const FastPaths &p) { fast_paths_setting().store(p); }
inline FastPaths fast_paths() { return fast_paths_setting().load(std::memory_order_relaxed); }

// Today's paths with everything new turned off: what BM_Runner/fast_before times.
inline FastPaths paths_before_issue_29() { return {false, false}; }

}  // namespace qc
