#include "findings/findings.h"

#include "compare/compare.h"
#include "conform/properties.h"
#include "findings/util.h"
#include "isolate/plugin_spec.h"
#include "quatcheck/registry.h"
#include "report/report_dir.h"
#include "tables/quote.h"
#include "tables/schemas.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fnmatch.h>
#include <memory>
#include <optional>

namespace qc::findings {

namespace fs = std::filesystem;

const char *kind_name(Kind k) {
    static constexpr std::pair<Kind, const char *> names[] = {
        {Kind::property, "property"}, {Kind::region, "region"}, {Kind::squad_region, "squad-region"}};
    return name_of(k, names);
}

const char *class_words(InputClass c) {
    static constexpr std::pair<InputClass, const char *> words[] = {
        {InputClass::equal, "equal keys (q1 = q0)"},
        {InputClass::opposite, "opposite keys (q1 = -q0)"},
        {InputClass::nearly_parallel, "nearly equal or nearly opposite keys (|a.b| near 1)"},
        {InputClass::quarter_turn, "keys a quarter turn apart on the 4-D sphere (a.b near 0)"},
        {InputClass::general, "keys in general position"}};
    return name_of(c, words);
}

namespace {

// The input class of keys whose normalised a.b is DOT, exactly equal or opposite when they are.
InputClass class_of(const std::array<double, 4> &q0, const std::array<double, 4> &q1, double dot) {
    bool eq = true, opp = true;
    for (int i = 0; i < 4; i++) eq = eq && q0[i] == q1[i], opp = opp && q0[i] == -q1[i];
    if (eq) return InputClass::equal;
    if (opp) return InputClass::opposite;
    if (std::fabs(dot) > 0.99) return InputClass::nearly_parallel;
    if (std::fabs(dot) < 0.1) return InputClass::quarter_turn;
    return InputClass::general;
}

// Whether a conformance row's call records hold a NaN or infinite output.
bool mentions_nonfinite(const std::string &calls) {
    std::string l;
    for (char c : calls) l += char(std::tolower((unsigned char)c));
    return l.find("nan") != std::string::npos || l.find("inf") != std::string::npos;
}

// Leaves out the cases in the tie band |a.b| <= 4 eps of their format (metrics.h, branch_disagree): there either
// arc is a right answer, and quatcheck measured the output against the nearer one, which a reproducer's fixed
// expected value cannot do. The finding keeps its quatcheck command.
void drop_tie_cases(Finding &f) {
    const size_t before = f.cases.size();
    f.cases.erase(std::remove_if(f.cases.begin(), f.cases.end(),
                                 [](const ReproCase &c) {
                                     const double eps = c.bits == 32 ? 0x1p-23 : 0x1p-52;
                                     return std::fabs(unit_dot(c.q0, c.q1)) <= 4 * eps;
                                 }),
                  f.cases.end());
    f.tie_cases = int(before - f.cases.size());
}

void set_case_class(Finding &f) {
    drop_tie_cases(f);
    if (f.cases.empty()) return;
    const ReproCase &c = f.cases.front();
    f.dot = unit_dot(c.q0, c.q1);
    f.cls = class_of(c.q0, c.q1, f.dot);
}

// The --plugin / --plugin-cmd words of a command the tool wrote (a squad table's reproduce column), split as the
// shell would (split_command: no expansion); none when the text is not one command.
std::vector<std::string> plugin_words_of(const std::string &command) {
    std::vector<std::string> w, out;
    try {
        w = split_command(command);
    } catch (const std::exception &) { return {}; }
    for (size_t i = 0; i + 1 < w.size(); i++)
        if (w[i] == "--plugin" || w[i] == "--plugin-cmd") out.insert(out.end(), {w[i], w[i + 1]}), i++;
    return out;
}

const char *region_about(const std::string &r) {
    if (r == "uniform") return "keys uniform on the sphere";
    if (r == "near-0") return "nearly equal keys, arc 1e-12 to 0.1 rad, and equal keys";
    if (r == "near-half-pi") return "keys a quarter turn apart on the 4-D sphere, |a.b| below 0.1";
    if (r == "near-pi") return "nearly opposite keys, q1 close to -q0, and q1 = -q0";
    if (r == "threshold") return "a.b near the customary 0.9995 switch to a linear fallback";
    return "a region of the run";
}

// Parses the hexfloats of a counterexample (q0, q1, t, ...) strictly, each representable in the format.
std::vector<double> parse_values(const std::string &text, Precision p, const std::string &file, unsigned line) {
    std::vector<double> v;
    for (const auto &w : words(replace_all(text, ",", " ")))
        v.push_back(p == Precision::f32 ? double(parse_hexfloat_f32(w, file, line, "counterexample"))
                                        : parse_hexfloat(w, file, line, "counterexample"));
    return v;
}

// The calls of a conformance counterexample that the reproducer checks one by one, each against the
// reference: for a property over two or three evaluations, at least one of them breaks its own budget
// whenever the property fails (its tolerance is the sum of theirs).
std::vector<ReproCase> property_calls(CheckContext &cx, const std::string &impl, const std::string &op,
                                      const std::string &property, const std::vector<double> &c) {
    const Property *prop = find_property(property);
    const bool f32 = precision_of(impl) == Precision::f32;
    if (!prop) return {};
    // The call shapes are conform's (properties.h); how each call is judged on its own: finiteness, the norm,
    // the components of an end, else the angle to its reference (docs/conformance.md).
    const auto calls = qc::property_calls(*prop, c, f32 ? Precision::f32 : Precision::f64);
    const std::string check = property == "finite"      ? "finite"
                              : property == "unit"      ? "unit"
                              : property == "endpoints" ? "components"
                                                        : "angle";
    std::vector<ReproCase> out;
    for (const PropertyCall &k : calls) {
        ReproCase r;
        r.label = fmt::format("property {}: {}", property, k.label);
        r.op = op, r.family = family_of(impl);
        r.bits = f32 ? 32 : 64;
        r.q0 = k.q0, r.q1 = k.q1, r.t = k.t;
        cx.reference_of(k.q0.data(), k.q1.data(), k.t, cx.ref);
        for (int i = 0; i < 4; i++) r.expected[i] = dd::to_double(op == "nlerp" ? cx.ref.N[i] : cx.ref.R[i]);
        r.check = check;
        r.tol = check == "angle"    ? cx.accuracy_budget(cx.ref.arc_w)
                : check == "finite" ? 0
                                    : cx.unit_tolerance_ulp1() * cx.eps();
        out.push_back(r);
    }
    return out;
}

// A claimed-* property holds its calls to what the library claims (the row's claimed figure, the threshold's
// side, the routine's own output at the clamped end), which conform recorded in the row's `calls` column: each
// case takes its call's expected value and tolerance from there (unit abs and ulp1: the components; rad: the
// angle).
void held_to_recorded(std::vector<ReproCase> &cases, const std::string &calls, Precision p, const std::string &file,
                      unsigned line) {
    const auto records = parse_calls(calls);
    if (records.size() != cases.size())
        throw InputError(fmt::format("{}:{}: column calls: {} calls recorded, the property makes {}", file, line,
                                     records.size(), cases.size()));
    for (size_t k = 0; k < cases.size(); k++) {
        std::string expected, tol, unit;
        for (const auto &[key, value] : records[k]) {
            if (key == "expected") expected = value;
            else if (key == "tol") tol = value;
            else if (key == "unit") unit = value;
        }
        std::vector<double> e;  // hexfloats; a non-finite value where the routine's own output is expected
        for (const auto &w : words(replace_all(expected, ",", " ")))
            e.push_back(parse_hexfloat(w, file, line, "calls", true));
        char *end = nullptr;
        const double tv = std::strtod(tol.c_str(), &end);
        if (e.size() != 4 || end != tol.c_str() + tol.size() || !(tv >= 0) || !std::isfinite(tv))
            throw InputError(
                fmt::format("{}:{}: column calls: call {} has no expected=W,X,Y,Z and tol=NUMBER", file, line, k + 1));
        for (size_t i = 0; i < 4; i++) cases[k].expected[i] = e[i];
        cases[k].check = unit == "rad" ? "angle" : "components";
        cases[k].tol = unit == "ulp1" ? tv * precision_eps(p) : tv;
    }
}

}  // namespace

namespace {

// collect()'s state and its steps, one per table it reads: the families found so far, and what run.json says
// of an implementation.
class Collector {
public:
    Collector(const ReportTables &t, const fs::path &dir, const Options &o) : t(t), dir(dir), o(o) {}

