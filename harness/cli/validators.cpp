// The shared CLI11 validators (cli/validators.h).
#include "cli/validators.h"
#include "base/shard.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace qc::cli {

namespace {

// A whole number's text: an optional '-' and 1 to 19 decimal digits that fit a long long.
std::optional<long long> strict_whole(const std::string &v) {
    const size_t digits = v.size() - (!v.empty() && v[0] == '-');
    if (digits == 0 || digits > 19 || v.find_first_not_of("0123456789", v.size() - digits) != std::string::npos)
        return std::nullopt;
    long long n = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || p != v.data() + v.size()) return std::nullopt;
    return n;
}

CLI::Validator refuse_unless(std::function<bool(const std::string &)> ok, const std::string &expected) {
    return CLI::Validator(
        [ok = std::move(ok), expected](std::string &v) -> std::string {
            if (ok(v)) return {};
            return fmt::format("expected {}, got '{}'", expected, shown(v));
        },
        "");
}

}  // namespace

std::string shown(std::string_view v, size_t limit) {
    std::string s(v.substr(0, limit));
    for (char &c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return v.size() > limit ? s + "..." : s;
}

std::optional<double> strict_number(std::string_view s) {
    std::string_view body = s.substr(!s.empty() && (s[0] == '-' || s[0] == '+'));
    const bool hex = body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
    if (hex) body.remove_prefix(2);
    else body = s;
    // from_chars takes no '+' and, after the 0x we removed, no sign at all.
    if (body.empty() || body[0] == '+' || (hex && body[0] == '-')) return std::nullopt;
    double v = 0;
    auto [p, ec] = std::from_chars(body.data(), body.data() + body.size(), v,
                                   hex ? std::chars_format::hex : std::chars_format::general);
    if (ec != std::errc() || p != body.data() + body.size() || !std::isfinite(v)) return std::nullopt;
    return hex && s[0] == '-' ? -v : v;
}

CLI::Validator whole_in(long long lo, long long hi, const std::string &expected) {
    return whole_where([lo, hi](long long n) { return n >= lo && n <= hi; }, expected);
}

CLI::Validator whole_where(std::function<bool(long long)> ok, const std::string &expected) {
    return refuse_unless(
        [ok = std::move(ok)](const std::string &v) {
            auto n = strict_whole(v);
            return n && ok(*n);
        },
        expected);
}

CLI::Validator seed_number() {
    return CLI::Validator(
        [](std::string &v) -> std::string {
            if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos)
                return fmt::format("expected a whole number from 0 to 18446744073709551615, got '{}'", shown(v));
            errno = 0;
            (void)std::strtoull(v.c_str(), nullptr, 10);
            if (errno == ERANGE) return fmt::format("{} is beyond 2^64-1 = 18446744073709551615", v);
            return {};
        },
        "");
}

CLI::Validator number_where(std::function<bool(double)> ok, const std::string &expected) {
    return refuse_unless(
        [ok = std::move(ok)](const std::string &v) {
            auto x = strict_number(v);
            return x && ok(*x);
        },
        expected);
}

CLI::Validator at_least(double lo) {
    return number_where([lo](double x) { return x >= lo; }, fmt::format("a finite number >= {}", lo));
}

CLI::Validator shard_spec() {
    return CLI::Validator(
        [](std::string &v) -> std::string {
            try {
                (void)parse_shard(v);
                return {};
            } catch (const UsageError &e) {
                // parse_shard names the flag itself; CLI11 puts the option's name before the message.
                std::string_view why = e.what();
                if (why.rfind("--shard: ", 0) == 0) why.remove_prefix(9);
                return std::string(why);
            }
        },
        "");
}

CLI::Validator window_spec() {
    return refuse_unless(
        [](const std::string &v) {
            const size_t colon = v.find(':');
            if (colon == std::string::npos) return false;
            auto lo = strict_number(std::string_view(v).substr(0, colon));
            auto hi = strict_number(std::string_view(v).substr(colon + 1));
            return lo && hi && *lo <= *hi;
        },
        "LO:HI, two finite numbers with LO <= HI");
}

CLI::Validator number_list() {
    return CLI::Validator(
        [](std::string &v) -> std::string {
            std::string tok;
            for (size_t i = 0; i <= v.size(); i++) {
                if (i < v.size() && v[i] != ' ' && v[i] != ',' && v[i] != '\t') {
                    tok += v[i];
                    continue;
                }
                if (!tok.empty() && !strict_number(tok))
                    return fmt::format("'{}' is not a finite number (expected hexfloats such as 0x1.8p-3)", shown(tok));
                tok.clear();
            }
            return {};
        },
        "");
}

}  // namespace qc::cli
