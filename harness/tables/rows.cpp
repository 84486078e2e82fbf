#include "tables/rows.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace qc {

namespace fs = std::filesystem;

namespace {

// A number cell that the schema requires, or 0 when its column is absent.
double figure(const Table &t, size_t i, const char *column) { return t.number(i, column).value_or(0); }

// A row with the columns that say which one it is read: its line, impl, op and region.
template <class Row> Row keyed_row(const Table &t, size_t i) {
    Row r;
    r.line = t.line(i);
    r.impl = t.text(i, "impl");
    r.op = t.text(i, "op");
    r.region = t.text(i, "region");
    return r;
}

// run.json: the group, library version and origin of each selected implementation, into t.implementations;
// the run's seed and cases per region, when present.
void read_run_json(const std::string &path, const std::string &text, ReportTables &t) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        size_t upto = std::min<size_t>(e.byte, text.size());
        unsigned line = 1 + unsigned(std::count(text.begin(), text.begin() + long(upto), '\n'));
        std::string why = e.what();
        throw InputError(fmt::format("{}:{}: {}", path, line,
                                     why.substr(why.find(']') == std::string::npos ? 0 : why.find(']') + 2)));
    } catch (
        const nlohmann::json::exception &e) {  // e.g. a number beyond double's range: out_of_range, not parse_error
        std::string why = e.what();
        throw InputError(
            fmt::format("{}:1: {}", path, why.substr(why.find(']') == std::string::npos ? 0 : why.find(']') + 2)));
    }
    auto fail = [&](const char *why) { throw InputError(fmt::format("{}:1: {}", path, why)); };
    std::map<std::string, ImplInfo> out;
    if (!j.is_object() || !j.contains("implementations") || !j["implementations"].is_array())
        fail("no 'implementations' array");
    for (const auto &e : j["implementations"]) {
        if (!e.is_object() || !e.contains("impl") || !e["impl"].is_string() || !e.contains("group") ||
            !e["group"].is_string())
            fail("an 'implementations' entry lacks a string 'impl' or 'group'");
        ImplInfo info{e["group"].get<std::string>(), "", ""};
        if (e.contains("library_version") && e["library_version"].is_string())
            info.version = e["library_version"].get<std::string>();
        if (e.contains("origin") && e["origin"].is_string()) info.origin = e["origin"].get<std::string>();
        out[e["impl"].get<std::string>()] = info;
    }
    t.implementations = std::move(out);
    for (auto [key, field] : {std::pair{"seed", &t.seed}, std::pair{"cases_per_region", &t.cases_per_region}})
        if (j.contains(key) && j[key].is_number_unsigned()) *field = j[key].get<uint64_t>();
}

}  // namespace

double as_written(double x) { return std::strtod(num(x).c_str(), nullptr); }

std::string summary_csv(const std::vector<SummaryRow> &rows) {
    CsvWriter w(tables::summary);
    auto opt = [](const std::optional<double> &x) { return x ? Cell(*x) : Cell(); };
    for (const auto &r : rows)
        w.row({r.impl, r.op, r.region, r.cases, r.nonfinite, r.branch_disagree, r.max_angle_err_rad,
               r.p99_angle_err_rad, r.max_ulp, opt(r.max_ulp1), r.max_norm_err_ulp1, r.ties,
               opt(r.max_angle_err_vs_exact_nlerp_rad), r.status, r.status_detail, r.failed_case,
               r.max_angle_err_rad,  // max_angle_err_sampling_rad: plain sampling, the same figure
               opt(r.max_angle_err_search_rad)});
    return w.text();
}

std::string worst_cases_csv(const std::vector<WorstCaseRow> &rows) {
    CsvWriter w(tables::worst_cases);
    for (const auto &r : rows) {
        std::vector<Cell> c = {r.impl, r.op, r.region};
        for (const auto &x : r.q0) c.push_back(x);
        for (const auto &x : r.q1) c.push_back(x);
        c.push_back(r.t);
        for (const auto &x : r.out) c.push_back(x);
        for (const auto &x : r.ref) c.push_back(x);
        c.emplace_back(r.angle_err_rad), c.emplace_back(r.ulp), c.emplace_back(r.ulp1);
        c.push_back(r.source);
        c.emplace_back(r.norm_err_ulp1);
        c.push_back(r.attains);
        w.row(c);
    }
    return w.text();
}

