#include "findings/library.h"

#include "findings/embedded.h"
#include "findings/util.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fnmatch.h>
#include <stdexcept>

namespace qc::findings {

const char *language_name(Language l) {
    static constexpr std::pair<Language, const char *> names[] = {{Language::cpp, "C++"},
                                                                  {Language::js, "JavaScript"},
                                                                  {Language::python, "Python"},
                                                                  {Language::rust, "Rust"},
                                                                  {Language::java, "Java"}};
    return name_of(l, names);
}

const Routine *Library::routine(const std::string &family, const std::string &op) const {
    for (const auto &r : routines)
        if (fnmatch(r.family.c_str(), family.c_str(), 0) == 0 && (op.empty() || r.op == op)) return &r;
    return nullptr;
}

namespace {

// The cards are the project's own files compiled into the tool: a malformed one is a build defect, reported
// as an internal error naming the file (tests/findings.test.sh loads every card).
Library parse_library(const nlohmann::json &j, const std::string &file) {
    auto str = [&](const nlohmann::json &o, const char *key, bool required = true) -> std::string {
        if (!o.contains(key)) {
            if (required) throw std::logic_error(fmt::format("{}: a library lacks \"{}\"", file, key));
            return {};
        }
        return o.at(key).get<std::string>();
    };
    Library l;
    l.name = str(j, "name");
    const std::string lang = str(j, "language");
    l.language = lang == "js"       ? Language::js
                 : lang == "python" ? Language::python
                 : lang == "rust"   ? Language::rust
                 : lang == "java"   ? Language::java
                                    : Language::cpp;
    if (lang != "js" && lang != "python" && lang != "rust" && lang != "java" && lang != "cpp")
        throw std::logic_error(fmt::format("{}: {}: unknown language {}", file, l.name, lang));
    l.package = str(j, "package"), l.order = str(j, "order");
    for (const auto &p : j.value("prelude", nlohmann::json::array())) l.prelude.push_back(p.get<std::string>());
    l.make = str(j, "make"), l.make_f32 = str(j, "make_f32", false), l.read = str(j, "read");
    l.build = str(j, "build", false);
    for (const auto &h : j.value("helpers", nlohmann::json::array())) l.helpers.push_back(h.get<std::string>());
    for (const auto &r : j.at("routines")) {
        Routine x{str(r, "family"), str(r, "op"), str(r, "api"), str(r, "call"), {}};
        if (r.contains("source")) x.source = {str(r.at("source"), "file"), str(r.at("source"), "find")};
        for (const auto &p : r.value("precisions", nlohmann::json::array()))
            x.precisions.push_back(p.get<std::string>());
        if (x.op != "slerp" && x.op != "nlerp")
            throw std::logic_error(fmt::format("{}: {}: op {} is neither slerp nor nlerp", file, x.family, x.op));
        l.routines.push_back(x);
    }
    for (const auto &d : j.value("documented", nlohmann::json::array()))
        l.documented.push_back({str(d, "family"), str(d, "op"), d.at("dot_above").get<double>(), str(d, "words")});
    return l;
}

}  // namespace

const std::vector<Library> &libraries() {
    static const std::vector<Library> all = [] {
        std::vector<Library> v;
        for (const auto &f : embedded_files()) {
            if (std::filesystem::path(f.path).filename() != "libraries.json") continue;
            const std::string file(f.path);
            try {
                const auto j = nlohmann::json::parse(f.content);
                for (const auto &l : j.at("libraries")) v.push_back(parse_library(l, file));
            } catch (const nlohmann::json::exception &e) {
                throw std::logic_error(fmt::format("{}: {}", file, e.what()));
            }
        }
        return v;
    }();
    return all;
}

const Library *library_of(const std::string &family) {
    for (const auto &l : libraries())
        if (l.routine(family)) return &l;
    return nullptr;
}

}  // namespace qc::findings
