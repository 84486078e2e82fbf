// Issue 44, items 1 and 2: the reproducers `quatcheck findings` writes must not turn a value of a report into
// code. A hostile implementation name (the family), library version and case label go through every template
// (C++, JavaScript, Python, Java and their repro.sh); each result must be accepted by its language's compiler or
// parser, have exactly the lines of the same render with a plain name (every value stays on its line), run
// without executing the payload, and carry the family's bytes unchanged as a string (the reproducer prints it).
// The quoting functions themselves are tested in quote_test.cpp; the end-to-end route through a doctored report
// folder is tests/robust44_out.test.sh.
#include "findings/findings.h"
#include "tables/quote.h"
#include "tables/source_template.h"

#include "run_binary.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace qc {
namespace {

namespace fs = std::filesystem;

// The payload of each language, in one string: closing a C string and a comment, a Python docstring or
// string, a JavaScript string or template, a shell comment line; each tries to create the file PWN.
const std::string kPayload =
    "\";static int pwn=std::system(\"touch PWN\");//"
    "\"\"\"+__import__(\"os\").system(\"touch PWN\")+\"\"\""
    "'+require('fs').writeFileSync('PWN','')+'`${require('fs').writeFileSync('PWN','')}`"
    "*/ int pwn2=std::system(\"touch PWN\"); /* \\ ?\?/ $(touch PWN) \xc3\xa9";
const std::string kVersion =
    "1.0\ntouch PWN\nrequire('fs').writeFileSync('PWN','')\n__import__('os').system('touch PWN')\n"
    "int pwn3=std::system(\"touch PWN\");\r\n*/ \\";

// A library of one cause with one case. CARD: the card of CARD_FAMILY (its reproducer in the library's own API),
// the case's family NAME (not one of the card's, so the reproducer stops at it); otherwise a family of its own,
// reproduced through its adapter file (impls/*/repro.txt).
findings::LibraryFindings library(const std::string &name, const std::string &version, int bits, bool card = false,
                                  const std::string &card_family = "playcanvas-slerp") {
    findings::LibraryFindings l;
    l.name = name, l.folder = "lib", l.version = version, l.group = "g\n# " + kPayload;
    if (card) {
        l.card = findings::library_of(card_family);
        l.families = {card_family};
    } else {
        l.spec = findings::spec_for(name);
        l.families = {name};
    }
    findings::Finding x;
    x.impl = name + (bits == 32 ? ".f32" : ".f64"), x.op = "slerp", x.kind = findings::Kind::property, x.what = "unit";
    x.family = name, x.sentence = "s";
    findings::ReproCase c;
    c.label = kPayload, c.op = "slerp", c.family = name, c.bits = bits, c.q0 = {1, 0, 0, 0}, c.q1 = {0, 1, 0, 0};
    c.t = 0.5, c.expected = {0.7071067811865476, 0.7071067811865476, 0, 0}, c.check = "unit", c.tol = 1e-15;
    x.cases.push_back(c);
    findings::Cause cause;
    cause.title = kPayload, cause.sentence = kPayload, cause.formed = kPayload, cause.key = "class|x";
    cause.routine_family = l.families.front(), cause.routine_op = "slerp";
    cause.findings.push_back(x);
    l.causes.push_back(cause);
    return l;
}

// Writes the rendered files of L under a fresh folder; returns the library's folder.
fs::path write(const findings::LibraryFindings &l, const fs::path &root) {
    ReportTables t;
    const auto files = findings::render({l}, t, {});
    fs::path dir;
    for (const auto &[name, content] : files) {
        const fs::path p = root / name;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << content;
        if (p.filename() == "repro.sh") dir = p.parent_path(), fs::permissions(p, fs::perms::owner_all);
    }
    return dir;
}

size_t lines(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    return size_t(std::count(std::istreambuf_iterator<char>(in), {}, '\n'));
}

struct Rendered {
    fs::path plain, hostile, root;
};

Rendered render_both(const std::string &prefix, int bits, bool card = false,
                     const std::string &card_family = "playcanvas-slerp") {
    char tmpl[] = "/tmp/qc-findings-quote-XXXXXX";
    const fs::path root = ::mkdtemp(tmpl);
    Rendered r{write(library(prefix + "plain", "1.0", bits, card, card_family), root / "plain"),
               write(library(prefix + kPayload, kVersion, bits, card, card_family), root / "hostile"), root};
    return r;
}

void expect_same_lines(const Rendered &r, const char *file) {
    EXPECT_EQ(lines(r.hostile / file), lines(r.plain / file)) << file << ": a value broke out of its line";
}

std::string in(const fs::path &dir, const std::string &cmd) { return "cd '" + dir.string() + "' && " + cmd; }

TEST(FindingsQuote, CppReproducerKeepsHostileValuesAsData) {
    if (test::sh("command -v c++ >/dev/null").status != 0) GTEST_SKIP() << "no C++ compiler";
    const Rendered r = render_both("recipe-magnum-", 64);
    ASSERT_TRUE(fs::exists(r.hostile / "repro.cpp"));
    for (const char *f : {"repro.cpp", "repro.sh"}) expect_same_lines(r, f);
    EXPECT_EQ(test::sh(in(r.hostile, "sh -n repro.sh 2>&1")).status, 0);
    // Built and run: the family is not one lib/magnum.cpp registers, so the reproducer stops with exit 2 and
    // prints the name it looked for, byte for byte.
    const test::Ran ran = test::sh(in(r.hostile, "./repro.sh 2>&1"));
    EXPECT_EQ(ran.status, 2) << ran.output;
    EXPECT_NE(ran.output.find("registers no family recipe-magnum-" + kPayload), std::string::npos) << ran.output;
    EXPECT_FALSE(fs::exists(r.hostile / "PWN"));
    fs::remove_all(r.root);
}

TEST(FindingsQuote, PythonReproducerKeepsHostileValuesAsData) {
    const Rendered r = render_both("scipy-", 32);  // f32: repro.py stops before calling the library
    ASSERT_TRUE(fs::exists(r.hostile / "repro.py"));
    for (const char *f : {"repro.py", "repro.sh"}) expect_same_lines(r, f);
    EXPECT_EQ(test::sh(in(r.hostile, "sh -n repro.sh && /usr/bin/python3 -m py_compile repro.py 2>&1")).status, 0);
    std::ofstream(r.hostile / "lib" / "scipy_adapter.py") << "# stand-in: the library is not needed here\n";
    const test::Ran ran = test::sh(in(r.hostile, "/usr/bin/python3 repro.py 2>&1"));
    EXPECT_EQ(ran.status, 2) << ran.output;
    EXPECT_NE(ran.output.find("repro: scipy-" + kPayload + " has no slerp.f32"), std::string::npos) << ran.output;
    EXPECT_FALSE(fs::exists(r.hostile / "PWN"));
    fs::remove_all(r.root);
}

TEST(FindingsQuote, JavaScriptReproducerKeepsHostileValuesAsData) {
    if (test::sh("command -v node >/dev/null").status != 0) GTEST_SKIP() << "node is not on PATH";
    const Rendered r = render_both("playcanvas-", 64);
    ASSERT_TRUE(fs::exists(r.hostile / "repro.mjs"));
    for (const char *f : {"repro.mjs", "repro.sh"}) expect_same_lines(r, f);
    EXPECT_EQ(test::sh(in(r.hostile, "sh -n repro.sh && node --check repro.mjs 2>&1")).status, 0);
    // The adapter replaced by one that offers no family: repro.mjs prints the family it looked for, exit 2.
    std::ofstream(r.hostile / "lib" / "playcanvas.js") << "require('./protocol.js').serve('stand-in', '0', []);\n";
    const test::Ran ran = test::sh(in(r.hostile, "node repro.mjs 2>&1"));
    EXPECT_EQ(ran.status, 2) << ran.output;
    EXPECT_NE(ran.output.find("offers no family playcanvas-" + kPayload), std::string::npos) << ran.output;
    EXPECT_FALSE(fs::exists(r.hostile / "PWN"));
    fs::remove_all(r.root);
}

// The reproducer in the library's own API (a card), its tests to paste and the fixed test's routine block.
TEST(FindingsQuote, LibraryApiReproducerKeepsHostileValuesAsData) {
    if (test::sh("command -v node >/dev/null").status != 0) GTEST_SKIP() << "node is not on PATH";
    const Rendered r = render_both("playcanvas-slerp", 64, true);
    ASSERT_TRUE(fs::exists(r.hostile / "repro.mjs"));
    for (const char *f : {"repro.mjs", "repro.sh", "tests/cause-1.test.mjs", "README.md"}) expect_same_lines(r, f);
    EXPECT_EQ(test::sh(in(r.hostile,
                          "sh -n repro.sh && node --check repro.mjs && node --check tests/cause-1.test.mjs "
                          "2>&1"))
                  .status,
              0);
    // Without the package the import fails before any case runs, so the stand-in below is what it imports.
    fs::create_directories(r.hostile / "node_modules" / "playcanvas");
    std::ofstream(r.hostile / "node_modules" / "playcanvas" / "package.json")
        << "{\"type\": \"module\", \"main\": \"i.js\"}\n";
    std::ofstream(r.hostile / "node_modules" / "playcanvas" / "i.js") << "export class Quat {}\n";
    const test::Ran ran = test::sh(in(r.hostile, "node repro.mjs 2>&1"));
    EXPECT_EQ(ran.status, 2) << ran.output;
    EXPECT_NE(ran.output.find("no slerp routine for playcanvas-slerp" + kPayload), std::string::npos) << ran.output;
    EXPECT_FALSE(fs::exists(r.hostile / "PWN"));
    fs::remove_all(r.root);
}

// The Java reproducer (vecmath's card), its test to paste and the fix's routine block: compiled by javac with
// the port, and run: the family is not the card's, so Repro stops with exit 2 and prints the name it looked for.
TEST(FindingsQuote, JavaReproducerKeepsHostileValuesAsData) {
    if (test::sh("command -v javac >/dev/null && command -v java >/dev/null").status != 0) GTEST_SKIP() << "no JDK";
    if (!fs::exists("/usr/share/java/vecmath.jar")) GTEST_SKIP() << "no vecmath jar (Debian libvecmath-java)";
    const Rendered r = render_both("vecmath-interpolate", 64, true, "vecmath-interpolate");
    ASSERT_TRUE(fs::exists(r.hostile / "Repro.java"));
    for (const char *f : {"Repro.java", "repro.sh", "tests/Cause1Test.java", "README.md"}) expect_same_lines(r, f);
    const std::string cp = "/usr/share/java/vecmath.jar";
    const test::Ran built = test::sh(in(r.hostile, "sh -n repro.sh && mkdir c && javac -nowarn -cp " + cp +
                                                       " -d c Repro.java tests/Cause1Test.java fix/QcSlerp.java 2>&1"));
    ASSERT_EQ(built.status, 0) << built.output;
    const test::Ran ran = test::sh(in(r.hostile, "java -Dfile.encoding=UTF-8 -cp c:" + cp + " Repro 2>&1"));
    EXPECT_EQ(ran.status, 2) << ran.output;
    EXPECT_NE(ran.output.find("no f64 routine for vecmath-interpolate" + kPayload), std::string::npos) << ran.output;
    EXPECT_FALSE(fs::exists(r.hostile / "PWN"));
    fs::remove_all(r.root);
}

TEST(FindingsQuote, ReadmeKeepsHostileValuesOnTheirLines) {
    const Rendered r = render_both("scipy-", 32);
    expect_same_lines(r, "README.md");
    fs::remove_all(r.root);
}

// The filler refuses what would let a raw value through.
TEST(FindingsQuote, TemplateFillerRefusesRawValues) {
    const std::map<std::string, TemplateValue> v = {{"X", TemplateText{"a\"b"}}, {"C", TemplateCode{"int x;"}}};
    EXPECT_EQ(fill_template("t", "s = @X:c@; @C:code@ // @X:comment@", v), "s = \"a\\\"b\"; int x; // a%22b");
    EXPECT_EQ(fill_template("t", "a@b.c @@ @x:c@ $@", v), "a@b.c @@ @x:c@ $@");      // not placeholders
    EXPECT_THROW(fill_template("t", "@X@", v), std::logic_error);                    // no context: the old raw form
    EXPECT_THROW(fill_template("t", "@X:code@", v), std::logic_error);               // text where code goes
    EXPECT_THROW(fill_template("t", "@C:c@", v), std::logic_error);                  // code where text goes
    EXPECT_THROW(fill_template("t", "@X:html@", v), std::logic_error);               // unknown context
    EXPECT_THROW(fill_template("t", "@Y:c@", v), std::logic_error);                  // no value
    EXPECT_THROW(fill_template("t", "#include \"@X:file@\"", v), std::logic_error);  // not a plain file name
    EXPECT_EQ(fill_template("t", "import @F:file@", {{"F", TemplateText{"scipy_adapter"}}}), "import scipy_adapter");
}

}  // namespace
}  // namespace qc
