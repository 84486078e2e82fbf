// quatcheck history's versions, transitions, bisection and outputs: see history.h.
#include "cli/history.h"

#include "quatcheck/types.h"
#include "tables/schemas.h"
#include "tables/table.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace qc::cli {
namespace fs = std::filesystem;
namespace {

std::pair<std::string, std::string> split_impl(const std::string &impl) {
    const size_t dot = impl.rfind('.');
    if (dot != std::string::npos && (impl.substr(dot) == ".f32" || impl.substr(dot) == ".f64"))
        return {impl.substr(0, dot), impl.substr(dot + 1)};
    return {impl, "f64"};
}

// The indexes of vs in each series, in the order given.
std::vector<std::vector<size_t>> series_of(const std::vector<Version> &vs) {
    std::vector<std::vector<size_t>> out;
    std::map<std::string, size_t> at;
    for (size_t i = 0; i < vs.size(); i++) {
        auto [it, fresh] = at.try_emplace(vs[i].series, out.size());
        if (fresh) out.emplace_back();
        out[it->second].push_back(i);
    }
    return out;
}

bool usable(const Version &v) { return v.data.has_value(); }

}  // namespace

std::string Version::folder() const {
    if (package.empty()) return label;
    std::string p = package;
    std::replace(p.begin(), p.end(), '/', '+');
    return p + "@" + label;
}

bool is_safe_label(const std::string &label) {
    if (label.empty() || label.size() > 100 || label[0] == '.') return false;
    return std::all_of(label.begin(), label.end(),
                       [](char c) { return std::isalnum((unsigned char)c) || std::strchr("._-+@", c); });
}

void check_unique_labels(const std::vector<Version> &vs) {
    std::set<std::string> seen;
    for (const auto &v : vs)
        if (!seen.insert(v.folder()).second)
            throw UsageError(fmt::format("history: version '{}' is given twice", v.folder()));
}

std::vector<Transition> transitions_between(const Version &a, const Version &b) {
    const Comparison c = compare_reports(*a.data, *b.data, CompareOptions{});
    std::vector<Transition> out;
    for (const auto &f : c.findings) {
        if (f.change != Change::regression && f.change != Change::improvement) continue;
        if (f.suite != "accuracy" && f.suite != "conformance") continue;
        auto [family, precision] = split_impl(f.impl);
        out.push_back({a.series, family, f.op, precision, f.key, f.metric, a.label, b.label, f.baseline, f.current,
                       f.change == Change::regression});
    }
    return out;
}

HistoryResult scan_history(const std::vector<Version> &vs) {
    HistoryResult h;
    for (const auto &s : series_of(vs)) {
        const Version *prev = nullptr;
        for (size_t i : s) {
            if (!usable(vs[i])) continue;
            if (prev)
                for (auto &t : transitions_between(*prev, vs[i])) h.transitions.push_back(std::move(t));
            prev = &vs[i];
        }
    }
    return h;
}

namespace {

struct Bisection {
    std::vector<Version> &vs;
    const std::function<void(std::vector<size_t>)> &measure;
    HistoryResult &h;

    void probe(size_t i) {
        if (vs[i].measured()) return;
        measure({i});
        h.probes.push_back(vs[i].series + " " + vs[i].label);
    }
    // The supported version of s[lo+1 .. hi-1] nearest the middle (measuring outward), or hi when none is.
    size_t middle(const std::vector<size_t> &s, size_t lo, size_t hi) {
        const size_t mid = (lo + hi) / 2;
        for (size_t d = 0; d < hi - lo; d++)
            for (size_t k : {mid + d, mid - d})
                if (k > lo && k < hi) {
                    probe(s[k]);
                    if (usable(vs[s[k]])) return k;
                }
        return hi;
    }
    // lo and hi: positions in s of measured, supported versions.
    void search(const std::vector<size_t> &s, size_t lo, size_t hi) {
        auto t = transitions_between(vs[s[lo]], vs[s[hi]]);
        if (t.empty()) return;
        const size_t m = hi - lo > 1 ? middle(s, lo, hi) : hi;
        if (m == hi) {  // consecutive among the supported versions
            for (auto &x : t) h.transitions.push_back(std::move(x));
            return;
        }
        search(s, lo, m);
        search(s, m, hi);
    }
};

}  // namespace

