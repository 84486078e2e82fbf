// The one rule that turns --impl filters into implementations, for every command that evaluates them
// (run, conform, threshold, bench, squad, curves): README.md "Command line".
#pragma once

#include "plugins/impls.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace qc {

// '*' matches any run of characters, '?' one character.
bool glob_match(const std::string &pattern, const std::string &text);

// Whether a filter names an implementation: its name ("seed-c.f32"), its family ("seed-c") or a glob of
// its name ("seed-*", "*.f64").
bool filter_matches(const std::string &filter, const Impl &impl);

// The implementations a command works on, in catalogue order, each once.
// - Without filters: every usable implementation except the groups broken (planted defects: selected only
//   when a filter names them) and bench (noop: timing only).
// - With filters: every usable implementation that some filter matches, except that the bench group (noop, not
//   an interpolation) is matched only by its exact name or family, never by a glob: `--impl '*'` is every
//   implementation under test, the broken ones included.
// usable: what the command can evaluate at all (e.g. squad support); empty = every implementation.
// Throws UsageError for the first filter that matches no usable implementation; `what` names them in the
// message ("implementation", "squad implementation").
std::vector<const Impl *> select_implementations(const std::vector<Impl> &catalogue,
                                                 const std::vector<std::string> &filters,
                                                 const std::function<bool(const Impl &)> &usable = {},
                                                 std::string_view what = "implementation");

// A selected (implementation, op) pair.
struct ImplOp {
    const Impl *impl;
    Op op;
};

// The (implementation, op) pairs of the selection rule above and the ops (default slerp and nlerp), each
// implementation with the ops it supports (squad is never paired here: `quatcheck squad` selects its own).
// Throws UsageError when a filter matches nothing.
std::vector<ImplOp> select_impls(const std::vector<Impl> &catalogue, const std::vector<std::string> &filters,
                                 const std::vector<Op> &ops);

}  // namespace qc
