// quatcheck: accuracy and conformance harness for quaternion interpolation.
// Errors are printed as "quatcheck: <what>: <why>"; exit 2 for usage and input errors, 1 for a failed
// verdict, 0 for success.
#include "cli/command.h"
#include "base/interrupt.h"
#include "tables/table.h"

#include <fmt/format.h>

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>

namespace qc::cli {

std::vector<CommandEntry> &commands() {
    static std::vector<CommandEntry> c;
    return c;
}

CommandRegistrar::CommandRegistrar(const char *name, const char *help, Setup setup) {
    commands().push_back({name, help, std::move(setup)});
}

namespace {

// A "key value kB" line of a /proc file (e.g. MemAvailable in /proc/meminfo), in bytes; nullopt when absent.
std::optional<uint64_t> proc_kib(const char *file, const std::string &key) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(key + ":", 0) != 0) continue;
        char *end = nullptr;
        const unsigned long long v = std::strtoull(line.c_str() + key.size() + 1, &end, 10);
        if (end != line.c_str() + key.size() + 1) return uint64_t(v) * 1024;
    }
    return std::nullopt;
}

// A number in a one-line cgroup file ("max" or absent: nullopt).
std::optional<uint64_t> cgroup_number(const char *file) {
    std::ifstream in(file);
    std::string v;
    if (!(in >> v) || v.empty() || v.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return std::strtoull(v.c_str(), nullptr, 10);
}

std::string bytes_text(double b) {
    const char *unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (b >= 1024 && u < 6) b /= 1024, u++;
    return u == 0 ? fmt::format("{:.0f} bytes", b) : fmt::format("{:.1f} {}", b, unit[u]);
}

}  // namespace

uint64_t available_memory_bytes() {
    uint64_t avail = std::numeric_limits<uint64_t>::max();
    if (auto m = proc_kib("/proc/meminfo", "MemAvailable")) avail = std::min(avail, *m);
    // A cgroup v2 limit (a container): what is left of memory.max.
    if (auto max = cgroup_number("/sys/fs/cgroup/memory.max")) {
        uint64_t used = cgroup_number("/sys/fs/cgroup/memory.current").value_or(0);
        avail = std::min(avail, *max > used ? *max - used : 0);
    }
    // ulimit -v / -d: what is left of the address space and data limits.
    const uint64_t mapped = proc_kib("/proc/self/status", "VmSize").value_or(0);
    const uint64_t data = proc_kib("/proc/self/status", "VmData").value_or(0);
    struct rlimit r {};
    if (::getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
        avail = std::min<uint64_t>(avail, r.rlim_cur > mapped ? r.rlim_cur - mapped : 0);
    if (::getrlimit(RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
        avail = std::min<uint64_t>(avail, r.rlim_cur > data ? r.rlim_cur - data : 0);
    return avail;
}

void require_memory(const std::string &what, double bytes, const std::string &lower) {
    const uint64_t avail = available_memory_bytes();
    if (!(bytes > double(avail))) return;
    throw UsageError(
        fmt::format("{} needs about {} of memory, more than the {} available; nothing was started "
                    "(lower {})",
                    what, bytes_text(bytes), bytes_text(double(avail)), lower));
}

}  // namespace qc::cli

int main(int argc, char **argv) {
    using namespace qc;
    // SIGINT/SIGTERM in any phase of any command: the long loops poll the flag through the RunContext's stop
    // token (cli/context.cpp) and the command ends with 128 + sig, --out untouched (run writes OUT.partial).
    // Installed first, before the CLI is built or parsed and before any plugin is loaded, so that a signal
    // soon after the start is not met by the default action (exit 143 with no message and no OUT.partial).
    // The worker keeps the default action: its parent ends it.
    if (!(argc > 1 && std::string(argv[1]) == "worker")) install_interrupt_handlers();
    // Table reads stop on a signal too (compare, merge, findings, replay read whole report folders).
    set_table_read_check([] { signal_stop_token().throw_if_requested(); });
    cli::apply_damage_environment();
    CLI::App app{"quatcheck: accuracy and conformance harness for quaternion slerp, nlerp and squad"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Help for every subcommand");
    app.set_version_flag("--version", std::string("quatcheck ") + QC_VERSION, "Print the version and exit");
    int exit_status = 0;
    auto entries = cli::commands();
    std::sort(entries.begin(), entries.end(), [](auto &a, auto &b) { return a.name < b.name; });
    for (auto &c : entries) {
        CLI::App *sub = app.add_subcommand(c.name, c.help);
        c.setup(sub, exit_status);
    }
    if (argc > 1 && argv[1][0] != '-') {
        bool known = false;
        for (auto &c : entries) known = known || c.name == argv[1];
        if (!known) {
            std::fprintf(stderr, "quatcheck: usage: unknown subcommand '%s' (see quatcheck --help)\n", argv[1]);
            return 2;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) { return app.exit(e); } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) { return app.exit(e); } catch (const CLI::ParseError &e) {
        std::string where = app.get_subcommands().empty() ? "usage" : app.get_subcommands().front()->get_name();
        std::fprintf(stderr, "quatcheck: %s: %s\n", where.c_str(), e.what());
        return 2;
    } catch (const UsageError &e) {
        std::fprintf(stderr, "quatcheck: %s\n", e.what());
        return 2;
    } catch (const InputError &e) {
        std::fprintf(stderr, "quatcheck: %s\n", e.what());
        return 2;
    } catch (const Interrupted &e) {
        std::string where = app.get_subcommands().empty() ? "quatcheck" : app.get_subcommands().front()->get_name();
        std::fprintf(stderr, "quatcheck: %s: %s; nothing written, --out left as it was\n", where.c_str(), e.what());
        return 128 + e.sig;
    } catch (const std::bad_alloc &) {
        std::string where = app.get_subcommands().empty() ? "quatcheck" : app.get_subcommands().front()->get_name();
        std::fprintf(stderr,
                     "quatcheck: %s: not enough memory for this request (lower --cases, --points or --tracks)\n",
                     where.c_str());
        return 2;
    } catch (const std::length_error &) {
        std::string where = app.get_subcommands().empty() ? "quatcheck" : app.get_subcommands().front()->get_name();
        std::fprintf(
            stderr, "quatcheck: %s: the request is too large to hold in memory (lower --cases, --points or --tracks)\n",
            where.c_str());
        return 2;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "quatcheck: internal error: %s\n", e.what());
        return 3;
    }
    return exit_status;
}
