#include "leaderboard/leaderboard.h"

#include "quatcheck/registry.h"
#include "report/report_dir.h"
#include "report/run_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
// libfccp's header trips GCC's -Wstringop-truncation on a bounded strncpy; the code is fine.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#include <libfccp/csv.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace qc {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string &file, unsigned line, const std::string &why) {
    throw InputError(fmt::format("{}:{}: {}", file, line, why));
}

// ---- reading a CSV held in memory, by column name ----

template <size_t N> struct Table {
    std::vector<std::array<std::string, N>> rows;
    std::vector<unsigned> lines;  // the file line of each row
};

// Reads the named columns (any order, extra columns ignored). A missing required column is an error; a
// missing optional one reads as "".
template <size_t N>
Table<N> read_table(const std::string &path, const std::string &text, const std::array<const char *, N> &columns,
                    const std::array<bool, N> &required) {
    if (text.empty()) fail(path, 1, "the file is empty");
    if (text.find('\0') != std::string::npos) {
        unsigned line = 1 + unsigned(std::count(text.begin(), text.begin() + text.find('\0'), '\n'));
        fail(path, line, "NUL byte in a text file");
    }
    if (text.back() != '\n')
        fail(path, 1 + unsigned(std::count(text.begin(), text.end(), '\n')),
             "the last line is truncated (no final newline)");
    Table<N> t;
    try {
        io::CSVReader<N, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>, io::throw_on_overflow> in(
            path, text.data(), text.data() + text.size());
        std::apply([&](auto... c) { in.read_header(io::ignore_extra_column | io::ignore_missing_column, c...); },
                   columns);
        for (size_t i = 0; i < N; i++)
            if (required[i] && !in.has_column(columns[i])) fail(path, 1, fmt::format("missing column '{}'", columns[i]));
        for (;;) {
            std::array<std::string, N> row;
            if (!std::apply([&](auto &...c) { return in.read_row(c...); }, row)) break;
            t.rows.push_back(std::move(row));
            t.lines.push_back(in.get_file_line());
        }
    } catch (const io::error::base &e) {
        unsigned line = 0;
        if (auto *fl = dynamic_cast<const io::error::with_file_line *>(&e)) line = unsigned(std::max(fl->file_line, 0));
        std::string why = e.what();
        for (auto &c : why)
            if (c == '\n') c = ' ';
        // fccp's messages name the file and line themselves; keep one line.
        throw InputError(fmt::format("{}:{}: {}", path, line, why));
    }
    return t;
}

double parse_number(const std::string &s, const std::string &path, unsigned line, const char *column) {
    errno = 0;
    char *end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size())
        fail(path, line, fmt::format("column {}: '{}' is not a number", column, s));
    if (std::isnan(v)) fail(path, line, fmt::format("column {}: '{}' is not a number", column, s));
    if (v < 0) fail(path, line, fmt::format("column {}: '{}' is negative", column, s));
    return v;
}

uint64_t parse_count(const std::string &s, const std::string &path, unsigned line, const char *column) {
    errno = 0;
    char *end = nullptr;
    unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || !std::isdigit((unsigned char)s[0]) || end != s.c_str() + s.size() || errno == ERANGE)
        fail(path, line, fmt::format("column {}: '{}' is not a count", column, s));
    return v;
}

using Key = std::pair<std::string, std::string>;  // impl, op

struct ImplInfo {
    std::string group, version;
};

// run.json: the group and library version of each selected implementation.
std::map<std::string, ImplInfo> read_run_json(const std::string &path, const std::string &text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        size_t upto = std::min<size_t>(e.byte, text.size());
        unsigned line = 1 + unsigned(std::count(text.begin(), text.begin() + upto, '\n'));
        std::string why = e.what();
        fail(path, line, why.substr(why.find(']') == std::string::npos ? 0 : why.find(']') + 2));
    }
    std::map<std::string, ImplInfo> out;
    if (!j.is_object() || !j.contains("implementations") || !j["implementations"].is_array())
        fail(path, 1, "no 'implementations' array");
    for (const auto &e : j["implementations"]) {
        if (!e.is_object() || !e.contains("impl") || !e["impl"].is_string() || !e.contains("group") ||
            !e["group"].is_string())
            fail(path, 1, "an 'implementations' entry lacks a string 'impl' or 'group'");
        ImplInfo info{e["group"].get<std::string>(), ""};
        if (e.contains("library_version") && e["library_version"].is_string())
            info.version = e["library_version"].get<std::string>();
        out[e["impl"].get<std::string>()] = info;
    }
    return out;
}