    // What run.json says of an implementation; for a built-in that run did not select (conform's broken-*), the
    // group it is registered with.
    ImplInfo info(const std::string &impl) const {
        if (t.implementations)
            if (auto it = t.implementations->find(impl); it != t.implementations->end()) return it->second;
        for (const auto &b : builtin_impls())
            if (b.table && b.table->family && family_of(impl) == b.table->family)
                return {b.group, b.version, "builtin"};
        return {};
    }
    // The library's own words for a deviation its adapter declares (the registration's KnownDeviation).
    std::string known_words(const std::string &impl, const std::string &op, const std::string &property) const {
        for (const auto &b : builtin_impls())
            if (b.table && b.table->family && family_of(impl) == b.table->family)
                for (const auto &k : b.known)
                    if ((k.op == op || k.op == "*") && k.property == property) return k.why;
        return "the adapter declares it";
    }
    bool excluded(const std::string &impl) const {
        auto g = info(impl).group;
        return g == "broken" || g == "bench";
    }
    // The library an implementation belongs to (its card's, or its family's own), created on first use.
    LibraryFindings &library(const std::string &impl) {
        const std::string fam = family_of(impl);
        const Library *card = library_of(fam);
        auto &l = libs[card ? card->name : fam];
        if (l.name.empty()) {
            auto i = info(impl);
            l.name = card ? card->name : fam, l.folder = folder_name(l.name), l.card = card;
            l.group = i.group, l.version = i.version, l.origin = i.origin;
            l.spec = card ? nullptr : spec_for(fam);
        }
        if (std::find(l.families.begin(), l.families.end(), fam) == l.families.end()) l.families.push_back(fam);
        return l;
    }
    // A finding, or documented behaviour when the library's card documents it: a region finding of a routine
    // whose card says it is not slerp above |a.b| = dot_above, with its worst case above that.
    void add(const std::string &impl, Finding f) {
        f.family = family_of(impl);
        f.origin = info(impl).origin;
        set_case_class(f);
        LibraryFindings &l = library(impl);
        if (l.card && f.kind == Kind::region && !f.nonfinite && std::isfinite(f.dot))
            for (const auto &d : l.card->documented)
                if (fnmatch(d.family.c_str(), f.family.c_str(), 0) == 0 && d.op == f.op &&
                    std::fabs(f.dot) > d.dot_above) {
                    l.documented.push_back(fmt::format(
                        "{} {} on {}: off slerp by up to {} rad, documented: above |a.b| = {} the routine is not "
                        "slerp. {} ({})",
                        md_code(impl), md_text(f.op), md_code(f.what), num(f.worst), num(d.dot_above), md_text(d.words),
                        md_text(f.source)));
                    return;
                }
        l.findings.push_back(std::move(f));
    }

