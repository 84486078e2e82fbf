// quatcheck/names.h: the one name <-> enum lookup behind to_string/parse_* of regions, track regions,
// operations, verdicts, changes, worker statuses and threshold families.
#include "compare/compare.h"
#include "conform/conform.h"
#include "isolate/eval.h"
#include "quatcheck/names.h"
#include "regions/regions.h"
#include "squad/tracks.h"
#include "threshold/families.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using qc::Named;

enum class Colour { red, green, blue };
constexpr std::array kColours{Named{Colour::red, "red"}, Named{Colour::green, "green"}};

// Negative controls of distinct_names: a repeated value and a repeated name are both refused.
static_assert(qc::distinct_names(kColours));
static_assert(!qc::distinct_names(std::array{Named{Colour::red, "red"}, Named{Colour::red, "crimson"}}));
static_assert(!qc::distinct_names(std::array{Named{Colour::red, "red"}, Named{Colour::green, "red"}}));

TEST(Names, LookupBothWays) {
    EXPECT_STREQ(qc::name_of(kColours, Colour::green), "green");
    EXPECT_EQ(qc::parse_name(kColours, "red"), Colour::red);
    // What the table does not list: "?" one way, nothing the other (no prefix or case folding).
    EXPECT_STREQ(qc::name_of(kColours, Colour::blue), "?");
    EXPECT_EQ(qc::parse_name(kColours, "blue"), std::nullopt);
    EXPECT_EQ(qc::parse_name(kColours, "re"), std::nullopt);
    EXPECT_EQ(qc::parse_name(kColours, "Red"), std::nullopt);
    EXPECT_EQ(qc::parse_name(kColours, ""), std::nullopt);
    EXPECT_EQ(qc::values_of<kColours>(), (std::vector<Colour>{Colour::red, Colour::green}));
    // Negative control of the round trip below: with a name listed twice, the second value does not come back.
    constexpr std::array twice{Named{Colour::red, "red"}, Named{Colour::green, "red"}};
    EXPECT_NE(qc::parse_name(twice, qc::name_of(twice, Colour::green)), Colour::green);
}

// Every listed value of the tool's own enums prints a name that parses back to it.
template <class E, class Parse> void round_trip(const std::vector<E> &values, Parse parse) {
    for (E v : values) {
        SCOPED_TRACE(qc::to_string(v));
        EXPECT_STRNE(qc::to_string(v), "?");
        EXPECT_EQ(parse(qc::to_string(v)), v);
    }
}

TEST(Names, ToolEnumsRoundTrip) {
    round_trip(qc::all_regions(), qc::parse_region);
    round_trip(qc::all_track_regions(), qc::parse_track_region);
    round_trip(qc::all_threshold_families(), qc::parse_threshold_family);
    round_trip(std::vector<qc::Op>{qc::Op::slerp, qc::Op::nlerp, qc::Op::squad}, qc::parse_op);
}

// The names the tool prints (tables, reports, messages) and accepts on the command line, unchanged.
TEST(Names, ToolNamesUnchanged) {
    std::string regions, tracks, families;
    for (auto r : qc::all_regions()) regions += std::string(qc::to_string(r)) + " ";
    for (auto r : qc::all_track_regions()) tracks += std::string(qc::to_string(r)) + " ";
    for (auto f : qc::all_threshold_families()) families += std::string(qc::to_string(f)) + " ";
    EXPECT_EQ(regions, "uniform near-0 near-half-pi near-pi threshold ");
    EXPECT_EQ(tracks, "random near-equal quarter-turn threshold sign-flip ");
    EXPECT_EQ(families, "acos+nlerp acos+lerp atan2+nlerp ");
    EXPECT_STREQ(qc::to_string(qc::Op::squad), "squad");
    EXPECT_STREQ(qc::to_string(qc::Verdict::known), "known");
    EXPECT_STREQ(qc::to_string(qc::Change::regression), "REGRESSION");
    EXPECT_STREQ(qc::to_string(qc::Change::only_baseline), "only in baseline");
    EXPECT_STREQ(qc::to_string(qc::EvalStatus::out_of_bounds), "out-of-bounds");
    EXPECT_STREQ(qc::to_string(qc::EvalStatus::interrupted), "interrupted");
    EXPECT_EQ(qc::parse_region("near-half-pi"), qc::Region::near_half_pi);
    EXPECT_EQ(qc::parse_region("near_half_pi"), std::nullopt);
}

}  // namespace