// The built-in registration of "FAMILY.f32" / "FAMILY.f64", or nullptr.
const BuiltinImpl *builtin_of(const std::string &impl) {
    auto dot = impl.rfind('.');
    if (dot == std::string::npos) return nullptr;
    std::string family = impl.substr(0, dot), precision = impl.substr(dot + 1);
    for (const BuiltinImpl &b : builtin_impls()) {
        if (family != b.table->family) continue;
        bool has_f32 = b.table->slerp_f32 || b.table->nlerp_f32 || b.table->squad_f32;
        bool has_f64 = b.table->slerp_f64 || b.table->nlerp_f64 || b.table->squad_f64;
        if ((precision == "f32" && has_f32) || (precision == "f64" && has_f64)) return &b;
    }
    return nullptr;
}

// Groups left out of the leaderboard: the negative controls.
bool excluded_group(const std::string &group) { return group == "broken"; }

// The columns a per-region summary is read from. summary.csv (quatcheck run) has max_angle_err_rad and
// max_ulp1; squad_summary.csv (quatcheck squad) has max_angle_err_own_rad (the implementation with its own
// control points: what a caller gets) and no ulp1.
struct SummaryColumns {
    const char *angle, *ulp1;  // ulp1 may be nullptr
};
const SummaryColumns kSummaryColumns{"max_angle_err_rad", "max_ulp1"};
const SummaryColumns kSquadColumns{"max_angle_err_own_rad", nullptr};

// summary.csv and squad_summary.csv: rows per impl x op x region.
void read_summary(const std::string &path, const std::string &text, const SummaryColumns &sc,
                  std::map<Key, LeaderboardRow> &rows, std::vector<Key> &order, std::vector<std::string> &regions,
                  bool *have_search) {
    // Optional in both: status (the containment verdict: ok, crashed, timeout, ...) and the worst-case
    // search's maximum, which is as much a lower bound on the true maximum as the sampled one.
    const std::array<const char *, 9> cols = {"impl",   "op",      "region",
                                              "cases",  "nonfinite", sc.angle,
                                              sc.ulp1 ? sc.ulp1 : "max_ulp1", "status", "max_angle_err_search_rad"};
    auto t = read_table<9>(path, text, cols, {true, true, true, true, true, true, sc.ulp1 != nullptr, false, false});
    std::map<std::tuple<std::string, std::string, std::string>, unsigned> seen;
    for (size_t i = 0; i < t.rows.size(); i++) {
        const auto &c = t.rows[i];
        unsigned line = t.lines[i];
        for (int k : {0, 1, 2})
            if (c[k].empty()) fail(path, line, fmt::format("column {}: empty", cols[k]));
        auto [it, fresh] = seen.emplace(std::make_tuple(c[0], c[1], c[2]), line);
        if (!fresh)
            fail(path, line, fmt::format("second row for {} {} {} (the first is line {})", c[0], c[1], c[2], it->second));
        RegionFigures f;
        f.region = c[2];
        f.cases = parse_count(c[3], path, line, "cases");
        f.nonfinite = parse_count(c[4], path, line, "nonfinite");
        f.max_angle_err_rad = parse_number(c[5], path, line, sc.angle);
        if (sc.ulp1) f.max_ulp1 = parse_number(c[6], path, line, sc.ulp1);
        f.status = c[7].empty() ? "ok" : c[7];
        if (!c[8].empty()) {
            f.max_angle_err_search_rad = parse_number(c[8], path, line, "max_angle_err_search_rad");
            f.max_angle_err_rad = std::max(f.max_angle_err_rad, *f.max_angle_err_search_rad);
            *have_search = true;
        }
        if (f.nonfinite > f.cases)
            fail(path, line, fmt::format("nonfinite {} exceeds cases {}", f.nonfinite, f.cases));
        Key key{c[0], c[1]};
        auto [row, added] = rows.try_emplace(key);
        if (added) {
            order.push_back(key);
            row->second.impl = c[0];
            row->second.op = c[1];
        }
        row->second.regions.push_back(f);
        if (std::find(regions.begin(), regions.end(), f.region) == regions.end()) regions.push_back(f.region);
    }
}