HistoryResult bisect_history(std::vector<Version> &vs, const std::function<void(std::vector<size_t>)> &measure) {
    HistoryResult h;
    h.bisect = true;
    Bisection b{vs, measure, h};
    for (const auto &s : series_of(vs)) {
        // The ends: the first and last supported versions (both measured at once).
        std::vector<size_t> ends = {s.front(), s.back()};
        if (s.size() == 1) ends.pop_back();
        measure(ends);
        for (size_t i : ends) h.probes.push_back(vs[i].series + " " + vs[i].label);
        size_t lo = 0, hi = s.size() - 1;
        while (lo < hi && !usable(vs[s[lo]])) b.probe(s[++lo]);
        while (hi > lo && !usable(vs[s[hi]])) b.probe(s[--hi]);
        if (lo < hi) b.search(s, lo, hi);
    }
    return h;
}

namespace {

std::string history_csv(const std::vector<Version> &vs) {
    CsvWriter w(tables::history);
    for (const auto &v : vs) {
        if (!usable(v)) continue;
        std::map<std::pair<std::string, std::string>, std::string> failed;
        for (const auto &c : v.data->conformance.value_or(std::vector<ConformanceRow>{}))
            if (c.verdict == "fail") {
                auto &f = failed[{c.impl, c.op}];
                f += (f.empty() ? "" : " ") + c.property;
            }
        for (const auto &r : v.data->summary) {
            auto [family, precision] = split_impl(r.impl);
            const auto f = failed.find({r.impl, r.op});
            w.row({v.series, v.label, v.integrity.empty() ? Cell{} : Cell{v.integrity}, r.impl, family, r.op, precision,
                   r.region, r.max_angle_err_rad, r.max_ulp1 ? Cell{*r.max_ulp1} : Cell{}, r.nonfinite, r.status,
                   f == failed.end() ? Cell{} : Cell{f->second}});
        }
    }
    return w.text();
}

std::string transitions_csv(const HistoryResult &h) {
    CsvWriter w(tables::transitions);
    for (const auto &t : h.transitions)
        w.row({t.series, t.family, t.op, t.precision, t.key, t.metric, t.from, t.to, t.before, t.after,
               std::string(t.regressed ? "regressed" : "fixed")});
    return w.text();
}

std::string history_json(const std::vector<Version> &vs, const HistoryResult &h) {
    nlohmann::json versions = nlohmann::json::array();
    for (const auto &v : vs) {
        nlohmann::json e = {{"series", v.series}, {"label", v.label}, {"folder", "versions/" + v.folder()}};
        if (!v.package.empty())
            e.update({{"package", v.package},
                      {"integrity", v.integrity},
                      {"resolved", v.resolved},
                      {"installed", v.installed_now}});
        else e["plugin"] = v.plugin;
        e["status"] = usable(v) ? "measured" : !v.skip.empty() ? "skipped" : "not probed";
        if (!v.skip.empty()) e["skip"] = v.skip;
        if (v.measured()) e["seconds"] = v.seconds;
        versions.push_back(e);
    }
    nlohmann::json j = {{"versions", versions},
                        {"bisect", h.bisect},
                        {"installs", h.installs},
                        {"wall_time_s", h.wall_s},
                        {"transitions", h.transitions.size()}};
    if (h.bisect) j["probes"] = h.probes;
    if (!h.shard_wall_s.empty()) j["shards"] = {{"count", h.shard_wall_s.size()}, {"wall_time_s", h.shard_wall_s}};
    return j.dump(2) + "\n";
}

}  // namespace

std::string history_page(const std::vector<Version> &vs, const HistoryResult &h);

void write_history(ReportDir &dir, const std::vector<Version> &vs, const HistoryResult &h) {
    dir.write("history.csv", history_csv(vs));
    dir.write("transitions.csv", transitions_csv(h));
    dir.write("history.json", history_json(vs, h));
    dir.write("history.html", history_page(vs, h));
}

