// The table reader's strict rules (harness/tables/table.cpp: fccp reads lines and splits cells, the
// project code checks the rest) and the writer/reader agreement on every choice a writer can produce.
#include "conform/conform.h"
#include "tables/rows.h"
#include "tables/schemas.h"

#include <algorithm>

#include <gtest/gtest.h>

#include <string>

namespace {

using qc::InputError;

// A two-column table without a key: a choice and a text.
const qc::Schema &small() {
    static const qc::Schema s{"small.csv",
                              "test table",
                              {qc::Column{"verdict", qc::ColumnType::choice, "", true, false, {"pass", "fail"}, ""},
                               qc::Column{"note", qc::ColumnType::text, "", true, false, {}, ""}},
                              {},
                              false};
    return s;
}

// The one-line error read_table raises for `text`, or "" when it reads.
std::string error_of(const std::string &text) {
    try {
        qc::read_table(small(), "f.csv", text);
    } catch (const InputError &e) { return e.what(); }
    return "";
}

TEST(Tables, ReaderAcceptsRfc4180Quoting) {
    auto t = qc::read_table(small(), "f.csv", "verdict,note\npass,\"a, \"\"b\"\"\"\nfail,\n\"pass\",x\n");
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t.text(0, "note"), "a, \"b\"");
    EXPECT_EQ(t.text(1, "note"), "");
    EXPECT_EQ(t.text(2, "verdict"), "pass");
    EXPECT_EQ(t.line(2), 4u);
}

TEST(Tables, ReaderRefusesWhatTheStrictRulesRefuseWithFileAndLine) {
    EXPECT_EQ(error_of(""), "f.csv:1: the file is empty");
    EXPECT_EQ(error_of("verdict,note\npass,x"), "f.csv:2: the last line is truncated (no final newline)");
    EXPECT_EQ(error_of("verdict,note\r\npass,x\r\n"), "f.csv:1: carriage return (CRLF line ends are not accepted)");
    EXPECT_EQ(error_of("verdict,note\npass,x\r\n"), "f.csv:2: carriage return (CRLF line ends are not accepted)");
    EXPECT_EQ(error_of("verdict,note\npass,a\rb\n"), "f.csv:2: carriage return (CRLF line ends are not accepted)");
    EXPECT_EQ(error_of("verdict,note\npass,\"abc\n"), "f.csv:2: unterminated quoted field");
    EXPECT_EQ(error_of("verdict,note\npass,\"ab\"c\n"), "f.csv:2: text after a closing quote");
    EXPECT_EQ(error_of("verdict,note\npass,a\"b\n"), "f.csv:2: a quote inside an unquoted field");
    EXPECT_EQ(error_of("verdict,note\npass,x,y\n"), "f.csv:2: 3 fields where the header has 2");
    EXPECT_EQ(error_of("verdict,note\n\n"), "f.csv:2: 1 fields where the header has 2");
    EXPECT_EQ(error_of("verdict,note\nmaybe,x\n"), "f.csv:2: column verdict: 'maybe' is not pass or fail");
    EXPECT_EQ(error_of("verdict,note\n pass,x\n"), "f.csv:2: column verdict: ' pass' is not pass or fail");
    EXPECT_EQ(error_of("note\nx\n"), "f.csv:1: missing column 'verdict'");
    EXPECT_EQ(error_of("verdict,note\npass,\xff\n"), "f.csv:2: byte 0xff is not valid UTF-8");
    EXPECT_EQ(error_of(std::string("verdict,note\npass,a\0b\n", 22)), "f.csv:2: NUL byte in a text file");
}

TEST(Tables, ReaderBoundsTheLineLength) {
    std::string text = "verdict,note\npass," + std::string(1 << 24, 'x') + "\n";
    EXPECT_EQ(error_of(text), "f.csv:2: line longer than 2^24-1 bytes");
}

// Writes one conformance row with `verdict` into `schema`'s table and reads it back.
void round_trip(const qc::Schema &schema, const std::string &verdict) {
    qc::CsvWriter w(schema);
    w.row({std::string("impl"), std::string("slerp"), std::string("p"), verdict, uint64_t(3), std::string("1e-9"), 0.5,
           std::string("x=1"), std::string("quatcheck conform"), std::string("op(q0,q1,1)"),
           std::string("call=op(q0,q1,1) t=0x1p+0")});
    auto t = qc::read_table(schema, schema.file, w.text());
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t.text(0, "verdict"), verdict);
    auto rows = qc::read_conformance(t);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].verdict, verdict);
}

TEST(Tables, EveryVerdictAWriterProducesReadsBack) {
    // conform: every Verdict value, as conformance.csv writes it
    for (auto v : {qc::Verdict::pass, qc::Verdict::fail, qc::Verdict::known, qc::Verdict::skip})
        round_trip(qc::tables::conformance, qc::to_string(v));
    // squad: c1_verdict's values (squad/squad_report.cpp), "untested" when no key was judged
    for (const std::string &v : qc::tables::squad_verdicts) round_trip(qc::tables::squad_conformance, v);
    EXPECT_NE(std::find(qc::tables::squad_verdicts.begin(), qc::tables::squad_verdicts.end(), "untested"),
              qc::tables::squad_verdicts.end());
}

TEST(Tables, WriterRefusesAChoiceItsSchemaDoesNotList) {
    qc::CsvWriter w(small());
    EXPECT_THROW(w.row({std::string("maybe"), std::string("x")}), std::logic_error);
}

}  // namespace