int verdict_rank(const std::string &v) {  // which verdict wins when one property has several rows
    return v == "fail" ? 3 : v == "known" ? 2 : v == "pass" ? 1 : 0;
}

void read_conformance(const std::string &path, const std::string &text, std::map<Key, LeaderboardRow> &rows) {
    static const std::array<const char *, 4> cols = {"impl", "op", "property", "verdict"};
    auto t = read_table<4>(path, text, cols, {true, true, true, true});
    for (size_t i = 0; i < t.rows.size(); i++) {
        const auto &c = t.rows[i];
        unsigned line = t.lines[i];
        if (c[0].empty() || c[1].empty() || c[2].empty()) fail(path, line, "empty impl, op or property");
        if (c[3] != "pass" && c[3] != "fail" && c[3] != "known" && c[3] != "skip")
            fail(path, line, fmt::format("column verdict: '{}' is not pass, fail, known or skip", c[3]));
        auto it = rows.find({c[0], c[1]});
        if (it == rows.end()) continue;  // an implementation the accuracy run did not cover: no row to annotate
        LeaderboardRow &row = it->second;
        row.conformance_run = true;
        auto v = std::find_if(row.verdicts.begin(), row.verdicts.end(), [&](const Verdict &x) { return x.property == c[2]; });
        if (v == row.verdicts.end()) row.verdicts.push_back({c[2], c[3]});
        else if (verdict_rank(c[3]) > verdict_rank(v->verdict)) v->verdict = c[3];
    }
}

void read_timing(const std::string &path, const std::string &text, std::map<Key, LeaderboardRow> &rows) {
    static const std::array<const char *, 5> cols = {"impl", "op", "region", "mode", "ns_per_call"};
    auto t = read_table<5>(path, text, cols, {true, true, true, true, true});
    // Per impl x op x mode: the uniform region's figure, or the slowest region where uniform is not timed.
    struct Pick {
        bool uniform = false;
        double ns = 0;
    };
    std::map<std::tuple<std::string, std::string, std::string>, Pick> picks;
    for (size_t i = 0; i < t.rows.size(); i++) {
        const auto &c = t.rows[i];
        unsigned line = t.lines[i];
        if (c[3] != "latency" && c[3] != "throughput")
            fail(path, line, fmt::format("column mode: '{}' is not latency or throughput", c[3]));
        double ns = parse_number(c[4], path, line, "ns_per_call");
        auto [p, fresh] = picks.try_emplace(std::make_tuple(c[0], c[1], c[3]));
        bool uniform = c[2] == "uniform";
        if (fresh || (uniform && !p->second.uniform) || (!p->second.uniform && ns > p->second.ns))
            p->second = {uniform, ns};
    }
    for (const auto &[k, p] : picks) {
        auto it = rows.find({std::get<0>(k), std::get<1>(k)});
        if (it == rows.end()) continue;
        if (std::get<2>(k) == "throughput") it->second.ns_per_call_throughput = p.ns;
        else it->second.ns_per_call_latency = p.ns;
    }
}

int sort_class(const LeaderboardRow &r) { return r.status != "ok" ? 2 : r.nonfinite > 0 ? 1 : 0; }