std::vector<size_t> shard_versions(size_t count, const Shard &s) {
    std::vector<size_t> mine;
    for (size_t i = size_t(s.index - 1); i < count; i += size_t(s.count)) mine.push_back(i);
    return mine;
}

nlohmann::json version_identity(const std::vector<Version> &vs) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto &v : vs)
        out.push_back({{"series", v.series},
                       {"label", v.label},
                       {"package", v.package},
                       {"plugin", v.plugin},
                       {"impls", v.impls}});
    return out;
}

namespace {

constexpr const char *kShardFile = "history_shard.json";
constexpr const char *kShardFormat = "quatcheck-history-shard-1";

}  // namespace

std::string history_shard_json(const nlohmann::json &identity, const Shard &s, const std::vector<Version> &vs,
                               const std::vector<size_t> &mine, size_t installs, double wall_s) {
    nlohmann::json records = nlohmann::json::array();
    for (size_t i : mine) {
        const Version &v = vs[i];
        records.push_back({{"folder", v.folder()},
                           {"status", usable(v) ? "measured" : "skipped"},
                           {"skip", v.skip},
                           {"integrity", v.integrity},
                           {"resolved", v.resolved},
                           {"installed", v.installed_now},
                           {"seconds", v.seconds}});
    }
    nlohmann::json j = {{"format", kShardFormat}, {"shard", {{"index", s.index}, {"count", s.count}}},
                        {"identity", identity},   {"records", records},
                        {"installs", installs},   {"wall_time_s", wall_s}};
    return j.dump(1) + "\n";
}

bool is_history_folder(const std::string &dir) {
    std::error_code ec;
    return fs::is_regular_file(fs::path(dir) / kShardFile, ec) ||
           fs::is_regular_file(fs::path(dir) / "history.json", ec);
}

namespace {

struct ShardDoc {
    std::string dir;
    nlohmann::json j;
};

ShardDoc read_shard_doc(const std::string &dir) {
    const fs::path path = fs::path(dir) / kShardFile;
    const auto text = read_text_file(path);
    if (!text) {
        if (fs::exists(fs::path(dir) / "history.json"))
            throw InputError(
                fmt::format("merge: {}: the output of a whole history scan, not a shard of one (history "
                            "--shard K/N writes {})",
                            dir, kShardFile));
        throw InputError(
            fmt::format("merge: {}: no {}: not a shard of a history scan (history --shard K/N)", dir, kShardFile));
    }
    auto j = nlohmann::json::parse(*text, nullptr, false);
    const bool ok = j.is_object() && j.value("format", "") == kShardFormat && j.contains("shard") &&
                    j["shard"].is_object() && j["shard"].value("index", 0) >= 1 && j["shard"].value("count", 0) >= 1 &&
                    j.contains("identity") && j["identity"].is_object() && j["identity"].contains("versions") &&
                    j["identity"]["versions"].is_array() && j.contains("records") && j["records"].is_array();
    if (!ok) throw InputError(fmt::format("merge: {}/{}: damaged, or not a history shard", dir, kShardFile));
    return {dir, std::move(j)};
}

// Copies FROM into TO recursively (TO must not exist): the merged scan owns its versions' reports.
void copy_tree(const fs::path &from, const fs::path &to) {
    fs::create_directories(to.parent_path());
    fs::copy(from, to, fs::copy_options::recursive);
}

// Version i of the merged scan, from the record of the shard that measured it.
void take_version(Version &v, const ShardDoc &d, const fs::path &staging) {
    const nlohmann::json *rec = nullptr;
    for (const auto &r : d.j["records"])
        if (r.is_object() && r.value("folder", "") == v.folder()) rec = &r;
    if (!rec)
        throw InputError(fmt::format("merge: {}: no record of version {} in its {}", d.dir, v.folder(), kShardFile));
    v.skip = rec->value("skip", "");
    v.integrity = rec->value("integrity", "");
    v.resolved = rec->value("resolved", "");
    v.installed_now = rec->value("installed", false);
    v.seconds = rec->value("seconds", 0.0);
    std::error_code ec;
    for (const char *step : {"supports", "install", "run", "conform", "squad"}) {  // cmd_history.cpp's logs
        const std::string name = fmt::format("{}.{}.log", v.folder(), step);
        if (fs::is_regular_file(fs::path(d.dir) / "logs" / name, ec))
            copy_tree(fs::path(d.dir) / "logs" / name, staging / "logs" / name);
    }
    if (rec->value("status", "") != "measured") {
        if (v.skip.empty()) v.skip = "skipped";
        return;
    }
    const fs::path report = fs::path(d.dir) / "versions" / v.folder();
    if (!fs::is_directory(report, ec))
        throw InputError(fmt::format("merge: {}: versions/{} is missing (the shard measured it)", d.dir, v.folder()));
    v.data = read_report_folder(report.string());
    copy_tree(report, staging / "versions" / v.folder());
}

}  // namespace

