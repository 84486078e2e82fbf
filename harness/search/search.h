// Worst-case search (Zimmermann-style): random sampling gives a lower bound on an implementation's largest
// error; the search spends the same number of reference evaluations to push that bound up. Half the budget
// is the region's own sample (cases 0 .. n/2 - 1 of the run's stream, whose errors the runner has already
// measured); the other half climbs from the K worst cases found so far. Each step mutates one of them:
//   - ulp perturbations of one or two components of q0, q1 or of t,
//   - a small rotation of q1 (size 2^-u times the arc, u random), which moves both the arc angle and plane,
//   - bisection of the arc angle or of t between the case and another kept case,
// evaluates the mutant against the reference and keeps it when it beats the weakest kept case. Early steps
// use large moves (resampling around the kept cases), later ones ulp-sized moves. Deterministic per seed.
// In process every step's mutant is drawn from the pool the previous step left; out of process (plugins,
// adapters, --isolate: a call costs a round trip) mutants are drawn by generations of 8 to 4096 from the
// pool as it stands, one round trip each, and a generation ends at its first step that changes the pool, so that
// the path is the same as one step at a time (search.cpp; --search-max-block 1 climbs one case per call).
// The search is two parts: the climb (search.cpp: pool, mutation, acceptance) and the screen (screen.h: when
// the screens apply, the estimates, certification and the interval comparisons).
#pragma once

#include "isolate/process_plugin.h"
#include "plugins/contain.h"
#include "plugins/impls.h"
#include "run/runner.h"
#include "reference/reference.h"
#include "regions/regions.h"

#include <limits>
#include <optional>
#include <vector>

namespace qc {

// A case the search found, exact in the implementation's format.
struct FoundCase {
    double q0[4] = {0, 0, 0, 0}, q1[4] = {0, 0, 0, 0}, t = 0;
    double angle_err_rad = 0;  // +inf for a non-finite output
};

// The search's result for one row of a run (the search rows are parallel to RunResult::rows): with as many
// reference evaluations as sampling, its maximum (NaN when the search did not run on the row: a shard, an
// interrupted run, a failed implementation) and its worst cases, worst first.
struct SearchRow {
    double max_angle_err_rad = std::numeric_limits<double>::quiet_NaN();
    std::vector<FoundCase> worst;
    std::optional<FoundCase> finite_max;  // the case of max_angle_err_rad (worst may hold only non-finite ones)
    uint64_t discarded = 0;               // SearchOutcome::discarded
};

// How the search runs (what run and merge pass down from the CLI).
struct SearchSettings {
    // Out of process, the largest generation of mutants sent in one batch (--search-max-block): 1 climbs one
    // case per call, the in-process path; at most the protocol's largest batch.
    size_t max_block = kProcessMaxCases;
    bool screen = true;  // false turns the screen (screen.h) off, for the test that it changes nothing
    // In process: false (the default, --search-mode steps) climbs one mutant per step, each drawn from the pool the
    // previous step left; true (--search-mode generations, issue 45) draws 1 to 16 mutants at a time from the pool
    // as it stands, computes their outputs in one batch and takes them as steps up to the first that changes the
    // pool. Both follow the same path and report the same figures; generations are not the default because they
    // cost about 5 % more search CPU in process (scripts/search-quality, docs/worst-case-search.md).
    bool generations = false;
};

struct SearchOutcome {
    double max_angle_err_rad = 0;  // over finite outputs of every case the search evaluated
    uint64_t nonfinite = 0;
    uint64_t evaluations =
        0;  // cases charged to the search (= the sampling's count): n/2 sampled, n - n/2 climbing steps
    uint64_t pool_repeats = 0;  // climbing steps whose mutant was already in the pool (measured before, not again)
    // mutants drawn in a generation after one of its steps changed the pool: evaluated, then dropped (a step
    // drawn from the changed pool replaces each), so not charged to the budget
    uint64_t discarded = 0;
    std::vector<FoundCase> worst;         // the worst `keep` cases, worst first
    std::optional<FoundCase> finite_max;  // the case of max_angle_err_rad
    ReferenceStats reference;             // reference work done by the climbing half
    // The implementation failed (crashed, hung, wrote out of bounds) on a batch of the search: the search
    // stopped there, as the sampling's rows do, and the row takes this status (search_worst_cases()), its
    // case in failure.failed_case (plugins/contain.h). Nothing else of the outcome is reported then.
    Failure failure;
};

// sampled_err[i]: the angle error of case i of (seed, region) as the runner measured it (+inf for a
// non-finite output); its size n is the sampling budget. The search uses the first n/2 and climbs n - n/2
// steps, each a new reference evaluation unless its mutant is already in the pool (pool_repeats) or, under
// --reference fast, the screen shows that it cannot enter the pool (reference.screened).
// A stop request (stop) throws Interrupted between steps.
// The negative control of Search.GenerationsFollowTheStepsExactly: generations that go on past a step that changed
// the pool (their later mutants drawn from a pool that no longer stands). Tests only.
void set_search_rewind_damaged(bool damaged);

template <class T> SearchOutcome search_row(const Impl &impl, Op op, Region region, uint64_t seed, ReferenceMode mode,
                                            const std::vector<double> &sampled_err, int keep,
                                            const SearchSettings &settings = {}, const StopToken &stop = {});

// The search stage: the worst-case search on every row of an aggregated, complete run, from the rows' per-case
// errors in the parts, over `jobs` threads; deterministic per seed whatever `jobs` is. Returns one search row
// per row of the result. Adds its reference work to the result's counters; an implementation that fails
// during its search fails its row (Row::status).
std::vector<SearchRow> search_worst_cases(RunResult &result, int jobs, const SearchSettings &settings = {},
                                          const StopToken &stop = {});

}  // namespace qc
