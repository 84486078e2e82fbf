// Issue 36: how `quatcheck findings` groups findings into causes (harness/findings/group.cpp) and where it says
// the cause lies (harness/findings/source.cpp), on the installed libraries' own sources. Each check comes with
// a negative control: a wrong grouping, a mark outside the quoted function and a wrong edge must be caught.
#include "findings/findings.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace qc {
namespace {

namespace fs = std::filesystem;
using findings::Kind;
using findings::LibraryFindings;

// Every mark lies inside the quoted function, on a line the quote holds: the property the README relies on.
bool marks_inside(const findings::Quote &q) {
    if (q.marks.empty()) return false;
    for (const auto &m : q.marks)
        if (!q.has(m.line)) return false;
    return true;
}

const std::string &marked_text(const findings::Quote &q, size_t k) { return q.lines.at(q.marks.at(k).line - q.first); }

std::vector<fs::path> node_modules() { return {fs::path(QC_SOURCE_DIR) / "impls" / "js" / "node_modules"}; }

findings::Quote quote(const char *family, const char *op) {
    const findings::Library *lib = findings::library_of(family);
    EXPECT_NE(lib, nullptr) << family;
    if (!lib) return {};
    const findings::Routine *r = lib->routine(family, op);
    EXPECT_NE(r, nullptr) << family << " " << op;
    return r ? findings::quote_routine(*lib, r->source, node_modules()) : findings::Quote{};
}

TEST(FindingsSource, MarksAreInsideTheQuotedFunction) {
    findings::Quote outside;
    outside.first = 10, outside.lines = {"a", "b"}, outside.marks = {{12, "x"}};
    EXPECT_FALSE(marks_inside(outside)) << "negative control: a mark past the quote must be caught";
    outside.marks = {{11, "x"}};
    EXPECT_TRUE(marks_inside(outside));
}

TEST(FindingsSource, PlayCanvasMarksItsMidpointBranch) {
    findings::Quote q = quote("playcanvas-slerp", "slerp");
    if (q.lines.empty()) GTEST_SKIP() << "PlayCanvas is not installed: " << q.missing;
    findings::mark_edge(q, 0.99999949999987492, 0.99999949999987503);
    ASSERT_TRUE(marks_inside(q));
    EXPECT_NE(marked_text(q, 0).find("sinHalfTheta) < 1e-3"), std::string::npos) << marked_text(q, 0);
    // Negative control: an edge at a.b = 0.5 matches none of its constants.
    findings::Quote wrong = quote("playcanvas-slerp", "slerp");
    findings::mark_edge(wrong, 0.49999999999999994, 0.5);
    for (const auto &m : wrong.marks)
        EXPECT_EQ(wrong.lines.at(m.line - wrong.first).find("1e-3"), std::string::npos) << "a wrong edge marked 1e-3";
}

TEST(FindingsSource, GlMatrixMarksItsNamedTolerance) {
    findings::Quote q = quote("glmatrix-slerp", "slerp");
    if (q.lines.empty()) GTEST_SKIP() << "gl-matrix is not installed: " << q.missing;
    findings::mark_edge(q, 0.99999899999999997, 0.99999900000000008);
    ASSERT_TRUE(marks_inside(q));
    EXPECT_NE(marked_text(q, 0).find("EPSILON"), std::string::npos) << marked_text(q, 0);
}

TEST(FindingsSource, OpenCvMarksItsThresholdAndTheDivision) {
    findings::Quote q = quote("opencv", "slerp");
    if (q.lines.empty()) GTEST_SKIP() << "OpenCV's headers are not installed: " << q.missing;
    findings::mark_edge(q, 0.99499999999999988, 0.995);
    ASSERT_TRUE(marks_inside(q));
    bool constant = false, test = false;
    for (size_t k = 0; k < q.marks.size(); k++) {
        constant = constant || marked_text(q, k).find("DOT_THRESHOLD = 0.995") != std::string::npos;
        test = test || marked_text(q, k).find("cosTheta > DOT_THRESHOLD") != std::string::npos;
    }
    EXPECT_TRUE(constant && test) << "the constant and the test that uses it by name";
    findings::Quote nan = quote("opencv", "slerp");
    findings::mark_nonfinite(nan);
    ASSERT_TRUE(marks_inside(nan));
    bool division = false;
    for (size_t k = 0; k < nan.marks.size(); k++)
        division = division || marked_text(nan, k).find("/ (sinTheta)") != std::string::npos;
    EXPECT_TRUE(division) << "the division by sinTheta";
}

TEST(FindingsSource, EuclidMarksItsApproxEqBranchAndAcos) {
    findings::Quote q = quote("euclid-slerp", "slerp");
    if (q.lines.empty()) GTEST_SKIP() << "euclid's crate is not installed: " << q.missing;
    findings::mark_edge(q, 0.99999899999999997, 0.99999900000000008);
    ASSERT_TRUE(marks_inside(q));
    EXPECT_NE(marked_text(q, 0).find("approx_eq"), std::string::npos) << marked_text(q, 0);
    findings::Quote p = quote("euclid-slerp", "slerp");
    findings::mark_precision(p);
    ASSERT_TRUE(marks_inside(p));
    EXPECT_NE(marked_text(p, 0).find("acos"), std::string::npos) << marked_text(p, 0);
    // The sign test is there (`dot < T::zero()`): the long-arc rule must not claim it is missing.
    findings::Quote flip = quote("euclid-slerp", "slerp");
    findings::mark_missing_flip(flip);
    EXPECT_TRUE(flip.marks.empty());
}

TEST(FindingsSource, LiteralsOfALine) {
    EXPECT_EQ(findings::literals_of("if (Math.abs(sinHalfTheta) < 1e-3) { x = 0.5f; } // 7"),
              (std::vector<double>{1e-3, 0.5, 7}));  // the comment is the caller's to strip
    EXPECT_TRUE(findings::literals_of("vec4 x2 = a.b1 + 0x1p-3").empty());
}

// PlayCanvas's near-0 defect as the report shows it: a region finding and three properties whose cases lie past
// the switch at |a.b| = 0.9999995. With the branch map they are one cause; without it they are not.
LibraryFindings playcanvas(bool with_edge) {
    LibraryFindings l;
    l.name = "playcanvas", l.folder = "playcanvas", l.card = findings::library_of("playcanvas-slerp");
    l.families = {"playcanvas-slerp"};
    const double d[] = {0.99999999, 0.9999999, 0.99999995, 0.9999998};
    const char *what[] = {"near-0", "constant-speed", "threshold-continuity", "endpoints"};
    for (int k = 0; k < 4; k++) {
        findings::Finding f;
        f.impl = "playcanvas-slerp.f64", f.family = "playcanvas-slerp", f.op = "slerp";
        f.kind = k == 0 ? Kind::region : Kind::property, f.what = what[k];
        f.worst = k == 0 ? 1e-3 : 0, f.unit = k == 0 ? "rad" : "";
        f.dot = d[k], f.cls = findings::InputClass::nearly_parallel;
        l.findings.push_back(f);
    }
    if (with_edge)
        l.edges.push_back(
            {"playcanvas-slerp.f64", "slerp", 0.99999949999987492, 0.99999949999987503, 2.5e-4, 0, 2.5e-4, 7});
    return l;
}

TEST(FindingsGroup, OneBranchOneCause) {
    std::vector<LibraryFindings> with = {playcanvas(true)}, without = {playcanvas(false)};
    findings::Options o;
    o.source_roots = node_modules();
    findings::group(with, o);
    findings::group(without, o);
    ASSERT_EQ(with[0].causes.size(), 1u);
    EXPECT_EQ(with[0].causes[0].findings.size(), 4u);
    EXPECT_NE(with[0].causes[0].formed.find("branch map"), std::string::npos) << with[0].causes[0].formed;
    EXPECT_EQ(with[0].causes[0].severity, findings::Severity::wrong_rotation);
    // Negative control: without the branch map the rule that joins them is another one (the class rule), so a
    // check that the defect was located by its branch fails.
    ASSERT_EQ(without[0].causes.size(), 1u);
    EXPECT_EQ(without[0].causes[0].formed.find("branch map"), std::string::npos);
}

TEST(FindingsGroup, NonFiniteAndLongArcAreCausesOfTheirOwn) {
    LibraryFindings l = playcanvas(true);
    findings::Finding nan = l.findings[1];
    nan.nonfinite = true, nan.what = "finite", nan.cls = findings::InputClass::opposite, nan.dot = -1;
    findings::Finding arc = l.findings[1];
    arc.what = "shortest-arc", arc.dot = -0.3, arc.cls = findings::InputClass::general;
    findings::Finding monotone = l.findings[1];
    monotone.what = "monotone", monotone.dot = -0.5, monotone.cls = findings::InputClass::general;
    l.findings.push_back(nan), l.findings.push_back(arc), l.findings.push_back(monotone);
    std::vector<LibraryFindings> libs = {l};
    findings::group(libs, {});
    ASSERT_EQ(libs[0].causes.size(), 3u);
    EXPECT_EQ(libs[0].causes[0].severity, findings::Severity::nan);  // the worst first
    size_t longarc = 0;
    for (const auto &c : libs[0].causes)
        if (c.key.rfind("longarc|", 0) == 0) longarc = c.findings.size();
    EXPECT_EQ(longarc, 2u) << "shortest-arc and the monotone failure at a.b < 0: one missing sign flip";
}

}  // namespace
}  // namespace qc
