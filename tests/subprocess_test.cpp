// base/subprocess.h: run_tool, the one routine that runs Python and npm for report, bench and history.
#include "base/subprocess.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using qc::ToolResult;
using qc::ToolRun;

ToolRun shell(const std::string &script) {
    ToolRun r;
    r.argv = {"/bin/sh", "-c", script};
    return r;
}

TEST(Subprocess, CapturesStdoutAndStatus) {
    ToolRun run = shell("printf 'hello\\n'; exit 3");
    run.out = ToolRun::Out::capture;
    const ToolResult r = qc::run_tool(run);
    EXPECT_EQ(r.out, "hello\n");
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.describe(), "exited with status 3");
    ToolRun good = shell("printf ok");
    good.out = ToolRun::Out::capture;
    EXPECT_TRUE(qc::run_tool(good).ok());
}

TEST(Subprocess, BoundsTheCapture) {
    ToolRun run = shell("head -c 100000 /dev/zero");
    run.out = ToolRun::Out::capture;
    run.capture_max = 1000;
    const ToolResult r = qc::run_tool(run);
    EXPECT_TRUE(r.ok());  // the tool ran to its end: the rest was read and dropped, not left to block it
    EXPECT_TRUE(r.out_truncated);
    EXPECT_LE(r.out.size(), 1000u);
    run.capture_max = 200000;
    const ToolResult whole = qc::run_tool(run);
    EXPECT_FALSE(whole.out_truncated);
    EXPECT_EQ(whole.out.size(), 100000u);
}

TEST(Subprocess, TellsWhetherTheToolSpokeOnStderr) {
    ToolRun quiet = shell("exit 1");
    quiet.relay_stderr = true;
    EXPECT_FALSE(qc::run_tool(quiet).said_on_stderr);
    ToolRun loud = shell("echo 'subprocess_test: expected line on stderr' >&2; exit 1");
    loud.relay_stderr = true;
    EXPECT_TRUE(qc::run_tool(loud).said_on_stderr);
}

TEST(Subprocess, SetsOrKeepsEnvironment) {
    ::setenv("QC_SUBPROCESS_TEST", "mine", 1);
    ToolRun run = shell("printf '%s' \"$QC_SUBPROCESS_TEST\"");
    run.out = ToolRun::Out::capture;
    run.env = {{"QC_SUBPROCESS_TEST", "theirs"}};
    EXPECT_EQ(qc::run_tool(run).out, "theirs");
    run.env_keep_existing = true;
    EXPECT_EQ(qc::run_tool(run).out, "mine");
    ::unsetenv("QC_SUBPROCESS_TEST");
    EXPECT_EQ(qc::run_tool(run).out, "theirs");
}

TEST(Subprocess, WritesBothStreamsToAFileWithStdinClosed) {
    const std::string file = testing::TempDir() + "subprocess_test_log.txt";
    ToolRun run = shell("echo out; echo err >&2; cat");  // cat: end of file at once from /dev/null
    run.out = ToolRun::Out::file;
    run.out_file = file;
    run.err_to_out_file = true;
    run.stdin_null = true;
    EXPECT_TRUE(qc::run_tool(run).ok());
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    EXPECT_EQ(s.str(), "out\nerr\n");
    std::filesystem::remove(file);
}

TEST(Subprocess, SaysWhenTheToolCannotStart) {
    ToolRun run;
    run.argv = {"/nonexistent/quatcheck-no-such-tool"};
    const ToolResult r = qc::run_tool(run);
    EXPECT_NE(r.spawn_errno, 0);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.describe().rfind("could not start: ", 0), 0u) << r.describe();
    ToolRun named;
    named.argv = {"sh", "-c", "exit 0"};
    named.search_path = true;
    EXPECT_TRUE(qc::run_tool(named).ok());
    ToolRun killed = shell("kill -9 $$");
    EXPECT_EQ(qc::run_tool(killed).describe().rfind("killed by signal 9", 0), 0u);
}

}  // namespace