    // Regions of summary.csv above the factor times the rounding floor, with their worst recorded case.
    void regions() {
        const std::string worst_path = (dir / "worst_cases.csv").string();
        for (const auto &r : *t.summary) {
            if (r.op != "slerp" || r.status != "ok" || excluded(r.impl)) continue;
            const double floor = angle_floor_rad(r.impl, floor_opts), tol = o.factor * floor;
            const double worst = std::max(r.max_angle_err_rad, r.max_angle_err_search_rad.value_or(0));
            if (!(worst > tol) && r.nonfinite == 0) continue;
            // Its worst recorded case: the largest angle error (a non-finite output first).
            const WorstCaseRow *w = nullptr;
            auto key = [](const WorstCaseRow &x) { return std::isnan(x.angle_err_rad) ? INFINITY : x.angle_err_rad; };
            for (const auto &x : t.worst_cases)
                if (x.impl == r.impl && x.op == r.op && x.region == r.region && (!w || key(x) > key(*w))) w = &x;
            Finding f;
            f.impl = r.impl, f.op = r.op, f.kind = Kind::region, f.what = r.region;
            f.worst = worst, f.tolerance = tol, f.unit = "rad", f.nonfinite = r.nonfinite > 0;
            const char *p = precision_of(r.impl) == Precision::f32 ? "f32" : "f64";
            if (r.nonfinite)
                f.sentence =
                    fmt::format("On {} ({}), its {} returns NaN or inf on {} of {} sampled cases.", md_code(r.region),
                                region_about(r.region), md_text(r.op), r.nonfinite, r.cases);
            else
                f.sentence = fmt::format(
                    "On {} ({}), its {} is off the exact slerp by up to {} rad, {:.3g} times the {} rounding "
                    "floor 8 eps = {} rad.",
                    md_code(r.region), region_about(r.region), md_text(r.op), num(worst), worst / floor, p, num(floor));
            f.source = fmt::format("summary.csv:{}", r.line);
            if (w) {
                const Precision prec = precision_of(r.impl);
                auto parse = [&](const std::string &s, const char *col, bool nonfinite = false) {
                    return prec == Precision::f32 ? double(parse_hexfloat_f32(s, worst_path, w->line, col, nonfinite))
                                                  : parse_hexfloat(s, worst_path, w->line, col, nonfinite);
                };
                ReproCase c;
                c.label = fmt::format("region {}: the worst case of the run ({})", r.region,
                                      w->source.empty() ? "sampling" : w->source);
                c.op = r.op, c.family = family_of(r.impl), c.bits = prec == Precision::f32 ? 32 : 64;
                bool out_finite = true;
                for (int i = 0; i < 4; i++) {
                    c.q0[i] = parse(w->q0[i], "q0");
                    c.q1[i] = parse(w->q1[i], "q1");
                    out_finite = out_finite && std::isfinite(parse(w->out[i], "out", true));
                    char *end = nullptr;
                    c.expected[i] = std::strtod(w->ref[i].c_str(), &end);
                    if (end != w->ref[i].c_str() + w->ref[i].size() || !std::isfinite(c.expected[i]))
                        throw InputError(fmt::format("{}:{}: column ref: '{}' is not a finite decimal", worst_path,
                                                     w->line, w->ref[i]));
                }
                c.t = parse(w->t, "t");
                c.check = out_finite ? "angle" : "finite", c.tol = out_finite ? tol : 0;
                f.cases.push_back(c);
                for (int i = 0; i < 4; i++)
                    f.q0[i] = w->q0[i], f.q1[i] = w->q1[i], f.out[i] = w->out[i], f.ref[i] = w->ref[i];
                f.t = w->t;
                f.row = *w;
                f.source += fmt::format(", worst case worst_cases.csv:{}", w->line);
            }
            add(r.impl, std::move(f));
        }
    }

