// tables/quote.h: shell words and markdown code spans for text read from plugins and report files (issue 28).
#include "tables/quote.h"

#include "run_binary.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace qc {
namespace {

// What sh makes of a word: run `printf '%s' WORD` and read it back.
std::string through_sh(const std::string &quoted) { return test::sh("printf '%s' " + quoted).output; }

TEST(Quote, ShellWordsSurviveSh) {
    for (std::string w : {"plain-name.f64", "", "two words", "it's", "'", "''", "$(touch /nonexistent/X)", "a;b|c&d",
                          "\"q\"", "back\\slash", "new\nline", "`x`", "*", "~", "#c"}) {
        EXPECT_EQ(through_sh(shell_quote(w)), w) << shell_quote(w);
    }
    EXPECT_EQ(shell_quote("seed-c.f64"), "seed-c.f64");  // a plain word stays readable
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_join({"quatcheck", "conform", "--case", "q0=(1 0 0 0)"}),
              "quatcheck conform --case 'q0=(1 0 0 0)'");
    // Negative control: the quoting the reports used before (a bare word, or '...' without escaping) breaks.
    EXPECT_NE(through_sh("'it's'"), "it's");
}

TEST(Quote, MarkdownCodeSpanIsLongerThanAnyBacktickRun) {
    EXPECT_EQ(md_code("seed-c.f64"), "`seed-c.f64`");
    EXPECT_EQ(md_code("a`b"), "``a`b``");
    EXPECT_EQ(md_code("x``<img>"), "```x``<img>```");
    EXPECT_EQ(md_code("`edge`"), "`` `edge` ``");
    EXPECT_EQ(md_code("a|b\nc"), "`a\\|b c`");
    EXPECT_EQ(md_text("<b>*x*</b>|_y_"), "\\<b\\>\\*x\\*\\</b\\>\\|\\_y\\_");
}

}  // namespace
}  // namespace qc
