// The files `quatcheck findings` copies into a reproducer folder, embedded in the binary at build time
// (harness/findings/embed.cmake): the templates of harness/findings/templates/, quatcheck/plugin.h, and the
// adapter sources of impls/ with each folder's repro.txt. Paths are relative to the source tree.
#pragma once

#include <string_view>
#include <vector>

namespace qc::findings {

struct EmbeddedFile {
    std::string_view path, content;
};
const std::vector<EmbeddedFile> &embedded_files();

}  // namespace qc::findings
