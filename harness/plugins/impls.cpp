#include "plugins/impls.h"

#include "isolate/process_plugin.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace qc {

namespace {
std::vector<BuiltinImpl> &registry() {
    static std::vector<BuiltinImpl> r;
    return r;
}

bool has_f32(const qc_impl_v1 &t) { return t.slerp_f32 || t.nlerp_f32 || t.squad_f32 || t.squad_setup_f32; }
bool has_f64(const qc_impl_v1 &t) { return t.slerp_f64 || t.nlerp_f64 || t.squad_f64 || t.squad_setup_f64; }

bool printable_name(const char *s) {
    if (!s || !*s) return false;
    size_t n = 0;
    for (const char *c = s; *c; ++c, ++n) {
        if (n > 64) return false;
        bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                  *c == '-' || *c == '_';
        if (!ok) return false;
    }
    return true;
}

void add_family(std::vector<Impl> &out, const qc_impl_v1 *t, const std::string &group, const std::string &summary,
                const std::string &version, const std::string &origin, const std::vector<KnownDeviation> &known,
                const std::shared_ptr<EvalBackend> &backend) {
    for (Precision p : {Precision::f32, Precision::f64}) {
        if (p == Precision::f32 ? !has_f32(*t) : !has_f64(*t)) continue;
        Impl i;
        i.family = t->family;
        i.precision = p;
        i.name = fmt::format("{}.{}", t->family, to_string(p));
        i.group = group;
        i.summary = summary;
        i.version = version;
        i.origin = origin;
        i.table = t;
        i.known = known;
        i.backend = backend;
        out.push_back(std::move(i));
    }
}
}  // namespace

BuiltinRegistrar::BuiltinRegistrar(BuiltinImpl impl) { registry().push_back(std::move(impl)); }

const std::vector<BuiltinImpl> &builtin_impls() {
    auto &r = registry();
    std::stable_sort(r.begin(), r.end(), [](const BuiltinImpl &a, const BuiltinImpl &b) {
        return std::string(a.table->family) < std::string(b.table->family);
    });
    return r;
}

bool Impl::supports(Op op) const {
    bool f32 = precision == Precision::f32;
    switch (op) {
    case Op::slerp: return f32 ? table->slerp_f32 != nullptr : table->slerp_f64 != nullptr;
    case Op::nlerp: return f32 ? table->nlerp_f32 != nullptr : table->nlerp_f64 != nullptr;
    case Op::squad:
        return f32 ? (table->squad_f32 && table->squad_setup_f32) : (table->squad_f64 && table->squad_setup_f64);
    }
    return false;
}

const KnownDeviation *Impl::known_deviation(Op op, const std::string &property) const {
    for (const auto &k : known)
        if ((k.op == "*" || k.op == to_string(op)) && k.property == property) return &k;
    return nullptr;
}

std::string check_descriptor(const qc_impl_v1 *table, size_t count) {
    if (!table) return "qc_plugin_v1 returned a NULL table";
    if (count == 0) return "qc_plugin_v1 returned no descriptors (count = 0)";
    if (count > 1024) return fmt::format("qc_plugin_v1 returned an implausible count {}", count);
    std::set<std::string> seen;
    for (size_t i = 0; i < count; ++i) {
        const qc_impl_v1 &t = table[i];
        if (!t.family || !*t.family) return fmt::format("descriptor {} has an empty family name", i);
        if (!printable_name(t.family))
            return fmt::format("descriptor {} has a family name that is not [A-Za-z0-9_-]{{1,64}}", i);
        if (!seen.insert(t.family).second) return fmt::format("family '{}' is declared twice", t.family);
        if (!has_f32(t) && !has_f64(t)) return fmt::format("family '{}' provides no function at all", t.family);
        if ((t.squad_f32 != nullptr) != (t.squad_setup_f32 != nullptr) ||
            (t.squad_f64 != nullptr) != (t.squad_setup_f64 != nullptr))
            return fmt::format("family '{}' provides squad without squad_setup or the reverse", t.family);
    }
    return {};
}

std::vector<Impl> load_catalogue(const std::vector<std::string> &plugin_paths, const RunContext &ctx) {
    std::vector<Impl> out;
    std::set<std::string> families;
    for (const auto &b : builtin_impls()) {
        const size_t first = out.size();
        add_family(out, b.table, b.group, b.summary, b.version, "builtin", b.known, in_process_backend(b.table));
        for (size_t k = first; k < out.size(); k++) out[k].curve = b.curve;
        families.insert(b.table->family);
    }
    for (const auto &path : plugin_paths) {
        // A control character (a newline, a tab) in a path or command would go into the reports' `reproduce`
        // columns, where a line break makes the CSV unreadable for every later command: refused.
        std::string command;
        const bool process = is_process_plugin_spec(path, &command);
        const std::string &given = process ? command : path;
        for (size_t k = 0; k < given.size(); ++k)
            if ((unsigned char)given[k] < 0x20 || given[k] == 0x7f)
                throw UsageError(fmt::format("{}: the {} holds a control character (byte 0x{:02x} at offset {}); give it on one line "
                                             "without control characters",
                                             process ? "--plugin-cmd" : "--plugin", process ? "command" : "path",
                                             (unsigned char)given[k], k));
        // --plugin-cmd: a program speaking docs/plugin-protocol.md (harness/isolate/process_plugin.h).
        if (process) {
            add_process_plugin(out, families, command, ctx);
            continue;
        }
        // The path is used exactly as given (a path without a
        // slash would make dlopen search the library path, so it is refused).
        if (path.empty()) throw UsageError("--plugin: empty path (name a shared library, e.g. ./libmyslerp.so)");
        if (path.find('/') == std::string::npos)
            throw InputError(fmt::format("{}: plugin path must contain a '/' (e.g. ./{}); plugins are loaded only from paths you name", path, path));
        // A folder, a FIFO or a device is refused before anything reads it (a FIFO held the loader 5 s).
        if (std::error_code ec; std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
            throw InputError(fmt::format("{}: cannot load plugin: not a regular file", path));
        // The library is opened, its entry point called and its table checked (check_descriptor) in a
        // worker process, never in this one: a plugin that crashes or hangs while loading is refused too.
        std::vector<IsolatedDescriptor> descriptors = describe_plugin_isolated(path, ctx);
        for (unsigned i = 0; i < descriptors.size(); ++i) {
            const IsolatedDescriptor &d = descriptors[i];
            if (!families.insert(d.family).second)
                throw InputError(fmt::format("{}: refused: family '{}' already exists", path, d.family));
            size_t first = out.size();
            add_family(out, isolated_table(d), "plugin", "loaded from " + path, "", path, {},
                       isolated_plugin_backend(path, i, d.family, ctx));
            for (size_t k = first; k < out.size(); ++k)
                out[k].has_slerp_tau = d.functions & (out[k].precision == Precision::f32 ? kTauMaskF32 : kTauMaskF64);
        }
    }
    return out;
}

}  // namespace qc
