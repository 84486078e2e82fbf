// quatcheck history: one selection (ops, regions, cases, seed) run against many versions of one library, side by
// side (docs/history.md). --npm PACKAGE@RANGE installs each release into the cache (history_npm.h) and runs
// its JS adapter against it; --version LABEL='--plugin PATH.so' takes any build. Every version gets a run and a
// conform into versions/LABEL/; history.csv gathers their figures, transitions.csv lists each change between
// consecutive versions by compare's rules (compare/compare.h), history.html draws error against version.
// --bisect probes O(log n) versions per transition instead of all of them. --shard K/N measures every N-th
// version into a shard folder, and quatcheck merge of the N folders writes the unsharded scan's outputs
// (scripts/slurm-submit history runs the shards as a Slurm array).
#include "cli/command.h"
#include "cli/validators.h"
#include "cli/history.h"
#include "cli/history_npm.h"
#include "compare/compare.h"
#include "report/report_dir.h"
#include "base/shard.h"
#include "tables/quote.h"
#include "tables/schemas.h"
#include "tables/table.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <mutex>
#include <thread>

namespace qc::cli {
namespace fs = std::filesystem;
namespace {

struct HistoryArgs {
    std::vector<std::string> npm, versions, impls, ops, regions;
    long long cases = 4000;
    unsigned long long seed = 1;
    int jobs = 1;
    std::string out = "reports/history";
    bool bisect = false, plan = false;
    std::string shard;  // K/N: measure versions K, K+N, ... into a shard folder for quatcheck merge
    double hello_timeout_s = kDefaultHelloTimeout;  // handed to every child that starts an adapter
};

// The JS adapter of each npm library and the families it serves (impls/js, docs/plugin-protocol.md).
struct Adapter {
    const char *package, *file, *impls;
};
constexpr Adapter kAdapters[] = {
    {"gl-matrix", "gl-matrix.js", "glmatrix-*"},
    {"three", "three.js", "three-*"},
    {"@babylonjs/core", "babylonjs.js", "babylon-*"},
    {"playcanvas", "playcanvas.js", "playcanvas-*"},
    {"cesium", "cesium.js", "cesium-*"},
};

const Adapter &adapter_of(const std::string &package) {
    for (const auto &a : kAdapters)
        if (package == a.package) return a;
    std::string known;
    for (const auto &a : kAdapters) known += fmt::format("{}{}", known.empty() ? "" : ", ", a.package);
    throw UsageError(fmt::format("--npm: no adapter for '{}' (history knows {})", package, known));
}

// impls/js/FILE: $QC_JS_ADAPTERS, else beside the executable's checkout (<exe>/../impls/js), else ./impls/js.
std::string adapter_path(const std::string &file) {
    std::vector<fs::path> candidates;
    if (const char *d = std::getenv("QC_JS_ADAPTERS"); d && *d) candidates.push_back(fs::path(d) / file);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) candidates.push_back(exe.parent_path().parent_path() / "impls" / "js" / file);
    candidates.push_back(fs::absolute("impls/js") / file);
    for (const auto &c : candidates)
        if (fs::is_regular_file(c, ec)) return c.string();
    throw UsageError(fmt::format("history: the adapter impls/js/{} is not found (set QC_JS_ADAPTERS)", file));
}

std::string node() {
    const char *n = std::getenv("QC_NODE");
    return n && *n ? n : "node";
}

// --version LABEL='--plugin PATH.so' or LABEL='--plugin-cmd CMD'.
Version parse_version_option(const std::string &text, const std::vector<std::string> &impls) {
    const size_t eq = text.find('=');
    Version v;
    v.series = "builds";
    v.label = text.substr(0, eq);
    const std::string rest = eq == std::string::npos ? "" : text.substr(eq + 1);
    for (const char *flag : {"--plugin-cmd ", "--plugin "})
        if (rest.rfind(flag, 0) == 0 && rest.size() > std::strlen(flag)) {
            v.plugin = {std::string(flag, std::strlen(flag) - 1), rest.substr(std::strlen(flag))};
            break;
        }
    if (v.label.empty() || v.plugin.empty() || !is_safe_label(v.label))
        throw UsageError(
            fmt::format("--version: expected LABEL='--plugin PATH.so' or LABEL='--plugin-cmd CMD' (LABEL "
                        "of letters, digits, '.', '_', '-'), got '{}'",
                        text));
    if (impls.empty()) throw UsageError("--version: name the implementations to run with --impl");
    v.impls = impls;
    return v;
}

std::vector<Version> npm_versions(const std::string &spec_text, const std::vector<std::string> &impls) {
    const NpmSpec spec = parse_npm_spec(spec_text);
    const Adapter &a = adapter_of(spec.package);
    std::vector<std::string> needed = spec.range ? std::vector<std::string>{spec.from, spec.to} : spec.listed;
    std::vector<Version> out;
    const std::string adapter = adapter_path(a.file);
    for (const auto &ver : select_versions(spec, registry_versions(spec.package, needed))) {
        Version v;
        v.series = spec.package;
        v.label = ver;
        v.package = spec.package;
        v.adapter = adapter;
        v.plugin = {"--plugin-cmd", fmt::format("{} {}", node(), shell_quote(adapter))};
        v.impls = impls.empty() ? std::vector<std::string>{a.impls} : impls;
        out.push_back(v);
    }
    return out;
}

// Asks the adapter whether it calls this version correctly (no install for an unsupported one), then takes the
// version from the cache or installs it.
void prepare(Version &v, const fs::path &logs) {
    if (v.package.empty()) return;
    const fs::path log = logs / fmt::format("{}.supports.log", v.folder());
    if (run_logged({node(), v.adapter, "--supports", v.label}, {}, log) != 0)
        throw InputError(fmt::format("history: {} --supports {} failed: {}", v.adapter, v.label, last_line(log)));
    std::string answer = read_text_file(log).value_or("");
    while (!answer.empty() && answer.back() == '\n') answer.pop_back();
    if (answer.rfind("unsupported: ", 0) == 0) {
        v.skip = answer.substr(13);
        return;
    }
    const Installed in = ensure_installed(v.package, v.label, logs / fmt::format("{}.install.log", v.folder()));
    v.env = {"QC_JS_PREFIX=" + in.prefix.string()};
    v.integrity = in.integrity;
    v.resolved = in.resolved;
    v.installed_now = in.installed_now;
}

struct Runner {
    const HistoryArgs &args;
    fs::path root;  // the staging folder of --out
    int child_jobs = 0;
    std::mutex mu;
    std::atomic<int> installs{0};
    StopToken stop = command_context().stop;  // SIGINT/SIGTERM: checked before and after every step

