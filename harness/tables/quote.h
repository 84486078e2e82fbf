// The one quoting layer: text read from plugins and report files, quoted for every language the tool writes.
// Shell commands (the `reproduce` columns of conformance.csv and squad_worst_cases.csv, the cards, junit.xml),
// markdown (leaderboard.md, compare.md, the findings' READMEs) and the source files `quatcheck findings`
// generates (C/C++, JavaScript, Python, sh; their templates are filled by tables/source_template.h, which
// accepts no raw value). A name can hold anything a tampered CSV puts there; quoted here, it stays one word,
// one string literal, one comment line or one code span.
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

// TEXT as a C and C++ string literal, quotes included: printable ASCII as is (but " \\ and ?, escaped; ? so
// that no trigraph forms), every other byte as a three-digit octal escape. The literal's bytes are TEXT's.
std::string c_literal(std::string_view text);

// TEXT as a JavaScript string literal, quotes included (JSON with every non-ASCII character and control
// character escaped as \uXXXX; also a valid Python string literal). Invalid UTF-8 bytes become U+FFFD.
std::string js_literal(std::string_view text);
// TEXT as a Python string literal: the same as js_literal (JSON's escapes are Python's).
inline std::string py_literal(std::string_view text) { return js_literal(text); }
// TEXT as a Rust string literal, quotes included (ASCII: every other character as \u{X}).
std::string rs_literal(std::string_view text);
// TEXT as a Java string literal, quotes included: js_literal's ASCII form, whose \uXXXX escapes javac translates
// before it reads the literal, so each one for a character below U+0020 is written as an octal escape instead
// (a translated line break or quote would end the literal); the others stand for characters that cannot.
std::string java_literal(std::string_view text);

// TEXT as one line of plain text safe inside any comment or docstring of C, C++, JavaScript, Python and sh:
// letters, digits, space and -_.,:;()+=/@#!'~^&[]{}<> stay; every other byte (line breaks, quotes,
// backslashes, `*`, `?`, `$`, backticks, `%` itself, control and non-ASCII bytes) is written %XX. Nothing in
// the result can end a comment, a docstring or a line, or continue one (no backslash, no ??/ trigraph).
std::string comment_text(std::string_view text);

// TEXT as a fenced markdown code block of language LANG: the fence is one backtick longer than TEXT's longest
// run of backticks (at least three), so no line of TEXT can close it.
std::string md_fence(std::string_view text, std::string_view lang);

}  // namespace qc
