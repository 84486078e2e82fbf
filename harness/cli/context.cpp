// command_context(): where the signal flag and the environment enter the RunContext every command passes
// down. The environment variables quatcheck reads are read here and nowhere below the CLI (context.h).
#include "cli/command.h"
#include "base/interrupt.h"
#include "metrics/metrics.h"
#include "reference/fast_reference.h"
#include "search/screen.h"
#include "sweep/sweep.h"

#include <cstdlib>
#include <filesystem>

namespace qc::cli {

namespace {

std::string env(const char *name) {
    const char *v = std::getenv(name);
    return v ? v : "";
}

}  // namespace

RunContext command_context(double timeout_s, std::atomic<uint64_t> *progress) {
    RunContext ctx;
    ctx.stop = signal_stop_token();
    ctx.timeout_s = timeout_s;
    ctx.hello_timeout_s = hello_timeout_s();  // --hello-timeout, beside --plugin-cmd
    ctx.progress = progress;
    ctx.worker_exe = env("QC_WORKER_EXE");                   // tests: the tool, when it is not this binary
    ctx.keep_child_stderr = env("QC_WORKER_STDERR") == "1";  // a child's stderr shown, to debug an adapter
    return ctx;
}

std::string node_modules_env() { return env("QC_NODE_MODULES"); }

void apply_damage_environment() {
    const std::string damage = env("QC_DAMAGE_FAST_PATH");
    if (damage == "sine_coefficient") set_fast_damage(FastDamage::sine_coefficient);
    if (damage == "bound_too_small") set_fast_damage(FastDamage::bound_too_small);
    if (damage == "batch_lane") set_fast_damage(FastDamage::batch_lane);
    set_screen_damaged(damage == "screen");
    // QC_FORCE_SCALAR=1: the fast reference's batch stays on the scalar path even where the CPU has AVX2 (the
    // figures are identical either way; tests/force_scalar.test.sh compares them).
    set_force_scalar(env("QC_FORCE_SCALAR") == "1");
    set_metric_force_scalar(env("QC_FORCE_SCALAR") == "1");  // the fast metrics' scalar kernel (no AVX2)
    // QC_SWEEP_PLAIN=1: the sweep without its shortcuts (sweep.h; the same figures: tests/sweep_identity.test.sh).
    set_sweep_shortcuts(env("QC_SWEEP_PLAIN") != "1");
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
