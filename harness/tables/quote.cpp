#include "tables/quote.h"

#include <algorithm>

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

std::string md_code(std::string_view text) {
    std::string body;
    size_t run = 0, longest = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
        if (c == '|') body += "\\|";
        else if ((unsigned char)c < 0x20 || c == 0x7f) body += ' ';
        else body += c;
    }
    const std::string fence(longest + 1, '`');
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

}  // namespace qc
