#include "findings/source.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <glob.h>
#include <optional>
#include <regex>

namespace qc::findings {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxSourceBytes = 64u << 20;  // a library file larger than this is not read
constexpr size_t kMaxQuoteLines = 150;

bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '$'; }

// The code of each line with comments and string contents blanked (a string keeps its quotes), so that the
// scans below see only code. Block comments may span lines; Python comments start with '#'.
std::vector<std::string> code_only(const std::vector<std::string> &lines, Language lang) {
    std::vector<std::string> out;
    bool block = false;
    for (const auto &l : lines) {
        std::string s = l;
        char quote = 0;
        for (size_t i = 0; i < s.size(); i++) {
            if (block) {
                if (s.compare(i, 2, "*/") == 0) block = false, s[i] = s[i + 1] = ' ', i++;
                else s[i] = ' ';
            } else if (quote) {
                if (s[i] == '\\' && i + 1 < s.size()) s[i] = s[i + 1] = ' ', i++;
                else if (s[i] == quote) quote = 0;
                else s[i] = ' ';
            } else if (lang == Language::python ? s[i] == '#' : s.compare(i, 2, "//") == 0) {
                s.erase(i);
            } else if (lang != Language::python && s.compare(i, 2, "/*") == 0) {
                block = true, s[i] = s[i + 1] = ' ', i++;
            } else if (s[i] == '"' || s[i] == '`' ||
                       (s[i] == '\'' && lang != Language::rust && lang != Language::cpp)) {
                quote = s[i];
            }
        }
        out.push_back(s);
    }
    return out;
}

std::vector<fs::path> glob_paths(const std::string &pattern) {
    std::vector<fs::path> out;
    glob_t g{};
    if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++) out.emplace_back(g.gl_pathv[i]);
    ::globfree(&g);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<fs::path> candidates(const Library &lib, const SourceRef &ref, const std::vector<fs::path> &roots) {
    if (fs::path(ref.file).is_absolute()) return glob_paths(ref.file);
    std::vector<fs::path> out;
    for (const auto &r : roots)
        for (auto &p : glob_paths((r / lib.package / ref.file).string())) out.push_back(p);
    return out;
}

// Lines of a file, or none when it is not a regular file of bounded size.
std::optional<std::vector<std::string>> read_lines(const fs::path &p) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) > kMaxSourceBytes || ec) return std::nullopt;
    std::ifstream in(p, std::ios::binary);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) {
        if (!l.empty() && l.back() == '\r') l.pop_back();
        lines.push_back(l);
    }
    return lines;
}

// The last line of the routine starting at line START (0-based): the brace that closes the first one opened,
// or for Python the last line indented deeper than the def.
size_t routine_end(const std::vector<std::string> &code, size_t start, Language lang) {
    if (lang == Language::python) {
        auto indent = [](const std::string &s) { return s.find_first_not_of(" \t"); };
        const size_t base = indent(code[start]);
        size_t last = start;
        for (size_t i = start + 1; i < code.size(); i++) {
            if (code[i].find_first_not_of(" \t") == std::string::npos) continue;
            if (indent(code[i]) <= base) break;
            last = i;
        }
        return last;
    }
    int depth = 0;
    bool opened = false;
    for (size_t i = start; i < code.size(); i++) {
        for (char c : code[i]) {
            if (c == '{') depth++, opened = true;
            if (c == '}') depth--;
            if (opened && depth == 0) return i;
        }
    }
    return code.size() - 1;
}

}  // namespace

std::vector<double> literals_of(const std::string &line) {
    std::vector<double> out;
    for (size_t i = 0; i < line.size(); i++) {
        const bool digit = std::isdigit((unsigned char)line[i]);
        const bool dot_digit = line[i] == '.' && i + 1 < line.size() && std::isdigit((unsigned char)line[i + 1]);
        if (!digit && !dot_digit) continue;
        if (i > 0 && (ident_char(line[i - 1]) || line[i - 1] == '.')) {
            while (i < line.size() && (ident_char(line[i]) || line[i] == '.')) i++;  // part of a name or number
            continue;
        }
        if (line.compare(i, 2, "0x") == 0 || line.compare(i, 2, "0X") == 0) {  // hex: not a threshold we match
            while (i < line.size() &&
                   (ident_char(line[i]) || line[i] == '.' ||
                    ((line[i] == '-' || line[i] == '+') && (line[i - 1] == 'p' || line[i - 1] == 'P'))))
                i++;
            continue;
        }
        char *end = nullptr;
        const double v = std::strtod(line.c_str() + i, &end);
        size_t j = end - line.c_str();
        out.push_back(v);
        while (j < line.size() && (line[j] == 'f' || line[j] == 'F' || line[j] == 'l' || line[j] == 'L')) j++;
        i = j - 1;
    }
    return out;
}

