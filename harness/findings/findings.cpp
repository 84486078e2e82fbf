#include "findings/findings.h"

#include "compare/compare.h"
#include "quatcheck/registry.h"
#include "conform/properties.h"
#include "findings/embedded.h"
#include "isolate/process_plugin.h"
#include "report/report_dir.h"
#include "tables/quote.h"
#include "tables/source_template.h"
#include "run/build_info.h"
#include "tables/schemas.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <fnmatch.h>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/stat.h>

namespace qc::findings {

namespace fs = std::filesystem;

namespace {

std::string_view embedded(std::string_view path) {
    for (const auto &f : embedded_files())
        if (f.path == path) return f.content;
    throw std::logic_error(fmt::format("findings: {} is not embedded", path));
}

std::string replace_all(std::string s, const std::string &from, const std::string &to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::vector<std::string> words(const std::string &line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) out.push_back(cur), cur.clear();
        else cur += c;
    }
    out.push_back(cur);
    return out;
}

std::string family_of(const std::string &impl) {
    auto dot = impl.rfind('.');
    return dot == std::string::npos ? impl : impl.substr(0, dot);
}

Precision precision_of(const std::string &impl) {
    return impl.size() > 4 && impl.compare(impl.size() - 4, 4, ".f32") == 0 ? Precision::f32 : Precision::f64;
}

// A folder name: the family with anything but [A-Za-z0-9._+-] replaced (the tables are untrusted).
std::string folder_name(const std::string &family) {
    std::string s;
    for (char c : family)
        s += (std::isalnum((unsigned char)c) || c == '-' || c == '_' || c == '+' || (c == '.' && !s.empty())) ? c : '_';
    return s.empty() ? "_" : s;
}

// TEXT with PREFIX before each of its lines (a fenced block inside a list item).
std::string indent(const std::string &text, const std::string &prefix) {
    std::string out;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        end = end == std::string::npos ? text.size() : end + 1;
        out += prefix + text.substr(at, end - at);
        at = end;
    }
    return out;
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

// The leading comment of an adapter source: what the routine is and what the library promises.
std::string leading_comment(std::string_view text) {
    std::istringstream in{std::string(text)};
    std::string line, out;
    bool py_doc = false;
    while (std::getline(in, line)) {
        if (line.rfind("#!", 0) == 0) continue;
        if (line.rfind("\"\"\"", 0) == 0) {
            if (py_doc) break;
            py_doc = true;
            line = line.substr(3);
            if (auto e = line.find("\"\"\""); e != std::string::npos) {
                out += line.substr(0, e) + "\n";
                break;
            }
        } else if (py_doc) {
            if (auto e = line.find("\"\"\""); e != std::string::npos) {
                out += line.substr(0, e) + "\n";
                break;
            }
        } else if (line.rfind("//", 0) == 0) {
            line = line.substr(line.size() > 2 && line[2] == ' ' ? 3 : 2);
        } else {
            break;
        }
        out += line + "\n";
    }
    return out;
}

// Parses the hexfloats of a counterexample (q0, q1, t, ...) strictly, each representable in the format.
std::vector<double> parse_values(const std::string &text, Precision p, const std::string &file, unsigned line) {
    std::vector<double> v;
    for (const auto &w : words(replace_all(text, ",", " ")))
        v.push_back(p == Precision::f32 ? double(parse_hexfloat_f32(w, file, line, "counterexample"))
                                        : parse_hexfloat(w, file, line, "counterexample"));
    return v;
}

std::array<std::string, 4> hex4(const double *q) {
    return {hexfloat(q[0]), hexfloat(q[1]), hexfloat(q[2]), hexfloat(q[3])};
}

// The calls of a conformance counterexample that the reproducer checks one by one, each against the
// reference: for a property over two or three evaluations, at least one of them breaks its own budget
// whenever the property fails (its tolerance is the sum of theirs).
std::vector<ReproCase> property_calls(CheckContext &cx, const std::string &impl, const std::string &op,
                                      const std::string &property, const std::vector<double> &c) {
    struct Call {
        std::array<double, 4> q0, q1;
        double t;
        std::string label;
    };
    auto quat = [&](size_t at, double sign = 1) {
        return std::array<double, 4>{sign * c[at], sign * c[at + 1], sign * c[at + 2], sign * c[at + 3]};
    };
    std::vector<Call> calls;
    std::string check = "angle";
    const bool f32 = precision_of(impl) == Precision::f32;
    if (property == "finite" || property == "unit" || property == "shortest-arc" || property == "constant-speed") {
        if (c.size() != 9) return {};
        calls.push_back({quat(0), quat(4), c[8], "op(q0, q1, t)"});
        if (property == "finite") check = "finite";
        if (property == "unit") check = "unit";
    } else if (property == "endpoints") {
        if (c.size() != 9) return {};
        calls.push_back({quat(0), quat(4), 0, "op(q0, q1, 0) must be q0"});
        calls.push_back({quat(0), quat(4), 1, "op(q0, q1, 1) must be the end the short arc reaches"});
        check = "components";
    } else if (property == "sign-invariance") {
        if (c.size() != 9) return {};
        calls.push_back({quat(0), quat(4), c[8], "op(q0, q1, t)"});
        calls.push_back({quat(0), quat(4, -1), c[8], "op(q0, -q1, t), the same rotation"});
        calls.push_back({quat(0, -1), quat(4), c[8], "op(-q0, q1, t), the same rotation"});
    } else if (property == "symmetry") {
        if (c.size() != 9) return {};
        double s = f32 ? double(float(1 - c[8])) : 1 - c[8];
        calls.push_back({quat(0), quat(4), c[8], "op(q0, q1, t)"});
        calls.push_back({quat(4), quat(0), s, "op(q1, q0, 1 - t), the same rotation"});
    } else if (property == "monotone") {
        if (c.size() != 10) return {};
        calls.push_back({quat(0), quat(4), c[8], "op(q0, q1, t)"});
        calls.push_back({quat(0), quat(4), c[9], "op(q0, q1, t2), t2 >= t, must not turn back"});
    } else if (property == "threshold-continuity") {
        if (c.size() != 13) return {};
        calls.push_back({quat(0), quat(4), c[12], "op(q0, q1, t), q1 below the jump"});
        calls.push_back({quat(0), quat(8), c[12], "op(q0, q1', t), q1' above the jump (the adjacent a.b)"});
    } else {
        return {};
    }
    std::vector<ReproCase> out;
    for (const Call &k : calls) {
        ReproCase r;
        r.label = fmt::format("property {}: {}", property, k.label);
        r.op = op;
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

}  // namespace

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
    bool excluded(const std::string &impl) const {
        auto g = info(impl).group;
        return g == "broken" || g == "bench";
    }
    FamilyFindings &family(const std::string &impl) {
        auto &f = fams[family_of(impl)];
        if (f.family.empty()) {
            auto i = info(impl);
            f.family = family_of(impl), f.group = i.group, f.version = i.version, f.origin = i.origin;
            f.spec = spec_for(f.family);
        }
        return f;
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
            f.impl = r.impl, f.op = r.op, f.kind = "region", f.what = r.region;
            f.worst = worst, f.tolerance = tol, f.unit = "rad";
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
                c.op = r.op, c.bits = prec == Precision::f32 ? 32 : 64;
                for (int i = 0; i < 4; i++) {
                    c.q0[i] = parse(w->q0[i], "q0");
                    c.q1[i] = parse(w->q1[i], "q1");
                    parse(w->out[i], "out", true);
                    char *end = nullptr;
                    c.expected[i] = std::strtod(w->ref[i].c_str(), &end);
                    if (end != w->ref[i].c_str() + w->ref[i].size() || !std::isfinite(c.expected[i]))
                        throw InputError(fmt::format("{}:{}: column ref: '{}' is not a finite decimal", worst_path,
                                                     w->line, w->ref[i]));
                }
                c.t = parse(w->t, "t");
                c.check = "angle", c.tol = tol;
                f.cases.push_back(c);
                for (int i = 0; i < 4; i++)
                    f.q0[i] = w->q0[i], f.q1[i] = w->q1[i], f.out[i] = w->out[i], f.ref[i] = w->ref[i];
                f.t = w->t;
                f.row = *w;
                f.source += fmt::format(", worst case worst_cases.csv:{}", w->line);
            }
            family(r.impl).findings.push_back(std::move(f));
        }
    }

    // Failed and documented (known) properties of conformance.csv.
    void properties() {
        const std::string conf_path = (dir / "conformance.csv").string();
        if (t.conformance)
            for (const auto &r : *t.conformance) {
                if (excluded(r.impl) || (r.verdict != "fail" && r.verdict != "known")) continue;
                if (r.verdict == "known") {
                    family(r.impl).documented.push_back(
                        fmt::format("{} {}: the adapter declares a documented deviation from `{}` (verdict `known`, "
                                    "conformance.csv:{}); "
                                    "its registration line gives the library's own words.",
                                    md_code(r.impl), md_text(r.op), md_text(r.property), r.line));
                    continue;
                }
                const Precision prec = precision_of(r.impl);
                const auto values = parse_values(r.counterexample, prec, conf_path, r.line);
                Finding f;
                f.impl = r.impl, f.op = r.op, f.kind = "property", f.what = r.property, f.unit = "";
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
                if (!f.cases.empty())
                    f.tolerance = f.cases.front().tol, f.unit = f.cases.front().check == "angle" ? "rad" : "";
                std::string joined;
                for (double v : values) joined += (joined.empty() ? "" : " ") + hexfloat(v);
                std::vector<std::string> cmd = {"quatcheck", "conform",    "--impl",   r.impl,   "--op",
                                                r.op,        "--property", r.property, "--case", joined};
                for (auto &w : load_words(info(r.impl).origin)) cmd.push_back(w);
                f.reproduce = shell_join(cmd);
                family(r.impl).findings.push_back(std::move(f));
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
                f.impl = r.impl, f.op = r.op, f.kind = "squad-region", f.what = r.region;
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
                family(r.impl).findings.push_back(std::move(f));
            }
    }

    void squad_properties() {
        if (t.squad_conformance)
            for (const auto &r : *t.squad_conformance) {
                if (excluded(r.impl) || r.verdict != "fail") continue;
                Finding f;
                f.impl = r.impl, f.op = r.op, f.kind = "property", f.what = r.property;
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
                family(r.impl).findings.push_back(std::move(f));
            }
    }

    // The branch map (sweep/branch_map.csv, when the run swept): where the output jumps, the largest first.
    void branch_map() {
        if (auto text = read_text_file(dir / "sweep" / "branch_map.csv")) {
            Table bm = read_table(tables::branch_map, (dir / "sweep" / "branch_map.csv").string(), *text);
            std::map<std::string, std::vector<size_t>> by_family;
            for (size_t i = 0; i < bm.size(); i++) by_family[family_of(bm.text(i, "impl"))].push_back(i);
            for (auto &[name, rows] : by_family) {
                auto it = fams.find(name);
                if (it == fams.end()) continue;
                std::sort(rows.begin(), rows.end(),
                          [&](size_t a, size_t b) { return bm.number(a, "jump_rad") > bm.number(b, "jump_rad"); });
                for (size_t k = 0; k < rows.size() && k < 5; k++) {
                    size_t i = rows[k];
                    it->second.documented.push_back(
                        fmt::format("{} {}: the output jumps by {} rad between the adjacent a.b = {} and {} at t = {} "
                                    "(a branch of the "
                                    "routine; sweep/branch_map.csv:{}).",
                                    md_code(bm.text(i, "impl")), md_code(bm.text(i, "op")),
                                    num(*bm.number(i, "jump_rad")), md_code(bm.text(i, "dot_below")),
                                    md_code(bm.text(i, "dot_above")), md_code(bm.text(i, "t")), bm.line(i)));
                }
            }
        }
    }

    // The families with findings, their region findings' case files and replay commands numbered per family.
    std::vector<FamilyFindings> finish() {
        std::vector<FamilyFindings> out;
        for (auto &[name, f] : fams)
            if (!f.findings.empty()) out.push_back(std::move(f));
        // Region findings get their case file names and replay commands, numbered per family.
        for (auto &f : out) {
            int n = 0;
            for (auto &x : f.findings)
                if (x.kind == "region" && !x.cases.empty()) {
                    x.case_csv = fmt::format("case-{}.csv", ++n);
                    // The case file by its absolute path: the command runs as printed from any folder.
                    std::error_code ec;
                    const fs::path case_path =
                        fs::absolute(dir / "findings" / folder_name(f.family) / x.case_csv, ec).lexically_normal();
                    std::vector<std::string> cmd = {"quatcheck", "replay", case_path.string()};
                    for (auto &w : load_words(f.origin)) cmd.push_back(w);
                    x.reproduce = shell_join(cmd);
                }
        }
        return out;
    }

