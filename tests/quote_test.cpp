// tables/quote.h: shell words and markdown code spans for text read from plugins and report files (issue 28).
#include "tables/quote.h"

#include "run_binary.h"

#include <fmt/format.h>
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

// Every byte 0..255 through c_literal: compiled and printed back by the C++ compiler, the same bytes.
TEST(Quote, CLiteralHoldsEveryByte) {
    if (test::sh("command -v c++ >/dev/null").status != 0) GTEST_SKIP() << "no C++ compiler";
    std::string all;
    for (int c = 0; c < 256; c++) all += char(c);
    all += "?\?/\n?\?=";  // would-be trigraphs
    const std::string prog = "#include <cstdio>\nstatic const char s[] = " + c_literal(all) +
                             ";\nint main() { std::fwrite(s, 1, sizeof s - 1, stdout); }\n";
    const test::Ran built = test::sh("d=$(mktemp -d) && printf '%s' " + shell_quote(prog) +
                                     " > $d/l.cpp && c++ -std=c++17 -trigraphs -o $d/l $d/l.cpp 2>&1 && "
                                     "$d/l | od -An -v -tx1 | tr -d ' \\n'; rm -rf $d");
    std::string hex;
    for (unsigned char c : all) hex += fmt::format("{:02x}", c);
    EXPECT_EQ(built.output, hex);
}

// js_literal read back by a JSON parser (also what Python and JavaScript make of it): the same text, on one line.
TEST(Quote, JsLiteralIsOneLineAndRoundTrips) {
    const std::string text = "a\"b'c\\d\ne\r\u2028\xc3\xa9`${x}`</script>\x01";
    const std::string lit = js_literal(text);
    EXPECT_EQ(lit.find('\n'), std::string::npos);
    const test::Ran back = test::sh(
        "/usr/bin/python3 -c 'import json,sys; sys.stdout.write(json.loads(sys.argv[1]))' " + shell_quote(lit));
    EXPECT_EQ(back.output, text);
    EXPECT_EQ(js_literal("\xff"), "\"\\ufffd\"");  // invalid UTF-8: the replacement character, no exception
}

// Every ASCII character, some non-ASCII ones and text that spells Java's Unicode escapes (which javac translates
// before it reads a literal) through java_literal: compiled by javac and printed back as UTF-8, the same bytes.
TEST(Quote, JavaLiteralHoldsEveryCharacter) {
    if (test::sh("command -v javac >/dev/null && command -v java >/dev/null").status != 0) GTEST_SKIP() << "no JDK";
    std::string all;
    for (int c = 0; c < 128; c++) all += char(c);
    all += "\\u0022 \\u000a \\\\u005c \u2028\xc3\xa9 end\\";
    const std::string lit = java_literal(all);
    EXPECT_EQ(java_literal("a\nb\x01"), "\"a\\nb\\001\"");  // \n kept; below U+0020, octal
    const std::string prog = "class L { public static void main(String[] a) throws Exception { System.out.write(" +
                             lit + ".getBytes(java.nio.charset.StandardCharsets.UTF_8)); System.out.flush(); } }\n";
    const test::Ran built = test::sh("d=$(mktemp -d) && printf '%s' " + shell_quote(prog) +
                                     " > $d/L.java && javac -d $d $d/L.java 2>&1 && "
                                     "java -cp $d L | od -An -v -tx1 | tr -d ' \\n'; rm -rf $d");
    std::string hex;
    for (unsigned char c : all) hex += fmt::format("{:02x}", c);
    EXPECT_EQ(built.output, hex);
}

// comment_text keeps only characters that cannot end or continue a comment, a docstring or a line.
TEST(Quote, CommentTextIsInertInEveryComment) {
    std::string all;
    for (int c = 0; c < 256; c++) all += char(c);
    const std::string t = comment_text(all);
    const std::string_view forbidden("\n\r\\\"*`$?");
    for (char c : t) EXPECT_EQ(forbidden.find(c), std::string_view::npos) << int(c);
    EXPECT_EQ(comment_text("v1.2 (x) */\n\\"), "v1.2 (x) %2A/%0A%5C");
    EXPECT_EQ(comment_text("100%"), "100%25");
}

}  // namespace
}  // namespace qc