    Runner(const HistoryArgs &a, fs::path staging, int jobs) : args(a), root(std::move(staging)), child_jobs(jobs) {}

    // The steps of one version: run and conform for slerp and nlerp, squad for squad (--allow-none: a no-op
    // when the adapter has no squad), as --op asks (all three without it).
    std::vector<std::string> steps() const {
        auto wants = [&](const char *op) {
            return args.ops.empty() || std::find(args.ops.begin(), args.ops.end(), op) != args.ops.end();
        };
        std::vector<std::string> s;
        if (wants("slerp") || wants("nlerp")) s = {"run", "conform"};
        if (wants("squad")) s.push_back("squad");
        return s;
    }

    std::vector<std::string> command(const std::string &sub, const Version &v) const {
        // This very binary, through /proc/self/exe: a rebuild that replaces the file during a long scan does not
        // change what the remaining versions run (nor fail them while the linker writes it).
        std::vector<std::string> c = {"/proc/self/exe", sub};
        c.insert(c.end(), v.plugin.begin(), v.plugin.end());
        for (const auto &i : v.impls) c.insert(c.end(), {"--impl", i});
        if (sub != "squad")
            for (const auto &o : args.ops)
                if (o != "squad") c.insert(c.end(), {"--op", o});
        c.insert(c.end(), {"--seed", std::to_string(args.seed), "--jobs", std::to_string(child_jobs), "--out",
                           (root / "versions" / v.folder()).string(), "--hello-timeout",
                           fmt::format("{:g}", args.hello_timeout_s)});
        if (sub == "run") {
            for (const auto &r : args.regions) c.insert(c.end(), {"--region", r});
            c.insert(c.end(), {"--cases", std::to_string(args.cases), "--no-leaderboard"});
        }
        if (sub == "conform") c.insert(c.end(), {"--cases", std::to_string(std::min(args.cases, 300LL))});
        if (sub == "squad") c.push_back("--allow-none");
        return c;
    }