    // Failed and documented (known) properties of conformance.csv.
    void properties() {
        const std::string conf_path = (dir / "conformance.csv").string();
        if (t.conformance)
            for (const auto &r : *t.conformance) {
                if (excluded(r.impl) || (r.verdict != "fail" && r.verdict != "known")) continue;
                if (tables::is_informative_property(r.property)) continue;  // measured, never a promise broken
                if (r.verdict == "known") {
                    library(r.impl).documented.push_back(
                        fmt::format("{} {}: does not promise `{}`, as documented: {} (verdict `known`, "
                                    "conformance.csv:{})",
                                    md_code(r.impl), md_text(r.op), md_text(r.property),
                                    md_text(known_words(r.impl, r.op, r.property)), r.line));
                    continue;
                }
                const Precision prec = precision_of(r.impl);
                const auto values = parse_values(r.counterexample, prec, conf_path, r.line);
                Finding f;
                f.impl = r.impl, f.op = r.op, f.kind = Kind::property, f.what = r.property, f.unit = "";
                f.nonfinite = r.property == "finite" || mentions_nonfinite(r.calls);
                const Property *prop = find_property(r.property);
                f.sentence = fmt::format("It breaks the promise {}{}{}.", md_code(r.property), prop ? ": " : "",
                                         prop ? prop->description : "");
                f.source = fmt::format("conformance.csv:{}", r.line);
                if (values.size() >= 9) {
                    f.q0 = hex4(values.data()), f.q1 = hex4(values.data() + 4);
                    f.t = hexfloat(values.back());
                }
                auto &ctx = cx[prec];
                if (!ctx) ctx = std::make_unique<CheckContext>(prec, ReferenceMode::fast);
                f.cases = property_calls(*ctx, r.impl, r.op, r.property, values);
                if (prop && !prop->claim.empty()) held_to_recorded(f.cases, r.calls, prec, conf_path, r.line);
                if (!f.cases.empty())
                    f.tolerance = f.cases.front().tol, f.unit = f.cases.front().check == "angle" ? "rad" : "";
                std::string joined;
                for (double v : values) joined += (joined.empty() ? "" : " ") + hexfloat(v);
                std::vector<std::string> cmd = {"quatcheck", "conform",    "--impl",   r.impl,   "--op",
                                                r.op,        "--property", r.property, "--case", joined};
                for (auto &w : load_words(info(r.impl).origin)) cmd.push_back(w);
                f.reproduce = shell_join(cmd);
                add(r.impl, std::move(f));
            }
    }

