// Step 2 of `quatcheck findings` (findings.h): a library's findings grouped into causes, each with its routine's
// source quoted and marked, and the suggested fix run on its cases.
//
// The rules, in order; the first that applies to a finding decides its cause (Cause::formed says which):
//   1. non-finite: the library returned NaN or inf. One cause per routine and input class (equal or opposite
//      keys as one class, nearly equal, ...): the division or domain error that class reaches.
//   2. long arc: the routine breaks shortest-arc or sign-invariance, and the finding's case has a.b < 0 (where
//      the long arc and the short one differ). One cause per routine: the missing sign flip.
//   3. branch: the finding's worst case lies beyond a switch of the routine that the branch map found (an
//      edge of sweep/branch_map.csv where one side is accurate and the other is not: max(err) >= 100 min(err)
//      and the jump is at least half the larger error; |a.b| >= 0.01, the short-arc flip at 0 being by
//      design). One cause per routine and switch: every failure past one switch is that branch's defect.
//   4. class: the other finite failures (properties, region errors) of the routine's main path, one cause per
//      routine and input class (nearly equal keys, a quarter turn apart, general position).
// The routine is the card's (library.h) and known by where its source lies, so the families that call one
// function (OpenCV's two assumeUnit modes, a routine's f32 and f64) share their causes.
#include "findings/findings.h"

#include "findings/util.h"
#include "quatcheck/registry.h"
#include "tables/quote.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