Quote quote_routine(const Library &lib, const SourceRef &ref, const std::vector<fs::path> &roots) {
    Quote q;
    if (ref.file.empty()) {
        q.missing = "the library's card names no source for this routine";
        return q;
    }
    const auto paths = candidates(lib, ref, roots);
    if (paths.empty()) {
        q.missing =
            fmt::format("{} is not on this machine{}", ref.file,
                        fs::path(ref.file).is_absolute() ? "" : fmt::format(" (in the {} package)", lib.package));
        return q;
    }
    const fs::path path = paths.back();  // the newest version folder, when several match
    const auto lines = read_lines(path);
    if (!lines) {
        q.missing = fmt::format("{} could not be read (not a regular file, or larger than {} MiB)", path.string(),
                                kMaxSourceBytes >> 20);
        return q;
    }
    const auto code = code_only(*lines, lib.language);
    size_t start = lines->size();
    for (size_t i = 0; i < lines->size(); i++)
        if ((*lines)[i].find(ref.find) != std::string::npos) {
            start = i;
            break;
        }
    if (start == lines->size()) {
        q.path = path.string();
        q.missing =
            fmt::format("{} holds no line with `{}` (the library's version may differ)", path.string(), ref.find);
        return q;
    }
    size_t end = routine_end(code, start, lib.language);
    if (end - start + 1 > kMaxQuoteLines) end = start + kMaxQuoteLines - 1, q.truncated = true;
    q.path = path.string();
    q.first = int(start) + 1;
    q.lines.assign(lines->begin() + start, lines->begin() + end + 1);
    return q;
}

namespace {

void add_mark(Quote &q, int line, const std::string &why) {
    for (const auto &m : q.marks)
        if (m.line == line) return;
    q.marks.push_back({line, why});
    std::sort(q.marks.begin(), q.marks.end(), [](const Mark &a, const Mark &b) { return a.line < b.line; });
}

std::vector<std::string> quote_code(const Quote &q) {
    // The language does not change what counts as a comment in the forms we scan for (// and /* */ and '#'
    // differ, but the marks look only for literals, divisions and calls): JavaScript rules serve C++ and
    // Rust; Python lines starting with '#' are comments either way.
    return code_only(q.lines, Language::js);
}

// A comparison: < or > (or <=, >=) with a blank or '=' after it, so that templates and generics (Quat<T>,
// ApproxEq<T>) and shifts, arrows (<<, ->, =>) are not taken for one.
bool has_comparison(const std::string &s) {
    for (size_t i = 0; i < s.size(); i++) {
        if (s[i] != '<' && s[i] != '>') continue;
        if ((i + 1 < s.size() && s[i + 1] == s[i]) ||
            (i > 0 && (s[i - 1] == s[i] || s[i - 1] == '-' || s[i - 1] == '=')))
            continue;
        if (i + 1 < s.size() && (s[i + 1] == ' ' || s[i + 1] == '=')) return true;
    }
    return false;
}

}  // namespace

