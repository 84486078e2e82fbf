// ReferenceStats as JSON: the one serialisation used by run.json, threshold.json and shard.bin headers.
#pragma once

#include "reference/reference.h"

#include <nlohmann/json.hpp>

namespace qc {

inline void to_json(nlohmann::json &j, const ReferenceStats &s) {
    j = {{"cases", s.cases},
         {"recomputed", s.recomputed},
         {"disagreements", s.disagreements},
         {"escalations", s.escalations},
         {"max_bits", s.max_bits},
         {"fast_certified", s.fast_certified},
         {"fallbacks",
          {{"undecided_sign", s.fallback_undecided_sign},
           {"bound_too_wide", s.fallback_bound_too_wide},
           {"ill_conditioned", s.fallback_ill_conditioned}}},
         {"validation_samples", s.validation_samples},
         {"fast_bound_violations", s.fast_bound_violations},
         {"max_error_to_bound", s.max_error_to_bound},
         {"search_screen",
          {{"screened", s.screened},
           {"screened_dd", s.screened_dd},
           {"deferred", s.deferred},
           {"deferred_certified", s.deferred_certified},
           {"checks", s.screen_checks},
           {"violations", s.screen_violations}}}};
}

// Strict on the fields every version wrote; the fast-path counters default to 0 (files from before them).
inline void from_json(const nlohmann::json &j, ReferenceStats &s) {
    s.cases = j.at("cases"), s.recomputed = j.at("recomputed"), s.disagreements = j.at("disagreements");
    s.escalations = j.at("escalations"), s.max_bits = j.at("max_bits");
    s.fast_certified = j.value("fast_certified", uint64_t(0));
    if (j.contains("fallbacks")) {
        const auto &f = j.at("fallbacks");
        s.fallback_undecided_sign = f.at("undecided_sign");
        s.fallback_bound_too_wide = f.at("bound_too_wide");
        s.fallback_ill_conditioned = f.at("ill_conditioned");
    }
    s.validation_samples = j.value("validation_samples", uint64_t(0));
    s.fast_bound_violations = j.value("fast_bound_violations", uint64_t(0));
    s.max_error_to_bound = j.value("max_error_to_bound", 0.0);
    if (j.contains("search_screen")) {
        const auto &g = j.at("search_screen");
        s.screened = g.at("screened"), s.screen_checks = g.at("checks"), s.screen_violations = g.at("violations");
        s.screened_dd = g.value("screened_dd", uint64_t(0));
        s.deferred = g.value("deferred", uint64_t(0));
        s.deferred_certified = g.value("deferred_certified", uint64_t(0));
    }
}

}  // namespace qc
