// Step 3 of `quatcheck findings` (findings.h), the README of a library's folder: a summary for the maintainers,
// then per cause the evidence, where the cause lies in the library's source, the suggested fix with its
// measured result, the test to paste; documented behaviour; how to reproduce; the environment.
#include "findings/render.h"

#include "findings/util.h"
#include "base/build_info.h"
#include "tables/quote.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sys/utsname.h>

namespace qc::findings {

namespace fs = std::filesystem;

namespace {

// (w, x, y, z) in the library's component order ORDER (xyzw or wxyz), each to 17 significant digits.
std::string in_order(const std::array<double, 4> &v, const std::string &order) {
    std::string s;
    for (char k : order) {
        const int i = k == 'w' ? 0 : k == 'x' ? 1 : k == 'y' ? 2 : 3;
        s += (s.empty() ? "" : ", ") + (std::isfinite(v[i]) ? fmt::format("{:.17g}", v[i]) : std::string(num(v[i])));
    }
    return "(" + s + ")";
}

// An error in words: the figure and how many rounding errors of the format it is.
std::string error_words(double err, bool f32, const char *unit = " rad") {
    const double u = f32 ? 0x1p-24 : 0x1p-53;
    return fmt::format("{:.2g}{}, about {:.2g} times the rounding error of {} ({})", err, unit, err / u,
                       f32 ? "float" : "double", f32 ? "2^-24" : "2^-53");
}

std::string routine_line(const LibraryFindings &l, const Cause &c) {
    if (!l.card) return md_code(c.routine_family);
    const Routine *r = l.card->routine(c.routine_family, c.routine_op);
    return r ? fmt::format("{} (called as {})", md_code(r->api), md_code(r->call)) : md_code(c.routine_family);
}

std::string fix_result(const Cause &c) {
    if (!c.fix.offered) return fmt::format("no fix offered: {}", c.fix.why_not);
    return fmt::format("{}: {} of {} cases fail{}", c.fix.failed == 0 ? "verified" : "NOT verified", c.fix.failed,
                       c.fix.cases, c.fix.max_angle > 0 ? fmt::format(", max error {:.2g} rad", c.fix.max_angle) : "");
}

std::string summary(const LibraryFindings &l) {
    std::string s = "| # | title | severity | findings | suggested fix |\n|---|---|---|---|---|\n";
    for (size_t k = 0; k < l.causes.size(); k++) {
        const Cause &c = l.causes[k];
        s += fmt::format("| {} | {} | {} | {} | {} |\n", k + 1, md_text(c.title), severity_name(c.severity),
                         c.findings.size(), md_text(fix_result(c)));
    }
    return s;
}

std::string evidence(const LibraryFindings &l, const Finding &x, const Options &o) {
    const std::string order = l.card ? l.card->order : "wxyz";
    const bool f32 = precision_of(x.impl) == Precision::f32;
    std::string s = fmt::format("- **{}** ({} {}, {}): {}\n", md_text(x.what), md_code(x.impl), md_text(x.op),
                                kind_name(x.kind), x.sentence);
    if (x.nonfinite)
        s += "  - The library returned NaN or inf: no error figure applies (a non-finite output fails every check).\n";
    else if (x.kind != Kind::property)
        s += fmt::format(
            "  - Error: {}; tolerance {} rad ({} x the rounding floor 8 eps, `quatcheck findings --factor`).\n",
            error_words(x.worst, f32), num(x.tolerance), num(o.factor));
    for (const auto &c : x.cases) {
        s += fmt::format("  - {}: q0 = {}, q1 = {}, t = {:.17g} (in the library's order {}); expected {}{}\n",
                         md_text(c.label), in_order(c.q0, order), in_order(c.q1, order), c.t, md_code(order),
                         in_order(c.expected, order),
                         c.check == "angle" ? "" : fmt::format(", checked: {} within {}", c.check, num(c.tol)));
    }
    if (x.tie_cases)
        s += fmt::format(
            "  - {} case{} left out of the reproducer: in the tie band |a.b| <= 4 eps, where either arc "
            "is a right answer (quatcheck measures against the nearer one); the quatcheck command "
            "below replays {}.\n",
            x.tie_cases, x.tie_cases == 1 ? "" : "s", x.tie_cases == 1 ? "it" : "them");
    if (x.kind == Kind::region && !x.out[0].empty()) {
        std::array<double, 4> out{};
        for (int i = 0; i < 4; i++) out[i] = std::strtod(x.out[i].c_str(), nullptr);  // parsed strictly by collect()
        s += fmt::format("  - The library returned {} (exactly: {}, {}, {}, {} in (w, x, y, z)).\n",
                         in_order(out, order), md_code(x.out[0]), md_code(x.out[1]), md_code(x.out[2]),
                         md_code(x.out[3]));
    }
    s += fmt::format("  - Source: {}\n", md_code(x.source));
    if (!x.reproduce.empty())
        s += fmt::format("  - With quatcheck{}:\n\n{}\n",
                         x.case_csv.empty() ? ""
                                            : fmt::format(" (`{}` is the case as a "
                                                          "one-row worst_cases.csv)",
                                                          x.case_csv),
                         indent(md_fence(x.reproduce, "sh"), "    "));
    return s;
}

std::string where(const Cause &c, const Language lang) {
    if (c.quote.lines.empty())
        return fmt::format("Not quoted: {}.\n", c.quote.missing.empty() ? "no source location" : c.quote.missing);
    std::string body;
    const int last = c.quote.first + int(c.quote.lines.size()) - 1;
    const int width = int(std::to_string(last).size());
    for (size_t i = 0; i < c.quote.lines.size(); i++) {
        const int n = c.quote.first + int(i);
        const bool marked =
            std::any_of(c.quote.marks.begin(), c.quote.marks.end(), [&](const Mark &m) { return m.line == n; });
        body += fmt::format("{}{:>{}} {}\n", marked ? ">>" : "  ", n, width, c.quote.lines[i]);
    }
    const char *fence = lang == Language::js       ? "js"
                        : lang == Language::python ? "python"
                        : lang == Language::rust   ? "rust"
                        : lang == Language::java   ? "java"
                                                   : "cpp";
    std::string s = fmt::format("From {}, lines {} to {}{} (`>>` marks the lines the evidence points to):\n\n{}\n",
                                md_code(c.quote.path), c.quote.first, last, c.quote.truncated ? " (cut)" : "",
                                md_fence(body, fence));
    if (c.quote.marks.empty())
        s += "quatcheck cannot point to a line of this routine: the evidence matches none of its rules (a constant "
             "at the branch map's switch, a division or acos for a non-finite output, acos or sqrt(1 - c*c) for lost "
             "precision near a.b = 1, a missing sign test for the short arc).\n";
    for (const auto &m : c.quote.marks) s += fmt::format("- line {}: {}\n", m.line, m.why);
    return s;
}

std::string fix_section(const LibraryFindings &l, const Cause &c, int k) {
    if (!c.fix.offered)
        return fmt::format("No fix is offered: {}. `QC_REPRO_APPLY_FIX=1 ./repro.sh` skips these cases.\n",
                           c.fix.why_not);
    const Language lang = l.card ? l.card->language : Language::cpp;
    const char *port = lang == Language::js       ? "fix/qc_slerp.mjs"
                       : lang == Language::python ? "fix/qc_slerp.py"
                       : lang == Language::rust   ? "fix/qc_slerp.rs"
                       : lang == Language::java   ? "fix/QcSlerp.java"
                                                  : "fix/qc_slerp.h";
    std::string s = fmt::format(
        "Replace the routine's body by quatcheck's qc-slerp ({} in this folder, {}; for an nlerp, the short-arc "
        "normalised lerp beside it): no threshold, so no branch to get wrong; the inputs normalised inside; a "
        "series in 1 - cos A for small arcs instead of a fallback; finite output for every finite input. It is "
        "vetted like any implementation (`quatcheck run` and `conform` on the fix-* families).\n\n",
        md_code(port), language_name(lang));
    s += fmt::format("With the fix, on this cause's cases ({}, run inside quatcheck by {}): {}.\n", c.fix.cases,
                     md_text(c.fix.routine), fix_result(c));
    s += fmt::format("`QC_REPRO_APPLY_FIX=1 ./repro.sh` runs the port itself on them{}.\n",
                     l.card ? fmt::format(", and `QC_REPRO_APPLY_FIX=1 ./repro.sh --tests` runs the test below with "
                                          "its routine replaced by the fix (`fix/cause-{}.routine.*`)",
                                          k)
                            : "");
    return s;
}

std::string test_section(const LibraryFindings &l, const std::map<std::string, std::string> &files, int k) {
    for (const auto &[name, content] : files)
        if (name.rfind("tests/", 0) == 0 || name.rfind("rust/tests/", 0) == 0) {
            const std::string stem = fs::path(name).stem().string();
            if (stem.find(fmt::format("cause-{}.", k)) == 0 || stem == fmt::format("test_cause_{}", k) ||
                stem == fmt::format("cause_{}", k) || stem == fmt::format("cause-{}.test", k) ||
                stem == fmt::format("Cause{}Test", k))
                return fmt::format(
                    "{} ({}): the failing cases and their tolerance; it fails before the fix and passes "
                    "with it (`./repro.sh --tests`, `QC_REPRO_APPLY_FIX=1 ./repro.sh --tests`).\n",
                    md_code(name), language_name(l.card->language));
        }
    return "None: this cause has no two-key case to test.\n";
}

std::string environment(const LibraryFindings &l, const ReportTables &t, const Options &o) {
    struct utsname u {};
    ::uname(&u);
    const auto b = build_info();
    std::string s = "## Environment\n\n";
    s += fmt::format("- Library: {} {}, loaded as {}\n", md_text(l.name),
                     md_text(l.version.empty() ? "(version not recorded)" : l.version),
                     md_code(l.origin.empty() ? "not recorded" : l.origin));
    s += fmt::format("- Families measured: {}\n", md_text(fmt::format("{}", fmt::join(l.families, ", "))));
    s += fmt::format("- quatcheck {} (commit {}), built by {} with {}\n", b.value("quatcheck_version", "?"),
                     b.value("commit", "not recorded"), b.value("compiler", "?"), md_code(b.value("cxx_flags", "?")));
    s += fmt::format("- Machine: {} {} {}\n", u.sysname, u.release, u.machine);
    s += fmt::format("- Report: {}", md_code(t.dir));
    if (t.seed && t.cases_per_region) {
        // The library's own count: the run's, or the one its rows ended on without a failure when the run capped
        // it (run --cases-for).
        uint64_t cases = *t.cases_per_region;
        std::set<uint64_t> own;
        if (t.summary)
            for (const auto &r : *t.summary)
                if (r.status == "ok" && std::find(l.families.begin(), l.families.end(),
                                                  r.impl.substr(0, r.impl.rfind('.'))) != l.families.end())
                    own.insert(r.cases);
        const bool capped = own.size() == 1 && *own.begin() < cases;
        if (capped) cases = *own.begin();
        s += fmt::format(" (run seed {}, {} cases per region{})", *t.seed, cases,
                         capped ? fmt::format(" of the run's {}: capped by --cases-for", *t.cases_per_region) : "");
    }
    s += "\n";
    if (!o.command.empty()) s += fmt::format("- Written by: {}\n", md_code(o.command));
    s += "- The reproducer prints its runtime's version (node, Python, cargo, java or the C++ compiler) as its first "
         "line.\n";
    return s;
}

}  // namespace

std::string readme(const LibraryFindings &l, const std::map<std::string, std::string> &files, const ReportTables &t,
                   const Options &o) {
    size_t n = 0;
    for (const auto &c : l.causes) n += c.findings.size();
    std::string s = fmt::format("# {} {}: {} cause{} ({} finding{})\n\n", md_text(l.name), md_text(l.version),
                                l.causes.size(), l.causes.size() == 1 ? "" : "s", n, n == 1 ? "" : "s");
    s += fmt::format(
        "For the maintainers of {}. quatcheck compared {} with an arbitrary-precision reference (the exact "
        "slerp) and checked the promises callers rely on (docs/conformance.md). What it found is grouped by cause: "
        "the findings one defect explains. Each cause below gives the evidence, where the cause lies in the "
        "library's source, a suggested fix measured on the same cases, and a test to paste into the library's own "
        "suite.\n\n",
        md_text(l.name), md_text(fmt::format("{}", fmt::join(l.families, ", "))));
    s += fmt::format("## Summary\n\n{}\n", summary(l));
    for (size_t k = 0; k < l.causes.size(); k++) {
        const Cause &c = l.causes[k];
        s += fmt::format("## Cause {}: {}\n\n{}\n\n", k + 1, md_text(c.title), c.sentence);
        s += fmt::format("- Severity: {}\n- Routine: {}\n- Grouped by {}.\n\n", severity_name(c.severity),
                         routine_line(l, c), md_text(c.formed));
        s += "### Evidence\n\n";
        for (const auto &x : c.findings) s += evidence(l, x, o);
        s += fmt::format("\n### Where the cause lies\n\n{}\n", where(c, l.card ? l.card->language : Language::cpp));
        s += fmt::format("### Suggested fix\n\n{}\n", fix_section(l, c, int(k + 1)));
        if (l.card) s += fmt::format("### Test to paste\n\n{}\n", test_section(l, files, int(k + 1)));
    }
    if (!l.documented.empty()) {
        s += "## Documented behaviour and the branch map\n\nNot findings: deviations the library documents, and "
             "where the routine's output jumps (sweep/branch_map.csv).\n\n";
        for (const auto &d : l.documented) s += "- " + d + "\n";
        s += "\n";
    }
    if (!l.history.empty()) {
        s += "## Since which release\n\nFrom `quatcheck history` (docs/history.md): each change of a figure past "
             "compare's rules, or of a property's verdict, between two consecutive releases.\n\n";
        for (const auto &h : l.history) s += "- " + h + "\n";
        s += "\n";
    }
    s += "## Reproduce\n\n";
    if (l.card)
        s += fmt::format(
            "`./repro.sh` runs the reproducer ({}) from this folder, outside quatcheck: it calls the library as its "
            "users do ({}), with each case's exact inputs, the reference's output and the tolerance written beside "
            "them, and prints expected and actual in the library's component order ({}). Exit status 1: the library "
            "breaks a promise on at least one case; 0: it keeps them all; 77: SKIP, a toolchain or the library is "
            "missing (one line says which); 2: it could not be built or run. `QC_REPRO_SUBSTITUTE=expected` puts the "
            "reference's own output in place of the library's (the checks then pass: a reproducer that always "
            "fails would be caught); `QC_REPRO_APPLY_FIX=1` runs the suggested fix instead (exit 0: it keeps every "
            "promise); `--tests` runs the tests to paste.\n",
            md_code(files.count("repro.mjs")    ? "repro.mjs"
                    : files.count("repro.py")   ? "repro.py"
                    : files.count("repro.cpp")  ? "repro.cpp"
                    : files.count("Repro.java") ? "Repro.java"
                                                : "rust/src/main.rs"),
            md_text(l.card->package.empty() ? l.card->name : l.card->package), md_code(l.card->order));
    else if (l.spec)
        s += "`./repro.sh` builds and runs the reproducer, which calls the routine through the file quatcheck "
             "compiles (`lib/`); exit status 1: a promise is broken, 0: kept, 77: SKIP, 2: could not run. "
             "`QC_REPRO_SUBSTITUTE=expected` is its negative control, and `QC_REPRO_APPLY_FIX=1` runs the suggested "
             "fix on the same cases (exit 0: it keeps every promise). (No library card: the reproducer is not in "
             "the library's own API.)\n";
    else s += "None: `./repro.sh` says SKIP (exit 77). Use the quatcheck commands above.\n";
    if (l.card && l.card->language == Language::js && !l.card->package.empty())
        s += "\nThe npm package is resolved from `./node_modules`: set `QC_NODE_MODULES` to a `node_modules` folder "
             "that holds it (repro.sh links it here).\n";
    s += fmt::format("\n{}", environment(l, t, o));
    return s;
}

}  // namespace qc::findings
