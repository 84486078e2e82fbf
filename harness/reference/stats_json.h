// ReferenceStats as JSON: the one serialisation used by run.json, threshold.json and shard.bin headers; and
// the reference mode as it is written into the files quatcheck reads back (shard.bin, sweep_state.json).
#pragma once

#include "quatcheck/types.h"
#include "reference/reference.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>

namespace qc {

// The key of the reference mode in every file read back (shard.bin's header, sweep_state.json's identity).
inline constexpr const char *kReferenceModeKey = "reference_mode";

inline void put_reference_mode(nlohmann::json &j, ReferenceMode mode) { j[kReferenceModeKey] = to_string(mode); }

// The mode under kReferenceModeKey of j, checked: throws InputError "merge: WHERE: ..." when it is missing, not
// a string or not fast/mpfr.
inline ReferenceMode get_reference_mode(const nlohmann::json &j, const std::string &where) {
    const auto it = j.find(kReferenceModeKey);
    if (it == j.end() || !it->is_string())
        throw InputError(
            fmt::format("merge: {}: no {} (written by an older quatcheck: rerun it)", where, kReferenceModeKey));
    const auto mode = parse_reference_mode(it->get<std::string>());
    if (!mode) throw InputError(fmt::format("merge: {}: unknown reference mode '{}'", where, it->get<std::string>()));
    return *mode;
}

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