void mark_edge(Quote &q, double dot_below, double dot_above) {
    const double lo = std::min(std::fabs(dot_below), std::fabs(dot_above)),
                 hi = std::max(std::fabs(dot_below), std::fabs(dot_above));
    const double slack = 1e-3 * (1 - lo) + 1e-15;
    struct Form {
        const char *test;
        double (*dot)(double);
    };
    static const Form forms[] = {
        {"a.b > C", [](double c) { return c; }},
        {"1 - a.b < C", [](double c) { return 1 - c; }},
        {"sin < C (sin = sqrt(1 - a.b^2))", [](double c) { return c < 1 ? std::sqrt(1 - c * c) : NAN; }},
        {"angle < C (a.b = cos C)", [](double c) { return c < 1.6 ? std::cos(c) : NAN; }},
        {"1 - a.b^2 < C", [](double c) { return c < 1 ? std::sqrt(1 - c) : NAN; }},
    };
    const auto code = quote_code(q);
    std::vector<std::string> names;
    for (size_t i = 0; i < code.size(); i++)
        for (double c : literals_of(code[i])) {
            if (!(c > 0) || c == 1) continue;
            for (const auto &f : forms) {
                const double d = f.dot(c);
                if (!(d >= lo - slack && d <= hi + slack)) continue;
                add_mark(q, q.first + int(i),
                         fmt::format("the constant {} switches where the branch map found the jump (a.b between "
                                     "{:.17g} and {:.17g}) when the test is {}",
                                     c, dot_below, dot_above, f.test));
                static const std::regex def(R"(([A-Za-z_$][A-Za-z0-9_$]*)\s*(?::\s*[A-Za-z0-9_<>]+\s*)?=[^=])");
                std::smatch m;
                if (std::regex_search(code[i], m, def)) names.push_back(m[1]);
                break;
            }
        }
    for (const auto &name : names) {
        const std::regex use("(^|[^A-Za-z0-9_$])" + name + "([^A-Za-z0-9_$]|$)");
        for (size_t i = 0; i < code.size(); i++)
            if (std::regex_search(code[i], use) && has_comparison(code[i]))
                add_mark(q, q.first + int(i),
                         fmt::format("the test against {}: where the routine switches branch", name));
    }
    if (!q.marks.empty()) return;
    // No literal of the routine matches: a test of a tolerance named outside it (glMatrix.EPSILON, approx_eq).
    static const std::regex named(R"(eps|epsilon|threshold|tolerance)", std::regex::icase),
        approx(R"(\bapprox\w*\s*\()", std::regex::icase);
    for (size_t i = 0; i < code.size(); i++)
        if ((std::regex_search(code[i], named) && has_comparison(code[i])) || std::regex_search(code[i], approx))
            add_mark(q, q.first + int(i),
                     fmt::format("a test of a tolerance defined outside this routine: the branch map found the switch "
                                 "between a.b = {:.17g} and {:.17g}",
                                 dot_below, dot_above));
}

void mark_nonfinite(Quote &q) {
    const auto code = quote_code(q);
    static const std::regex divisor(R"(/\s*\(?\s*([A-Za-z_$][A-Za-z0-9_$.:]*))");
    static const std::regex suspicious("sin|len|norm|mag|sqrt|hypot", std::regex::icase);
    static const std::regex domain(R"(\b(acos|asin)\b)");
    for (size_t i = 0; i < code.size(); i++) {
        const std::string &s = code[i];
        for (auto it = std::sregex_iterator(s.begin(), s.end(), divisor); it != std::sregex_iterator(); ++it)
            if (std::regex_search((*it)[1].str(), suspicious)) {
                add_mark(q, q.first + int(i),
                         fmt::format("a division by {}: 0 (or NaN) for these keys, and the output is not finite",
                                     (*it)[1].str()));
                break;
            }
        if (std::regex_search(s, domain))
            add_mark(q, q.first + int(i), "acos / asin: NaN when rounding takes its argument past 1");
    }
}

void mark_precision(Quote &q) {
    const auto code = quote_code(q);
    static const std::regex acos(R"(\bacos\b)"), sin_from_cos(R"(sqrt\s*\(\s*(1(\.0*)?|one)\s*-)");
    for (size_t i = 0; i < code.size(); i++) {
        if (std::regex_search(code[i], acos))
            add_mark(q, q.first + int(i),
                     "acos of a.b near 1: one rounding of a.b (eps/2) becomes an angle error of about "
                     "sqrt(eps), 1e-8 rad in double");
        if (std::regex_search(code[i], sin_from_cos))
            add_mark(q, q.first + int(i),
                     "sqrt(1 - c*c) near c = 1: the subtraction cancels, and the sine keeps "
                     "only about half the digits");
    }
}

void mark_missing_flip(Quote &q) {
    const auto code = quote_code(q);
    static const std::regex sign_test(R"((<|>)=?\s*(T::zero\(\)|0(\.0*)?\b|zero\b))"),
        dot_def(R"((dot|cos)\w*\s*=[^=])", std::regex::icase);
    for (const auto &s : code)
        if (std::regex_search(s, sign_test)) return;  // it tests a sign: the cause is elsewhere
    for (size_t i = 0; i < code.size(); i++)
        if (std::regex_search(code[i], dot_def)) {
            add_mark(q, q.first + int(i),
                     "a.b is computed here and its sign is never tested: when a.b < 0 the routine goes the long way "
                     "round (no sign flip of one key)");
            return;
        }
}

}  // namespace qc::findings