std::string merge_history_shards(const std::vector<std::string> &dirs, ReportDir &dir) {
    std::vector<ShardDoc> docs;
    ShardSet set("history scan", dirs.front());
    for (const auto &d : dirs) {
        docs.push_back(read_shard_doc(d));
        const auto &s = docs.back().j["shard"];
        set.add(d, s["index"].get<int>(), s["count"].get<int>(), docs.back().j["identity"]);
    }
    set.require_complete();
    std::map<int, const ShardDoc *> by_index;
    HistoryResult h;
    for (const auto &d : docs) {
        by_index[d.j["shard"]["index"].get<int>()] = &d;
        h.installs += d.j.value("installs", size_t(0));
        h.shard_wall_s.push_back(0);
    }
    for (const auto &[k, d] : by_index) h.shard_wall_s[size_t(k - 1)] = d->j.value("wall_time_s", 0.0);
    std::vector<Version> vs;
    for (const auto &e : docs.front().j["identity"]["versions"]) {
        Version v;
        v.series = e.value("series", "");
        v.label = e.value("label", "");
        v.package = e.value("package", "");
        v.plugin = e.value("plugin", std::vector<std::string>{});
        v.impls = e.value("impls", std::vector<std::string>{});
        if (!is_safe_label(v.label))
            throw InputError(fmt::format("merge: {}/{}: a version label '{}' that is not a folder name", dirs.front(),
                                         kShardFile, v.label));
        vs.push_back(std::move(v));
    }
    fs::create_directories(dir.staging() / "versions");
    fs::create_directories(dir.staging() / "logs");
    const size_t n = by_index.size();
    for (size_t i = 0; i < vs.size(); i++) take_version(vs[i], *by_index.at(int(i % n) + 1), dir.staging());
    HistoryResult scan = scan_history(vs);
    h.transitions = std::move(scan.transitions);
    h.wall_s = *std::max_element(h.shard_wall_s.begin(), h.shard_wall_s.end());
    write_history(dir, vs, h);
    dir.adopt("versions");
    dir.adopt("logs");
    return history_text(vs, h);
}

std::string history_text(const std::vector<Version> &vs, const HistoryResult &h) {
    std::string s;
    for (const auto &t : h.transitions)
        s += fmt::format("{} {} {} -> {}: {}.{} {} {}: {} {} -> {}\n", t.regressed ? "REGRESSED" : "FIXED", t.series,
                         t.from, t.to, t.family, t.precision, t.op, t.key, t.metric, t.before, t.after);
    size_t measured = 0, skipped = 0;
    for (const auto &v : vs) measured += usable(v), skipped += !v.skip.empty();
    s += fmt::format(
        "quatcheck history: {} transition(s); {} of {} version(s) measured, {} skipped, {} installed, "
        "{:.1f} s{}\n",
        h.transitions.size(), measured, vs.size(), skipped, h.installs, h.wall_s, h.bisect ? " (bisect)" : "");
    return s;
}

}  // namespace qc::cli
