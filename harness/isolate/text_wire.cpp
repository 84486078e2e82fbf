#include "isolate/text_wire.h"

#include "tables/table.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <vector>

namespace qc {

namespace {

// A line's text as it may appear in a one-line message: printable ASCII, at most 40 characters.
std::string shown(const std::string &s) {
    std::string r;
    for (char c : s.substr(0, 40))
        r += (c >= 0x20 && c < 0x7f) ? std::string(1, c) : fmt::format("\\x{:02x}", (unsigned char)c);
    return s.size() > 40 ? r + "..." : r;
}

// A decimal number without sign or leading zero (except "0"), at most 20 digits, into v.
bool decimal(const std::string &s, uint64_t &v) {
    if (s.empty() || s.size() > 20 || (s.size() > 1 && s[0] == '0')) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::vector<std::string> split_words(const std::string &line) {
    std::vector<std::string> w;
    size_t i = 0;
    while (i <= line.size()) {
        size_t j = line.find(' ', i);
        if (j == std::string::npos) j = line.size();
        w.push_back(line.substr(i, j - i));
        i = j + 1;
    }
    return w;
}

std::string encode_text_request(uint32_t seq, unsigned family, const char *op, size_t width, const double *in, size_t n,
                                size_t record, const size_t *fields, size_t per_case) {
    std::string s;
    s.reserve(n * per_case * 24);
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < per_case; k++) {
            const double x = in[i * record + fields[k]];
            s += hexfloat(width == 4 ? double(float(x)) : x);
            s += k + 1 < per_case ? ' ' : '\n';
        }
    }
    // The header says how many bytes of case lines follow, so that an adapter can read them in one go.
    return fmt::format("batch {} {} {}.{} {} {}\n", seq, family, op, width == 4 ? "f32" : "f64", n, s.size()) + s;
}

std::string TextAnswer::feed(const char *p, size_t k) {
    for (size_t i = 0; i < k; i++) {
        if (complete()) {
            extra_ += k - i;
            return {};
        }
        if (p[i] != '\n') {
            if (partial_.size() >= kTextLineMaxBytes)
                return fmt::format("answer line {} is longer than {} bytes", lines_ + 1, kTextLineMaxBytes);
            partial_ += p[i];
            continue;
        }
        std::string why = line(partial_);
        partial_.clear();
        if (!why.empty()) return why;
        lines_++;
    }
    return {};
}

std::string TextAnswer::line(const std::string &text) {
    for (char c : text)
        if (c < 0x20 || c > 0x7e)
            return fmt::format("answer line {} has a byte that is not printable ASCII", lines_ + 1);
    const auto w = split_words(text);
    if (lines_ == 0) {
        uint64_t seq = 0, n = 0;
        if (w.size() != 4 || w[0] != "answer" || !decimal(w[1], seq) || !decimal(w[2], n) || !decimal(w[3], ns_))
            return fmt::format("the answer does not start with 'answer SEQ N NANOSECONDS' (got '{}')", shown(text));
        if (seq != seq_) return fmt::format("answer to batch {} carries sequence number {}", seq_, seq);
        if (n != n_) return fmt::format("{} outputs announced for a batch of {} cases", n, n_);
        return {};
    }
    const size_t c = lines_ - 1;
    if (w.size() != 4)
        return fmt::format("answer line {} has {} words, not 4 hexfloats (w x y z)", lines_ + 1, w.size());
    static const char *const column[4] = {"w", "x", "y", "z"};
    for (size_t k = 0; k < 4; k++) {
        try {  // strict: the syntax of %a, exact in the request's precision (a nan, inf or -inf is an output too)
            const unsigned at = unsigned(lines_ + 1);
            out_[4 * c + k] = width_ == 4 ? double(parse_hexfloat_f32(w[k], "answer line", at, column[k], true))
                                          : parse_hexfloat(w[k], "answer line", at, column[k], true);
        } catch (const std::exception &e) {
            return e.what();  // "answer line:3: column x: '...' is not a hexfloat (e.g. 0x1.8p-3)"
        }
    }
    return {};
}

}  // namespace qc
