#include "plugins/engines.h"

#include "quatcheck/engine_module.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

// Compiled in by the top-level CMakeLists.txt: the build folder's module folder, and the installed one relative
// to the prefix.
#ifndef QC_ENGINE_BUILD_DIR
#error "QC_ENGINE_BUILD_DIR must be defined (CMakeLists.txt)"
#endif
#ifndef QC_ENGINE_INSTALL_DIR
#error "QC_ENGINE_INSTALL_DIR must be defined (CMakeLists.txt)"
#endif

namespace qc {

namespace fs = std::filesystem;

std::string engine_module_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    // A binary of the build folder (BUILD/quatcheck, BUILD/tests/qc_tests, BUILD/bench/qc_bench) reads the modules
    // that folder built; any other, the ones installed beside it.
    const fs::path build = fs::path(QC_ENGINE_BUILD_DIR).parent_path();
    const std::string b = fs::weakly_canonical(build, ec).string() + "/";
    const std::string e = fs::weakly_canonical(exe, ec).string();
    if (!ec && e.compare(0, b.size(), b) == 0) return QC_ENGINE_BUILD_DIR;
    return (exe.parent_path().parent_path() / QC_ENGINE_INSTALL_DIR).lexically_normal().string();
}

namespace {

// The module files of dir, in name order.
std::vector<std::string> module_files(const std::string &dir) {
    std::vector<std::string> files;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) return files;
    for (const auto &entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        const std::string prefix = QC_ENGINE_MODULE_PREFIX;
        if (name.compare(0, prefix.size(), prefix) == 0 && name.size() > 3 &&
            name.compare(name.size() - 3, 3, ".so") == 0)
            files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Why the file's stamp (QC_ENGINE_DEFINE_STAMP) is not this tool's, read without opening it; empty when it is.
std::string file_stamp_mismatch(const std::string &path) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec || size > (64u << 20)) return ec ? "cannot read it: " + ec.message() : "larger than 64 MiB";
    std::ifstream in(path, std::ios::binary);
    std::string bytes(size, '\0');
    if (!in.read(bytes.data(), std::streamsize(size))) return "cannot read it";
    const size_t at = bytes.find(QC_ENGINE_STAMP_OPEN);
    const size_t end = at == std::string::npos ? at : bytes.find('}', at);
    if (end == std::string::npos) return "no engine stamp (not a quatcheck engine module)";
    const std::string stamp =
        bytes.substr(at + std::strlen(QC_ENGINE_STAMP_OPEN), end - at - std::strlen(QC_ENGINE_STAMP_OPEN));
    if (stamp == QC_ENGINE_FILE_STAMP) return {};
    return fmt::format(
        "built for another quatcheck or compiler ('{:.200}'; this quatcheck is '{}'): rebuild it with "
        "this tool, or install the quatcheck-engines package of the same version",
        stamp, QC_ENGINE_FILE_STAMP);
}

// The module's entries, checked, or why it is refused (a non-empty string). The handle stays open: the entries'
// tables and functions live in the module.
std::string open_module(const std::string &path, const EngineModuleV1 **module) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return "not a regular file";
    // Before dlopen: a module of another build (another sanitizer: its run time ends the process while loading) never
    // runs.
    if (std::string why = file_stamp_mismatch(path); !why.empty()) return why;
    void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        // dlerror() starts with the path, which the warning line names already.
        const char *e = ::dlerror();
        std::string err = e ? e : "dlopen failed";
        if (err.compare(0, path.size() + 2, path + ": ") == 0) err.erase(0, path.size() + 2);
        return "cannot load it: " + err;
    }
    auto entry = reinterpret_cast<const EngineModuleV1 *(*)()>(::dlsym(handle, QC_ENGINE_MODULE_ENTRY));
    if (!entry) {
        ::dlclose(handle);
        return "no " QC_ENGINE_MODULE_ENTRY " entry point (not a quatcheck engine module)";
    }
    const EngineModuleV1 *m = nullptr;
    try {
        m = entry();
    } catch (...) { m = nullptr; }
    if (!m || !m->stamp) return QC_ENGINE_MODULE_ENTRY " returned no module";
    const std::string mine = engine_module_stamp();
    if (std::strcmp(m->stamp, mine.c_str()) != 0)
        return fmt::format(
            "built for another quatcheck or compiler ('{:.200}'; this quatcheck is '{}'): rebuild it "
            "with this tool, or install the quatcheck-engines package of the same version",
            m->stamp, mine);
    if (m->count && !m->impls) return "it lists entries but gives none";
    *module = m;
    return {};
}

}  // namespace

std::vector<EngineModuleStatus> load_engine_modules(const std::string &dir, std::vector<BuiltinImpl> &out,
                                                    std::set<std::string> &families) {
    std::vector<EngineModuleStatus> statuses;
    for (const std::string &path : module_files(dir)) {
        EngineModuleStatus s;
        s.path = path;
        const EngineModuleV1 *m = nullptr;
        s.why = open_module(path, &m);
        std::set<std::string> mine;
        for (size_t k = 0; s.why.empty() && k < m->count; k++) {
            const qc_impl_v1 *t = m->impls[k].table;
            if (!t || !t->family) s.why = fmt::format("entry {} has no table or no family name", k);
            else if (families.count(t->family) || !mine.insert(t->family).second)
                s.why = fmt::format("family '{}' already exists", t->family);
            else s.families.push_back(t->family);
        }
        if (s.why.empty() && s.families.empty()) s.why = "it registers no implementation";
        if (s.why.empty()) {
            s.loaded = true;
            families.insert(mine.begin(), mine.end());
            out.insert(out.end(), m->impls, m->impls + m->count);
        } else {
            s.families.clear();
        }
        statuses.push_back(std::move(s));
    }
    return statuses;
}

}  // namespace qc
