// CLI11 validators shared by the commands. Each checks an option's text before CLI11 converts it (CLI11 would
// wrap --seed -1 to 2^64-1 and read --cases 1e3 as 1), so a bad value is refused while the command line is
// parsed, before any plugin is loaded or any folder touched, with one line and exit 2 (harness/cli/main.cpp):
//   quatcheck: run: --jobs: expected 0 (all cores) to 1024 threads, got '2000'
// A validator of a repeatable option checks every value. Checks between options (--worst-k against --cases,
// --t only with --over dot) stay in the command.
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace qc::cli {

// A finite number in decimal or, as the tables write them, hexfloat ("0x1.6p-1", "-0x1p-2"); the whole text,
// no spaces. nullopt otherwise (also for inf and nan).
std::optional<double> strict_number(std::string_view s);

// A value as an error message quotes it: at most `limit` bytes (then "..."), control characters as '?' (the message
// stays one line). Also any text from elsewhere printed on one terminal line (bench: numpy's state).
std::string shown(std::string_view v, size_t limit = 64);

// A whole number in decimal digits (a leading '-' allowed) within [lo, hi]; else "expected EXPECTED, got 'TEXT'".
CLI::Validator whole_in(long long lo, long long hi, const std::string &expected);
// A whole number in decimal digits for which ok(n) holds (and within long long); else as whole_in.
CLI::Validator whole_where(std::function<bool(long long)> ok, const std::string &expected);
// --seed: 0 to 2^64-1 in decimal digits.
CLI::Validator seed_number();
// A finite number (strict_number) for which ok(x) holds; else "expected EXPECTED, got 'TEXT'".
CLI::Validator number_where(std::function<bool(double)> ok, const std::string &expected);
// A finite number >= lo: "expected a finite number >= LO, got 'TEXT'".
CLI::Validator at_least(double lo);
// K/N with 1 <= K <= N, as parse_shard (run/runner.h) reads it (run --shard, sweep --shard).
CLI::Validator shard_spec();
// LO:HI, two finite numbers with LO <= HI (sweep --window).
CLI::Validator window_spec();
// Finite numbers separated by spaces, commas or tabs (conform --case); how many, and whether each is
// representable, depend on the property and the implementation and are checked by the command.
CLI::Validator number_list();
// A name parse(text) knows (parse returns an optional); else "unknown WHAT 'TEXT' (expected EXPECTED)".
template <class Parse> CLI::Validator known_name(Parse parse, const std::string &what, const std::string &expected) {
    return CLI::Validator(
        [=](std::string &v) -> std::string {
            if (parse(v)) return {};
            return fmt::format("unknown {} '{}' (expected {})", what, shown(v), expected);
        },
        "");
}

}  // namespace qc::cli
