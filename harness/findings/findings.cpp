// `quatcheck findings` (findings.h): the three steps joined, and the folder written in one step.
#include "findings/findings.h"

#include "findings/embedded.h"
#include "findings/render.h"
#include "findings/util.h"
#include "report/report_dir.h"
#include "tables/schemas.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fnmatch.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace qc::findings {

namespace fs = std::filesystem;

const std::vector<ReproSpec> &repro_specs() {
    static const std::vector<ReproSpec> specs = [] {
        std::vector<ReproSpec> v;
        for (const auto &f : embedded_files()) {
            fs::path p(f.path);
            if (p.filename() != "repro.txt") continue;
            std::istringstream in{std::string(f.content)};
            for (std::string line; std::getline(in, line);) {
                auto w = words(line);
                if (w.empty() || w[0][0] == '#') continue;
                if (w.size() < 4) throw std::logic_error(fmt::format("{}: malformed line '{}'", f.path, line));
                ReproSpec s;
                s.glob = w[0];
                s.language = w[1];
                for (const auto &x : split(w[2], ',')) s.files.push_back((p.parent_path() / x).string());
                if (w[3] != "-") s.requires_ = split(w[3], ',');
                // the flags: the rest of the line after the fourth word, as written
                size_t at = 0;
                for (int k = 0; k < 4; k++) at = line.find(w[k], at) + w[k].size();
                s.flags = line.substr(std::min(at, line.size()));
                s.flags.erase(0, s.flags.find_first_not_of(" \t"));
                for (const auto &x : s.files) embedded(x);  // every file it names is embedded
                v.push_back(s);
            }
        }
        return v;
    }();
    return specs;
}

const ReproSpec *spec_for(const std::string &family) {
    for (const auto &s : repro_specs())
        if (fnmatch(s.glob.c_str(), family.c_str(), 0) == 0) return &s;
    return nullptr;
}

std::map<std::string, std::string> render(const std::vector<LibraryFindings> &libs, const ReportTables &t,
                                          const Options &o) {
    std::map<std::string, std::string> out;
    nlohmann::json index = {{"factor", o.factor}, {"libraries", nlohmann::json::array()}};
    for (const auto &l : libs) {
        auto files = reproducer(l);
        files["README.md"] = readme(l, files, t, o);
        for (const auto &c : l.causes)
            for (const auto &x : c.findings)
                if (!x.case_csv.empty()) files[x.case_csv] = worst_cases_csv({x.row});
        const std::string lang = l.card   ? language_name(l.card->language)
                                 : l.spec ? (l.spec->language == "js"       ? "JavaScript"
                                             : l.spec->language == "python" ? "Python"
                                                                            : "C++")
                                          : "";
        std::string main;  // the reproducer's own file, "" when there is none
        for (const char *m : {"repro.mjs", "repro.cpp", "repro.py", "rust/src/main.rs", "Repro.java"})
            if (files.count(m)) main = m;
        nlohmann::json lj = {{"library", l.name},
                             {"folder", l.folder},
                             {"group", l.group},
                             {"version", l.version},
                             {"families", l.families},
                             {"language", lang},
                             {"api", l.card != nullptr},
                             {"reproducer", main},
                             {"causes", nlohmann::json::array()},
                             {"documented", l.documented.size()}};
        for (const auto &c : l.causes) {
            nlohmann::json cj = {{"title", c.title},
                                 {"severity", severity_name(c.severity)},
                                 {"formed", c.formed},
                                 {"findings", c.findings.size()},
                                 {"quoted", c.quote.path},
                                 {"marked_lines", nlohmann::json::array()},
                                 {"fix",
                                  {{"offered", c.fix.offered},
                                   {"cases", c.fix.cases},
                                   {"failed", c.fix.failed},
                                   {"max_angle_rad", c.fix.max_angle}}}};
            for (const auto &m : c.quote.marks) cj["marked_lines"].push_back(m.line);
            std::vector<std::string> impls;
            for (const auto &x : c.findings)
                if (std::find(impls.begin(), impls.end(), x.impl) == impls.end()) impls.push_back(x.impl);
            cj["impls"] = impls;
            cj["evidence"] = nlohmann::json::array();
            for (const auto &x : c.findings)
                cj["evidence"].push_back({{"impl", x.impl},
                                          {"op", x.op},
                                          {"kind", kind_name(x.kind)},
                                          {"what", x.what},
                                          {"nonfinite", x.nonfinite},
                                          {"worst", x.worst},
                                          {"cases", x.cases.size()}});
            lj["causes"].push_back(cj);
        }
        index["libraries"].push_back(lj);
        for (auto &[name, content] : files) out[l.folder + "/" + name] = content;
    }
    out["index.json"] = index.dump(1) + "\n";
    return out;
}

size_t write_findings(const fs::path &dir, Options o, StopToken stop) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw UsageError(fmt::format("findings: {}: not a folder", dir.string()));
    const ReportTables tables = read_report_tables(dir);
    o.findings_dir = fs::absolute(dir / "findings", ec).lexically_normal();
    auto libs = collect(tables, dir, o);
    group(libs, o);
    const auto files = render(libs, tables, o);
    ReportDir out(dir, stop);
    const fs::path root = out.staging() / "findings";
    for (const auto &[name, content] : files) {
        const fs::path p = root / name;
        fs::create_directories(p.parent_path(), ec);
        std::ofstream f(p, std::ios::binary);
        f << content;
        f.close();
        if (!f) throw UsageError(fmt::format("{}: cannot write", (dir / "findings" / name).string()));
        if (p.filename() == "repro.sh") ::chmod(p.c_str(), 0755);
    }
    out.adopt("findings");
    out.commit();
    return libs.size();
}

}  // namespace qc::findings