    // Prepares, runs and conforms one version; fills v.data (or v.skip). Prints one line.
    void measure(Version &v) {
        const auto t0 = std::chrono::steady_clock::now();
        const fs::path logs = root / "logs";
        prepare(v, logs);
        if (v.installed_now) installs++;
        if (v.skip.empty()) {
            for (const auto &sub : steps()) {
                const fs::path log = logs / fmt::format("{}.{}.log", v.folder(), sub);
                stop.throw_if_requested();
                const int rc = run_logged(command(sub, v), v.env, log);
                stop.throw_if_requested();  // the child got the signal too: this is no failure of the version
                if (rc != 0 && !(rc == 1 && sub != "run"))  // conform and squad exit 1 on a failed property
                    throw InputError(fmt::format("history: {} {}: quatcheck {} failed (exit {}): {}", v.series, v.label,
                                                 sub, rc, last_line(log)));
            }
            v.data = read_report_folder((root / "versions" / v.folder()).string());
        }
        v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::lock_guard lock(mu);
        if (!v.skip.empty()) std::printf("SKIP %s %s: %s\n", v.series.c_str(), v.label.c_str(), v.skip.c_str());
        else
            std::printf("quatcheck history: %s %s: %zu rows, %s, %.1f s\n", v.series.c_str(), v.label.c_str(),
                        v.data->summary.size(),
                        v.installed_now     ? "installed"
                        : v.package.empty() ? "build"
                                            : "cached",
                        v.seconds);
        std::fflush(stdout);
    }

    // Every version of `todo` (indexes into vs), at most args.jobs at a time.
    void measure_all(std::vector<Version> &vs, const std::vector<size_t> &todo) {
        std::atomic<size_t> next{0};
        std::exception_ptr error;
        auto work = [&] {
            for (size_t k; (k = next++) < todo.size();) try {
                    if (!vs[todo[k]].measured()) measure(vs[todo[k]]);
                } catch (...) {
                    std::lock_guard lock(mu);
                    if (!error) error = std::current_exception();
                    next = todo.size();
                }
        };
        std::vector<std::thread> pool;
        for (int j = 1; j < std::max(1, args.jobs); j++) pool.emplace_back(work);
        work();
        for (auto &t : pool) t.join();
        if (error) std::rethrow_exception(error);
    }
};

// What makes shards parts of one scan: the options that decide what is measured (not --jobs, --out or
// --hello-timeout), the build, and the versions in range order as this shard resolved them.
nlohmann::json scan_identity(const HistoryArgs &a, const std::vector<Version> &vs) {
    return {{"npm", a.npm},   {"version", a.versions},     {"impl", a.impls},
            {"op", a.ops},    {"region", a.regions},       {"cases", a.cases},
            {"seed", a.seed}, {"build", build_identity()}, {"versions", version_identity(vs)}};
}

// history --shard K/N: versions K, K+N, ... measured into --out, with history_shard.json (history.h).
int history_shard_command(const HistoryArgs &a, std::vector<Version> &vs, const Shard &s) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<size_t> mine = shard_versions(vs.size(), s);
    ReportDir dir(a.out, command_context().stop);
    fs::create_directories(dir.staging() / "logs");
    fs::create_directories(dir.staging() / "versions");
    Runner r(a, dir.staging(), 1);  // a task of C CPUs (--jobs C): C versions at once, each on one thread
    r.measure_all(vs, mine);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    dir.write("history_shard.json", history_shard_json(scan_identity(a, vs), s, vs, mine, r.installs, wall));
    dir.adopt("versions");
    dir.adopt("logs");
    dir.commit();
    std::printf(
        "quatcheck history: shard %d/%d: %zu of %zu version(s), %d installed, %.1f s, in %s (quatcheck merge "
        "the %d shard folders)\n",
        s.index, s.count, mine.size(), vs.size(), r.installs.load(), wall, a.out.c_str(), s.count);
    return 0;
}