std::string sci(double x) {
    if (std::isinf(x)) return "inf";
    return fmt::format("{:.2e}", x);
}
std::string short_num(double x) {
    if (std::isinf(x)) return "inf";
    return fmt::format("{:.3g}", x);
}

}  // namespace

ReportFiles files_in(const fs::path &dir) { return files_in(dir, {}); }

ReportFiles files_in(const fs::path &dir, std::map<std::string, std::string> overlay) {
    return [dir, overlay = std::move(overlay)](const std::string &name) -> std::optional<std::string> {
        if (auto it = overlay.find(name); it != overlay.end()) return it->second;
        fs::path p = dir / name;
        std::error_code ec;
        if (!fs::exists(p, ec)) return std::nullopt;
        std::ifstream in(p, std::ios::binary);
        if (!in) throw InputError(fmt::format("{}: cannot open: {}", p.string(), std::strerror(errno)));
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    };
}

Leaderboard build_leaderboard(const ReportFiles &files, const fs::path &dir) {
    Leaderboard board;
    auto path = [&](const char *name) { return (dir / name).string(); };
    std::map<Key, LeaderboardRow> rows;
    std::vector<Key> order;

    auto summary = files("summary.csv");
    auto squad = files("squad_summary.csv");
    if (!summary && !squad)
        throw InputError(fmt::format("{}: no summary.csv or squad_summary.csv (write them with `quatcheck run`)",
                                     dir.string()));
    if (summary) {
        read_summary(path("summary.csv"), *summary, kSummaryColumns, rows, order, board.regions, &board.have_search);
        board.inputs.push_back("summary.csv");
    }
    if (squad) {
        read_summary(path("squad_summary.csv"), *squad, kSquadColumns, rows, order, board.squad_regions, &board.have_search);
        board.inputs.push_back("squad_summary.csv");
    }

    std::map<std::string, ImplInfo> info;
    if (auto run = files("run.json")) {
        info = read_run_json(path("run.json"), *run);
        board.have_run_json = true;
        board.inputs.push_back("run.json");
    }
    for (const char *name : {"conformance.csv", "squad_conformance.csv"})
        if (auto text = files(name)) {
            read_conformance(path(name), *text, rows);
            board.have_conformance = true;
            board.inputs.push_back(name);
        }
    if (auto text = files("timing.csv")) {
        read_timing(path("timing.csv"), *text, rows);
        board.have_timing = true;
        board.inputs.push_back("timing.csv");
    }

    for (const Key &k : order) {
        LeaderboardRow &r = rows[k];
        if (auto it = info.find(r.impl); it != info.end()) {
            r.group = it->second.group;
            r.library_version = it->second.version;
        } else if (const BuiltinImpl *b = builtin_of(r.impl)) {
            // Not in run.json (squad rows come from `quatcheck squad`): a built-in's registration says.
            r.group = b->group;
            r.library_version = b->version;
        }
        if (excluded_group(r.group)) continue;
        for (const RegionFigures &f : r.regions) {
            r.cases += f.cases;
            r.nonfinite += f.nonfinite;
            if (r.worst_region.empty() || f.max_angle_err_rad > r.worst_angle_err_rad) {
                r.worst_region = f.region;
                r.worst_angle_err_rad = f.max_angle_err_rad;
            }
            if (f.status != "ok")
                r.status = (r.status == "ok" ? "" : r.status + "; ") + f.status + " in " + f.region;
            if (f.max_ulp1) r.worst_ulp1 = std::max(r.worst_ulp1.value_or(0), *f.max_ulp1);
        }
        board.rows.push_back(std::move(r));
    }
    std::stable_sort(board.rows.begin(), board.rows.end(), [](const LeaderboardRow &a, const LeaderboardRow &b) {
        return std::make_tuple(sort_class(a), a.worst_angle_err_rad, a.impl, a.op) <
               std::make_tuple(sort_class(b), b.worst_angle_err_rad, b.impl, b.op);
    });
    return board;
}