namespace qc::findings {

const char *severity_name(Severity s) {
    static constexpr std::pair<Severity, const char *> names[] = {{Severity::nan, "NaN"},
                                                                  {Severity::wrong_rotation, "wrong rotation"},
                                                                  {Severity::broken_promise, "broken promise"},
                                                                  {Severity::lost_precision, "lost precision"}};
    return name_of(s, names);
}

std::vector<const ReproCase *> Cause::cases() const {
    std::vector<const ReproCase *> out;
    for (const auto &f : findings)
        for (const auto &c : f.cases) out.push_back(&c);
    return out;
}

namespace {

// What a reproducer's measure() returns (harness/findings/templates/*: the same definitions): the 3-D angle to
// expected, | |r| - 1 |, the largest component difference, or 0 for finiteness; infinity for a non-finite r.
double measure(const ReproCase &c, const std::array<double, 4> &r) {
    for (double x : r)
        if (!std::isfinite(x)) return INFINITY;
    if (c.check == "finite") return 0;
    long double n2 = 0;
    for (double x : r) n2 += (long double)x * x;
    if (c.check == "unit") return double(std::fabs(std::sqrt(n2) - 1));
    if (c.check == "components") {
        double m = 0;
        for (int i = 0; i < 4; i++) m = std::max(m, std::fabs(r[i] - c.expected[i]));
        return m;
    }
    const double n = std::sqrt(double(n2));
    double dot = 0, d2 = 0, s2 = 0;
    for (int i = 0; i < 4; i++) dot += r[i] * c.expected[i];
    const double s = dot < 0 ? -1 : 1;
    for (int i = 0; i < 4; i++) {
        const double u = r[i] / n;
        d2 += (u - s * c.expected[i]) * (u - s * c.expected[i]);
        s2 += (u + s * c.expected[i]) * (u + s * c.expected[i]);
    }
    return 4 * std::atan2(std::sqrt(d2), std::sqrt(s2));
}

// The correct nlerp the fixes use for nlerp routines: short arc by the sign of a.b, then normalised.
std::array<double, 4> fixed_nlerp(const ReproCase &c) {
    const double s = c.q0[0] * c.q1[0] + c.q0[1] * c.q1[1] + c.q0[2] * c.q1[2] + c.q0[3] * c.q1[3] < 0 ? -1 : 1;
    std::array<double, 4> r;
    for (int i = 0; i < 4; i++) r[i] = (1 - c.t) * c.q0[i] + c.t * s * c.q1[i];
    const double n = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    if (!(n > 0)) return {1, 0, 0, 0};
    for (double &x : r) x /= n;
    return r;
}

const qc_impl_v1 *builtin(const char *family) {
    for (const auto &b : builtin_impls())
        if (b.table && b.table->family && !std::strcmp(b.table->family, family)) return b.table;
    return nullptr;
}

// The fix on the cause's cases: qc-slerp (its narrow build for the languages without a wider long double, which
// is what the ports compute) or the correct nlerp, measured as the reproducer measures.
FixCheck check_fix(const Cause &cause, Language lang) {
    FixCheck fc;
    const auto cases = cause.cases();
    if (cases.empty()) {
        int ties = 0;
        for (const auto &f : cause.findings) ties += f.tie_cases;
        fc.why_not = ties ? "its cases lie in the tie band |a.b| <= 4 eps, where either arc is right, so no fixed "
                            "expected value can judge a fix (replay them with quatcheck)"
                          : "its findings have no two-key case to run a fix on (squad tracks: see docs/squad.md)";
        return fc;
    }
    if (!is_embedded(fix_port(lang))) {
        fc.why_not = fmt::format("the {} port of the fix ({}) is not built into this quatcheck", language_name(lang),
                                 fix_port(lang));
        return fc;
    }
    const bool wide = lang == Language::cpp;
    const qc_impl_v1 *qc = builtin("qc-slerp"), *narrow = builtin("qc-slerp-narrow");
    fc.offered = true;
    fc.routine =
        wide ? "qc-slerp (impls/recommended/qc_slerp.h)"
             : fmt::format("qc-slerp-narrow, the algorithm of the {} port in impls/fixes/", language_name(lang));
    for (const ReproCase *c : cases) {
        std::array<double, 4> r{NAN, NAN, NAN, NAN};
        if (c->op == "nlerp") {
            r = fixed_nlerp(*c);
        } else if (c->bits == 32 && qc && qc->slerp_f32) {
            float a[4], b[4], o[4];
            for (int i = 0; i < 4; i++) a[i] = float(c->q0[i]), b[i] = float(c->q1[i]);
            qc->slerp_f32(a, b, float(c->t), o);
            for (int i = 0; i < 4; i++) r[i] = o[i];
        } else if (const qc_impl_v1 *impl = wide ? qc : narrow; impl && impl->slerp_f64) {
            impl->slerp_f64(c->q0.data(), c->q1.data(), c->t, r.data());
        } else {
            fc.offered = false;
            fc.why_not = "qc-slerp is not built into this quatcheck";
            return fc;
        }
        const double m = measure(*c, r);
        fc.cases++;
        if (!(m <= c->tol)) fc.failed++;
        if (c->check == "angle") fc.max_angle = std::max(fc.max_angle, m);
    }
    return fc;
}

// The edges of the branch map that are switches of the routine (see the rules above), for IMPL, or for any
// precision of its family when IMPL has none.
std::vector<LibraryFindings::Edge> switches(const LibraryFindings &l, const std::string &impl, const std::string &op) {
    std::vector<LibraryFindings::Edge> own, fam;
    for (const auto &e : l.edges) {
        const double lo = std::min(e.err_below, e.err_above), hi = std::max(e.err_below, e.err_above);
        if (e.op != op || !(hi >= 100 * lo && e.jump >= 0.5 * hi && std::fabs(e.dot_above) >= 0.01)) continue;
        if (e.impl == impl) own.push_back(e);
        else if (family_of(e.impl) == family_of(impl)) fam.push_back(e);
    }
    return own.empty() ? fam : own;
}

// The switch a case at |a.b| = D has passed: the largest switch point at or below D.
const LibraryFindings::Edge *passed_switch(const std::vector<LibraryFindings::Edge> &edges, double d) {
    const LibraryFindings::Edge *best = nullptr;
    for (const auto &e : edges) {
        const double at = std::min(std::fabs(e.dot_below), std::fabs(e.dot_above));
        if (at <= std::fabs(d) && (!best || at > std::min(std::fabs(best->dot_below), std::fabs(best->dot_above))))
            best = &e;
    }
    return best;
}

std::string routine_name(const LibraryFindings &l, const std::string &family, const std::string &op) {
    if (l.card)
        if (const Routine *r = l.card->routine(family, op)) return r->api;
    return family;
}

// The routine's identity for the grouping: where its source lies (families that call one function with other
// arguments, as OpenCV's assumeUnit modes, share it), else its name.
std::string routine_id(const LibraryFindings &l, const std::string &family, const std::string &op) {
    if (l.card)
        if (const Routine *r = l.card->routine(family, op); r && !r->source.file.empty())
            return r->source.file + "#" + r->source.find;
    return routine_name(l, family, op) + "|" + op;
}

struct Keyed {
    std::string key, formed;
    std::optional<LibraryFindings::Edge> edge;
};

// Whether a routine of the library breaks the short-arc promises (shortest-arc or sign-invariance) anywhere.
bool takes_long_arc(const LibraryFindings &l, const std::string &routine) {
    for (const auto &f : l.findings)
        if (f.kind == Kind::property && (f.what == "shortest-arc" || f.what == "sign-invariance") &&
            routine_id(l, f.family, f.op) == routine)
            return true;
    return false;
}

Keyed key_of(const LibraryFindings &l, const Finding &f) {
    const std::string routine = routine_id(l, f.family, f.op);
    const InputClass cls = f.cls == InputClass::opposite ? InputClass::equal : f.cls;  // q1 = +-q0: one class
    const std::string cls_words =
        cls == InputClass::equal ? "equal or opposite keys (q1 = q0 or q1 = -q0)" : class_words(cls);
    if (f.nonfinite)
        return {fmt::format("nonfinite|{}|{}", routine, cls_words),
                fmt::format("rule 1: the routine returned NaN or inf on {}", cls_words)};
    if (takes_long_arc(l, routine) && std::isfinite(f.dot) && f.dot < 0)
        return {fmt::format("longarc|{}", routine),
                "rule 2: the routine breaks the short-arc promises, and this case has a.b < 0, where the long "
                "arc differs from the short one"};
    const auto sw = switches(l, f.impl, f.op);
    if (std::isfinite(f.dot))
        if (const auto *e = passed_switch(sw, f.dot)) {
            const double at = std::min(std::fabs(e->dot_below), std::fabs(e->dot_above));
            return {fmt::format("branch|{}|{:.3g}", routine, 1 - at),
                    fmt::format("rule 3: the worst case lies past the switch the branch map found at |a.b| = {:.17g} "
                                "(sweep/branch_map.csv:{})",
                                at, e->line),
                    *e};
        }
    return {fmt::format("class|{}|{}", routine, cls_words),
            fmt::format("rule 4: finite failures of the routine's main path on {} (past no switch the sweep found)",
                        cls_words)};
}

double worst_angle(const Cause &c) {
    double w = 0;
    for (const auto &f : c.findings)
        if (f.unit == "rad" && !f.nonfinite) w = std::max(w, f.worst);
    return w;
}

void describe(Cause &c, const std::string &routine, const LibraryFindings::Edge *edge) {
    const Finding &f0 = c.findings.front();
    const std::string cls = f0.cls == InputClass::equal || f0.cls == InputClass::opposite
                                ? "equal or opposite keys (q1 = q0 or q1 = -q0)"
                                : class_words(f0.cls);
    const double worst = worst_angle(c);
    std::vector<std::string> names;
    bool region = false;
    for (const auto &f : c.findings) {
        std::string n = f.kind == Kind::property ? f.what : fmt::format("region {}", f.what);
        region = region || f.kind != Kind::property;
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
    std::string list;
    for (size_t i = 0; i < names.size(); i++) list += (i ? ", " : "") + names[i];
    const std::string by = worst > 0 ? fmt::format(" by up to {:.2g} rad", worst) : "";
    auto rotation_severity = [&] {
        return worst >= 1e-5 ? Severity::wrong_rotation : region ? Severity::lost_precision : Severity::broken_promise;
    };
    if (c.key.rfind("nonfinite|", 0) == 0) {
        c.severity = Severity::nan;
        c.title = fmt::format("{} returns NaN for {}", routine, cls);
        c.sentence =
            fmt::format("On {}, {} returns NaN or inf instead of a rotation (seen as: {}).", cls, routine, list);
    } else if (c.key.rfind("longarc|", 0) == 0) {
        c.severity = Severity::wrong_rotation;
        c.title = fmt::format("{} takes the long way round when q0.q1 < 0", routine);
        c.sentence = fmt::format(
            "When q0.q1 < 0, {} interpolates along the longer arc (no sign flip of one key), so the result is not the "
            "short-arc rotation callers expect (seen as: {}).",
            routine, list);
    } else if (edge) {
        const double at = std::min(std::fabs(edge->dot_below), std::fabs(edge->dot_above));
        const bool at_one = at >= 1 - 0x1p-52;
        c.severity = rotation_severity();
        // 7 digits, or 1 - (1 - at) where they would read 1 (vecmath's Quat4d switches at 1 - 1e-12).
        const std::string at_text =
            fmt::format("{:.7g}", at) == "1" ? fmt::format("1 - {:.2g}", 1 - at) : fmt::format("{:.7g}", at);
        c.title = at_one ? fmt::format("{}: the branch for |a.b| = 1 is off slerp{}", routine, by)
                         : fmt::format("{}: the branch taken for |a.b| above {} is off slerp{}", routine, at_text, by);
        c.sentence = fmt::format(
            "When {}, {} switches to another computation, and that branch breaks what the main path keeps (seen "
            "as: {}).",
            at_one ? "|a.b| rounds to 1" : fmt::format("the keys are closer than |a.b| = {}", at_text), routine, list);
    } else {
        c.severity = rotation_severity();
        c.title = worst > 0 ? fmt::format("{} is off slerp{} on {}", routine, by, cls)
                            : fmt::format("{} breaks {} on {}", routine, list, cls);
        c.sentence = fmt::format("On {}, the main path of {} fails (seen as: {}).", cls, routine, list);
    }
}

void locate(Cause &c, const LibraryFindings &l, const Options &o, const LibraryFindings::Edge *edge) {
    if (!l.card) {
        c.quote.missing =
            "quatcheck has no card for this library (impls/*/libraries.json), so it does not know "
            "where the routine's source lies";
        return;
    }
    const Routine *r = l.card->routine(c.routine_family, c.routine_op);
    if (!r) return;
    c.quote = quote_routine(*l.card, r->source, o.source_roots);
    if (c.quote.lines.empty()) return;
    const Finding &f0 = c.findings.front();
    if (f0.nonfinite) mark_nonfinite(c.quote);
    else if (edge) mark_edge(c.quote, edge->dot_below, edge->dot_above);
    else if (c.key.rfind("longarc|", 0) == 0) mark_missing_flip(c.quote);
    else if (f0.cls == InputClass::nearly_parallel) mark_precision(c.quote);
}

// Region findings get their case file (case-N.csv, numbered in the order of the causes, as the reproducer lists
// them) and the replay command that names it by its absolute path: it runs as printed from any folder.
void number_cases(LibraryFindings &l, const Options &o) {
    int n = 0;
    for (auto &c : l.causes)
        for (auto &x : c.findings)
            if (x.kind == Kind::region && !x.cases.empty()) {
                x.case_csv = fmt::format("case-{}.csv", ++n);
                std::vector<std::string> cmd = {"quatcheck", "replay",
                                                (o.findings_dir / l.folder / x.case_csv).string()};
                for (auto &w : load_words(x.origin)) cmd.push_back(w);
                x.reproduce = shell_join(cmd);
            }
}

}  // namespace

void group(std::vector<LibraryFindings> &libs, const Options &o) {
    for (auto &l : libs) {
        std::map<std::string, size_t> at;  // key -> index in l.causes, in order of first finding
        std::vector<std::optional<LibraryFindings::Edge>> edges;
        for (const auto &f : l.findings) {
            const Keyed k = key_of(l, f);
            auto it = at.find(k.key);
            if (it == at.end()) {
                it = at.emplace(k.key, l.causes.size()).first;
                Cause c;
                c.key = k.key, c.formed = k.formed, c.routine_family = f.family, c.routine_op = f.op;
                l.causes.push_back(std::move(c));
                edges.push_back(k.edge);
            }
            l.causes[it->second].findings.push_back(f);
        }
        const Language lang = l.card                                   ? l.card->language
                              : l.spec && l.spec->language == "js"     ? Language::js
                              : l.spec && l.spec->language == "python" ? Language::python
                                                                       : Language::cpp;
        for (size_t i = 0; i < l.causes.size(); i++) {
            Cause &c = l.causes[i];
            const LibraryFindings::Edge *edge = edges[i] ? &*edges[i] : nullptr;
            describe(c, routine_name(l, c.routine_family, c.routine_op), edge);
            locate(c, l, o, edge);
            c.fix = check_fix(c, lang);
        }
        // The worst first: NaN, then wrong rotations, broken promises and lost precision.
        std::stable_sort(l.causes.begin(), l.causes.end(),
                         [](const Cause &a, const Cause &b) { return int(a.severity) < int(b.severity); });
        number_cases(l, o);
        // Two causes of one title (routines the card names alike): each says its family and op.
        for (auto &c : l.causes)
            for (const auto &d : l.causes)
                if (&c != &d && c.title == d.title) {
                    for (auto &x : l.causes)
                        if (x.title == c.title) x.title += fmt::format(" ({} {})", x.routine_family, x.routine_op);
                    break;
                }
    }
}

}  // namespace qc::findings
