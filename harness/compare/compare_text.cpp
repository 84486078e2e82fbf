// The comparison as text: the console table and failed cases (comparison_text), the PR comment
// (comparison_markdown) and the JUnit XML of CI (comparison_junit). Split from compare.cpp, which decides the
// findings; these only print them.
#include "compare/compare.h"
#include "tables/quote.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace qc {

namespace {
std::string verdict_line(const Comparison &c) {
    return fmt::format(
        "{}: {} regression(s), {} improvement(s), {} slower / {} faster timing row(s), {} row(s) only "
        "in the baseline{}, {} only in the current run; {} row(s) matched{}",
        c.failed ? "FAIL" : "OK", c.count(Change::regression), c.count(Change::improvement),
        c.count(Change::timing_slower), c.count(Change::timing_faster), c.count(Change::only_baseline),
        c.missing ? fmt::format(" ({} row(s) or table(s) missing: a failure)", c.missing) : std::string(),
        c.count(Change::only_current), c.matched_rows,
        c.known.empty()
            ? std::string()
            : fmt::format("; {} known failure(s) still present (in the baseline too: listed above, not failed)",
                          c.known.size()));
}
}  // namespace

std::string comparison_text(const Comparison &c, const StopToken &stop) {
    std::string s = fmt::format("quatcheck compare {} (baseline) {} (current)\n", c.baseline_dir, c.current_dir);
    if (!c.findings.empty()) {
        std::vector<std::array<std::string, 8>> rows = {
            {"change", "suite", "impl", "op", "region/property", "metric", "baseline", "current"}};
        for (const auto &f : c.findings) {
            stop.throw_if_requested();
            rows.push_back({to_string(f.change), f.suite, f.impl, f.op, f.key, f.metric, f.baseline, f.current});
        }
        std::array<size_t, 8> w{};
        for (const auto &r : rows)
            for (size_t i = 0; i < 8; i++) w[i] = std::max(w[i], r[i].size());
        for (size_t k = 0; k < rows.size(); k++) {
            for (size_t i = 0; i < 8; i++) s += fmt::format("{:<{}}  ", rows[k][i], w[i]);
            if (k > 0 && !c.findings[k - 1].note.empty()) s += c.findings[k - 1].note;
            while (!s.empty() && s.back() == ' ') s.pop_back();
            s += "\n";
        }
    }
    for (const auto &n : c.notes) s += "note: " + n + "\n";
    // Every failed case in full: the row and its region or property, the figures, the worst case and the
    // commands that reproduce it.
    for (const auto &tc : c.cases) {
        stop.throw_if_requested();
        if (!tc.failed) continue;
        s += fmt::format("FAIL {} {}: {}\n", tc.suite, tc.name, tc.message);
        for (size_t a = 0; a < tc.detail.size();) {
            size_t e = tc.detail.find('\n', a);
            if (e == std::string::npos) e = tc.detail.size();
            s += "    " + tc.detail.substr(a, e - a) + "\n";
            a = e + 1;
        }
    }
    // Known failures in sight, also when the comparison passes: a green gate does not hide them.
    for (const auto &k : c.known) {
        stop.throw_if_requested();
        s += "KNOWN " + k + "\n";
    }
    s += verdict_line(c) + "\n";
    return s;
}

std::string comparison_markdown(const Comparison &c, const StopToken &stop) {
    std::string s = fmt::format("### quatcheck accuracy comparison: {}\n\n", c.failed ? "regression" : "no regression");
    // Names, folders and words come from the report folders' CSVs: quoted, so that a tampered file cannot add
    // markup or HTML to a PR comment.
    s += fmt::format("Baseline {}, current {}. {}\n\n", md_code(c.baseline_dir), md_code(c.current_dir),
                     md_text(verdict_line(c)));
    if (c.findings.empty()) s += "No figure changed beyond the tolerances.\n";
    else {
        s += "| change | suite | impl | op | region/property | metric | baseline | current | note |\n";
        s += "|---|---|---|---|---|---|---|---|---|\n";
        for (const auto &f : c.findings) {
            stop.throw_if_requested();
            s += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                             f.change == Change::regression ? "**REGRESSION**" : to_string(f.change), f.suite,
                             md_code(f.impl), md_text(f.op), md_text(f.key), f.metric, md_text(f.baseline),
                             md_text(f.current), md_text(f.note));
        }
    }
    if (!c.known.empty()) {
        s += "\nKnown failures still present (the baseline has them too; they do not fail the comparison):\n\n";
        for (const auto &k : c.known) s += "- " + md_text(k) + "\n";
    }
    for (const auto &n : c.notes) s += "\n> note: " + md_text(n) + "\n";
    return s;
}

std::string xml_escape(const std::string &s) {
    std::string o;
    for (unsigned char ch : s) {
        switch (ch) {
            case '&':
                o += "&amp;";
                break;
            case '<':
                o += "&lt;";
                break;
            case '>':
                o += "&gt;";
                break;
            case '"':
                o += "&quot;";
                break;
            case '\'':
                o += "&apos;";
                break;
            default:
                // XML 1.0 forbids most control characters; keep tab, newline and carriage return.
                if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') o += '?';
                else o += char(ch);
        }
    }
    return o;
}

std::string comparison_junit(const Comparison &c, const StopToken &stop) {
    std::vector<std::string> suites;
    for (const auto &tc : c.cases)
        if (std::find(suites.begin(), suites.end(), tc.suite) == suites.end()) suites.push_back(tc.suite);
    size_t tests = c.cases.size(), failures = 0, skipped = 0;
    for (const auto &tc : c.cases) failures += tc.failed, skipped += tc.skipped;
    std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    s += fmt::format(
        "<testsuites name=\"quatcheck compare\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n", tests,
        failures, skipped);
    for (const auto &suite : suites) {
        size_t t = 0, f = 0, sk = 0;
        for (const auto &tc : c.cases)
            if (tc.suite == suite) t++, f += tc.failed, sk += tc.skipped;
        s += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
                         xml_escape(suite), t, f, sk);
        for (const auto &tc : c.cases) {
            stop.throw_if_requested();
            if (tc.suite != suite) continue;
            s += fmt::format("    <testcase classname=\"quatcheck.{}\" name=\"{}\"", xml_escape(suite),
                             xml_escape(tc.name));
            if (tc.failed)
                s += fmt::format(">\n      <failure message=\"{}\" type=\"regression\">{}</failure>\n    </testcase>\n",
                                 xml_escape(tc.message), xml_escape(tc.detail));
            else if (tc.skipped)
                s += fmt::format(">\n      <skipped message=\"{}\"/>\n    </testcase>\n", xml_escape(tc.message));
            else if (!tc.detail.empty())
                s += fmt::format(">\n      <system-out>{}</system-out>\n    </testcase>\n", xml_escape(tc.detail));
            else s += "/>\n";
        }
        s += "  </testsuite>\n";
    }
    s += "</testsuites>\n";
    return s;
}

}  // namespace qc
