// command_context(): where the signal flag enters the RunContext every command passes down.
#include "cli/command.h"
#include "isolate/interrupt.h"

#include <filesystem>

namespace qc::cli {

RunContext command_context(double timeout_s, std::atomic<uint64_t> *progress) {
    RunContext ctx;
    ctx.stop = signal_stop_token();
    ctx.timeout_s = timeout_s;
    ctx.progress = progress;
    return ctx;
}

std::string find_script(const std::string &file) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    std::vector<fs::path> candidates;
    if (!ec) {
        candidates.push_back(exe.parent_path().parent_path() / "share" / "quatcheck" / "scripts" / file);
        candidates.push_back(exe.parent_path().parent_path() / "scripts" / file);
    }
    candidates.push_back(fs::path("scripts") / file);
    for (const auto &c : candidates)
        if (fs::is_regular_file(c, ec)) return c.string();
    return {};
}

}  // namespace qc::cli