std::string compact_verdicts(const LeaderboardRow &row) {
    if (!row.conformance_run) return "not run";
    size_t pass = 0, judged = 0;
    std::string fails, known, skips;
    for (const Verdict &v : row.verdicts) {
        if (v.verdict == "skip") {
            skips += (skips.empty() ? "" : " ") + v.property;
            continue;
        }
        ++judged;
        if (v.verdict == "pass") ++pass;
        else if (v.verdict == "fail") fails += (fails.empty() ? "" : " ") + v.property;
        else known += (known.empty() ? "" : " ") + v.property;
    }
    std::string s = fmt::format("{}/{} pass", pass, judged);
    if (!fails.empty()) s += "; fail: " + fails;
    if (!known.empty()) s += "; known: " + known;
    if (!skips.empty()) s += "; skip: " + skips;
    return s;
}

namespace {
size_t count_verdict(const LeaderboardRow &r, const char *verdict) {
    return size_t(std::count_if(r.verdicts.begin(), r.verdicts.end(), [&](const Verdict &v) { return v.verdict == verdict; }));
}
const RegionFigures *region_of(const LeaderboardRow &r, const std::string &region) {
    for (const auto &f : r.regions)
        if (f.region == region) return &f;
    return nullptr;
}
std::string opt_num(const std::optional<double> &x) { return x ? num(*x) : std::string(); }
}  // namespace

std::string leaderboard_csv(const Leaderboard &board) {
    std::vector<std::string> regions = board.regions;
    for (const auto &g : board.squad_regions)
        if (std::find(regions.begin(), regions.end(), g) == regions.end()) regions.push_back(g);
    std::string s = "rank,impl,op,group,library_version,cases,nonfinite,status,worst_region,worst_max_angle_err_rad,worst_max_ulp1";
    for (const auto &g : regions) s += fmt::format(",{0}_max_angle_err_rad,{0}_max_ulp1", g);
    s += ",conformance,conformance_fail,ns_per_call_throughput,ns_per_call_latency\n";
    size_t rank = 0;
    for (const auto &r : board.rows) {
        // Library versions are free text from the adapters; keep the CSV one field per column.
        std::string version = r.library_version;
        std::replace(version.begin(), version.end(), ',', ';');
        s += fmt::format("{},{},{},{},{},{},{},{},{},{},{}", ++rank, r.impl, r.op, r.group, version, r.cases,
                         r.nonfinite, r.status, r.worst_region, num(r.worst_angle_err_rad), opt_num(r.worst_ulp1));
        for (const auto &g : regions) {
            const RegionFigures *f = region_of(r, g);
            s += f ? fmt::format(",{},{}", num(f->max_angle_err_rad), opt_num(f->max_ulp1)) : std::string(",,");
        }
        s += fmt::format(",{},{},{},{}\n", compact_verdicts(r), r.conformance_run ? std::to_string(count_verdict(r, "fail")) : "",
                         opt_num(r.ns_per_call_throughput), opt_num(r.ns_per_call_latency));
    }
    return s;
}

namespace {

void md_table(const Leaderboard &board, const std::vector<std::string> &regions, bool squad, std::string &s) {
    bool any_status = std::any_of(board.rows.begin(), board.rows.end(), [](auto &r) { return r.status != "ok"; });
    s += "| # | implementation | op | worst region | max angle err (rad) | non-finite |";
    if (any_status) s += " status |";
    for (const auto &g : regions) s += fmt::format(" {} |", g);
    s += " conformance |";
    if (board.have_timing) s += " ns/call |";
    s += "\n|---:|---|---|---|---:|---:|";
    if (any_status) s += "---|";
    for (size_t i = 0; i < regions.size(); i++) s += "---:|";
    s += "---|";
    if (board.have_timing) s += "---:|";
    s += "\n";
    size_t rank = 0;
    for (const auto &r : board.rows) {
        ++rank;
        if ((r.op == "squad") != squad) continue;
        s += fmt::format("| {} | `{}` | {} | {} | {} | {} |", rank, r.impl, r.op, r.worst_region,
                         sci(r.worst_angle_err_rad), r.nonfinite ? fmt::format("**{}**", r.nonfinite) : "0");
        if (any_status) s += r.status == "ok" ? std::string(" ok |") : " **" + r.status + "** |";
        for (const auto &g : regions) {
            const RegionFigures *f = region_of(r, g);
            if (!f) s += " |";
            else if (f->max_ulp1) s += fmt::format(" {} ({}) |", sci(f->max_angle_err_rad), short_num(*f->max_ulp1));
            else s += fmt::format(" {} |", sci(f->max_angle_err_rad));
        }
        std::string conf = compact_verdicts(r);
        if (r.conformance_run && count_verdict(r, "fail")) conf = "**" + conf + "**";
        s += " " + conf + " |";
        if (board.have_timing) s += " " + (r.ns_per_call_throughput ? short_num(*r.ns_per_call_throughput) : "") + " |";
        s += "\n";
    }
}

}  // namespace

