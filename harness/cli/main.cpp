// quatcheck: accuracy and conformance harness for quaternion interpolation.
// Errors are printed as "quatcheck: <what>: <why>"; exit 2 for usage and input errors, 1 for a failed
// verdict, 0 for success.
#include "cli/command.h"
#include "isolate/process_plugin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace qc::cli {

std::vector<CommandEntry> &commands() {
    static std::vector<CommandEntry> c;
    return c;
}

CommandRegistrar::CommandRegistrar(const char *name, const char *help, Setup setup) {
    commands().push_back({name, help, std::move(setup)});
}

void add_plugin_option(CLI::App *sub, std::vector<std::string> &plugins) {
    sub->add_option("--plugin", plugins,
                    "Load implementations from this shared library (repeatable). A plugin is code quatcheck "
                    "runs: load only libraries you trust.")
        ->type_name("PATH.so");
    // Kept in the same list as --plugin (tagged), so every command that takes --plugin takes this too.
    sub->add_option_function<std::vector<std::string>>(
           "--plugin-cmd",
           [&plugins](const std::vector<std::string> &cmds) {
               for (const auto &c : cmds) plugins.push_back(process_plugin_spec(c));
           },
           "Run this program as a process plugin speaking docs/plugin-protocol.md on stdin/stdout "
           "(repeatable; words split as by a shell, no expansion), e.g. 'node impls/js/three.js'. It is code "
           "quatcheck runs: name only programs you trust.")
        ->type_name("'COMMAND ARGS...'");
}

void add_reference_option(CLI::App *sub, std::string &mode) {
    sub->add_option("--reference", mode,
                    "Reference arithmetic: fast (double-double with a certified error bound, MPFR where the bound "
                    "cannot decide) or mpfr (MPFR for every case, and the MPFR metric engine)")
        ->check(CLI::IsMember({"fast", "mpfr"}))
        ->capture_default_str();
}

ReferenceMode reference_mode(const std::string &mode) {
    auto m = parse_reference_mode(mode);
    if (!m) throw UsageError(fmt::format("--reference: expected fast or mpfr, got '{}'", mode));
    return *m;
}

std::vector<Op> parse_ops(const std::vector<std::string> &names, const char *flag) {
    std::vector<Op> ops;
    for (const auto &n : names) {
        auto op = parse_op(n);
        if (!op) throw UsageError(fmt::format("{}: unknown op '{}' (expected slerp, nlerp or squad)", flag, n));
        ops.push_back(*op);
    }
    return ops;
}

}  // namespace qc::cli

int main(int argc, char **argv) {
    using namespace qc;
    CLI::App app{"quatcheck: accuracy and conformance harness for quaternion slerp, nlerp and squad"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Help for every subcommand");
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
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        std::string where = app.get_subcommands().empty() ? "usage" : app.get_subcommands().front()->get_name();
        std::fprintf(stderr, "quatcheck: %s: %s\n", where.c_str(), e.what());
        return 2;
    } catch (const UsageError &e) {
        std::fprintf(stderr, "quatcheck: %s\n", e.what());
        return 2;
    } catch (const InputError &e) {
        std::fprintf(stderr, "quatcheck: %s\n", e.what());
        return 2;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "quatcheck: internal error: %s\n", e.what());
        return 3;
    }
    return exit_status;
}