private:
    const ReportTables &t;
    const fs::path &dir;
    const Options &o;
    CompareOptions floor_opts;
    std::map<std::string, FamilyFindings> fams;
    std::map<Precision, std::unique_ptr<CheckContext>> cx;  // conformance checks per precision
};

}  // namespace

std::vector<FamilyFindings> collect(const ReportTables &t, const fs::path &dir, const Options &o) {
    if (!t.summary)
        throw InputError(
            fmt::format("{}: no summary.csv (run `quatcheck run --out {}` first)", dir.string(), dir.string()));
    Collector c(t, dir, o);
    c.regions();
    c.properties();
    c.squad_regions();
    c.squad_properties();
    c.branch_map();
    return c.finish();
}

namespace {

std::string cpp_cases(const std::vector<const ReproCase *> &cases) {
    std::string s;
    auto q = [](const std::array<double, 4> &v) {
        return fmt::format("{{{}, {}, {}, {}}}", hexfloat(v[0]), hexfloat(v[1]), hexfloat(v[2]), hexfloat(v[3]));
    };
    for (const ReproCase *c : cases)
        s +=
            fmt::format("    {{{}, {}, {}, {}, {}, {}, {}, {}, {}}},\n", c_literal(c->label), c_literal(c->op), c->bits,
                        q(c->q0), q(c->q1), hexfloat(c->t), q(c->expected), c_literal(c->check), hexfloat(c->tol));
    return s;
}

std::string bits_hex(double x) {
    uint64_t u;
    std::memcpy(&u, &x, 8);
    return fmt::format("'{:016x}'", u);
}

std::string js_cases(const std::vector<const ReproCase *> &cases) {
    std::string s;
    auto q = [](const std::array<double, 4> &v) {
        return fmt::format("q([{}, {}, {}, {}])", bits_hex(v[0]), bits_hex(v[1]), bits_hex(v[2]), bits_hex(v[3]));
    };
    for (const ReproCase *c : cases)
        s += fmt::format(
            "  {{ label: {}, op: {}, bits: {}, q0: {}, q1: {}, t: bits({}), expected: {}, check: {}, tol: bits({}) "
            "}},\n",
            js_literal(c->label), js_literal(c->op), c->bits, q(c->q0), q(c->q1), bits_hex(c->t), q(c->expected),
            js_literal(c->check), bits_hex(c->tol));
    return s;
}

std::string py_cases(const std::vector<const ReproCase *> &cases) {
    std::string s;
    auto q = [](const std::array<double, 4> &v) {
        return fmt::format("[h('{}'), h('{}'), h('{}'), h('{}')]", hexfloat(v[0]), hexfloat(v[1]), hexfloat(v[2]),
                           hexfloat(v[3]));
    };
    for (const ReproCase *c : cases)
        s += fmt::format(
            "    {{\"label\": {}, \"op\": {}, \"bits\": {}, \"q0\": {}, \"q1\": {}, \"t\": h('{}'), \"expected\": "
            "{}, \"check\": {}, \"tol\": h('{}')}},\n",
            py_literal(c->label), py_literal(c->op), c->bits, q(c->q0), q(c->q1), hexfloat(c->t), q(c->expected),
            py_literal(c->check), hexfloat(c->tol));
    return s;
}

std::string requires_lines(const ReproSpec &s) {
    std::string out;
    for (const auto &r : s.requires_) {
        auto colon = r.find(':');
        std::string kind = r.substr(0, colon), what = colon == std::string::npos ? "" : r.substr(colon + 1);
        const char *fn = kind == "pkg"      ? "need_pkg"
                         : kind == "header" ? "need_header"
                         : kind == "npm"    ? "need_npm"
                                            : "need_py";
        out += fmt::format("{} {}\n", fn, shell_quote(what));
    }
    return out;
}

std::string language_name(const ReproSpec *s) {
    if (!s) return "none";
    return s->language == "cpp" ? "C++" : s->language == "js" ? "JavaScript" : "Python";
}

// The reproducer files of one family (name -> content).
std::map<std::string, std::string> reproducer(const FamilyFindings &f) {
    std::map<std::string, std::string> files;
    std::vector<const ReproCase *> cases;
    for (const auto &x : f.findings)
        for (const auto &c : x.cases) cases.push_back(&c);
    const std::string title =
        fmt::format("the quatcheck findings of {}{}", f.family, f.version.empty() ? "" : " (" + f.version + ")");
    if (!f.spec || cases.empty()) {
        files["repro.sh"] = fmt::format(
            "#!/bin/sh\n# {}: quatcheck has no standalone reproducer for this family ({}); README.md gives the "
            "quatcheck command.\n"
            "echo {}\nexit 77\n",
            comment_text(title),
            !f.spec ? "no template: a plugin, or an implementation without a line in impls/*/repro.txt"
                    : "no case to check",
            shell_quote(
                fmt::format("SKIP: no standalone reproducer for {}: {}", f.family,
                            !f.spec ? "no template for its language (replay it with the quatcheck command in README.md)"
                                    : "its findings have no case a reproducer can check")));
        return files;
    }
    const ReproSpec &s = *f.spec;
    const std::string source = fs::path(s.files.front()).filename().string();
    for (const auto &p : s.files) files["lib/" + fs::path(p).filename().string()] = std::string(embedded(p));
    // Every value a template receives is quoted for its place there (tables/source_template.h): the family
    // and the version come from the report's tables, which anyone may have written.
    auto without_last_newline = [](std::string x) {
        if (!x.empty() && x.back() == '\n') x.pop_back();
        return x;
    };
    std::string packages;
    for (const auto &r : s.requires_) packages += (packages.empty() ? "" : " ") + r.substr(r.find(':') + 1);
    // FLAGS: the build flags of impls/*/repro.txt, compiled into the tool (shell words repro.sh runs on purpose).
    auto fill = [&](const char *tmpl, const std::string &cases_text) {
        return fill_template(tmpl, embedded(tmpl),
                             {{"TITLE", TemplateText{title}},
                              {"SOURCE", TemplateText{source}},
                              {"FAMILY", TemplateText{f.family}},
                              {"REQUIRES", TemplateCode{without_last_newline(requires_lines(s))}},
                              {"FLAGS", TemplateCode{s.flags}},
                              {"MODULE", TemplateText{fs::path(source).stem().string()}},
                              {"FUNCTION", TemplateText{"slerp"}},
                              {"PACKAGES", TemplateText{packages}},
                              {"CASES", TemplateCode{without_last_newline(cases_text)}}});
    };
    if (s.language == "cpp") {
        files["repro.cpp"] = fill("harness/findings/templates/repro.cpp.in", cpp_cases(cases));
        files["repro.sh"] = fill("harness/findings/templates/repro_cpp.sh.in", "");
        files["lib/quatcheck/plugin.h"] = std::string(embedded("harness/include/quatcheck/plugin.h"));
        files["lib/quatcheck/registry.h"] = std::string(embedded("harness/findings/templates/registry_stub.h"));
    } else if (s.language == "js") {
        files["repro.mjs"] = fill("harness/findings/templates/repro.mjs.in", js_cases(cases));
        files["repro.sh"] = fill("harness/findings/templates/repro_js.sh.in", "");
        files["lib/protocol.js"] = std::string(embedded("harness/findings/templates/protocol_stub.js"));
        files["lib/package.json"] = "{\"type\": \"commonjs\"}\n";
    } else {
        files["repro.py"] = fill("harness/findings/templates/repro.py.in", py_cases(cases));
        files["repro.sh"] = fill("harness/findings/templates/repro_py.sh.in", "");
    }
    return files;
}

std::string readme(const FamilyFindings &f, const std::map<std::string, std::string> &repro, const ReportTables &t,
                   const Options &o) {
    std::string s;
    const std::string lib = f.version.empty() ? "(version not recorded)" : md_text(f.version);
    s += fmt::format("# {}: {} finding{}\n\n", md_text(f.family), f.findings.size(), f.findings.size() == 1 ? "" : "s");
    s += fmt::format(
        "Written by `quatcheck findings` from the report folder {}. quatcheck compares each routine with "
        "an arbitrary-precision reference (the exact slerp) and checks the promises callers rely on "
        "(docs/conformance.md).\n\n",
        md_code(t.dir));
    // The library's name: the package or module its reproducer requires (npm:playcanvas, pkg:bullet, ...).
    std::string name;
    if (f.spec && !f.spec->requires_.empty()) {
        const std::string &r = f.spec->requires_.front();
        name = r.substr(r.find(':') + 1);
        if (r.rfind("npm:", 0) != 0)
            name = name.substr(0, name.find_first_of("/."));  // irrlicht/quaternion.h, scipy.spatial
    }
    s += fmt::format("- **Library**: {}{}, family {}\n", name.empty() ? "" : md_code(name) + " ", lib,
                     md_code(f.family));
    s += fmt::format("- **Group**: {}\n", f.group.empty() ? "not recorded" : md_text(f.group));
    if (!f.origin.empty() && f.origin != "builtin") s += fmt::format("- **Loaded as**: {}\n", md_code(f.origin));
    s += fmt::format("- **Reproducer**: {}\n\n",
                     !f.spec ? "none (replay with the quatcheck commands below)"
                             : fmt::format("{} (`{}`), run by `./repro.sh`", language_name(f.spec),
                                           repro.count("repro.cpp")   ? "repro.cpp"
                                           : repro.count("repro.mjs") ? "repro.mjs"
                                                                      : "repro.py"));
    if (f.spec) {
        s += fmt::format(
            "## The routine and what it promises\n\nFrom the notes of the file quatcheck calls it through "
            "(`{}`, copied to `lib/`):\n\n",
            f.spec->files.front());
        for (const auto &line : split(leading_comment(embedded(f.spec->files.front())), '\n'))
            if (!line.empty()) s += "> " + line + "\n";
        s += "\n";
    }
    s += "## What goes wrong\n\n";
    int k = 0;
    for (const auto &x : f.findings) {
        k++;
        s += fmt::format("### {}. {} {} {}: {}\n\n{}\n\n", k, md_code(x.impl), md_text(x.op), x.kind, md_code(x.what),
                         x.sentence);
        if (x.kind == "region" || x.kind == "squad-region")
            s += fmt::format(
                "- Error: {} rad; tolerance: {} rad ({} times the rounding floor 8 eps; `quatcheck findings "
                "--factor`).\n",
                num(x.worst), num(x.tolerance), num(o.factor));
        else if (!x.cases.empty())
            s += fmt::format(
                "- Tolerance of each call below: {} {} (docs/conformance.md: A(W) for angles, U = 16 eps for "
                "norms and endpoints).\n",
                num(x.tolerance), x.unit);
        if (!x.t.empty()) {
            s += fmt::format(
                "- Worst case, exact inputs (w, x, y, z):\n  - q0 = ({}, {}, {}, {})\n  - q1 = ({}, {}, {}, {})\n"
                "  - t = {}\n",
                md_code(x.q0[0]), md_code(x.q0[1]), md_code(x.q0[2]), md_code(x.q0[3]), md_code(x.q1[0]),
                md_code(x.q1[1]), md_code(x.q1[2]), md_code(x.q1[3]), md_code(x.t));
        }
        if (x.kind == "region" && !x.ref[0].empty()) {
            const int p = precision_of(x.impl) == Precision::f32 ? 24 : 53;
            s += fmt::format(
                "- Expected (the reference, each component certified to within 2^-{} = {:.3g}; docs/reference.md):\n"
                "  ({}, {}, {}, {})\n",
                p + 16, std::ldexp(1.0, -(p + 16)), md_code(x.ref[0]), md_code(x.ref[1]), md_code(x.ref[2]),
                md_code(x.ref[3]));
            s += fmt::format("- The library returned: ({}, {}, {}, {}), an error of {} rad.\n", md_code(x.out[0]),
                             md_code(x.out[1]), md_code(x.out[2]), md_code(x.out[3]), num(x.row.angle_err_rad));
        }
        if (x.kind == "squad-region" || x.op == "squad")
            s += "- No standalone reproducer case (the reproducers check two-key calls); the command below regenerates "
                 "the track.\n";
        else if (x.kind == "property") {
            s +=
                "- The calls the reproducer checks, each against the reference (it prints what the library returns):\n";
            for (const auto &c : x.cases)
                s += fmt::format("  - {}: t = {}, expected ({}, {}, {}, {}), check {} within {}\n",
                                 md_text(c.label.substr(c.label.find(": ") + 2)), md_code(hexfloat(c.t)),
                                 md_code(hexfloat(c.expected[0])), md_code(hexfloat(c.expected[1])),
                                 md_code(hexfloat(c.expected[2])), md_code(hexfloat(c.expected[3])), c.check,
                                 num(c.tol));
        }
        s += fmt::format("- Source: {}\n", md_code(x.source));
        if (!x.reproduce.empty())
            s += fmt::format("- Reproduce with quatcheck{}:\n\n{}",
                             x.case_csv.empty()
                                 ? ""
                                 : fmt::format(" (`{}` is the worst case as a one-row worst_cases.csv)", x.case_csv),
                             indent(md_fence(x.reproduce, "sh"), "  "));
        s += "\n";
    }
    s += "## Where the cause lies\n\n";
    if (f.documented.empty())
        s += "quatcheck has no documented deviation or branch-map edge recorded for this family in this report.\n\n";
    for (const auto &d : f.documented) s += "- " + d + "\n";
    if (!f.documented.empty()) s += "\n";
    s += "## Standalone reproducer\n\n";
    if (f.spec) {
        s += fmt::format(
            "`./repro.sh` builds (where needed) and runs the {} reproducer from this folder. It needs no part of "
            "quatcheck: the inputs are exact literals, the expected outputs and tolerances are written beside "
            "them, and it calls the library through the same file quatcheck uses (`lib/{}`). Exit status 1: the "
            "library breaks its promise on at least one case; 0: it keeps it on every case; 77: SKIP, a compiler, "
            "runtime or the library is missing (one line says which); 2: it could not be built or run. "
            "`QC_REPRO_SUBSTITUTE=expected ./repro.sh` puts the reference's own output in place of the library's "
            "answer: the same checks then pass (exit 0), so the reproducer is not one that always fails.\n",
            language_name(f.spec), fs::path(f.spec->files.front()).filename().string());
        if (f.spec->language == "js")
            s += "\nThe npm package is resolved from `./node_modules`: set `QC_NODE_MODULES` to a `node_modules` "
                 "folder that "
                 "holds it (repro.sh links it here), e.g. quatcheck's `impls/js/node_modules`.\n";
    } else {
        s += "None: `./repro.sh` says SKIP (exit 77). Use the quatcheck commands above.\n";
    }
    return s;
}

}  // namespace