std::string leaderboard_md(const Leaderboard &board) {
    std::string s = "## quatcheck leaderboard\n\n";
    std::set<uint64_t> per_region;
    for (const auto &r : board.rows)
        for (const auto &f : r.regions) per_region.insert(f.cases);
    std::string cases;
    if (per_region.size() == 1) cases = fmt::format("{} sampled cases per region", *per_region.begin());
    else if (!per_region.empty())
        cases = fmt::format("{} to {} sampled cases per region", *per_region.begin(), *per_region.rbegin());
    s += fmt::format(
        "Maxima over {}{}: **lower bounds** on each routine's true maximum error (as in Zimmermann's accuracy "
        "tables and glibc's libm-test-ulps). Each region cell is max angle error in radians (max ulp1 in "
        "parentheses). Rows sort by their worst region's error, most accurate first; rows with non-finite "
        "outputs, then rows whose implementation crashed or hung, sort last. Negative controls (`broken` "
        "group) are left out.\n\n",
        cases.empty() ? "no cases" : cases,
        board.have_search ? " (and the worst-case search, where it ran)" : "");
    bool any_two_key = std::any_of(board.rows.begin(), board.rows.end(), [](auto &r) { return r.op != "squad"; });
    bool any_squad = std::any_of(board.rows.begin(), board.rows.end(), [](auto &r) { return r.op == "squad"; });
    if (board.rows.empty()) s += "_No rows: the run selected no implementation outside the `broken` group._\n";
    if (any_two_key) md_table(board, board.regions, false, s);
    if (any_squad) {
        s += "\nSquad, with each implementation's own control points (ulp1 is not measured for squad; ranks are "
             "shared with the table above):\n\n";
        md_table(board, board.squad_regions, true, s);
    }
    s += "\n";
    if (!board.have_conformance) s += "Conformance: not run (no conformance.csv in this report).\n";
    else s += "Conformance: properties passed out of those judged; `known` marks a deviation the library documents.\n";
    if (board.have_timing)
        s += "ns/call: throughput mode, uniform region, or the slowest timed region where uniform is not timed "
             "(timing.csv).\n";
    else s += "ns/call: not measured (no timing.csv in this report).\n";
    s += "\nFrom: " + [&] {
        std::string f;
        for (const auto &n : board.inputs) f += (f.empty() ? "`" : ", `") + n + "`";
        return f;
    }() + ".\n";
    return s;
}

void write_leaderboard(const fs::path &dir) {
    Leaderboard board = build_leaderboard(files_in(dir), dir);
    ReportDir out(dir);
    out.write("leaderboard.csv", leaderboard_csv(board));
    out.write("leaderboard.md", leaderboard_md(board));
    out.commit();
}

void stage_leaderboard(ReportDir &dir, const std::string &summary_csv, const std::string &run_json) {
    Leaderboard board =
        build_leaderboard(files_in(dir.dir(), {{"summary.csv", summary_csv}, {"run.json", run_json}}), dir.dir());
    dir.write("leaderboard.csv", leaderboard_csv(board));
    dir.write("leaderboard.md", leaderboard_md(board));
}

}  // namespace qc