    // Squad (squad_summary.csv, squad_conformance.csv, squad_worst_cases.csv): a track region whose max error
    // against the reference curve (own control points) is above the same factor, and failed c1 verdicts. They
    // have no two-key reproducer case: the README gives the quatcheck command that regenerates the track.
    // The `quatcheck squad` command of a track; its seed is the reproduce column's --seed, taken only when it is
    // digits.
    std::string squad_command(const std::string &impl, const std::string &region, const std::string &track,
                              const std::string &repro) const {
        std::vector<std::string> cmd = {"quatcheck", "squad", "--impl", impl, "--region", region};
        if (!track.empty() && track.find_first_not_of("0123456789") == std::string::npos)
            cmd.insert(cmd.end(), {"--track", track});
        auto at = repro.find("--seed ");
        if (at != std::string::npos) {
            std::string seed = repro.substr(at + 7, repro.find(' ', at + 7) - (at + 7));
            if (!seed.empty() && seed.find_first_not_of("0123456789") == std::string::npos)
                cmd.insert(cmd.end(), {"--seed", seed});
        }
        std::vector<std::string> plugin = load_words(info(impl).origin);
        if (plugin.empty()) plugin = plugin_words_of(repro);  // squad-only: run.json does not list it
        cmd.insert(cmd.end(), plugin.begin(), plugin.end());
        return shell_join(cmd);
    }
    void squad_regions() {
        std::optional<Table> sw;
        if (auto text = read_text_file(dir / "squad_worst_cases.csv"))
            sw = read_table(tables::squad_worst_cases, (dir / "squad_worst_cases.csv").string(), *text);
        if (t.squad_summary)
            for (const auto &r : *t.squad_summary) {
                if (excluded(r.impl)) continue;
                const double floor = angle_floor_rad(r.impl, floor_opts), tol = o.factor * floor;
                if (!(r.max_angle_err_rad > tol) && r.nonfinite == 0) continue;
                Finding f;
                f.impl = r.impl, f.op = r.op, f.kind = Kind::squad_region, f.what = r.region;
                f.worst = r.max_angle_err_rad, f.tolerance = tol, f.unit = "rad";
                f.sentence = fmt::format(
                    "On the key tracks of {}, its squad is off the reference squad curve (with its own "
                    "control points) by up to {} rad, {:.3g} times the rounding floor 8 eps{}.",
                    md_code(r.region), num(r.max_angle_err_rad), r.max_angle_err_rad / floor,
                    r.nonfinite ? fmt::format(", and returns NaN or inf on {} of {} samples", r.nonfinite, r.cases)
                                : "");
                f.source = fmt::format("squad_summary.csv:{}", r.line);
                std::string track, repro;
                double best = -1;
                if (sw)
                    for (size_t i = 0; i < sw->size(); i++)
                        if (sw->text(i, "impl") == r.impl && sw->text(i, "region") == r.region) {
                            double e = sw->number(i, "angle_err_own_rad").value_or(0);
                            if (std::isnan(e)) e = INFINITY;
                            if (e > best)
                                best = e, track = sw->text(i, "track"), repro = sw->text(i, "reproduce"),
                                f.source = fmt::format("squad_summary.csv:{}, worst track squad_worst_cases.csv:{}",
                                                       r.line, sw->line(i));
                        }
                f.reproduce = squad_command(r.impl, r.region, track, repro);
                add(r.impl, std::move(f));
            }
    }

