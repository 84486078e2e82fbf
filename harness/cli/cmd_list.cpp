// quatcheck list: the implementations (built-in and plugins) and the ops each supports.
#include "cli/command.h"
#include "plugins/impls.h"

namespace qc::cli {
namespace {

void setup(CLI::App *sub, int &status) {
    auto plugins = std::make_shared<PluginList>();
    auto all = std::make_shared<bool>(false);
    add_plugin_option(sub, *plugins);
    sub->add_flag("--summary", *all, "Also print each implementation's one-line contract");
    sub->callback([plugins, all, &status] {
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
