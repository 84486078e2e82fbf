// The one comparison seam (Comparator): the reference engine and the metric engine of one precision, built together in one
// mode. Every driver that measures an implementation's output against the reference (the runner, the search,
// the sweep, the threshold study, the report's re-evaluation of the worst cases, replay, conform) holds one of
// these, and says at the call which mode it wants: there is no default, so --reference fast cannot silently
// become MPFR (or the other way) anywhere below the CLI.
#pragma once

#include "metrics/metrics.h"
#include "reference/reference.h"

namespace qc {

struct Comparator {
    Comparator(Precision precision, ReferenceMode mode) : reference(precision, mode), metric(precision, mode) {}
    ReferenceMode mode() const { return reference.mode(); }

    ReferenceEngine reference;
    MetricEngine metric;
};

}  // namespace qc