int history_command(const HistoryArgs &a) {
    if (a.npm.empty() && a.versions.empty()) throw UsageError("history: name versions with --npm or --version");
    if (a.bisect && !a.shard.empty())
        throw UsageError(
            "history: --bisect cannot be split with --shard: each probe is chosen from the versions measured before "
            "it; shard a full scan instead (without --bisect), which finds every transition bisection finds");
    if (a.bisect && a.jobs > 1) std::fprintf(stderr, "quatcheck history: --bisect probes one version at a time\n");
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Version> vs;
    for (const auto &n : a.npm)
        for (auto &v : npm_versions(n, a.impls)) vs.push_back(std::move(v));
    for (const auto &t : a.versions) vs.push_back(parse_version_option(t, a.impls));
    check_unique_labels(vs);
    const Shard shard = a.shard.empty() ? Shard{} : parse_shard(a.shard);
    if (a.plan) {  // the versions this scan (or this shard) would measure; nothing installed or written
        for (size_t i : shard_versions(vs.size(), shard))
            std::printf("%s %s\n", vs[i].series.c_str(), vs[i].label.c_str());
        return 0;
    }
    if (!a.shard.empty()) return history_shard_command(a, vs, shard);
    ReportDir dir(a.out, command_context().stop);
    fs::create_directories(dir.staging() / "logs");
    Runner r(a, dir.staging(), a.jobs > 1 ? 1 : 0);
    HistoryResult h;
    if (a.bisect) h = bisect_history(vs, [&](std::vector<size_t> todo) { r.measure_all(vs, todo); });
    else {
        std::vector<size_t> all(vs.size());
        for (size_t i = 0; i < vs.size(); i++) all[i] = i;
        r.measure_all(vs, all);
        h = scan_history(vs);
    }
    h.installs = r.installs;
    h.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    write_history(dir, vs, h);
    dir.adopt("versions");
    dir.adopt("logs");
    dir.commit();
    std::printf("%s", history_text(vs, h).c_str());
    std::printf("quatcheck history: history.csv, transitions.csv and history.html in %s\n", a.out.c_str());
    return 0;
}

void options(CLI::App *sub, HistoryArgs &a) {
    sub->add_option("--npm", a.npm,
                    "PACKAGE@A..B (every stable release from A to B) or PACKAGE@V1,V2,... (repeatable; installed into "
                    "$XDG_CACHE_HOME/quatcheck, used offline once there)");
    sub->add_option("--version", a.versions,
                    "LABEL='--plugin PATH.so' or LABEL='--plugin-cmd CMD': any build, by label (repeatable, in order; "
                    "needs --impl)");
    sub->add_option("--impl", a.impls, "Implementation name, family or glob (default: the adapter's families)");
    add_op_option(sub, a.ops, "slerp or nlerp (repeatable; default: both)");
    add_region_option(sub, a.regions);
    add_count_option(sub, "--cases", a.cases, "Cases per region and precision, for each version");
    sub->add_option("--seed", a.seed, kSeedHelp)->capture_default_str();
    sub->add_option(
           "--jobs", a.jobs,
           "Versions measured at once (each run on one thread when more than 1, and with --shard: a shard uses J CPUs)")
        ->check(CLI::Range(1LL, kMaxJobs))
        ->capture_default_str();
    sub->add_option("--out", a.out, kOutHelp)->capture_default_str();
    sub->add_option("--hello-timeout", a.hello_timeout_s,
                    "Seconds each version's adapter may take to start and send its hello (handed to run, conform and "
                    "squad); raise it for a runtime that loads slowly on a busy machine")
        ->check(number_where([](double s) { return s > 0 && s <= 3600; }, "seconds in (0, 3600]"))
        ->capture_default_str();
    sub->add_flag("--bisect", a.bisect,
                  "Find the transitions by bisection: O(log n) versions per transition instead of every version");
    sub->add_option("--shard", a.shard,
                    "Measure only versions K, K+N, K+2N, ... (in range order) into a shard folder for quatcheck merge "
                    "(scripts/slurm-submit history)")
        ->type_name("K/N")
        ->check(shard_spec());
    sub->add_flag("--plan", a.plan,
                  "Print the versions the scan (or --shard K/N) would measure, one 'SERIES LABEL' a line; install, "
                  "measure and write nothing");
}

}  // namespace

QC_COMMAND(
    "history",
    "Run one selection against many versions of a library (npm releases or builds): history.csv, transitions.csv",
    args_setup(options, history_command));

}  // namespace qc::cli
