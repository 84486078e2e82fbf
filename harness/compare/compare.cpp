#include "compare/compare.h"
#include "quatcheck/names.h"
#include "tables/quote.h"
#include "tables/schemas.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string_view>
#include <unordered_map>

namespace qc {

namespace fs = std::filesystem;

namespace {
std::string sci(double x) { return fmt::format("{:.3g}", x); }

// The options that load every plugin of report d (each origin once, in name order): what `quatcheck replay` of
// its whole worst_cases.csv needs, whose rows come from every implementation.
std::string all_plugin_options(const ReportData &d) {
    std::set<std::string> seen;
    std::string s;
    for (const auto &[name, info] : d.implementations)
        if (seen.insert(info.origin).second)
            for (const auto &w : load_words(info.origin)) s += " " + shell_quote(w);
    return s;
}
}  // namespace

ReportData read_report_folder(const std::string &dir, StopToken stop) {
    if (!fs::is_directory(dir)) throw InputError(fmt::format("{}: not a report folder", dir));
    if (!fs::exists(fs::path(dir) / "summary.csv"))
        throw InputError(fmt::format("{}: no summary.csv (not a report folder written by quatcheck run?)", dir));
    // A stop request is honoured before each file is read (and parsed).
    const ReportFiles on_disk = files_in(dir);
    ReportTables t = read_report_tables(
        [&](const std::string &name) {
            stop.throw_if_requested();
            return on_disk(name);
        },
        dir);
    stop.throw_if_requested();
    ReportData d;
    d.dir = dir;
    d.summary = *t.summary;
    if (t.squad_summary) d.summary.insert(d.summary.end(), t.squad_summary->begin(), t.squad_summary->end());
    for (const auto *rows : {&t.conformance, &t.squad_conformance})
        if (*rows) {
            if (!d.conformance) d.conformance.emplace();
            d.conformance->insert(d.conformance->end(), (*rows)->begin(), (*rows)->end());
        }
    d.timing = t.timing;
    d.worst = t.worst_cases;
    d.seed = t.seed;
    d.cases_per_region = t.cases_per_region;
    if (t.implementations) d.implementations = *t.implementations;
    d.all_plugin_options = all_plugin_options(d);
    return d;
}

std::string plugin_option_of(const ReportData &d, const std::string &impl) {
    auto it = d.implementations.find(impl);
    if (it == d.implementations.end()) return {};
    std::string s;
    for (const auto &w : load_words(it->second.origin)) s += " " + shell_quote(w);
    return s;
}

std::string reproduce_row_command(const ReportData &d, const SummaryRow &row) {
    std::string s = fmt::format("quatcheck {}{} --impl {}", row.op == "squad" ? "squad" : "run",
                                plugin_option_of(d, row.impl), shell_quote(row.impl));
    if (row.op == "squad") return s + fmt::format(" --region {}", shell_quote(row.region));
    s += fmt::format(" --op {} --region {}", shell_quote(row.op), shell_quote(row.region));
    // A row that ended without a failure on fewer cases than the run's was capped (run --cases-for): its cases
    // are the first row.cases of the region, which a run at --cases row.cases measures the same.
    if (d.cases_per_region)
        s += fmt::format(" --cases {}", row.status == "ok" && row.cases > 0 && row.cases < *d.cases_per_region
                                            ? row.cases
                                            : *d.cases_per_region);
    if (d.seed) s += fmt::format(" --seed {}", *d.seed);
    return s + " --no-leaderboard --out reproduce";
}

double eps_of_impl(const std::string &impl) {
    auto ends = [&](const char *s) { return impl.size() >= 4 && impl.compare(impl.size() - 4, 4, s) == 0; };
    return ends(".f32") ? 0x1p-23 : 0x1p-52;
}

double angle_floor_rad(const std::string &impl, const CompareOptions &o) {
    return 4 * o.floor_ulp1 * eps_of_impl(impl);
}

namespace {
constexpr std::array kChangeNames{
    Named{Change::regression, "REGRESSION"},          Named{Change::improvement, "improvement"},
    Named{Change::only_baseline, "only in baseline"}, Named{Change::only_current, "only in current"},
    Named{Change::timing_slower, "slower"},           Named{Change::timing_faster, "faster"}};
static_assert(distinct_names(kChangeNames));
}  // namespace

const char *to_string(Change c) { return name_of(kChangeNames, c); }

size_t Comparison::count(Change c) const {
    return size_t(std::count_if(findings.begin(), findings.end(), [&](const Finding &f) { return f.change == c; }));
}

namespace {

// The identity of a row within its table: implementation, op and a third key (the region of a summary or
// worst-case row, the property of a conformance row, "region/mode" of a timing row). Rows are matched by it
// through a hash index, one lookup per row (a scan per row made a 40,000-row comparison take 10 s).
struct RowKey {
    std::string_view impl, op;
    std::string key;
    bool operator==(const RowKey &) const = default;
};

struct RowKeyHash {
    size_t operator()(const RowKey &k) const noexcept {
        size_t h = 0;
        for (std::string_view part : {k.impl, k.op, std::string_view(k.key)})
            h ^= std::hash<std::string_view>{}(part) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        return h;
    }
};

RowKey key_of(const SummaryRow &r) { return {r.impl, r.op, r.region}; }
RowKey key_of(const WorstCaseRow &r) { return {r.impl, r.op, r.region}; }
RowKey key_of(const ConformanceRow &r) { return {r.impl, r.op, r.property}; }
RowKey key_of(const TimingRow &r) { return {r.impl, r.op, r.region + "/" + r.mode}; }

// The rows of a table by identity. Where two rows share one (the readers refuse that; a ReportData built in
// code may have it), the first one is found, as a scan from the top would.
template <class Row> class RowIndex {
public:
    RowIndex(const std::vector<Row> &rows, const StopToken &stop) {
        rows_.reserve(rows.size());
        for (const auto &r : rows) {
            stop.throw_if_requested();
            rows_.emplace(key_of(r), &r);
        }
    }
    const Row *find(const RowKey &k) const {
        auto it = rows_.find(k);
        return it == rows_.end() ? nullptr : it->second;
    }
    const Row *find(const Row &like) const { return find(key_of(like)); }

private:
    std::unordered_map<RowKey, const Row *, RowKeyHash> rows_;
};

// A row's max ulp1; NaN where it is not measured (squad).
double ulp1(const SummaryRow &r) { return r.max_ulp1.value_or(std::nan("")); }

CompareCase new_case(const std::string &suite, const std::string &name) {
    CompareCase tc;
    tc.suite = suite;
    tc.name = name;
    return tc;
}

// A row or table of the baseline that the current run lacks: a failure, or with --allow-missing a skipped case.
void missing_case(CompareCase &tc, const std::string &what, const CompareOptions &o, Comparison &out) {
    tc.message = what;
    if (o.allow_missing) {
        tc.message += " (allowed by --allow-missing)";
        tc.skipped = true;
        return;
    }
    tc.failed = true;
    tc.detail =
        "The baseline has it and the current run does not: an implementation, op, region, property or table "
        "was not run (a library missing on this machine?). Rerun it, update the baseline, or pass --allow-missing.";
    out.failed = true;
    out.missing++;
}

// The cases of worst_cases.csv by the summary figure they attain (its `attains` column, issue 38): the key is
// the row's identity with the figure's column appended to its region.
class FigureCases {
public:
    FigureCases(const std::vector<WorstCaseRow> &rows, const StopToken &stop) : first_(rows, stop) {
        for (const auto &r : rows) {
            stop.throw_if_requested();
            for (std::string_view figure : split_words(r.attains))
                by_figure_.emplace(RowKey{r.impl, r.op, r.region + "#" + std::string(figure)}, &r);
        }
    }
    // The case behind FIGURE of row KEY; without one (a worst_cases.csv of an older quatcheck), the row's first
    // case (the worst by angle), with `exact` false.
    const WorstCaseRow *find(const RowKey &key, const std::string &figure, bool &exact) const {
        auto it = by_figure_.find(RowKey{key.impl, key.op, key.key + "#" + figure});
        exact = it != by_figure_.end();
        return exact ? it->second : first_.find(key);
    }

private:
    static std::vector<std::string_view> split_words(std::string_view s) {
        std::vector<std::string_view> out;
        for (size_t at = 0; at < s.size();) {
            size_t end = s.find(' ', at);
            if (end == std::string_view::npos) end = s.size();
            if (end > at) out.push_back(s.substr(at, end - at));
            at = end + 1;
        }
        return out;
    }
    RowIndex<WorstCaseRow> first_;  // a row's first case: the worst by angle
    std::unordered_map<RowKey, const WorstCaseRow *, RowKeyHash> by_figure_;
};

// FILE of report folder DIR by its absolute path: a printed command runs from any working directory.
std::string absolute_file(const std::string &dir, const char *file) {
    std::error_code ec;
    const auto p = std::filesystem::absolute(std::filesystem::path(dir) / file, ec);
    return ec ? dir + "/" + file : p.lexically_normal().string();
}

// The case behind FIGURE of a row of report d, as its worst_cases.csv records it.
std::string figure_case_text(const ReportData &d, const FigureCases &cases, const SummaryRow &row,
                             const std::string &figure) {
    bool exact = false;
    const WorstCaseRow *w = cases.find(key_of(row), figure, exact);
    if (!w) return "worst case: not recorded (no worst_cases.csv row)";
    return fmt::format(
        "{} ({}/worst_cases.csv:{}): q0=({} {} {} {}) q1=({} {} {} {}) t={} out=({} {} {} {}) "
        "angle_err_rad={} ulp1={}; reproduce: quatcheck replay {}{}",
        exact ? "the case behind " + figure
              : "worst case by angle (this worst_cases.csv names no case for " + figure + ")",
        d.dir, w->line, w->q0[0], w->q0[1], w->q0[2], w->q0[3], w->q1[0], w->q1[1], w->q1[2], w->q1[3], w->t, w->out[0],
        w->out[1], w->out[2], w->out[3], num(w->angle_err_rad), num(w->ulp1),
        shell_quote(absolute_file(d.dir, "worst_cases.csv")), d.all_plugin_options);
}

// The cases behind the regressed figures of a row (the worst by angle when only its status or non-finite count
// regressed), one line each.
std::string figure_cases_text(const ReportData &d, const FigureCases &cases, const SummaryRow &row,
                              std::vector<std::string> figures) {
    if (figures.empty()) figures.push_back("max_angle_err_rad");
    std::string text;
    for (const auto &f : figures) text += (text.empty() ? "" : "\n") + figure_case_text(d, cases, row, f);
    return text;
}

// Failures the baseline has too: listed as known, not failed.
std::vector<std::string> known_accuracy_failures(const SummaryRow &base, const SummaryRow &cur) {
    std::vector<std::string> known;
    if (base.status != "ok" && cur.status != "ok")
        known.push_back(fmt::format("status {} in the baseline and {} now", base.status, cur.status));
    if (base.nonfinite > 0 && cur.nonfinite > 0)
        known.push_back(fmt::format("non-finite outputs: {} in the baseline, {} now", base.nonfinite, cur.nonfinite));
    return known;
}

// The case of a summary row present in both runs: its changes (status, non-finite outputs, max angle error and
// max ulp1 against the ratio and the rounding floor) as findings, and failed on a regression with the figures,
// the cases behind them and the command that reproduces the row.
CompareCase compare_accuracy_row(const SummaryRow &base, const SummaryRow &cur, const ReportData &c,
                                 const FigureCases &cur_worst, const CompareOptions &o, Comparison &out) {
    CompareCase tc = new_case("accuracy", cur.impl + " " + cur.op + " " + cur.region);
    std::vector<std::string> why, figures;  // figures: the regressed maxima, whose cases are printed
    auto add = [&](Change ch, const char *metric, std::string bv, std::string cv, std::string note) {
        out.findings.push_back({ch, "accuracy", cur.impl, cur.op, cur.region, metric, bv, cv, note});
        if (ch == Change::regression) why.push_back(fmt::format("{} {} -> {} ({})", metric, bv, cv, note));
        if (ch == Change::regression && std::string_view(metric).rfind("max_", 0) == 0) figures.push_back(metric);
    };
    // status: the implementation crashed, hung or wrote out of bounds (the row covers fewer cases)
    if (base.status == "ok" && cur.status != "ok")
        add(Change::regression, "status", base.status, cur.status, "the implementation failed on a case");
    else if (base.status != "ok" && cur.status == "ok")
        add(Change::improvement, "status", base.status, cur.status, "no longer fails");
    // nonfinite
    if (base.nonfinite == 0 && cur.nonfinite > 0)
        add(Change::regression, "nonfinite", "0", std::to_string(cur.nonfinite), "new non-finite outputs");
    else if (base.nonfinite > 0 && cur.nonfinite == 0)
        add(Change::improvement, "nonfinite", std::to_string(base.nonfinite), "0", "no more non-finite outputs");
    const std::vector<std::string> known = known_accuracy_failures(base, cur);
    // max angle error and max ulp1, against the ratio and the rounding floor
    auto figure = [&](const char *metric, double bv, double cv, double floor, const char *unit) {
        if (std::isnan(bv) || std::isnan(cv)) return;  // not measured (squad has no ulp1)
        if (cv > o.ratio * bv && cv > floor)
            add(Change::regression, metric, sci(bv), sci(cv),
                fmt::format("{}x the baseline, above the floor {:.3g} {}", bv > 0 ? sci(cv / bv) : std::string("inf"),
                            floor, unit));
        else if (bv > o.ratio * cv && bv > floor)
            add(Change::improvement, metric, sci(bv), sci(cv),
                fmt::format("{}x better", cv > 0 ? sci(bv / cv) : std::string("inf")));
    };
    figure("max_angle_err_rad", base.max_angle_err_rad, cur.max_angle_err_rad, angle_floor_rad(cur.impl, o), "rad");
    figure("max_ulp1", ulp1(base), ulp1(cur), o.floor_ulp1, "ulp1");
    if (why.empty() && !known.empty()) {
        tc.skipped = true;
        tc.message = fmt::format("known failure: {}", fmt::join(known, "; "));
        out.known.push_back(fmt::format("accuracy {} {} {}: {}", cur.impl, cur.op, cur.region, tc.message));
    }
    if (!why.empty()) {
        tc.failed = true;
        tc.message = fmt::format("{}", fmt::join(why, "; "));
        tc.detail = fmt::format(
            "baseline: status={} cases={} nonfinite={} max_angle_err_rad={} max_ulp1={}\n"
            "current:  status={} cases={} nonfinite={} max_angle_err_rad={} max_ulp1={}\n{}\n"
            "reproduce the row: {}",
            base.status, base.cases, base.nonfinite, num(base.max_angle_err_rad), num(ulp1(base)), cur.status,
            cur.cases, cur.nonfinite, num(cur.max_angle_err_rad), num(ulp1(cur)),
            figure_cases_text(c, cur_worst, cur, figures), reproduce_row_command(c, cur));
        out.failed = true;
    }
    return tc;
}

// Notes that do not change the verdict: maxima over different sample sizes or different seeds (other cases,
// which may move either way without any change to the code).
void accuracy_notes(const ReportData &b, const ReportData &c, const std::set<std::pair<uint64_t, uint64_t>> &counts,
                    Comparison &out) {
    for (auto [bn, cn] : counts)
        out.notes.push_back(
            fmt::format("some rows have {} cases in the baseline and {} in the current run: maxima over "
                        "different sample sizes are not directly comparable",
                        bn, cn));
    if (b.seed && c.seed && *b.seed != *c.seed)
        out.notes.push_back(
            fmt::format("the baseline ran with --seed {} and the current run with --seed {}: the gate compares "
                        "maxima over different cases, which may differ with no change to the code (rerun with "
                        "--seed {} to compare like for like)",
                        *b.seed, *c.seed, *b.seed));
}

void compare_accuracy(const ReportData &b, const ReportData &c, const CompareOptions &o, const StopToken &stop,
                      Comparison &out) {
    const RowIndex<SummaryRow> base_rows(b.summary, stop), cur_rows(c.summary, stop);
    const FigureCases cur_worst(c.worst, stop);
    std::set<std::pair<uint64_t, uint64_t>> case_counts;
    for (const auto &cur : c.summary) {
        stop.throw_if_requested();
        const SummaryRow *base = base_rows.find(cur);
        if (!base) {
            out.findings.push_back({Change::only_current, "accuracy", cur.impl, cur.op, cur.region, "row", "-",
                                    fmt::format("max_angle_err_rad {}", sci(cur.max_angle_err_rad)),
                                    "not in the baseline"});
            CompareCase tc = new_case("accuracy", cur.impl + " " + cur.op + " " + cur.region);
            tc.detail = "new row: no baseline to compare with";
            out.cases.push_back(tc);
            continue;
        }
        out.matched_rows++;
        if (base->cases != cur.cases) case_counts.insert({base->cases, cur.cases});
        out.cases.push_back(compare_accuracy_row(*base, cur, c, cur_worst, o, out));
    }
    for (const auto &base : b.summary) {
        stop.throw_if_requested();
        if (!cur_rows.find(base)) {
            out.findings.push_back({Change::only_baseline, "accuracy", base.impl, base.op, base.region, "row",
                                    fmt::format("max_angle_err_rad {}", sci(base.max_angle_err_rad)), "-",
                                    "missing from the current run"});
            CompareCase tc = new_case("accuracy", base.impl + " " + base.op + " " + base.region);
            missing_case(tc, "row only in the baseline: missing from the current run", o, out);
            out.cases.push_back(tc);
        }
    }
    accuracy_notes(b, c, case_counts, out);
}

// The calls of a failed conformance row that broke the promise, one line each: t, what the routine returned,
// the expected value and the error (its `calls` records whose verdict is fail); the failed call's name alone
// when the table has no records (an older quatcheck's).
std::string failed_calls_text(const ConformanceRow &r) {
    std::string s;
    for (size_t at = 0; at < r.calls.size();) {
        size_t end = r.calls.find("; ", at);
        if (end == std::string::npos) end = r.calls.size();
        const std::string record = r.calls.substr(at, end - at);
        if (record.find("verdict=fail") != std::string::npos) s += "failed call: " + record + "\n";
        at = end + 2;
    }
    if (s.empty() && !r.failed_call.empty()) s = "failed call: " + r.failed_call + "\n";
    return s;
}

void compare_conformance(const ReportData &b, const ReportData &c, const CompareOptions &o, const StopToken &stop,
                         Comparison &out) {
    if (!b.conformance && !c.conformance) return;
    if (!b.conformance)
        out.notes.push_back(fmt::format("{}: no conformance.csv; every current fail counts as new", b.dir));
    if (!c.conformance) {
        out.notes.push_back(
            fmt::format("{}: no conformance.csv (the baseline has one); conformance not compared", c.dir));
        CompareCase tc = new_case("conformance", "conformance.csv");
        missing_case(tc, "table only in the baseline: conformance.csv missing from the current run", o, out);
        out.cases.push_back(tc);
        return;
    }
    static const std::vector<ConformanceRow> none;
    const auto &base_rows = b.conformance ? *b.conformance : none;
    const RowIndex<ConformanceRow> base_index(base_rows, stop), cur_index(*c.conformance, stop);
    for (const auto &cur : *c.conformance) {
        stop.throw_if_requested();
        CompareCase tc = new_case("conformance", cur.impl + " " + cur.op + " " + cur.property);
        const ConformanceRow *base = base_index.find(cur);
        std::string bv = base ? base->verdict : "-";
        if (base) out.matched_rows++;
        // An informative property (correctly-rounded) new to this run is a new measurement, not a new failure:
        // baselines written before it have no such rows. Once a baseline has the row, pass -> fail is a regression.
        const bool new_measurement = !base && tables::is_informative_property(cur.property);
        if (cur.verdict == "fail" && bv != "fail" && !new_measurement) {
            out.findings.push_back({Change::regression, "conformance", cur.impl, cur.op, cur.property, "verdict", bv,
                                    "fail", base ? "new fail" : "new fail (no baseline row)"});
            tc.failed = true;
            tc.message = fmt::format("verdict {} -> fail", bv);
            // The call that broke it (issue 38: for endpoints, which end, what it returned and what was expected).
            tc.detail = fmt::format("counterexample: {}\n{}reproduce: {}", cur.counterexample, failed_calls_text(cur),
                                    cur.reproduce);
            out.failed = true;
        } else if (base && base->verdict == "fail" && cur.verdict == "fail") {
            tc.skipped = true;
            tc.message =
                fmt::format("known failure: fails in the baseline too (counterexample: {})", cur.counterexample);
            out.known.push_back(fmt::format("conformance {} {} {}: {}", cur.impl, cur.op, cur.property, tc.message));
        } else if (base && base->verdict == "fail" && cur.verdict != "fail") {
            out.findings.push_back({Change::improvement, "conformance", cur.impl, cur.op, cur.property, "verdict", bv,
                                    cur.verdict, "no longer fails"});
        } else if (!base) {
            out.findings.push_back({Change::only_current, "conformance", cur.impl, cur.op, cur.property, "verdict", "-",
                                    cur.verdict, "not in the baseline"});
        }
        out.cases.push_back(tc);
    }
    for (const auto &base : base_rows) {
        stop.throw_if_requested();
        if (!cur_index.find(base)) {
            out.findings.push_back({Change::only_baseline, "conformance", base.impl, base.op, base.property, "verdict",
                                    base.verdict, "-", "missing from the current run"});
            CompareCase tc = new_case("conformance", base.impl + " " + base.op + " " + base.property);
            missing_case(tc, "property only in the baseline: missing from the current run", o, out);
            out.cases.push_back(tc);
        }
    }
}

void compare_timing(const ReportData &b, const ReportData &c, const CompareOptions &o, const StopToken &stop,
                    Comparison &out) {
    if (!b.timing || !c.timing) {
        if (b.timing || c.timing)
            out.notes.push_back(fmt::format("timing.csv only in {}: timing not compared", b.timing ? b.dir : c.dir));
        if (b.timing && o.fail_on_timing) {
            CompareCase tc = new_case("timing", "timing.csv");
            missing_case(tc, "table only in the baseline: timing.csv missing from the current run", o, out);
            out.cases.push_back(tc);
        }
        return;
    }
    auto key = [](const TimingRow &r) { return r.region + "/" + r.mode; };
    const RowIndex<TimingRow> base_index(*b.timing, stop), cur_index(*c.timing, stop);
    for (const auto &cur : *c.timing) {
        stop.throw_if_requested();
        CompareCase tc = new_case("timing", cur.impl + " " + cur.op + " " + key(cur));
        const TimingRow *base = base_index.find(cur);
        if (!base) {
            out.findings.push_back({Change::only_current, "timing", cur.impl, cur.op, key(cur), "ns_per_call", "-",
                                    sci(cur.ns_per_call), "not in the baseline"});
        } else {
            out.matched_rows++;
            if (cur.ns_per_call > o.timing_ratio * base->ns_per_call) {
                std::string note = fmt::format("{}x slower", sci(cur.ns_per_call / base->ns_per_call));
                out.findings.push_back({Change::timing_slower, "timing", cur.impl, cur.op, key(cur), "ns_per_call",
                                        sci(base->ns_per_call), sci(cur.ns_per_call), note});
                if (o.fail_on_timing) {
                    tc.failed = true;
                    tc.message =
                        fmt::format("ns_per_call {} -> {} ({})", sci(base->ns_per_call), sci(cur.ns_per_call), note);
                    out.failed = true;
                }
            } else if (base->ns_per_call > o.timing_ratio * cur.ns_per_call) {
                out.findings.push_back({Change::timing_faster, "timing", cur.impl, cur.op, key(cur), "ns_per_call",
                                        sci(base->ns_per_call), sci(cur.ns_per_call),
                                        fmt::format("{}x faster", sci(base->ns_per_call / cur.ns_per_call))});
            }
        }
        out.cases.push_back(tc);
    }
    for (const auto &base : *b.timing) {
        stop.throw_if_requested();
        if (!cur_index.find(base)) {
            out.findings.push_back({Change::only_baseline, "timing", base.impl, base.op, key(base), "ns_per_call",
                                    sci(base.ns_per_call), "-", "missing from the current run"});
            if (o.fail_on_timing) {
                CompareCase tc = new_case("timing", base.impl + " " + base.op + " " + key(base));
                missing_case(tc, "timing row only in the baseline: missing from the current run", o, out);
                out.cases.push_back(tc);
            }
        }
    }
}

}  // namespace

Comparison compare_reports(const ReportData &baseline, const ReportData &current, const CompareOptions &o,
                           const StopToken &stop) {
    Comparison out;
    out.baseline_dir = baseline.dir;
    out.current_dir = current.dir;
    compare_accuracy(baseline, current, o, stop, out);
    compare_conformance(baseline, current, o, stop, out);
    compare_timing(baseline, current, o, stop, out);
    // Regressions first, then the rest in a stable order.
    std::stable_sort(out.findings.begin(), out.findings.end(),
                     [](const Finding &a, const Finding &b) { return int(a.change) < int(b.change); });
    return out;
}

}  // namespace qc
