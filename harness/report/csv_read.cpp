#include "report/csv_read.h"

#include <fmt/format.h>
// libfccp's header trips GCC's -Wstringop-truncation on a bounded strncpy; the code is fine.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#include <libfccp/csv.h>
#pragma GCC diagnostic pop

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>

namespace qc {

namespace {
[[noreturn]] void fail(const std::string &file, unsigned line, const std::string &why) {
    throw InputError(fmt::format("{}:{}: {}", file, line, why));
}

// A cell's text as it may appear inside a one-line message: control and non-ASCII bytes as \xNN, at most
// 64 characters.
std::string shown(std::string_view s) {
    std::string out;
    for (unsigned char c : s.substr(0, 64)) out += (c < 0x20 || c >= 0x7f) ? fmt::format("\\x{:02x}", c) : std::string(1, char(c));
    if (s.size() > 64) out += "...";
    return out;
}

bool is_hexfloat_syntax(std::string_view s) {
    size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (s.substr(i, 2) != "0x" && s.substr(i, 2) != "0X") return false;
    i += 2;
    size_t digits = 0;
    while (i < s.size() && std::isxdigit((unsigned char)s[i])) ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && std::isxdigit((unsigned char)s[i])) ++i, ++digits;
    }
    if (digits == 0 || i >= s.size() || (s[i] != 'p' && s[i] != 'P')) return false;
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && std::isdigit((unsigned char)s[i])) ++i, ++exp_digits;
    return exp_digits > 0 && exp_digits < 6 && i == s.size();
}
}  // namespace

double parse_hexfloat(std::string_view text, const std::string &file, unsigned line, const char *column,
                      bool allow_nonfinite) {
    std::string s(text);
    if (allow_nonfinite) {
        if (s == "nan" || s == "-nan") return std::nan("");
        if (s == "inf") return INFINITY;
        if (s == "-inf") return -INFINITY;
    }
    if (!is_hexfloat_syntax(s)) fail(file, line, fmt::format("column {}: '{}' is not a hexfloat (e.g. 0x1.8p-3)", column, shown(s)));
    errno = 0;
    char *end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) fail(file, line, fmt::format("column {}: '{}' is not a hexfloat", column, shown(s)));
    if (errno == ERANGE && std::isinf(v)) fail(file, line, fmt::format("column {}: '{}' overflows a double", column, shown(s)));
    // A hexfloat with more digits than a double holds would be rounded silently: refuse it.
    char back[64];
    std::snprintf(back, sizeof back, "%a", v);
    if (std::strtod(back, nullptr) != v) fail(file, line, fmt::format("column {}: '{}' is not exact", column, shown(s)));
    return v;
}

float parse_hexfloat_f32(std::string_view text, const std::string &file, unsigned line, const char *column,
                         bool allow_nonfinite) {
    double v = parse_hexfloat(text, file, line, column, allow_nonfinite);
    if (std::isnan(v)) return std::nanf("");
    float f = float(v);
    if (double(f) != v)
        fail(file, line, fmt::format("column {}: '{}' is not representable as a float (f32 implementation)", column,
                                     shown(text)));
    return f;
}

void check_text_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (data.empty()) throw InputError(fmt::format("{}:1: the file is empty", path));
    unsigned line = 1;
    for (size_t i = 0; i < data.size();) {
        unsigned char c = (unsigned char)data[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > data.size()) fail(path, line, fmt::format("byte 0x{:02x} is not valid UTF-8", c));
        for (size_t k = 1; k < len; k++)
            if (((unsigned char)data[i + k] >> 6) != 2) fail(path, line, "invalid UTF-8 sequence");
        if (c == 0) fail(path, line, "NUL byte in a text file");
        if (c == '\n') ++line;
        i += len;
    }
    if (data.back() != '\n') fail(path, line, "the last line is truncated (no final newline)");
}

std::vector<WorstCaseRow> read_worst_cases(const std::string &path) {
    check_text_file(path);
    std::vector<WorstCaseRow> rows;
    try {
        io::CSVReader<23, io::trim_chars<>, io::no_quote_escape<','>, io::throw_on_overflow> in(path);
        in.read_header(io::ignore_extra_column, "impl", "op", "region", "q0_w", "q0_x", "q0_y", "q0_z", "q1_w", "q1_x",
                       "q1_y", "q1_z", "t", "out_w", "out_x", "out_y", "out_z", "ref_w", "ref_x", "ref_y", "ref_z",
                       "angle_err_rad", "ulp", "ulp1");
        WorstCaseRow r;
        std::string a, u, u1;
        while (in.read_row(r.impl, r.op, r.region, r.q0[0], r.q0[1], r.q0[2], r.q0[3], r.q1[0], r.q1[1], r.q1[2],
                           r.q1[3], r.t, r.out[0], r.out[1], r.out[2], r.out[3], r.ref[0], r.ref[1], r.ref[2],
                           r.ref[3], a, u, u1)) {
            r.line = in.get_file_line();
            auto number = [&](const std::string &s, const char *col) {
                char *end = nullptr;
                double v = std::strtod(s.c_str(), &end);
                if (s.empty() || end != s.c_str() + s.size()) fail(path, r.line, fmt::format("column {}: '{}' is not a number", col, shown(s)));
                return v;
            };
            r.angle_err_rad = number(a, "angle_err_rad");
            r.ulp = number(u, "ulp");
            r.ulp1 = number(u1, "ulp1");
            rows.push_back(r);
        }
    } catch (const io::error::base &e) {
        unsigned line = 1;  // header problems (no line number from fccp) are on line 1
        if (auto *fl = dynamic_cast<const io::error::with_file_line *>(&e)) line = unsigned(std::max(fl->file_line, 1));
        std::string why = e.what();
        // fccp's messages name the file themselves; keep one line.
        for (auto &c : why)
            if (c == '\n') c = ' ';
        throw InputError(fmt::format("{}:{}: {}", path, line, why));
    }
    if (rows.empty()) throw InputError(fmt::format("{}:2: no data rows", path));
    return rows;
}

}  // namespace qc
