#include "leaderboard/leaderboard.h"

#include "quatcheck/registry.h"
#include "tables/quote.h"
#include "tables/schemas.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace qc {

namespace fs = std::filesystem;

namespace {

using Key = std::pair<std::string, std::string>;  // impl, op

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

// summary.csv and squad_summary.csv: rows per impl x op x region. The figure of a region is the larger of
// the sampled maximum and the worst-case search's, both lower bounds on the true maximum.
void add_summary(const std::vector<SummaryRow> &summary, std::map<Key, LeaderboardRow> &rows, std::vector<Key> &order,
                 std::vector<std::string> &regions, bool *have_search) {
    for (const SummaryRow &s : summary) {
        RegionFigures f;
        f.region = s.region;
        f.cases = s.cases;
        f.nonfinite = s.nonfinite;
        f.max_angle_err_rad = s.max_angle_err_rad;
        f.max_ulp1 = s.max_ulp1;
        f.status = s.status;
        if (s.max_angle_err_search_rad) {
            f.max_angle_err_search_rad = s.max_angle_err_search_rad;
            f.max_angle_err_rad = std::max(f.max_angle_err_rad, *s.max_angle_err_search_rad);
            *have_search = true;
        }
        Key key{s.impl, s.op};
        auto [row, added] = rows.try_emplace(key);
        if (added) {
            order.push_back(key);
            row->second.impl = s.impl;
            row->second.op = s.op;
        }
        row->second.regions.push_back(f);
        if (std::find(regions.begin(), regions.end(), f.region) == regions.end()) regions.push_back(f.region);
    }
}

int verdict_rank(const std::string &v) {  // which verdict wins when one property has several rows
    return v == "fail" ? 3 : v == "known" ? 2 : v == "pass" ? 1 : 0;
}

// conformance.csv and squad_conformance.csv: the verdicts of the rows the summaries have.
void add_conformance(const std::vector<ConformanceRow> &conformance, std::map<Key, LeaderboardRow> &rows) {
    for (const ConformanceRow &c : conformance) {
        auto it = rows.find({c.impl, c.op});
        if (it == rows.end()) continue;  // an implementation the accuracy run did not cover: no row to annotate
        LeaderboardRow &row = it->second;
        row.conformance_run = true;
        auto v = std::find_if(row.verdicts.begin(), row.verdicts.end(),
                              [&](const Verdict &x) { return x.property == c.property; });
        if (v == row.verdicts.end()) row.verdicts.push_back({c.property, c.verdict});
        else if (verdict_rank(c.verdict) > verdict_rank(v->verdict)) v->verdict = c.verdict;
    }
}

// timing.csv: per impl x op x mode, the uniform region's figure, or the slowest region where uniform is not timed.
void add_timing(const std::vector<TimingRow> &timing, std::map<Key, LeaderboardRow> &rows) {
    struct Pick {
        bool uniform = false;
        double ns = 0;
    };
    std::map<std::tuple<std::string, std::string, std::string>, Pick> picks;
    for (const TimingRow &t : timing) {
        auto [p, fresh] = picks.try_emplace(std::make_tuple(t.impl, t.op, t.mode));
        bool uniform = t.region == "uniform";
        if (fresh || (uniform && !p->second.uniform) || (!p->second.uniform && t.ns_per_call > p->second.ns))
            p->second = {uniform, t.ns_per_call};
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

Leaderboard build_leaderboard(const ReportTables &t) {
    Leaderboard board;
    board.partial = t.partial;
    std::map<Key, LeaderboardRow> rows;
    std::vector<Key> order;
    if (!t.summary && !t.squad_summary)
        throw InputError(
            fmt::format("{}: no summary.csv or squad_summary.csv (write them with `quatcheck run`)", t.dir));
    if (t.summary) {
        add_summary(*t.summary, rows, order, board.regions, &board.have_search);
        board.inputs.push_back("summary.csv");
    }
    if (t.squad_summary) {
        add_summary(*t.squad_summary, rows, order, board.squad_regions, &board.have_search);
        board.inputs.push_back("squad_summary.csv");
    }
    const std::map<std::string, ImplInfo> none;
    const auto &info = t.implementations ? *t.implementations : none;
    if (t.implementations) {
        board.have_run_json = true;
        board.inputs.push_back("run.json");
    }
    for (const auto &[name, table] :
         {std::pair{"conformance.csv", &t.conformance}, {"squad_conformance.csv", &t.squad_conformance}})
        if (*table) {
            add_conformance(**table, rows);
            board.have_conformance = true;
            board.inputs.push_back(name);
        }
    if (t.timing) {
        add_timing(*t.timing, rows);
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
            if (f.status != "ok") r.status = (r.status == "ok" ? "" : r.status + "; ") + f.status + " in " + f.region;
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
    std::string fails, known, skips, untested, informative;
    for (const Verdict &v : row.verdicts) {
        if (tables::is_informative_property(v.property)) {  // measured, not promised: outside the count
            if (v.verdict == "pass" || v.verdict == "fail")
                informative += fmt::format("{}{} {}", informative.empty() ? "" : " ", v.property, v.verdict);
            continue;
        }
        if (v.verdict == "skip" || v.verdict == "untested") {  // not judged (untested: a squad c1 without keys)
            std::string &list = v.verdict == "skip" ? skips : untested;
            list += (list.empty() ? "" : " ") + v.property;
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
    if (!untested.empty()) s += "; untested: " + untested;
    if (!informative.empty()) s += "; informative: " + informative;
    return s;
}

namespace {
size_t count_verdict(const LeaderboardRow &r, const char *verdict) {
    return size_t(std::count_if(r.verdicts.begin(), r.verdicts.end(), [&](const Verdict &v) {
        return v.verdict == verdict && !tables::is_informative_property(v.property);
    }));
}
// leaderboard.csv is the table meant for spreadsheets, and its text cells come from plugins (names, library
// versions) and report files: one that starts with = + - @ (or a tab or carriage return) would be read as a
// formula, so it gets a leading ' as the OWASP CSV-injection guidance says. The other CSVs are data for
// quatcheck's readers and keep their text exactly (docs/leaderboard.md).
std::string spreadsheet_text(const std::string &s) {
    return !s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos ? "'" + s : s;
}
const RegionFigures *region_of(const LeaderboardRow &r, const std::string &region) {
    for (const auto &f : r.regions)
        if (f.region == region) return &f;
    return nullptr;
}
}  // namespace

std::string leaderboard_csv(const Leaderboard &board) {
    std::vector<std::string> regions = board.regions;
    for (const auto &g : board.squad_regions)
        if (std::find(regions.begin(), regions.end(), g) == regions.end()) regions.push_back(g);
    const Schema schema = tables::leaderboard(regions);
    CsvWriter w(schema);
    // Cells are built in place (emplace_back): moving temporary Cells trips GCC 12's -Wmaybe-uninitialized.
    std::vector<Cell> c;
    auto opt = [&c](const std::optional<double> &x) {
        if (x) c.emplace_back(*x);
        else c.emplace_back();
    };
    uint64_t rank = 0;
    for (const auto &r : board.rows) {
        // Library versions are free text from the adapters; keep the CSV one field per column.
        std::string version = r.library_version;
        std::replace(version.begin(), version.end(), ',', ';');
        c = {++rank,
             spreadsheet_text(r.impl),
             spreadsheet_text(r.op),
             spreadsheet_text(r.group),
             spreadsheet_text(version),
             r.cases,
             r.nonfinite,
             spreadsheet_text(r.status),
             spreadsheet_text(r.worst_region),
             r.worst_angle_err_rad};
        opt(r.worst_ulp1);
        for (const auto &g : regions) {
            const RegionFigures *f = region_of(r, g);
            opt(f ? std::optional<double>(f->max_angle_err_rad) : std::nullopt);
            opt(f ? f->max_ulp1 : std::nullopt);
        }
        c.emplace_back(spreadsheet_text(compact_verdicts(r)));
        if (r.conformance_run) c.emplace_back(uint64_t(count_verdict(r, "fail")));
        else c.emplace_back();
        opt(r.ns_per_call_throughput);
        opt(r.ns_per_call_latency);
        w.row(c);
    }
    return w.text();
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
        // Names and words come from the report's CSVs: quoted, so a tampered file cannot add markup or HTML.
        s += fmt::format("| {} | {} | {} | {} | {} | {} |", rank, md_code(r.impl), md_text(r.op),
                         md_text(r.worst_region), sci(r.worst_angle_err_rad),
                         r.nonfinite ? fmt::format("**{}**", r.nonfinite) : "0");
        if (any_status) s += r.status == "ok" ? std::string(" ok |") : fmt::format(" **{}** |", md_text(r.status));
        for (const auto &g : regions) {
            const RegionFigures *f = region_of(r, g);
            if (!f) s += " |";
            else if (f->max_ulp1) s += fmt::format(" {} ({}) |", sci(f->max_angle_err_rad), short_num(*f->max_ulp1));
            else s += fmt::format(" {} |", sci(f->max_angle_err_rad));
        }
        std::string conf = md_text(compact_verdicts(r));
        if (r.conformance_run && count_verdict(r, "fail")) conf = "**" + conf + "**";
        s += " " + conf + " |";
        if (board.have_timing)
            s += fmt::format(" {} |", r.ns_per_call_throughput ? short_num(*r.ns_per_call_throughput) : std::string());
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
        cases.empty() ? "no cases" : cases, board.have_search ? " (and the worst-case search, where it ran)" : "");
    bool any_two_key = std::any_of(board.rows.begin(), board.rows.end(), [](auto &r) { return r.op != "squad"; });
    bool any_squad = std::any_of(board.rows.begin(), board.rows.end(), [](auto &r) { return r.op == "squad"; });
    if (board.partial)
        s += "**Partial run**: the run was interrupted, and this report covers only the rows that finished before "
             "(see the folder's `PARTIAL` file).\n\n";
    if (board.rows.empty() && board.partial) s += "_No rows: the run was interrupted before any row finished._\n";
    else if (board.rows.empty()) s += "_No rows: the run selected no implementation outside the `broken` group._\n";
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
        for (const auto &n : board.inputs) f += (f.empty() ? "" : ", ") + md_code(n);
        return f;
    }() + ".\n";
    return s;
}

}  // namespace qc
