// quatcheck worker: the process that contains one plugin (or one built-in under --isolate). Started by
// quatcheck itself with fds 3, 4 and 5 set up (harness/isolate/protocol.h); not for people.
#include "cli/command.h"
#include "isolate/eval.h"
#include "quatcheck/registry.h"

namespace qc::cli {
namespace {

void setup(CLI::App *sub, int &status) {
    auto plugin = std::make_shared<std::string>();
    auto builtin = std::make_shared<std::string>();
    sub->group("");  // hidden from --help
    auto *p = sub->add_option("--plugin", *plugin, "The plugin to load and serve");
    auto *b = sub->add_option("--builtin", *builtin, "The built-in family to serve");
    p->excludes(b);
    sub->callback([=, &status] {
        if (plugin->empty() == builtin->empty()) throw UsageError("worker: give exactly one of --plugin and --builtin");
        const qc_impl_v1 *table = nullptr;
        for (const auto &b : builtin_impls())
            if (*builtin == b.table->family) table = b.table;
        status = worker_main(*plugin, *builtin, table);
    });
}

}  // namespace

QC_COMMAND("worker", "Internal: evaluate one implementation in a contained process", setup);

}  // namespace qc::cli
