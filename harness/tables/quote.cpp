#include "tables/quote.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace qc {

std::string shell_quote(std::string_view word) {
    bool plain = !word.empty();
    for (char c : word) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
        plain = plain && safe;
    }
    if (plain) return std::string(word);
    std::string s = "'";
    for (char c : word) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return s + "'";
}

std::string shell_join(const std::vector<std::string> &argv) {
    std::string s;
    for (const auto &w : argv) {
        if (!s.empty()) s += ' ';
        s += shell_quote(w);
    }
    return s;
}

namespace {
// The length of TEXT's longest run of backticks: a markdown fence must be longer.
size_t longest_backtick_run(std::string_view text) {
    size_t run = 0, longest = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return longest;
}
}  // namespace

std::string md_code(std::string_view text) {
    std::string body;
    for (char c : text) {
        if (c == '|') body += "\\|";
        else if ((unsigned char)c < 0x20 || c == 0x7f) body += ' ';
        else body += c;
    }
    const std::string fence(longest_backtick_run(text) + 1, '`');
    const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
    return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string md_text(std::string_view text) {
    std::string s;
    for (char c : text) {
        if (std::string_view("\\`*_[]<>|~").find(c) != std::string_view::npos) s += '\\';
        s += (unsigned char)c < 0x20 || c == 0x7f ? ' ' : c;
    }
    return s;
}

std::string c_literal(std::string_view text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\' || c == '?') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char esc[5];
            std::snprintf(esc, sizeof esc, "\\%03o", unsigned(c));
            out += esc;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
}

std::string js_literal(std::string_view text) {
    return nlohmann::json(std::string(text)).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

std::string rs_literal(std::string_view text) {
    // js_literal's ASCII form, with its escapes rewritten as Rust's: \uXXXX (a surrogate pair joined) becomes
    // \u{X}, and \b, \f (not Rust escapes) become \u{8}, \u{c}.
    const std::string j = js_literal(text);
    std::string out;
    for (size_t i = 0; i < j.size(); i++) {
        if (j[i] != '\\' || i + 1 >= j.size()) {
            out += j[i];
            continue;
        }
        const char e = j[i + 1];
        if (e == 'b' || e == 'f') {
            out += e == 'b' ? "\\u{8}" : "\\u{c}";
            i++;
        } else if (e == 'u' && i + 5 < j.size()) {
            unsigned cp = unsigned(std::stoul(j.substr(i + 2, 4), nullptr, 16));
            i += 5;
            if (cp >= 0xD800 && cp < 0xDC00 && i + 6 < j.size() && j[i + 1] == '\\' && j[i + 2] == 'u') {
                const unsigned lo = unsigned(std::stoul(j.substr(i + 3, 4), nullptr, 16));
                if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00), i += 6;
            }
            if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;  // a lone surrogate: not a Rust char
            out += fmt::format("\\u{{{:x}}}", cp);
        } else {
            out += j[i], out += e;
            i++;
        }
    }
    return out;
}

std::string java_literal(std::string_view text) {
    const std::string j = js_literal(text);
    std::string out;
    for (size_t i = 0; i < j.size(); i++) {
        if (j[i] == '\\' && i + 1 < j.size() && j[i + 1] != 'u') {  // a two-character escape: kept whole
            out += j.substr(i, 2);
            i++;
        } else if (j.compare(i, 4, "\\u00") == 0 && i + 5 < j.size() &&
                   std::stoul(j.substr(i + 4, 2), nullptr, 16) < 0x20) {
            out += fmt::format("\\{:03o}", std::stoul(j.substr(i + 4, 2), nullptr, 16));
            i += 5;
        } else {
            out += j[i];
        }
    }
    return out;
}

std::string comment_text(std::string_view text) {
    std::string s;
    for (unsigned char c : text) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          std::string_view(" -_.,:;()+=/@#!'~^&[]{}<>").find(char(c)) != std::string_view::npos;
        if (keep) {
            s += char(c);
        } else {
            char esc[4];
            std::snprintf(esc, sizeof esc, "%%%02X", unsigned(c));
            s += esc;
        }
    }
    return s;
}

std::string md_fence(std::string_view text, std::string_view lang) {
    const std::string fence(std::max<size_t>(3, longest_backtick_run(text) + 1), '`');
    std::string body(text);
    if (body.empty() || body.back() != '\n') body += '\n';
    return fence + std::string(lang) + "\n" + body + fence + "\n";
}

}  // namespace qc
