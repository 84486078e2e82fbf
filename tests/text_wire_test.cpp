// The text wire's codec (harness/isolate/text_wire.h) and the hello's `wire` and `known` lines.
#include "isolate/process_plugin.h"
#include "isolate/text_wire.h"

#include <gtest/gtest.h>

#include <cmath>

namespace qc {
namespace {

TEST(TextWire, RequestCountsTheBytesOfItsCaseLines) {
    double rec[17] = {1, 0, 0, 0, 0.6, 0, 0.8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5};
    const size_t fields[9] = {0, 1, 2, 3, 4, 5, 6, 7, 16};
    const std::string s = encode_text_request(7, 1, "slerp", 8, rec, 1, 17, fields, 9);
    const std::string body =
        "0x1p+0 0x0p+0 0x0p+0 0x0p+0 0x1.3333333333333p-1 0x0p+0 0x1.999999999999ap-1 0x0p+0 0x1p-1\n";
    EXPECT_EQ(s, "batch 7 1 slerp.f64 1 " + std::to_string(body.size()) + "\n" + body);
}

TEST(TextWire, AnswerIsReadExactlyAcrossChunks) {
    double out[8] = {};
    TextAnswer a(3, 2, 4, out);
    const std::string text = "answer 3 2 120\n0x1p+0 -0x0p+0 nan -inf\n0x1.6a09e6p-1 0x1.6a09e6p-1 0x0p+0 0x0p+0\n";
    for (char c : text) ASSERT_EQ(a.feed(&c, 1), "");  // one byte at a time, as a pipe may hand it over
    EXPECT_TRUE(a.complete());
    EXPECT_EQ(a.nanoseconds(), 120u);
    EXPECT_EQ(out[0], 1.0);
    EXPECT_TRUE(std::signbit(out[1]));
    EXPECT_TRUE(std::isnan(out[2]));
    EXPECT_EQ(out[3], -INFINITY);
    EXPECT_EQ(out[4], double(0x1.6a09e6p-1f));
    EXPECT_EQ(a.extra_bytes(), 0u);
}

TEST(TextWire, AnswerViolationsAreNamed) {
    double out[4] = {};
    auto first_error = [&](uint32_t seq, size_t width, const std::string &text) {
        TextAnswer a(seq, 1, width, out);
        return a.feed(text.data(), text.size());
    };
    EXPECT_EQ(first_error(1, 8, "answer 1 1 0\n1 0 0 0\n"),
              "answer line:2: column w: '1' is not a hexfloat (e.g. 0x1.8p-3)");
    EXPECT_EQ(first_error(1, 8, "answer 2 1 0\n"), "answer to batch 1 carries sequence number 2");
    EXPECT_EQ(first_error(1, 8, "answer 1 01 0\n"),
              "the answer does not start with 'answer SEQ N NANOSECONDS' (got 'answer 1 01 0')");
    EXPECT_EQ(first_error(1, 4, "answer 1 1 0\n0x1.000001p+0 0x0p+0 0x0p+0 0x0p+0\n"),
              "answer line:2: column w: '0x1.000001p+0' is not representable as a float (f32 implementation)");
    EXPECT_EQ(first_error(1, 8, "answer 1 1 0\n0x1p+0 0x0p+0 0x0p+0\n"),
              "answer line 2 has 3 words, not 4 hexfloats (w x y z)");
    EXPECT_EQ(first_error(1, 8, "answer 1 1 0\n0x1p+0 0x0p+0  0x0p+0\n"),
              "answer line:2: column y: '' is not a hexfloat (e.g. 0x1.8p-3)");
    EXPECT_EQ(first_error(1, 8, "answer 1 1 0\n" + std::string(600, '0')), "answer line 2 is longer than 512 bytes");
    TextAnswer a(1, 1, 8, out);
    const std::string more = "answer 1 1 0\n0x1p+0 0x0p+0 0x0p+0 0x0p+0\nxy";
    EXPECT_EQ(a.feed(more.data(), more.size()), "");
    EXPECT_EQ(a.extra_bytes(), 2u);  // bytes after the answer: the caller refuses them
}

TEST(TextWire, HelloChoosesTheWireAndRecordsKnownDeviations) {
    ProcessHello h;
    ASSERT_EQ(parse_process_hello("quatcheck-plugin 1\nlibrary godot 3.2.3\nwire text\nfamily g slerp.f32\n"
                                  "known g slerp shortest-arc the docs' own words\nend\n",
                                  h),
              "");
    EXPECT_TRUE(h.text);
    ASSERT_EQ(h.families.size(), 1u);
    ASSERT_EQ(h.families[0].known.size(), 1u);
    EXPECT_EQ(h.families[0].known[0].op, "slerp");
    EXPECT_EQ(h.families[0].known[0].property, "shortest-arc");
    EXPECT_EQ(h.families[0].known[0].why, "the docs' own words");
    ASSERT_EQ(parse_process_hello("quatcheck-plugin 1\nlibrary l 1\nfamily g slerp.f32\nend\n", h), "");
    EXPECT_FALSE(h.text);  // binary unless the hello says otherwise
    EXPECT_EQ(parse_process_hello("quatcheck-plugin 1\nlibrary l 1\nfamily g slerp.f32\nknown g lerp unit x\nend\n", h),
              "hello line 4: the op of 'known' is not slerp, nlerp, squad or *");
}

}  // namespace
}  // namespace qc