    void squad_properties() {
        if (t.squad_conformance)
            for (const auto &r : *t.squad_conformance) {
                if (excluded(r.impl) || r.verdict != "fail") continue;
                Finding f;
                f.impl = r.impl, f.op = r.op, f.kind = Kind::property, f.what = r.property;
                f.sentence = fmt::format(
                    "Its squad breaks the promise {}: the angular velocity jumps at a key of a track{} "
                    "(docs/squad.md).",
                    md_code(r.property), r.property == "c1-sign-flip" ? " whose keys flip sign" : "");
                f.source = fmt::format("squad_conformance.csv:{}", r.line);
                std::string region, track;
                for (const auto &w : words(r.counterexample)) {
                    if (w.rfind("region=", 0) == 0) region = w.substr(7);
                    if (w.rfind("track=", 0) == 0) track = w.substr(6);
                }
                if (!region.empty()) f.reproduce = squad_command(r.impl, region, track, r.reproduce);
                add(r.impl, std::move(f));
            }
    }

    // The branch map (sweep/branch_map.csv, when the run swept): where the output jumps. Every edge of a
    // library's families is kept for the grouping (group.cpp); the five largest are listed in the README.
    void branch_map() {
        auto text = read_text_file(dir / "sweep" / "branch_map.csv");
        if (!text) return;
        Table bm = read_table(tables::branch_map, (dir / "sweep" / "branch_map.csv").string(), *text);
        for (size_t i = 0; i < bm.size(); i++) {
            const std::string impl = bm.text(i, "impl"), fam = family_of(impl);
            const Library *card = library_of(fam);
            auto it = libs.find(card ? card->name : fam);
            if (it == libs.end()) continue;
            const std::string path = (dir / "sweep" / "branch_map.csv").string();
            const double below = parse_hexfloat(bm.text(i, "dot_below"), path, bm.line(i), "dot_below"),
                         above = parse_hexfloat(bm.text(i, "dot_above"), path, bm.line(i), "dot_above");
            it->second.edges.push_back({impl, bm.text(i, "op"), below, above, bm.number(i, "jump_rad").value_or(0),
                                        bm.number(i, "err_below_rad").value_or(0),
                                        bm.number(i, "err_above_rad").value_or(0), int(bm.line(i))});
        }
        for (auto &[name, l] : libs) {
            std::sort(l.edges.begin(), l.edges.end(), [](const auto &a, const auto &b) { return a.jump > b.jump; });
            for (size_t k = 0; k < l.edges.size() && k < 5; k++) {
                const auto &e = l.edges[k];
                l.documented.push_back(fmt::format(
                    "{}: the output jumps by {} rad between the adjacent a.b = {:.17g} and {:.17g} (a branch of the "
                    "routine; sweep/branch_map.csv:{}).",
                    md_code(e.impl), num(e.jump), e.dot_below, e.dot_above, e.line));
            }
        }
    }

