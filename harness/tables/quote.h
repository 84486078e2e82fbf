// Text read from plugins and report files, quoted for the languages the reports are written in: shell
// commands (the `reproduce` columns of conformance.csv and squad_worst_cases.csv, the cards, junit.xml) and
// markdown (leaderboard.md, compare.md). A name can hold anything a tampered CSV puts there; quoted here, it
// stays one word or one code span.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace qc {

// WORD as one POSIX shell word: unchanged when it is made only of [A-Za-z0-9_@%+=:,./-] (and not empty),
// else in single quotes, each ' inside written as '\''. Pasted into sh, the word is exactly WORD.
std::string shell_quote(std::string_view word);

// The words quoted and joined by single spaces.
std::string shell_join(const std::vector<std::string> &argv);

// TEXT as one markdown code span that is also one table cell: fenced with one backtick more than its longest
// run of backticks (padded with a space where it starts or ends with one), `|` escaped, line breaks and other
// control characters as spaces. Inside a code span nothing else is markdown or HTML.
std::string md_code(std::string_view text);

// TEXT as plain markdown text in a table cell: the characters that start markup or HTML (\ ` * _ [ ] < > | ~)
// backslash-escaped, line breaks and other control characters as spaces.
std::string md_text(std::string_view text);

}  // namespace qc
