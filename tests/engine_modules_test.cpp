// The engine modules' loader (harness/plugins/engines.h): a good module's entries arrive whole (group, version,
// known deviation, KeyCurve, callable in process); a module that is not a shared library, has no entry point, was
// built for another tool, needs a library that is not installed, or adds an existing family is skipped with its
// reason, never loaded in part. And the build's own modules: this binary reads BUILD/engines, and every module there
// loaded (the engine families of `quatcheck list` come from them).
#include "plugins/engines.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace {

namespace fs = std::filesystem;

// A fresh folder holding copies of the named test modules (tests/engine_modules/).
fs::path module_dir(const std::string &name, const std::vector<std::string> &modules) {
    const fs::path dir = fs::path(testing::TempDir()) / ("qc_engine_modules_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto &m : modules) {
        const std::string file = "quatcheck-engine-" + m + ".so";
        fs::copy_file(fs::path(QC_TEST_MODULES) / file, dir / file);
    }
    return dir;
}

std::map<std::string, qc::EngineModuleStatus> by_file(const std::vector<qc::EngineModuleStatus> &v) {
    std::map<std::string, qc::EngineModuleStatus> out;
    for (const auto &s : v) out[fs::path(s.path).filename().string()] = s;
    return out;
}

TEST(EngineModules, GoodModuleArrivesWhole) {
    const fs::path dir = module_dir("good", {"good"});
    std::vector<qc::BuiltinImpl> impls;
    std::set<std::string> families = {"seed-c"};
    const auto st = qc::load_engine_modules(dir.string(), impls, families);
    ASSERT_EQ(st.size(), 1u);
    EXPECT_TRUE(st[0].loaded) << st[0].why;
    EXPECT_EQ(st[0].families, std::vector<std::string>{"test-engine-good"});
    ASSERT_EQ(impls.size(), 1u);
    const qc::BuiltinImpl &b = impls[0];
    EXPECT_STREQ(b.table->family, "test-engine-good");
    EXPECT_EQ(b.group, "engine");
    EXPECT_EQ(b.version, "9.8.7");
    EXPECT_EQ(b.summary, "returns the first key");
    ASSERT_EQ(b.known.size(), 1u);
    EXPECT_EQ(b.known[0].property, "endpoints");
    EXPECT_TRUE(families.count("test-engine-good"));
    // Its functions run in this process.
    const double q0[4] = {0.5, 0.5, 0.5, 0.5}, q1[4] = {1, 0, 0, 0};
    double out[4] = {};
    b.table->slerp_f64(q0, q1, 0.5, out);
    EXPECT_EQ(out[2], 0.5);
    ASSERT_NE(b.curve.f64, nullptr);
    const double keys[8] = {1, 0, 0, 0, 0, 1, 0, 0};
    b.curve.f64(keys, 2, 1, 0.5, out);
    EXPECT_EQ(out[1], 1.0);
}

TEST(EngineModules, BadModulesAreSkippedWithTheirReason) {
    const fs::path dir = module_dir("bad", {"good", "clash", "other_stamp", "needs_gone", "no_entry", "no_stamp"});
    std::ofstream(dir / "quatcheck-engine-junk.so") << "not a shared library\n";
    fs::create_directories(dir / "quatcheck-engine-folder.so");
    std::ofstream(dir / "libunrelated.so") << "ignored: not named quatcheck-engine-*.so\n";
    std::vector<qc::BuiltinImpl> impls;
    std::set<std::string> families = {"seed-c"};
    auto st = by_file(qc::load_engine_modules(dir.string(), impls, families));
    ASSERT_EQ(st.size(), 8u);
    const std::map<std::string, std::string> why = {
        {"quatcheck-engine-clash.so", "family 'seed-c' already exists"},
        {"quatcheck-engine-other_stamp.so", "built for another quatcheck or compiler ('quatcheck 0.0.1; g++ 4.8"},
        {"quatcheck-engine-needs_gone.so", "libqc_test_gone.so: cannot open shared object file"},
        {"quatcheck-engine-no_entry.so", "no qc_engine_module_v1 entry point"},
        {"quatcheck-engine-no_stamp.so", "no engine stamp (not a quatcheck engine module)"},
        {"quatcheck-engine-junk.so", "no engine stamp"},
        {"quatcheck-engine-folder.so", "not a regular file"},
    };
    for (const auto &[file, want] : why) {
        ASSERT_TRUE(st.count(file)) << file;
        EXPECT_FALSE(st[file].loaded) << file;
        EXPECT_NE(st[file].why.find(want), std::string::npos) << file << ": " << st[file].why;
        EXPECT_TRUE(st[file].families.empty()) << file;
    }
    // Negative control: the good module in the same folder loads, and only its entry arrives (the clash module's
    // other family, test-engine-other, is not loaded in part).
    EXPECT_TRUE(st["quatcheck-engine-good.so"].loaded) << st["quatcheck-engine-good.so"].why;
    ASSERT_EQ(impls.size(), 1u);
    EXPECT_STREQ(impls[0].table->family, "test-engine-good");
    EXPECT_FALSE(families.count("test-engine-other"));
}

TEST(EngineModules, MissingFolderGivesNothing) {
    std::vector<qc::BuiltinImpl> impls;
    std::set<std::string> families;
    EXPECT_TRUE(qc::load_engine_modules("/nonexistent/quatcheck/engines", impls, families).empty());
    EXPECT_TRUE(qc::load_engine_modules("", impls, families).empty());
    EXPECT_TRUE(impls.empty());
}

TEST(EngineModules, TheBuildsModulesAllLoad) {
    EXPECT_EQ(qc::engine_module_dir(), std::string(QC_BINARY_DIR) + "/engines");
    std::error_code ec;
    size_t files = 0;
    for (const auto &e : fs::directory_iterator(std::string(QC_BINARY_DIR) + "/engines", ec))
        files += e.path().extension() == ".so";
    if (files == 0) GTEST_SKIP() << "no engine module built (QC_ENGINES=off, or no engine library found)";
    EXPECT_EQ(qc::engine_modules().size(), files);
    size_t engine_families = 0;
    for (const auto &b : qc::builtin_impls()) engine_families += b.group == "engine";
    size_t listed = 0;
    for (const auto &m : qc::engine_modules()) {
        EXPECT_TRUE(m.loaded) << m.path << ": " << m.why;
        listed += m.families.size();
    }
    EXPECT_EQ(listed, engine_families) << "every engine family comes from a module, and only from one";
}

}  // namespace