    // `quatcheck history`'s transitions.csv (--history): for each change of a library's families between two
    // consecutive releases, the first bad or first good release.
    void history(const fs::path &folder) {
        if (folder.empty()) return;
        const fs::path path = folder / "transitions.csv";
        auto text = read_text_file(path);
        if (!text)
            throw InputError(fmt::format("{}: no transitions.csv (run `quatcheck history --out {}`)", folder.string(),
                                         folder.string()));
        Table tr = read_table(tables::transitions, path.string(), *text);
        for (size_t i = 0; i < tr.size(); i++) {
            const std::string fam = tr.text(i, "family");
            const Library *card = library_of(fam);
            auto it = libs.find(card ? card->name : fam);
            if (it == libs.end()) continue;
            const bool regressed = tr.text(i, "change") == "regressed";
            it->second.history.push_back(fmt::format(
                "{} {} {} {} ({}): {} between {} and {} ({} -> {}); first {} release: {} (transitions.csv:{})",
                md_code(fam), md_text(tr.text(i, "op")), md_text(tr.text(i, "precision")),
                md_code(tr.text(i, "region_or_property")), md_text(tr.text(i, "metric")),
                regressed ? "regressed" : "fixed", md_code(tr.text(i, "from_version")),
                md_code(tr.text(i, "to_version")), md_text(tr.text(i, "before")), md_text(tr.text(i, "after")),
                regressed ? "bad" : "good", md_code(tr.text(i, "to_version")), tr.line(i)));
        }
    }

    // The libraries with findings.
    std::vector<LibraryFindings> finish() {
        std::vector<LibraryFindings> out;
        for (auto &[name, l] : libs)
            if (!l.findings.empty()) out.push_back(std::move(l));
        return out;
    }

    // The node_modules folder beside each JavaScript adapter the run loaded: where its package's source lies.
    void source_roots(Options &opt) const {
        if (!t.implementations) return;
        for (const auto &[impl, i] : *t.implementations)
            for (const auto &w : load_words(i.origin)) {
                std::vector<std::string> parts;
                try {
                    parts = split_command(w);
                } catch (const std::exception &) { continue; }
                for (const auto &p : parts)
                    if (p.size() > 3 && p.compare(p.size() - 3, 3, ".js") == 0) {
                        const fs::path nm = fs::path(p).parent_path() / "node_modules";
                        if (std::find(opt.source_roots.begin(), opt.source_roots.end(), nm) == opt.source_roots.end())
                            opt.source_roots.push_back(nm);
                    }
            }
    }

private:
    const ReportTables &t;
    const fs::path &dir;
    const Options &o;
    CompareOptions floor_opts;
    std::map<std::string, LibraryFindings> libs;
    std::map<Precision, std::unique_ptr<CheckContext>> cx;  // conformance checks per precision
};

}  // namespace

std::vector<LibraryFindings> collect(const ReportTables &t, const fs::path &dir, Options &o) {
    if (!t.summary)
        throw InputError(
            fmt::format("{}: no summary.csv (run `quatcheck run --out {}` first)", dir.string(), dir.string()));
    Collector c(t, dir, o);
    c.regions();
    c.properties();
    c.squad_regions();
    c.squad_properties();
    c.branch_map();
    c.history(o.history);
    c.source_roots(o);
    return c.finish();
}

}  // namespace qc::findings