std::vector<SummaryRow> read_summary(const Table &t) {
    const bool squad = &t.schema() == &tables::squad_summary;
    std::vector<SummaryRow> rows;
    for (size_t i = 0; i < t.size(); i++) {
        auto r = keyed_row<SummaryRow>(t, i);
        r.cases = t.count(i, "cases");
        r.nonfinite = t.count(i, "nonfinite");
        if (r.nonfinite > r.cases) t.fail(i, fmt::format("nonfinite {} exceeds cases {}", r.nonfinite, r.cases));
        r.max_angle_err_rad = figure(t, i, squad ? "max_angle_err_own_rad" : "max_angle_err_rad");
        if (!squad) {
            if (!t.text(i, "status").empty()) r.status = t.text(i, "status");
            r.max_angle_err_search_rad = t.number(i, "max_angle_err_search_rad");
            r.max_ulp1 = t.number(i, "max_ulp1");
            if (t.has("branch_disagree")) r.branch_disagree = t.count(i, "branch_disagree");
            if (t.has("ties")) r.ties = t.count(i, "ties");
            r.p99_angle_err_rad = figure(t, i, "p99_angle_err_rad");
            r.max_ulp = figure(t, i, "max_ulp");
            r.max_norm_err_ulp1 = figure(t, i, "max_norm_err_ulp1");
            r.max_angle_err_vs_exact_nlerp_rad = t.number(i, "max_angle_err_vs_exact_nlerp_rad");
            r.status_detail = t.text(i, "status_detail");
            r.failed_case = t.text(i, "failed_case");
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

std::vector<ConformanceRow> read_conformance(const Table &t) {
    std::vector<ConformanceRow> rows;
    for (size_t i = 0; i < t.size(); i++)
        rows.push_back({t.line(i), t.text(i, "impl"), t.text(i, "op"), t.text(i, "property"), t.text(i, "verdict"),
                        t.text(i, "counterexample"), t.text(i, "reproduce"), t.text(i, "failed_call"),
                        t.text(i, "calls")});
    return rows;
}

std::vector<TimingRow> read_timing(const Table &t) {
    std::vector<TimingRow> rows;
    for (size_t i = 0; i < t.size(); i++)
        rows.push_back({t.line(i), t.text(i, "impl"), t.text(i, "op"), t.text(i, "region"), t.text(i, "mode"),
                        figure(t, i, "ns_per_call")});
    return rows;
}

std::vector<WorstCaseRow> read_worst_cases(const Table &t) {
    std::vector<WorstCaseRow> rows;
    for (size_t i = 0; i < t.size(); i++) {
        auto r = keyed_row<WorstCaseRow>(t, i);
        const char *k = "wxyz";
        for (int c = 0; c < 4; c++) {
            r.q0[c] = t.text(i, fmt::format("q0_{}", k[c]));
            r.q1[c] = t.text(i, fmt::format("q1_{}", k[c]));
            r.out[c] = t.text(i, fmt::format("out_{}", k[c]));
            r.ref[c] = t.text(i, fmt::format("ref_{}", k[c]));
        }
        r.t = t.text(i, "t");
        r.angle_err_rad = figure(t, i, "angle_err_rad");
        r.ulp = figure(t, i, "ulp");
        r.ulp1 = figure(t, i, "ulp1");
        r.source = t.text(i, "source");
        r.norm_err_ulp1 = t.number(i, "norm_err_ulp1").value_or(std::nan(""));
        r.attains = t.text(i, "attains");
        rows.push_back(std::move(r));
    }
    return rows;
}

std::vector<WorstCaseRow> read_worst_cases(const std::string &path) {
    return read_worst_cases(read_table_file(tables::worst_cases, path));
}

ReportFiles files_in(const fs::path &dir, std::map<std::string, std::string> overlay) {
    return [dir, overlay = std::move(overlay)](const std::string &name) -> std::optional<std::string> {
        if (auto it = overlay.find(name); it != overlay.end()) return it->second;
        return read_text_file(dir / name);
    };
}

std::vector<std::string> load_words(const std::string &origin) {
    if (origin.empty() || origin == "builtin") return {};
    if (origin.size() > 3 && origin.compare(origin.size() - 3, 3, ".so") == 0) return {"--plugin", origin};
    return {"--plugin-cmd", origin};
}

ReportTables read_report_tables(const ReportFiles &files, const fs::path &dir, ReportTables t) {
    t.dir = dir.string();
    t.partial = t.partial || files("PARTIAL").has_value();
    auto path = [&](const std::string &name) { return (dir / name).string(); };
    auto read = [&](const Schema &s) -> std::optional<Table> {
        auto text = files(s.file);
        if (!text) return std::nullopt;
        if (!t.partial) return read_table(s, path(s.file), *text);
        Schema header_only_allowed = s;
        header_only_allowed.rows_required = false;
        return read_table(header_only_allowed, path(s.file), *text);
    };
    if (!t.summary)
        if (auto x = read(tables::summary)) t.summary = read_summary(*x);
    if (!t.squad_summary)
        if (auto x = read(tables::squad_summary)) t.squad_summary = read_summary(*x);
    if (!t.implementations)
        if (auto text = files("run.json")) read_run_json(path("run.json"), *text, t);
    if (!t.conformance)
        if (auto x = read(tables::conformance)) t.conformance = read_conformance(*x);
    if (!t.squad_conformance)
        if (auto x = read(tables::squad_conformance)) t.squad_conformance = read_conformance(*x);
    if (!t.timing)
        if (auto x = read(tables::timing)) t.timing = read_timing(*x);
    if (t.worst_cases.empty())
        if (auto text = files("worst_cases.csv"); text && std::count(text->begin(), text->end(), '\n') > 1)
            t.worst_cases = read_worst_cases(read_table(tables::worst_cases, path("worst_cases.csv"), *text));
    return t;
}

ReportTables read_report_tables(const fs::path &dir) { return read_report_tables(files_in(dir), dir); }

}  // namespace qc
