// quatcheck list: the implementations (built-in and plugins) and the ops each supports.
#include "cli/command.h"
#include "plugins/engines.h"
#include "plugins/impls.h"

#include <filesystem>

namespace qc::cli {
namespace {

// list --modules: where the engine modules come from and what became of each (harness/plugins/engines.h).
void print_modules() {
    const std::string dir = engine_module_dir();
    const auto &mods = engine_modules();
    std::error_code ec;
    if (mods.empty()) {
        std::printf("engine modules: none in %s%s\n", dir.c_str(),
                    std::filesystem::is_directory(dir, ec) ? "" : " (no such folder)");
        return;
    }
    size_t loaded = 0;
    for (const auto &m : mods) loaded += m.loaded;
    std::printf("engine modules: %zu loaded, %zu skipped, from %s\n", loaded, mods.size() - loaded, dir.c_str());
    for (const auto &m : mods) {
        const std::string file = std::filesystem::path(m.path).filename().string();
        std::string what;
        for (const auto &f : m.families) what += (what.empty() ? "" : ", ") + f;
        std::printf("%-8s %-34s %s\n", m.loaded ? "loaded" : "skipped", file.c_str(),
                    m.loaded ? what.c_str() : m.why.c_str());
    }
}

void setup(CLI::App *sub, int &status) {
    auto plugins = std::make_shared<PluginList>();
    auto all = std::make_shared<bool>(false);
    auto modules = std::make_shared<bool>(false);
    add_plugin_option(sub, *plugins);
    sub->add_flag("--summary", *all, "Also print each implementation's one-line contract");
    sub->add_flag("--modules", *modules,
                  "Print the engine modules instead: the folder they are read from, each module loaded (with its "
                  "families) or skipped (with why)");
    sub->callback([plugins, all, modules, &status] {
        if (*modules) {
            print_modules();
            status = 0;
            return;
        }
        for (const Impl &i : load_catalogue(*plugins, command_context())) {
            std::string ops;
            for (Op op : {Op::slerp, Op::nlerp, Op::squad})
                if (i.supports(op)) ops += (ops.empty() ? "" : ",") + std::string(to_string(op));
            if (i.supports_slerp_tau()) ops += ",slerp_tau";  // qc_impl_v2 / protocol 2: `threshold --impl`
            std::printf("%-24s %-8s %-18s %s\n", i.name.c_str(), i.group.c_str(), ops.c_str(),
                        i.version.empty() ? "" : i.version.c_str());
            if (*all) std::printf("    %s\n", i.summary.c_str());
        }
        status = 0;
    });
}

}  // namespace

QC_COMMAND("list", "List implementations and the ops each supports", setup);

}  // namespace qc::cli
