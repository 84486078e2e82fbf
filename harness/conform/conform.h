// The conformance driver: for every selected implementation x op x property, run the property's cases
// (RapidCheck generators, shrinking the first failure toward a simple case) or its probe, and give a
// verdict: pass, fail, known (a deviation the built-in implementation documents), skip (not applicable).
// Results are stored by task index, so they do not depend on the number of threads.
#pragma once

#include "conform/properties.h"
#include "run/runner.h"

#include <string>
#include <vector>

namespace qc {

enum class Verdict { pass, fail, known, skip };
const char *to_string(Verdict v);

struct ConformOptions {
    uint64_t seed = 1;
    uint64_t cases = 300;                 // generated cases per implementation x op x property
    int jobs = 0;                         // 0 = all cores
    std::vector<std::string> properties;  // empty = all
    int shrink_budget = 400;              // checks spent shrinking a failure
    ReferenceMode reference = kDefaultReferenceMode;
};

struct ConformRow {
    const Impl *impl = nullptr;
    Op op = Op::slerp;
    const Property *property = nullptr;
    Verdict verdict = Verdict::skip;
    uint64_t cases = 0;
    CaseOutcome worst;          // the case with the largest measured / tolerance
    CaseValues counterexample;  // fail/known: the shrunk failing case; pass: the worst case
    std::string known_why;
};

// Throws UsageError for an unknown property name.
std::vector<const Property *> select_properties(const std::vector<std::string> &names);

// A stop request (ctx.stop) throws Interrupted; the out-of-process implementations carry the catalogue's context.
std::vector<ConformRow> conform(const std::vector<ImplOp> &selected, const ConformOptions &options,
                                const RunContext &ctx = {});

// One case of one property (what `quatcheck conform --case` replays): verdict pass, fail or known.
ConformRow check_case(const Impl &impl, Op op, const Property &property, const CaseValues &c, ReferenceMode mode);

// conformance.csv: impl,op,property,verdict,cases,tolerance,worst,counterexample,reproduce.
// plugin_args: the --plugin options to repeat in the reproduce commands, shell-quoted (tables/quote.h), each
// with a space in front.
std::string conformance_csv(const std::vector<ConformRow> &rows, const std::string &plugin_args);
std::string reproduce_command(const ConformRow &row, const std::string &plugin_args);

}  // namespace qc