std::map<std::string, std::string> render(const std::vector<FamilyFindings> &families, const ReportTables &t,
                                          const Options &o) {
    std::map<std::string, std::string> out;
    nlohmann::json index = {{"factor", o.factor}, {"families", nlohmann::json::array()}};
    for (const auto &f : families) {
        const std::string dir = folder_name(f.family);
        auto files = reproducer(f);
        files["README.md"] = readme(f, files, t, o);
        for (const auto &x : f.findings)
            if (!x.case_csv.empty()) files[x.case_csv] = worst_cases_csv({x.row});
        nlohmann::json fj = {{"family", f.family},
                             {"folder", dir},
                             {"group", f.group},
                             {"version", f.version},
                             {"language", f.spec ? f.spec->language : ""},
                             {"reproducer", f.spec ? (files.count("repro.cpp")   ? "repro.cpp"
                                                      : files.count("repro.mjs") ? "repro.mjs"
                                                                                 : "repro.py")
                                                   : ""},
                             {"findings", nlohmann::json::array()}};
        for (const auto &x : f.findings)
            fj["findings"].push_back({{"impl", x.impl},
                                      {"op", x.op},
                                      {"kind", x.kind},
                                      {"what", x.what},
                                      {"sentence", x.sentence},
                                      {"worst", x.worst},
                                      {"tolerance", x.tolerance},
                                      {"unit", x.unit},
                                      {"reproduce", x.reproduce},
                                      {"cases", x.cases.size()}});
        index["families"].push_back(fj);
        for (auto &[name, content] : files) out[dir + "/" + name] = content;
    }
    out["index.json"] = index.dump(1) + "\n";
    return out;
}

size_t write_findings(const fs::path &dir, const Options &o, StopToken stop) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw UsageError(fmt::format("findings: {}: not a folder", dir.string()));
    const ReportTables tables = read_report_tables(dir);
    const auto families = collect(tables, dir, o);
    const auto files = render(families, tables, o);
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
    return families.size();
}

}  // namespace qc::findings
